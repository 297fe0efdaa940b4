/** A row dialog for read-only views: title, description, the view (scrolling) and a Close button. */
import type * as React from "react";
import { cn } from "../../lib/utils.ts";
import { Button } from "../ui/button.tsx";
import { DialogClose, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/dialog.tsx";
import { RowDialog } from "./RowDialog.tsx";

export function ViewDialog<T>({
  row,
  onClose,
  title,
  description,
  className,
  bodyClassName,
  children,
}: {
  row: T | null | undefined;
  onClose: () => void;
  title: React.ReactNode | ((row: T) => React.ReactNode);
  description?: (row: T) => React.ReactNode;
  className?: string;
  /** The view's own layout inside its scrolling area. */
  bodyClassName?: string;
  children: (row: T) => React.ReactNode;
}) {
  return (
    <RowDialog row={row} onClose={onClose} className={className ?? "max-w-2xl"}>
      {(r) => {
        const described = description?.(r);
        return (
          <>
            <DialogHeader>
              <DialogTitle>{typeof title === "function" ? title(r) : title}</DialogTitle>
              {described
                ? <DialogDescription>{described}</DialogDescription>
                : <DialogDescription className="sr-only">Details of the project</DialogDescription>}
            </DialogHeader>
            <div className={cn("max-h-[65vh] overflow-y-auto", bodyClassName)}>{children(r)}</div>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Close</Button>
              </DialogClose>
            </DialogFooter>
          </>
        );
      }}
    </RowDialog>
  );
}
