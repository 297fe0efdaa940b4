/**
 * /admin/library/qualification (part 2, Library > Qualfications): the qualifications with edit and
 * delete, beside the Add Qualification form (name, key, icon, options). Options start with two, one
 * can be removed only while there are 3 or more, and they can be reordered. Edit loads the row into
 * the same panel; saving or cancelling returns it to Add.
 */
import * as React from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { Plus } from "lucide-react";
import { MSG } from "../../../../shared/messages.ts";
import { QualificationForm, qualificationKeyOf } from "../../../../shared/schemas/library.ts";
import { api } from "../../lib/api.ts";
import {
  addQualification,
  listQualificationsCall,
  updateQualificationCall,
} from "../../../../shared/api/library.ts";
import { notify } from "../../lib/notify.ts";
import { cn } from "../../lib/utils.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { EditableTable, type TableColumn } from "../../components/data-grid/EditableTable.tsx";
import { FieldMessage, Form, useFieldError, useSchemaForm } from "../../components/form/form.tsx";
import { OptionTextInput, RemoveOptionButton } from "./option-parts.tsx";
import { SubmitButton, TextField } from "../../components/form/fields.tsx";
import { SortableList } from "../../components/sortable/SortableList.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Checkbox } from "../../components/ui/checkbox.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { Input } from "../../components/ui/input.tsx";
import {
  LIBRARY_DESCRIPTION,
  type QualificationOptionRecord,
  type QualificationRecord,
  useLibraryTabs,
} from "./library.ts";
import { ICON_NAMES, QualificationIcon } from "./qualification-icons.tsx";
import { RowEditDelete } from "../../components/data-grid/RowEditDelete.tsx";

const KEY = ["qualifications", "all"] as const;

const COLUMNS: TableColumn<QualificationRecord>[] = [
  {
    id: "name",
    header: "Qualification",
    cell: (q) => (
      <div className="flex items-center gap-3">
        <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground">
          <QualificationIcon name={q.qualificationIcon} className="size-4" />
        </span>
        <span className="font-medium">{q.qualificationName}</span>
      </div>
    ),
  },
  {
    id: "key",
    header: "Key",
    cell: (q) => <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{q.qualificationKey}</code>,
  },
  {
    id: "options",
    header: "Options",
    className: "whitespace-normal",
    cell: (q) => (
      <div className="flex max-w-md flex-wrap gap-1">
        {q.qualificationOptions.slice(0, 5).map((o) => (
          <Badge key={o._id ?? o.text} tone={o.isActive ? "neutral" : "zinc"}>
            {o.text}
          </Badge>
        ))}
        {q.qualificationOptions.length > 5
          ? <Badge tone="primary">+{q.qualificationOptions.length - 5}</Badge>
          : null}
      </div>
    ),
  },
];

const newOption = (): QualificationOptionRecord => ({ text: "", subText: "", isActive: true });

