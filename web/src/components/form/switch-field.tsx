/** An on/off switch bound to the form context (its own module: Radix stays off the sign-in page). */
import type * as React from "react";
import { Controller, useFormContext } from "react-hook-form";
import { Switch } from "../ui/switch.tsx";
import { cn } from "../../lib/utils.ts";

export function SwitchField({
  name,
  label,
  description,
  className,
}: { name: string; label: React.ReactNode; description?: React.ReactNode; className?: string }) {
  const { control } = useFormContext();
  const id = `field-${name}`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className={cn("flex items-center justify-between gap-4 rounded-lg border p-3", className)}>
          <div className="flex flex-col gap-0.5">
            <label htmlFor={id} className="text-sm font-medium">{label}</label>
            {description ? <p className="text-xs text-muted-foreground">{description}</p> : null}
          </div>
          <Switch id={id} checked={!!field.value} onCheckedChange={field.onChange} onBlur={field.onBlur} />
        </div>
      )}
    />
  );
}
