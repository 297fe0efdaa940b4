/** A date field of the form kit: the kit's dd/MM/yyyy DateInput bound to a form field (an ISO yyyy-MM-dd value). */
import type * as React from "react";
import { Controller, useFormContext } from "react-hook-form";
import { FieldShell } from "./form.tsx";
import { DateInput } from "../filters/DateInput.tsx";

/** A dd/MM/yyyy date bound to a yyyy-MM-dd form value, with an optional earliest day. */
export function DateField({
  name,
  label,
  required,
  min,
  hint,
  className,
}: {
  name: string;
  label: string;
  required?: boolean;
  min?: string;
  hint?: React.ReactNode;
  className?: string;
}) {
  const { control } = useFormContext();
  return (
    <FieldShell name={name} label={label} required={required} hint={hint} className={className}>
      {({ describedBy, invalid }) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <DateInput
              label={label}
              value={String(field.value ?? "")}
              min={min}
              invalid={invalid}
              describedBy={describedBy}
              className="w-full"
              onChange={(iso) => field.onChange(iso)}
            />
          )}
        />
      )}
    </FieldShell>
  );
}