export default function QualificationsPage() {
  const tabs = useLibraryTabs();
  const qc = useQueryClient();
  const canEdit = useCanEdit();
  const [editing, setEditing] = React.useState<QualificationRecord | null>(null);
  const [pendingDelete, setPendingDelete] = React.useState<QualificationRecord | null>(null);
  const [deleting, setDeleting] = React.useState(false);
  const formRef = React.useRef<HTMLDivElement>(null);

  const list = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) => (await api(listQualificationsCall, {}, { signal })).result,
  });

  async function remove(q: QualificationRecord) {
    setDeleting(true);
    try {
      const res = await api(updateQualificationCall, { params: { id: q._id }, body: { isDeleted: true } });
      qc.setQueryData<QualificationRecord[]>(KEY, (old) => old?.filter((x) => x._id !== q._id));
      if (editing?._id === q._id) setEditing(null);
      notify.success(res.message);
    } catch {
      // the API client has shown the reason
    } finally {
      setDeleting(false);
      setPendingDelete(null);
    }
  }

  function edit(q: QualificationRecord) {
    setEditing(q);
    requestAnimationFrame(() => {
      const panel = formRef.current;
      if (!panel) return;
      // bring the panel's title into view below the top bar, then put the cursor in its first field
      const top = panel.getBoundingClientRect().top + globalThis.scrollY - 80;
      if (top < globalThis.scrollY) globalThis.scrollTo({ top, behavior: "smooth" });
      panel.querySelector<HTMLInputElement>("input")?.focus({ preventScroll: true });
    });
  }

  return (
    <>
      <PageHeader title="Library" description={LIBRARY_DESCRIPTION} tabs={tabs} />
      <div className="grid items-start gap-5 xl:grid-cols-[minmax(0,1fr)_30rem]">
        <section aria-label="Qualifications">
          <EditableTable
            caption="Qualifications"
            testId="qualifications"
            columns={COLUMNS}
            rows={list.data}
            rowKey={(q) => q._id}
            rowProps={(q) => ({ "data-row-id": q._id })}
            selectedKey={editing?._id ?? null}
            loading={list.isPending}
            error={list.isError ? list.error : null}
            onRetry={() => void list.refetch()}
            what="qualifications"
            rowActions={(q) => (
              <RowEditDelete
                name={q.qualificationName}
                disabled={!canEdit}
                onEdit={() => edit(q)}
                onDelete={() => setPendingDelete(q)}
              />
            )}
          />
        </section>

        <div ref={formRef} className="xl:sticky xl:top-20">
          <QualificationEditor
            key={editing?._id ?? "new"}
            qualification={editing}
            disabled={!canEdit}
            onDone={() => setEditing(null)}
          />
        </div>
      </div>

      <ConfirmDialog
        open={!!pendingDelete}
        onOpenChange={(open) => {
          if (!open && !deleting) setPendingDelete(null);
        }}
        title={MSG.areYouSure}
        busy={deleting}
        onConfirm={() => pendingDelete ? remove(pendingDelete) : undefined}
      />
    </>
  );
}

function valuesOf(q: QualificationRecord | null) {
  return {
    qualificationName: q?.qualificationName ?? "",
    qualificationKey: q?.qualificationKey ?? "",
    qualificationIcon: q?.qualificationIcon ?? "",
    qualificationOptions: q?.qualificationOptions.length
      ? q.qualificationOptions.map((o) => ({ ...o }))
      : [newOption(), newOption()],
    isActive: q?.isActive ?? true,
  };
}

