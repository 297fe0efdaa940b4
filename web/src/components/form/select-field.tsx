/** A select bound to the form context (its own module: selects pull in the overlay vendor chunk). */
import type * as React from "react";
import { Controller, useFormContext } from "react-hook-form";
import { type Option, Select } from "../ui/select.tsx";
import { FieldShell } from "./form.tsx";

type Common = {
  name: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
};

export function SelectField({
  name,
  label,
  hint,
  required,
  className,
  options,
  placeholder,
  disabled,
}: Common & { options: Option[]; placeholder?: string; disabled?: boolean }) {
  const { control } = useFormContext();
  return (
    <FieldShell
      name={name}
      label={label}
      hint={hint}
      required={required}
      disabled={disabled}
      className={className}
    >
      {({ id, invalid }) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <Select
              id={id}
              name={field.name}
              value={field.value == null ? "" : String(field.value)}
              onValueChange={(val) => field.onChange(val)}
              options={options}
              placeholder={placeholder}
              disabled={disabled}
              invalid={invalid}
            />
          )}
        />
      )}
    </FieldShell>
  );
}
