/**
 * A dialog about one row (a project, an e-mail): open while there is a row, its content rendered
 * with that row, never with a missing one. The caller holds the row it opened the dialog for and
 * clears it in `onClose`:
 *
 *     <RowDialog row={project} onClose={() => setProject(null)}>{(p) => <CloneForm project={p} />}</RowDialog>
 *
 * The content mounts when the dialog opens and unmounts when it closes, so a form inside starts
 * afresh for each row and queries inside load with the row's id.
 */
import type * as React from "react";
import { Dialog, DialogContent } from "../ui/dialog.tsx";

export function RowDialog<T>({
  row,
  onClose,
  className,
  busy = false,
  keepOnOutsideClick = false,
  children,
}: {
  row: T | null | undefined;
  onClose: () => void;
  /** The panel's classes (its width, `max-w-2xl` say). */
  className?: string;
  /** While true (a call under way), nothing closes it: not Escape, the close button or a click outside. */
  busy?: boolean;
  /** A click outside does not close (a form, whose typing would be lost). */
  keepOnOutsideClick?: boolean;
  children: (row: T) => React.ReactNode;
}) {
  return (
    <Dialog open={!!row} onOpenChange={(o) => !o && !busy && onClose()}>
      <DialogContent
        className={className}
        onInteractOutside={keepOnOutsideClick ? (e) => e.preventDefault() : undefined}
      >
        {row ? children(row) : null}
      </DialogContent>
    </Dialog>
  );
}
