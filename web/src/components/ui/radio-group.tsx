import type * as React from "react";
import { RadioGroup as RadioGroupPrimitive } from "radix-ui";
import { cn } from "../../lib/utils.ts";

/**
 * A group of radios (Radix): arrow keys move and choose, Space chooses, Enter does nothing, so a
 * stray Enter cannot act on a choice that was never made.
 */
export function RadioGroup({ className, ...props }: React.ComponentProps<typeof RadioGroupPrimitive.Root>) {
  return <RadioGroupPrimitive.Root className={cn("grid gap-2", className)} {...props} />;
}

export function RadioGroupItem(
  { className, ...props }: React.ComponentProps<typeof RadioGroupPrimitive.Item>,
) {
  return (
    <RadioGroupPrimitive.Item
      className={cn(
        "grid size-4 shrink-0 cursor-pointer place-content-center rounded-full border border-input bg-card shadow-xs transition-colors focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:border-primary",
        className,
      )}
      {...props}
    >
      <RadioGroupPrimitive.Indicator className="size-2 rounded-full bg-primary" />
    </RadioGroupPrimitive.Item>
  );
}
