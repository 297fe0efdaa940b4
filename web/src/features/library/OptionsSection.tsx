/**
 * The options of a question (library questions and a project's own pre-screen questions): a list of
 * options with their flags, re-orderable, for the choice types; one option per line for MAP; nothing
 * for TEXT.
 */
import * as React from "react";
import { Controller, useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { Plus } from "lucide-react";
import { optionsFromLines } from "../../../../shared/schemas/library.ts";
import { FieldMessage, useFieldError } from "../../components/form/form.tsx";
import { FormSection } from "../../components/form/FormParts.tsx";
import { SortableList } from "../../components/sortable/SortableList.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Checkbox } from "../../components/ui/checkbox.tsx";
import { Textarea } from "../../components/ui/input.tsx";
import { cn } from "../../lib/utils.ts";
import { MIN_OPTIONS_KEPT, OptionQuotaInput, OptionTextInput, RemoveOptionButton } from "./option-parts.tsx";
import type { QuestionOptionRecord } from "./library.ts";

const MAP_EXAMPLE = ["North", "South", "East", "West"].join("\n");

export const newOption = (): QuestionOptionRecord => ({
  title: "",
  enable: true,
  formvalidate: true,
  diy: true,
  local: true,
  quota: 0,
});

const FLAGS = [
  { key: "enable", label: "Enabled" },
  { key: "formvalidate", label: "Validate" },
  { key: "diy", label: "DIY" },
  { key: "local", label: "Local" },
] as const;

/** Options for choice types, one per line for MAP, nothing for TEXT. */
export function OptionsSection() {
  const type = useWatch({ name: "questionType" }) as string;
  if (!type || type === "TEXT") return null;
  if (type === "MAP") return <MapOptions />;
  return <ListOptions />;
}

function MapOptions() {
  const { getValues, setValue, formState } = useFormContext();
  // options that already exist keep their id and flags when their line stays
  const [known] = React.useState(() => (getValues("questionOption") ?? []) as QuestionOptionRecord[]);
  const [text, setText] = React.useState(() => known.map((o) => o.title).filter(Boolean).join("\n"));
  const rootError = useFieldError("questionOption");
  const error = rootError ?? firstOptionError(formState.errors);
  const fromLines = React.useCallback((lines: string) =>
    optionsFromLines(lines).map((o) => {
      const same = known.find((k) => k.title.trim() === o.title);
      return same ? { ...same, title: o.title } : o;
    }), [known]);
  // the typed lines are the options (checked as the user types, not when the box appears)
  React.useEffect(() => {
    setValue("questionOption", fromLines(text), { shouldDirty: true });
  }, []);
  function onText(next: string) {
    setText(next);
    setValue("questionOption", fromLines(next), { shouldValidate: true, shouldDirty: true });
  }
  const count = optionsFromLines(text).length;
  return (
    <FormSection title="Options" description="One option per line." contentClassName="sm:grid-cols-1">
      <div className="flex flex-col gap-1.5">
        <label htmlFor="map-options" className="text-sm font-medium">
          Options<span className="ml-0.5 text-destructive" aria-hidden="true">*</span>
        </label>
        <Textarea
          id="map-options"
          rows={10}
          value={text}
          onChange={(e) => onText(e.target.value)}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? "map-options-message" : "map-options-hint"}
          placeholder={MAP_EXAMPLE}
        />
        {error
          ? <FieldMessage id="map-options-message" message={error} />
          : (
            <p id="map-options-hint" className="text-xs text-muted-foreground">
              {count} option{count === 1 ? "" : "s"}
            </p>
          )}
      </div>
    </FormSection>
  );
}

// deno-lint-ignore no-explicit-any
function firstOptionError(errors: any): string | undefined {
  const list = errors?.questionOption;
  if (!Array.isArray(list)) return undefined;
  for (const e of list) if (e?.title?.message) return String(e.title.message);
  return undefined;
}

function ListOptions() {
  const { control } = useFormContext();
  const { fields, append, remove, move } = useFieldArray({ control, name: "questionOption" });
  const rootError = useFieldError("questionOption");
  return (
    <FormSection
      title="Options"
      description={`Each option needs a text. Options can be removed while there are ${MIN_OPTIONS_KEPT} or more.`}
      contentClassName="sm:grid-cols-1"
      aside={
        <Button type="button" variant="outline" size="sm" onClick={() => append(newOption())}>
          <Plus /> Add option
        </Button>
      }
    >
      <SortableList
        items={fields}
        getId={(f) => f.id}
        itemLabel={(_f, i) => `option ${i + 1}`}
        onMove={move}
        ariaLabel="Options"
        renderItem={(f, row) => (
          <div
            className={cn(
              "flex flex-wrap items-start gap-2 rounded-lg border bg-card p-2",
              row.dragging && "bg-accent/40",
            )}
          >
            {row.handle}
            <OptionTextInput
              name={`questionOption.${row.index}.title`}
              id={`option-title-${row.index}`}
              index={row.index}
              className="min-w-48 flex-1"
            />
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 pt-2">
              {FLAGS.map((flag) => (
                <Controller
                  key={flag.key}
                  control={control}
                  name={`questionOption.${row.index}.${flag.key}`}
                  render={({ field }) => {
                    const cid = `option-${f.id}-${flag.key}`;
                    return (
                      <span className="flex items-center gap-1.5">
                        <Checkbox
                          id={cid}
                          checked={!!field.value}
                          onCheckedChange={(c) => field.onChange(c === true)}
                        />
                        <label htmlFor={cid} className="cursor-pointer text-xs">{flag.label}</label>
                      </span>
                    );
                  }}
                />
              ))}
            </div>
            <OptionQuotaInput
              name={`questionOption.${row.index}.quota`}
              id={`option-quota-${row.index}`}
              index={row.index}
            />
            {row.moveButtons}
            <RemoveOptionButton index={row.index} count={fields.length} onRemove={() => remove(row.index)} />
          </div>
        )}
      />
      {rootError ? <FieldMessage id="options-message" message={rootError} /> : null}
    </FormSection>
  );
}
