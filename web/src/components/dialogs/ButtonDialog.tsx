/**
 * A dialog opened by its own outline button (a page's tool: Send Bulk Email, Profile Settings). The
 * body is rendered only while open, so each opening starts from fresh state; `close` ends it after a save.
 */
import * as React from "react";
import { Button } from "../ui/button.tsx";
import { Dialog, DialogContent, DialogTrigger } from "../ui/dialog.tsx";
import { cn } from "../../lib/utils.ts";

export function ButtonDialog(
  { label, icon, disabled, disabledTitle, className, keepOnOutsideClick, children }: {
    label: string;
    icon: React.ReactNode;
    disabled?: boolean;
    /** Why the button is disabled (its title). */
    disabledTitle?: string;
    className?: string;
    /** Keep what was typed when a click lands outside by mistake (forms with long text). */
    keepOnOutsideClick?: boolean;
    children: (close: () => void) => React.ReactNode;
  },
) {
  const [open, setOpen] = React.useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" disabled={disabled} title={disabled ? disabledTitle : undefined}>
          {icon} {label}
        </Button>
      </DialogTrigger>
      <DialogContent
        className={cn("max-w-md", className)}
        onInteractOutside={keepOnOutsideClick ? (e) => e.preventDefault() : undefined}
      >
        {open ? children(() => setOpen(false)) : null}
      </DialogContent>
    </Dialog>
  );
}
