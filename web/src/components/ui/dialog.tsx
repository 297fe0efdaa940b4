import * as React from "react";
import { AlertDialog as A, Dialog as D } from "radix-ui";
import { X } from "lucide-react";
import { cn } from "../../lib/utils.ts";
import { buttonVariants } from "./button.tsx";

export const Dialog = D.Root;
export const DialogTrigger = D.Trigger;
export const DialogClose = D.Close;

const overlay = "fixed inset-0 z-50 bg-slate-950/40 backdrop-blur-[1px]";
const panel =
  "fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 shadow-xl outline-none";

export function DialogContent({ className, children, ...props }: React.ComponentProps<typeof D.Content>) {
  return (
    <D.Portal>
      <D.Overlay className={overlay} />
      <D.Content className={cn(panel, className)} {...props}>
        {children}
        <D.Close
          className="absolute right-4 top-4 rounded-sm p-1 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          aria-label="Close"
        >
          <X className="size-4" />
        </D.Close>
      </D.Content>
    </D.Portal>
  );
}

export function DialogHeader({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-1.5", className)} {...props} />;
}
export function DialogFooter({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)} {...props} />
  );
}
export function DialogTitle({ className, ...props }: React.ComponentProps<typeof D.Title>) {
  return <D.Title className={cn("text-lg font-semibold", className)} {...props} />;
}
export function DialogDescription({ className, ...props }: React.ComponentProps<typeof D.Description>) {
  return <D.Description className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

/** A yes/no question ('Are you sure?' with No / Yes by default, part 1 section 8). */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  cancelLabel = "No",
  confirmLabel = "Yes",
  destructive = true,
  busy = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: React.ReactNode;
  cancelLabel?: string;
  confirmLabel?: string;
  destructive?: boolean;
  busy?: boolean;
  onConfirm: () => void | Promise<void>;
}) {
  return (
    <A.Root open={open} onOpenChange={onOpenChange}>
      <A.Portal>
        <A.Overlay className={overlay} />
        <A.Content
          className={cn(panel, "max-w-md")}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="flex flex-col gap-1.5">
            <A.Title className="text-lg font-semibold">{title}</A.Title>
            {description
              ? <A.Description className="text-sm text-muted-foreground">{description}</A.Description>
              : null}
          </div>
          <div className="flex justify-end gap-2">
            <A.Cancel className={buttonVariants({ variant: "outline" })} disabled={busy}>
              {cancelLabel}
            </A.Cancel>
            <A.Action
              className={buttonVariants({ variant: destructive ? "destructive" : "default" })}
              disabled={busy}
              onClick={(e) => {
                e.preventDefault();
                void onConfirm();
              }}
            >
              {confirmLabel}
            </A.Action>
          </div>
        </A.Content>
      </A.Portal>
    </A.Root>
  );
}
