/**
 * The second question of a status move that may tell the suppliers (Proceed to Invoice, Archieve,
 * Revoke Project), after 'Are you sure?': move only, or move and e-mail every supplier mapped to the
 * project. The answer goes with the call as sendEmail; while it runs the dialog stays open.
 */
import { Mail } from "lucide-react";
import { Button } from "../../components/ui/button.tsx";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog.tsx";
import { RowDialog } from "../../components/dialogs/RowDialog.tsx";

export function EmailSuppliersQuestion<T extends { projectCode: string }>({
  project,
  action,
  what,
  busy,
  onClose,
  onAnswer,
}: {
  project: T | null;
  /** The move's name on its buttons ("Proceed to Invoice"). */
  action: string;
  /** What the move does to the project ("moves to Ready To Invoice"). */
  what: string;
  /** The answer under way, if any. */
  busy: "yes" | "no" | null;
  onClose: () => void;
  onAnswer: (sendEmail: boolean) => void;
}) {
  return (
    <RowDialog row={project} onClose={onClose} busy={!!busy} className="max-w-md">
      {(p) => (
        <>
          <DialogHeader>
            <DialogTitle>E-mail the suppliers?</DialogTitle>
            <DialogDescription>
              {`${p.projectCode} ${what}. Tell every supplier mapped to it?`}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" disabled={!!busy} onClick={onClose}>Cancel</Button>
            <Button
              variant="secondary"
              loading={busy === "no"}
              disabled={!!busy}
              onClick={() => onAnswer(false)}
            >
              {action} only
            </Button>
            <Button loading={busy === "yes"} disabled={!!busy} onClick={() => onAnswer(true)}>
              <Mail /> {action} and e-mail
            </Button>
          </DialogFooter>
        </>
      )}
    </RowDialog>
  );
}