function QualificationEditor({
  qualification,
  disabled,
  onDone,
}: {
  qualification: QualificationRecord | null;
  disabled: boolean;
  onDone: () => void;
}) {
  const qc = useQueryClient();
  const form = useSchemaForm(QualificationForm, valuesOf(qualification));

  async function submit(values: QualificationForm) {
    const res = qualification
      ? await api(updateQualificationCall, { params: { id: qualification._id }, body: values })
      : await api(addQualification, { body: values });
    await qc.invalidateQueries({ queryKey: KEY });
    notify.success(res.message);
    if (qualification) onDone();
    else form.reset(valuesOf(null));
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{qualification ? "Edit Qualification" : "Add Qualification"}</CardTitle>
        <CardDescription>
          {qualification
            ? `Changing ${qualification.qualificationName}.`
            : "A profiling attribute projects set quotas on. Fields marked * are required."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          form={form}
          onSubmit={submit}
          guardUnsaved
          className="flex flex-col gap-5"
          aria-label="Qualification"
        >
          <fieldset disabled={disabled} className="contents">
            <TextField name="qualificationName" label="Name" required autoComplete="off" />
            <KeyField />
            <IconField />
            <QualificationOptions />
            <div className="flex justify-end gap-2 border-t pt-4">
              {qualification
                ? <Button type="button" variant="outline" onClick={onDone}>Cancel</Button>
                : (
                  <Button type="button" variant="outline" onClick={() => form.reset(valuesOf(null))}>
                    Clear
                  </Button>
                )}
              <SubmitButton>{qualification ? "Save changes" : "Add Qualification"}</SubmitButton>
            </div>
          </fieldset>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The key, suggested from the name while left empty. */
function KeyField() {
  const name = useWatch({ name: "qualificationName" }) as string;
  const suggestion = qualificationKeyOf(name ?? "");
  return (
    <TextField
      name="qualificationKey"
      label="Key"
      autoComplete="off"
      spellCheck={false}
      placeholder={suggestion || "household_income"}
      hint="Letters, digits and _. Left empty, it is made from the name."
    />
  );
}

function IconField() {
  const icon = (useWatch({ name: "qualificationIcon" }) as string) ?? "";
  return (
    <div className="flex items-end gap-3">
      <TextField
        name="qualificationIcon"
        label="Icon"
        required
        autoComplete="off"
        spellCheck={false}
        list="qualification-icons"
        placeholder="users"
        className="flex-1"
      />
      <span
        className="mb-0.5 grid size-9 shrink-0 place-items-center self-start rounded-lg border bg-accent text-accent-foreground"
        style={{ marginTop: "1.625rem" }}
        title={icon ? `Preview of ${icon}` : "Preview"}
      >
        <QualificationIcon name={icon} className="size-4" />
      </span>
      <datalist id="qualification-icons">
        {ICON_NAMES.map((n) => <option key={n} value={n} />)}
      </datalist>
    </div>
  );
}

function QualificationOptions() {
  const { control, register } = useFormContext();
  const { fields, append, remove, move } = useFieldArray({ control, name: "qualificationOptions" });
  const rootError = useFieldError("qualificationOptions");
  return (
    <div className="flex flex-col gap-2" role="group" aria-labelledby="qualification-options-label">
      <div className="flex items-center justify-between gap-2">
        <span id="qualification-options-label" className="text-sm font-medium">
          Options<span className="ml-0.5 text-destructive" aria-hidden="true">*</span>
        </span>
        <Button type="button" variant="outline" size="sm" onClick={() => append(newOption())}>
          <Plus /> Add option
        </Button>
      </div>
      <SortableList
        items={fields}
        getId={(f) => f.id}
        itemLabel={(_f, i) => `option ${i + 1}`}
        onMove={move}
        ariaLabel="Options"
        renderItem={(f, row) => (
          <div
            className={cn(
              "flex items-start gap-1.5 rounded-lg border bg-card p-2",
              row.dragging && "bg-accent/40",
            )}
          >
            {row.handle}
            <div className="flex min-w-0 flex-1 flex-col gap-1.5">
              <OptionTextInput
                name={`qualificationOptions.${row.index}.text`}
                id={`qopt-text-${row.index}`}
                index={row.index}
                inputClassName="h-8"
              />
              <Input
                placeholder="Sub text (optional)"
                aria-label={`Sub text of option ${row.index + 1}`}
                autoComplete="off"
                className="h-8 text-xs"
                {...register(`qualificationOptions.${row.index}.subText`)}
              />
              <OptionActive index={row.index} id={`qopt-${f.id}-active`} />
            </div>
            <div className="flex flex-col items-center">
              {row.moveButtons}
              <RemoveOptionButton
                index={row.index}
                count={fields.length}
                onRemove={() => remove(row.index)}
                size="icon-sm"
              />
            </div>
          </div>
        )}
      />
      {rootError ? <FieldMessage id="qualification-options-message" message={rootError} /> : null}
    </div>
  );
}

function OptionActive({ index, id }: { index: number; id: string }) {
  const { setValue } = useFormContext();
  const checked = useWatch({ name: `qualificationOptions.${index}.isActive` }) as boolean;
  return (
    <span className="flex items-center gap-1.5">
      <Checkbox
        id={id}
        checked={!!checked}
        onCheckedChange={(c) =>
          setValue(`qualificationOptions.${index}.isActive`, c === true, { shouldDirty: true })}
      />
      <label htmlFor={id} className="cursor-pointer text-xs text-muted-foreground">Active</label>
    </span>
  );
}
