/** Form fields of the master-data screens that pick from a lookup (built on the form kit). */
import { useMemo } from "react";
import { Controller, useFormContext } from "react-hook-form";
import { FieldShell } from "./form.tsx";
import { MultiSelectField } from "./multi-select-field.tsx";
import { SelectField } from "./select-field.tsx";
import { useOptions } from "../filters/useOptions.ts";
import type { OptionsSource } from "../data-grid/types.ts";
import { type Option, Select } from "../ui/select.tsx";
import { CountryFlag } from "../display/CountryFlag.tsx";
import { COUNTRIES } from "../../lib/lookups.ts";

/** Countries with their flag before the name (an ISO badge where the browser cannot draw flags). */
export function withFlags(options: Option[]): Option[] {
  return options.map((o) => ({
    ...o,
    adornment: (
      <CountryFlag
        flag={typeof o.adornment === "string" ? o.adornment : undefined}
        code={o.value}
      />
    ),
  }));
}

export function CountryField(
  { name = "countryId", label = "Country", required = true }: {
    name?: string;
    label?: string;
    required?: boolean;
  },
) {
  const { options, loading } = useOptions(COUNTRIES);
  const flagged = useMemo(() => withFlags(options), [options]);
  return (
    <SelectField
      name={name}
      label={label}
      required={required}
      options={flagged}
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

/**
 * The saved value of a picker that the lookup no longer offers (a user since deactivated, say): kept as
 * a choice, marked "(inactive)", so the form shows what is saved and saves it back unchanged.
 */
export function withCurrent(
  options: Option[],
  current: { value: string; label: string } | undefined,
  loading: boolean,
): Option[] {
  if (!current?.value || loading || options.some((o) => o.value === current.value)) return options;
  return [{ value: current.value, label: `${current.label || "Unknown"} (inactive)` }, ...options];
}

/** One optional id from a lookup: 'None' clears it (the value becomes ""). */
export function LookupSelectField({
  name,
  label,
  source,
  noneLabel = "None",
  current,
  hint,
  className,
}: {
  name: string;
  label: string;
  source: OptionsSource;
  noneLabel?: string;
  /** The saved value and its name, shown even when the lookup no longer lists it. */
  current?: { value: string; label: string };
  hint?: string;
  className?: string;
}) {
  const { control } = useFormContext();
  const loaded = useOptions(source);
  const loading = loaded.loading;
  const options = useMemo(() => withCurrent(loaded.options, current, loading), [
    loaded.options,
    current?.value,
    current?.label,
    loading,
  ]);
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
