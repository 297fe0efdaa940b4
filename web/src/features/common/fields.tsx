/** Form fields of the master-data screens that pick from a lookup (built on the form kit). */
import { Controller, useFormContext } from "react-hook-form";
import { FieldShell } from "../../components/form/form.tsx";
import { MultiSelectField } from "../../components/form/multi-select-field.tsx";
import { SelectField } from "../../components/form/select-field.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import type { OptionsSource } from "../../components/data-grid/types.ts";
import { Select } from "../../components/ui/select.tsx";
import { COUNTRIES } from "./lookups.ts";

export function CountryField(
  { name = "countryId", label = "Country", required = true }: {
    name?: string;
    label?: string;
    required?: boolean;
  },
) {
  const { options, loading } = useOptions(COUNTRIES);
  return (
    <SelectField
      name={name}
      label={label}
      required={required}
      options={options}
      placeholder={loading ? "Loading countries…" : "Select a country"}
      hint="Type the first letters of a country to jump to it."
    />
  );
}

/** Ids from a lookup, with 'Select All'. */
export function LookupMultiField({
  name,
  label,
  source,
  placeholder,
  hint,
  className,
}: {
  name: string;
  label: string;
  source: OptionsSource;
  placeholder: string;
  hint?: string;
  className?: string;
}) {
  const { options, loading } = useOptions(source);
  return (
    <MultiSelectField
      name={name}
      label={label}
      options={options}
      loading={loading}
      placeholder={loading ? "Loading…" : placeholder}
      hint={hint}
      className={className}
    />
  );
}

const NONE = "__none";

/** One optional id from a lookup: 'None' clears it (the value becomes ""). */
export function LookupSelectField({
  name,
  label,
  source,
  noneLabel = "None",
  hint,
  className,
}: {
  name: string;
  label: string;
  source: OptionsSource;
  noneLabel?: string;
  hint?: string;
  className?: string;
}) {
  const { control } = useFormContext();
  const { options, loading } = useOptions(source);
  return (
    <FieldShell name={name} label={label} hint={hint} className={className}>
      {({ id, invalid }) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <Select
              id={id}
              name={field.name}
              value={field.value ? String(field.value) : ""}
              onValueChange={(val) => field.onChange(val === NONE ? "" : val)}
              options={[{ value: NONE, label: noneLabel }, ...options]}
              placeholder={loading ? "Loading…" : noneLabel}
              invalid={invalid}
            />
          )}
        />
      )}
    </FieldShell>
  );
}
