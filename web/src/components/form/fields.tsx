/**
 * Field components of the form kit; each reads and writes its value through the form context.
 * Radix-based fields live in their own modules (select-field.tsx, switch-field.tsx) so the sign-in
 * page, which uses only these, does not load their vendor code.
 */
import * as React from "react";
import { useFormContext } from "react-hook-form";
import { Eye, EyeOff } from "lucide-react";
import { Input, Textarea } from "../ui/input.tsx";
import { Button } from "../ui/button.tsx";
import { FieldShell, useFieldMaxLength } from "./form.tsx";

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
  const maxLength = useFieldMaxLength(name);
  return (
    <FieldShell
      name={name}
      label={label}
      hint={hint}
      required={required}
      disabled={!!input.disabled}
      className={className}
    >
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-required={required || undefined}
          maxLength={maxLength}
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
  const maxLength = useFieldMaxLength(name);
  return (
    <FieldShell
      name={name}
      label={label}
      hint={hint}
      required={required}
      disabled={!!input.disabled}
      className={className}
    >
      {({ id, describedBy, invalid }) => (
        <Textarea
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          maxLength={maxLength}
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
  const maxLength = useFieldMaxLength(name);
  const [shown, setShown] = React.useState(false);
  return (
    <FieldShell
      name={name}
      label={label}
      hint={hint}
      required={required}
      disabled={!!input.disabled}
      className={className}
    >
      {({ id, describedBy, invalid }) => (
        <div className="flex gap-2">
          <div className="relative flex-1">
            <Input
              id={id}
              type={shown ? "text" : "password"}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              className="pr-10"
              maxLength={maxLength}
              {...input}
              {...register(name)}
            />
            <button
              type="button"
              onClick={() => setShown((s) => !s)}
              className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
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

/**
 * A checkbox bound to the form. Native on purpose: it is on the sign-in page, which should not
 * load the Radix checkbox machinery; it keeps the browser's keyboard and form behaviour.
 */
export function CheckboxField({ name, label }: { name: string; label: React.ReactNode }) {
  const { register } = useFormContext();
  const id = `field-${name}`;
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        className="size-4 cursor-pointer rounded-[4px] border-input accent-[var(--primary)] focus-visible:ring-2 focus-visible:ring-ring"
        {...register(name)}
      />
      <label htmlFor={id} className="cursor-pointer select-none text-sm">{label}</label>
    </div>
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
