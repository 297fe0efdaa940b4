/**
 * The form kit: react-hook-form bound to a shared valibot schema. Validation runs on change and
 * shows the schema's own messages under the fields; a server 400 lands its `errors[].path` on the
 * matching fields. Submit runs at once (no copied timer of the old front end), shows a spinner and
 * disables the form while it runs; a double click, or a submit while one is running, sends once.
 */
import * as React from "react";
import {
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  FormProvider,
  get,
  type SubmitHandler,
  useForm,
  useFormContext,
  type UseFormReturn,
  useFormState,
} from "react-hook-form";
import { valibotResolver } from "@hookform/resolvers/valibot";
import type * as v from "valibot";
import { ApiError } from "../../lib/api.ts";
import { cn } from "../../lib/utils.ts";
import { UnsavedChangesGuard } from "./unsaved-changes.tsx";
import { maxLengthOf } from "./schema-limits.ts";
import { FieldRegistry, skippingOffFields } from "./field-registry.ts";

// deno-lint-ignore no-explicit-any
type AnySchema = v.GenericSchema<any, any>;

/** The schema of each form made by useSchemaForm (keyed by its stable `control`). */
const formSchemas = new WeakMap<object, AnySchema>();
/** The fields on screen of each form made by useSchemaForm (its resolver reads them). */
const formFields = new WeakMap<object, FieldRegistry>();
const SchemaContext = React.createContext<AnySchema | undefined>(undefined);

/**
 * The most characters a field of the current form takes, from its schema's `maxLength`: the kit's
 * text fields set it on their input, so a limit is declared once, in shared/schemas.
 */
export function useFieldMaxLength(name: string): number | undefined {
  const schema = React.useContext(SchemaContext);
  return React.useMemo(() => (schema ? maxLengthOf(schema, name) : undefined), [schema, name]);
}

/**
 * A form for a schema. Defaults may hold "nothing chosen yet" values the schema refuses (an empty
 * role, say): that is what the user starts from, and the schema's message is what they then see.
 * A field hidden after it was shown, or shown disabled, does not hold a submit back (field-registry.ts).
 */
export function useSchemaForm<S extends AnySchema>(
  schema: S,
  defaultValues: { [K in keyof v.InferInput<S>]?: unknown },
): UseFormReturn<v.InferInput<S>, unknown, v.InferOutput<S>> {
  const [fields] = React.useState(() => new FieldRegistry());
  const resolver = React.useMemo(() => skippingOffFields(valibotResolver(schema), fields), [schema, fields]);
  const form = useForm<v.InferInput<S>, unknown, v.InferOutput<S>>({
    resolver,
    mode: "onChange",
    // "all" makes the resolver run every pipe step, so a schema's cross-field checks (a question's
    // title beside its type, say) report together with the field errors; each field still shows
    // its first message
    criteriaMode: "all",
    defaultValues: defaultValues as DefaultValues<v.InferInput<S>>,
  });
  formSchemas.set(form.control, schema);
  formFields.set(form.control, fields);
  return form;
}

/** Puts a server 400's `errors[]` on the matching fields; returns whether any landed. */
export function applyServerErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, FieldValues>,
  err: unknown,
): boolean {
  if (!(err instanceof ApiError) || !err.errors.length) return false;
  const known = new Set(Object.keys(form.getValues()));
  let landed = false;
  for (const e of err.errors) {
    const root = e.path.split(".")[0];
    if (!known.has(root)) continue;
    form.setError(e.path as FieldPath<T>, { type: "server", message: e.message }, { shouldFocus: !landed });
    landed = true;
  }
  return landed;
}

export function Form<TIn extends FieldValues, TOut extends FieldValues>({
  form,
  onSubmit,
  guardUnsaved = false,
  className,
  children,
  ...rest
}: {
  form: UseFormReturn<TIn, unknown, TOut>;
  onSubmit: (values: TOut) => unknown | Promise<unknown>;
  /**
   * A page's form: leaving the page while it is dirty asks first ("Leave without saving?"). A save
   * in progress does not count, so the page a save opens is not held up.
   */
  guardUnsaved?: boolean;
  className?: string;
  children: React.ReactNode;
} & Omit<React.ComponentProps<"form">, "onSubmit" | "children">) {
  // one submit at a time: set before the first await, so a second submit event in the same tick
  // (before React has disabled the fieldset) finds it
  const running = React.useRef(false);
  const handler: SubmitHandler<TOut> = async (values) => {
    try {
      await onSubmit(values);
    } catch (err) {
      // the API client has already shown the notice; fields get their own messages
      applyServerErrors(form as unknown as UseFormReturn<TIn, unknown, FieldValues>, err);
    }
  };
  const submit = form.handleSubmit(handler);
  async function onFormSubmit(e: React.FormEvent<HTMLFormElement>) {
    if (running.current) {
      e.preventDefault();
      return;
    }
    running.current = true;
    try {
      await submit(e);
    } finally {
      running.current = false;
    }
  }
  // the second click of a double click on a submit button is not a second submit (the first may
  // already be done by then: nothing else would stop it)
  function onClickCapture(e: React.MouseEvent<HTMLFormElement>) {
    if (e.detail < 2) return;
    const button = (e.target as Element).closest?.("button, input");
    if (
      button instanceof HTMLButtonElement
        ? button.type === "submit"
        : button instanceof HTMLInputElement && button.type === "submit"
    ) {
      e.preventDefault();
    }
  }
  const [own] = React.useState(() => new FieldRegistry());
  const registry = formFields.get(form.control) ?? own;
  return (
    <FormProvider {...form}>
      <SchemaContext.Provider value={formSchemas.get(form.control)}>
        <form
          noValidate
          className={className}
          onSubmit={(e) => void onFormSubmit(e)}
          onClickCapture={onClickCapture}
          {...rest}
        >
          <FieldsContext.Provider value={registry}>
            <fieldset disabled={form.formState.isSubmitting} className="contents">
              {children}
            </fieldset>
            <UnshownErrors />
          </FieldsContext.Provider>
        </form>
      </SchemaContext.Provider>
      {guardUnsaved ? <DirtyGuard /> : null}
    </FormProvider>
  );
}

