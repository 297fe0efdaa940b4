/** Several choices (ids) with 'Select All', bound to the form context; the value is a string list. */
import type * as React from "react";
import { Controller, useFormContext } from "react-hook-form";
import type { Option } from "../ui/select.tsx";
import { MultiSelect } from "../filters/MultiSelect.tsx";
import { FieldShell } from "./form.tsx";

export function MultiSelectField({
  name,
  label,
  hint,
  required,
  className,
  options,
  placeholder,
  loading,
  disabled,
}: {
  name: string;
  label: string;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
  options: Option[];
  placeholder?: string;
  loading?: boolean;
  disabled?: boolean;
}) {
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
            <MultiSelect
              id={id}
              label={label}
              options={options}
              value={Array.isArray(field.value) ? field.value.map(String) : []}
              onChange={(next) => field.onChange(next)}
              loading={loading}
              placeholder={placeholder}
              disabled={disabled}
              invalid={invalid}
              className="w-full max-w-none"
            />
          )}
        />
      )}
    </FieldShell>
  );
}
