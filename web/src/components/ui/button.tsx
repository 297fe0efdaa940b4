import * as React from "react";
import { Slot } from "radix-ui";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "../../lib/utils.ts";
import { Spinner } from "./spinner.tsx";

export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors cursor-pointer focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground shadow-sm hover:bg-primary/90",
        destructive: "bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive/90",
        outline: "border border-input bg-card shadow-xs hover:bg-accent hover:text-accent-foreground",
        secondary: "bg-secondary text-secondary-foreground hover:bg-secondary/80",
        ghost: "hover:bg-accent hover:text-accent-foreground",
        link: "text-primary underline-offset-4 hover:underline",
      },
      size: {
        default: "h-9 px-4 py-2",
        sm: "h-8 px-3 text-xs",
        lg: "h-10 px-6",
        icon: "size-9",
        "icon-sm": "size-8",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);

export type ButtonProps =
  & React.ComponentProps<"button">
  & VariantProps<typeof buttonVariants>
  & { asChild?: boolean; loading?: boolean };

export function Button(
  { className, variant, size, asChild = false, loading = false, disabled, children, ...props }: ButtonProps,
) {
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      className={cn(buttonVariants({ variant, size }), className)}
      disabled={asChild ? undefined : disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {asChild ? children : (
        <>
          {loading ? <Spinner className="size-4" /> : null}
          {children}
        </>
      )}
    </Comp>
  );
}

/**
 * A button the user may not use, kept disabled and looking it: faded, with a not-allowed cursor (on
 * a wrapper, since a disabled button takes no pointer events) and the reason both as a tooltip and
 * as the button's accessible description. `describedBy` points at a reason already on the page (a
 * grid renders it once for all its rows); without it the button carries its own hidden reason.
 */
export function DisabledButton(
  { reason, describedBy, className, children, ...props }:
    & Omit<ButtonProps, "disabled" | "asChild" | "loading" | "onClick">
    & { reason: string; describedBy?: string },
) {
  const ownId = React.useId();
  return (
    <span className="inline-flex cursor-not-allowed" title={reason} data-disabled-reason={reason}>
      <Button
        {...props}
        disabled
        aria-describedby={describedBy ?? ownId}
        className={cn("disabled:opacity-40", className)}
      >
        {children}
      </Button>
      {describedBy ? null : <span id={ownId} className="sr-only">{reason}</span>}
    </span>
  );
}