function DirtyGuard() {
  const { isDirty, isSubmitting } = useFormState();
  return <UnsavedChangesGuard when={isDirty && !isSubmitting} />;
}

/**
 * Which error paths some mounted field shows under itself (`useFieldError` registers them), so the
 * form can tell the errors no field shows: a refused submit is never silent.
 */
const FieldsContext = React.createContext<FieldRegistry | null>(null);

/** The leaf errors of react-hook-form's error tree, by dotted path. */
export function errorLeaves(errors: unknown, prefix = ""): { path: string; message: string }[] {
  if (!errors || typeof errors !== "object") return [];
  const e = errors as Record<string, unknown>;
  const out: { path: string; message: string }[] = [];
  if (typeof e.message === "string" && e.message && typeof e.type === "string") {
    out.push({ path: prefix, message: e.message });
  }
  for (const [k, val] of Object.entries(e)) {
    if (k === "ref" || k === "types" || k === "message" || k === "type") continue;
    if (val && typeof val === "object") out.push(...errorLeaves(val, prefix ? `${prefix}.${k}` : k));
  }
  return out;
}

/**
 * After a refused submit, the errors that no field of the form shows (a field without its own
 * message, a value the form holds but does not display), in one alert at the end of the form.
 */
function UnshownErrors() {
  const formState = useFormState();
  const registry = React.useContext(FieldsContext);
  if (!formState.submitCount || formState.isSubmitSuccessful) return null;
  const unshown = errorLeaves(formState.errors).filter((e) => !registry?.has(e.path));
  const messages = [...new Set(unshown.map((e) => e.message))];
  if (!messages.length) return null;
  return (
    <div
      role="alert"
      data-testid="form-errors"
      className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-xs font-medium text-destructive"
    >
      {messages.length === 1 ? messages[0] : (
        <ul className="list-disc pl-4">
          {messages.map((m) => <li key={m}>{m}</li>)}
        </ul>
      )}
    </div>
  );
}

/**
 * The error message of a field (by dotted path), if any; the caller shows it under the field. A
 * `disabled` field is not the user's to fix: its value does not hold a submit back.
 */
export function useFieldError(name: string, disabled = false): string | undefined {
  const { formState } = useFormContext();
  const registry = React.useContext(FieldsContext);
  React.useEffect(() => {
    if (!registry) return;
    registry.add(name, disabled);
    return () => registry.remove(name, disabled);
  }, [registry, name, disabled]);
  const e = get(formState.errors, name) as { message?: unknown } | undefined;
  return typeof e?.message === "string" ? e.message : undefined;
}

export function FieldMessage({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-xs font-medium text-destructive" role="alert">
      {message}
    </p>
  );
}

/** Label, control and message, wired together for screen readers. */
export function FieldShell({
  name,
  label,
  hint,
  required,
  disabled,
  className,
  children,
}: {
  name: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  required?: boolean;
  /** The control is shown disabled (its value then does not hold a submit back). */
  disabled?: boolean;
  className?: string;
  children: (ids: { id: string; describedBy?: string; invalid: boolean }) => React.ReactNode;
}) {
  const error = useFieldError(name, !!disabled);
  const id = `field-${name.replace(/\W+/g, "-")}`;
  const msgId = `${id}-message`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? msgId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
        {required ? <span className="ml-0.5 text-destructive" aria-hidden="true">*</span> : null}
      </label>
      {children({ id, describedBy, invalid: !!error })}
      {hint && !error ? <p id={hintId} className="text-xs text-muted-foreground">{hint}</p> : null}
      <FieldMessage id={msgId} message={error} />
    </div>
  );
}
