/** Field components of the form kit; each reads and writes its value through the form context. */
import * as React from "react";
import { Controller, useFormContext } from "react-hook-form";
import { Eye, EyeOff } from "lucide-react";
import { Input, Textarea } from "../ui/input.tsx";
import { type Option, Select } from "../ui/select.tsx";
import { Switch } from "../ui/switch.tsx";
import { Checkbox } from "../ui/checkbox.tsx";
import { Button } from "../ui/button.tsx";
import { Skeleton } from "../ui/skeleton.tsx";
import { MultiSelect } from "../filters/MultiSelect.tsx";
import { FieldShell } from "./form.tsx";
import { cn } from "../../lib/utils.ts";

type Common = {
  name: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
};

export function TextField({
  name,
  label,
  hint,
  required,
  className,
  ...input
}: Common & Omit<React.ComponentProps<"input">, "name">) {
  const { register } = useFormContext();
  return (
    <FieldShell name={name} label={label} hint={hint} required={required} className={className}>
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-required={required || undefined}
          {...input}
          {...register(name)}
        />
      )}
    </FieldShell>
  );
}

export function TextareaField({
  name,
  label,
  hint,
  required,
  className,
  ...input
}: Common & Omit<React.ComponentProps<"textarea">, "name">) {
  const { register } = useFormContext();
  return (
    <FieldShell name={name} label={label} hint={hint} required={required} className={className}>
      {({ id, describedBy, invalid }) => (
        <Textarea
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...input}
          {...register(name)}
        />
      )}
    </FieldShell>
  );
}

/** A password input with a show/hide toggle; `addon` renders extra buttons after it. */
export function PasswordField({
  name,
  label,
  hint,
  required,
  className,
  addon,
  ...input
}: Common & Omit<React.ComponentProps<"input">, "name" | "type"> & { addon?: React.ReactNode }) {
  const { register } = useFormContext();
  const [shown, setShown] = React.useState(false);
  return (
    <FieldShell name={name} label={label} hint={hint} required={required} className={className}>
      {({ id, describedBy, invalid }) => (
        <div className="flex gap-2">
          <div className="relative flex-1">
            <Input
              id={id}
              type={shown ? "text" : "password"}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              className="pr-10"
              {...input}
              {...register(name)}
            />
            <button
              type="button"
              onClick={() => setShown((s) => !s)}
              className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/40"
              aria-label={shown ? "Hide password" : "Show password"}
              aria-pressed={shown}
            >
              {shown ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
            </button>
          </div>
          {addon}
        </div>
      )}
    </FieldShell>
  );
}

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
    <FieldShell name={name} label={label} hint={hint} required={required} className={className}>
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

/** Several choices (ids) with 'Select All'; the value is a string list. */
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
}: Common & {
  label: string;
  options: Option[];
  placeholder?: string;
  loading?: boolean;
  disabled?: boolean;
}) {
  const { control } = useFormContext();
  return (
    <FieldShell name={name} label={label} hint={hint} required={required} className={className}>
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

const RichTextEditor = React.lazy(() => import("./RichTextEditor.tsx"));

/**
 * Rich text (HTML) with a formatting toolbar. The editor is loaded on first use, so pages without
 * one, the sign-in page above all, never download it.
 */
export function RichTextField({
  name,
  label,
  hint,
  required,
  className,
  placeholder,
  minHeight = 200,
}: Common & { placeholder?: string; minHeight?: number }) {
  const { control } = useFormContext();
  return (
    <FieldShell name={name} label={label} hint={hint} required={required} className={className}>
      {({ id, describedBy, invalid }) => (
        <Controller
          control={control}
          name={name}
          render={({ field, formState }) => (
            <React.Suspense
              fallback={
                <div className="rounded-md border border-input" aria-busy="true" aria-label="Loading editor">
                  <div className="border-b bg-muted/40 px-2 py-1.5">
                    <Skeleton className="h-6 w-64" />
                  </div>
                  <div className="p-3" style={{ minHeight }}>
                    <Skeleton className="h-4 w-2/3" />
                  </div>
                </div>
              }
            >
              <RichTextEditor
                id={id}
                value={typeof field.value === "string" ? field.value : ""}
                onChange={field.onChange}
                onBlur={field.onBlur}
                placeholder={placeholder}
                minHeight={minHeight}
                invalid={invalid}
                describedBy={describedBy}
                ariaLabel={typeof label === "string" ? label : undefined}
                disabled={formState.isSubmitting}
              />
            </React.Suspense>
          )}
        />
      )}
    </FieldShell>
  );
}

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

export function CheckboxField({ name, label }: { name: string; label: React.ReactNode }) {
  const { control } = useFormContext();
  const id = `field-${name}`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="flex items-center gap-2">
          <Checkbox id={id} checked={!!field.value} onCheckedChange={(c) => field.onChange(c === true)} />
          <label htmlFor={id} className="cursor-pointer text-sm">{label}</label>
        </div>
      )}
    />
  );
}

export function SubmitButton(
  { children, className, size }: { children: React.ReactNode; className?: string; size?: "default" | "lg" },
) {
  const { formState } = useFormContext();
  return (
    <Button type="submit" loading={formState.isSubmitting} className={className} size={size}>
      {children}
    </Button>
  );
}
