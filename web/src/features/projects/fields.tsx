/** Form fields of the project forms that the form kit does not have as such. */
import * as React from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { FieldShell } from "../../components/form/form.tsx";
import { TextField } from "../../components/form/fields.tsx";
import { SelectField } from "../../components/form/select-field.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import type { OptionsSource } from "../../components/data-grid/types.ts";
import { EDITABLE_PROJECT_STATUSES, projectStatusLabel } from "../../../../shared/status.ts";
import { cn } from "../../lib/utils.ts";

/** Yes / No as two segmented buttons bound to a boolean (Secured Url). */
export function YesNoField({
  name,
  label,
  hint,
  className,
}: { name: string; label: string; hint?: React.ReactNode; className?: string }) {
  const { control } = useFormContext();
  return (
    <FieldShell name={name} label={label} hint={hint} className={className}>
      {({ id, describedBy }) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <div
              id={id}
              role="radiogroup"
              aria-describedby={describedBy}
              aria-label={label}
              className="inline-flex h-9 w-fit rounded-md border bg-muted/50 p-0.5"
            >
              {[true, false].map((v) => (
                <button
                  key={String(v)}
                  type="button"
                  role="radio"
                  aria-checked={field.value === v}
                  onClick={() => field.onChange(v)}
                  className={cn(
                    "min-w-16 cursor-pointer rounded-[5px] px-3 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring",
                    field.value === v
                      ? "bg-card text-foreground shadow-xs"
                      : "text-muted-foreground hover:text-foreground",
                  )}
                >
                  {v ? "Yes" : "No"}
                </button>
              ))}
            </div>
          )}
        />
      )}
    </FieldShell>
  );
}

/** One id from a lookup (required or not), with a loading placeholder. */
export function LookupField({
  name,
  label,
  source,
  placeholder,
  required,
  disabled,
  hint,
  className,
}: {
  name: string;
  label: string;
  source: OptionsSource;
  placeholder: string;
  required?: boolean;
  disabled?: boolean;
  hint?: React.ReactNode;
  className?: string;
}) {
  const { options, loading } = useOptions(source);
  return (
    <SelectField
      name={name}
      label={label}
      required={required}
      options={options}
      placeholder={loading ? "Loading…" : placeholder}
      disabled={disabled}
      hint={hint}
      className={className}
    />
  );
}

/** The restricted status list of the edit forms (4 and 5 left out), plus the current status if it is one of those. */
export function StatusField({ current }: { current?: number }) {
  const options = EDITABLE_PROJECT_STATUSES.map((s) => ({ value: String(s.value), label: s.label }));
  if (current !== undefined && !options.some((o) => o.value === String(current))) {
    options.push({ value: String(current), label: projectStatusLabel(current) });
  }
  return <SelectField name="projectStatus" label="Project status" required options={options} />;
}

/** PO number: always editable, required (and marked so) when the status is Closed (6). */
export function PoNumberField() {
  const status = useWatch({ name: "projectStatus" });
  const closed = Number(status) === 6;
  return (
    <TextField
      name="poNumber"
      label="PO number"
      required={closed}
      autoComplete="off"
      hint={closed ? "Required for a closed project." : "Required once the project is closed."}
    />
  );
}

export { DateField } from "../../components/form/date-field.tsx";
