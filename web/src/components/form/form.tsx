/**
 * The form kit: react-hook-form bound to a shared valibot schema. Validation runs on change and
 * shows the schema's own messages under the fields; a server 400 lands its `errors[].path` on the
 * matching fields; submit is deferred (200 ms by default), shows a spinner and disables the form.
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
import { TIMING } from "../../lib/timing.ts";
import { cn, sleep } from "../../lib/utils.ts";
import { UnsavedChangesGuard } from "./unsaved-changes.tsx";
import { maxLengthOf } from "./schema-limits.ts";

// deno-lint-ignore no-explicit-any
type AnySchema = v.GenericSchema<any, any>;

/** The schema of each form made by useSchemaForm (keyed by its stable `control`). */
const formSchemas = new WeakMap<object, AnySchema>();
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
 */
export function useSchemaForm<S extends AnySchema>(
  schema: S,
  defaultValues: { [K in keyof v.InferInput<S>]?: unknown },
): UseFormReturn<v.InferInput<S>, unknown, v.InferOutput<S>> {
  const form = useForm<v.InferInput<S>, unknown, v.InferOutput<S>>({
    resolver: valibotResolver(schema),
    mode: "onChange",
    // "all" makes the resolver run every pipe step, so a schema's cross-field checks (a question's
    // title beside its type, say) report together with the field errors; each field still shows
    // its first message
    criteriaMode: "all",
    defaultValues: defaultValues as DefaultValues<v.InferInput<S>>,
  });
  formSchemas.set(form.control, schema);
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
  delayMs = TIMING.formSubmitDelayMs,
  guardUnsaved = false,
  className,
  children,
  ...rest
}: {
  form: UseFormReturn<TIn, unknown, TOut>;
  onSubmit: (values: TOut) => unknown | Promise<unknown>;
  delayMs?: number;
  /**
   * A page's form: leaving the page while it is dirty asks first ("Leave without saving?"). A save
   * in progress does not count, so the page a save opens is not held up.
   */
  guardUnsaved?: boolean;
  className?: string;
  children: React.ReactNode;
} & Omit<React.ComponentProps<"form">, "onSubmit" | "children">) {
  const handler: SubmitHandler<TOut> = async (values) => {
    await sleep(delayMs);
    try {
      await onSubmit(values);
    } catch (err) {
      // the API client has already shown the notice; fields get their own messages
      applyServerErrors(form as unknown as UseFormReturn<TIn, unknown, FieldValues>, err);
    }
  };
  return (
    <FormProvider {...form}>
      <SchemaContext.Provider value={formSchemas.get(form.control)}>
        <form noValidate className={className} onSubmit={form.handleSubmit(handler)} {...rest}>
          <fieldset disabled={form.formState.isSubmitting} className="contents">
            {children}
          </fieldset>
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

/** The error message of a field (by dotted path), if any. */
export function useFieldError(name: string): string | undefined {
  const { formState } = useFormContext();
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
  className,
  children,
}: {
  name: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
  children: (ids: { id: string; describedBy?: string; invalid: boolean }) => React.ReactNode;
}) {
  const error = useFieldError(name);
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
