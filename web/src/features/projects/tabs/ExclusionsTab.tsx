/**
 * Exclude/Include (part 2, 5 "Exclusion"): other projects whose respondents are kept out (Exclude)
 * or are the only ones let in (Include), by their outcome there: complete, terminate, over quota,
 * dropout. 'Project is required'; new rows default to Exclude with every flag on. Flags toggle in
 * place; a row can be removed.
 */
import * as React from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useFormContext, useWatch } from "react-hook-form";
import { Plus, Trash2 } from "lucide-react";
import { MSG } from "../../../../../shared/messages.ts";
import { ExclusionForm } from "../../../../../shared/schemas/project.ts";
import { api } from "../../../lib/api.ts";
import type { BodyIn } from "../../../../../shared/api/contract.ts";
import { projectOptionsCall } from "../../../../../shared/api/projects.ts";
import {
  addExclusionCall,
  type Exclusion,
  listExclusionsCall,
  updateExclusionCall,
} from "../../../../../shared/api/project-parts.ts";
import { notify } from "../../../lib/notify.ts";
import { formatDate } from "../../../lib/format.ts";
import { cn } from "../../../lib/utils.ts";
import { useCanEdit } from "../../../components/data-grid/DataGrid.tsx";
import { EditableTable, type TableColumn } from "../../../components/data-grid/EditableTable.tsx";
import { FieldShell, Form, useSchemaForm } from "../../../components/form/form.tsx";
import { SubmitButton } from "../../../components/form/fields.tsx";
import { SelectField } from "../../../components/form/select-field.tsx";
import { Badge } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { Checkbox } from "../../../components/ui/checkbox.tsx";
import { ConfirmDialog } from "../../../components/ui/dialog.tsx";
import { SearchInput } from "../../../components/filters/SearchInput.tsx";
import type { ProjectRecord } from "../projects.ts";

type Flag = "complete" | "terminate" | "overQuota" | "dropout";
/** One flag's change (`{ [flag]: on }`). */
type FlagBody = BodyIn<typeof updateExclusionCall>;
const FLAGS: { key: Flag; label: string }[] = [
  { key: "complete", label: "Complete" },
  { key: "terminate", label: "Terminate" },
  { key: "overQuota", label: "Over Quota" },
  { key: "dropout", label: "Dropout" },
];

export function ExclusionsTab({ project }: { project: ProjectRecord }) {
  const qc = useQueryClient();
  const canEdit = useCanEdit();
  const [search, setSearch] = React.useState("");
  const key = ["exclusions", project._id, search];
  const rows = useQuery({
    queryKey: key,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      (await api(listExclusionsCall, { params: { id: project._id }, body: { search } }, { signal })).result,
  });
  const [removing, setRemoving] = React.useState<Exclusion | null>(null);
  const [busyRemove, setBusyRemove] = React.useState(false);
  const setAll = (list: Exclusion[]) => {
    void qc.invalidateQueries({ queryKey: ["exclusions", project._id] });
    qc.setQueryData(["exclusions", project._id, ""], list);
  };
  const patch = (id: string, p: Partial<Exclusion>) =>
    qc.setQueryData<Exclusion[]>(key, (old) => old?.map((e) => (e._id === id ? { ...e, ...p } : e)));

  async function setFlag(e: Exclusion, k: Flag | "isExcluded", on: boolean) {
    patch(e._id, { [k]: on });
    try {
      const res = await api(updateExclusionCall, { params: { id: e._id }, body: { [k]: on } as FlagBody });
      notify.success(res.message);
    } catch {
      patch(e._id, { [k]: e[k] });
    }
  }

  async function remove(e: Exclusion) {
    setBusyRemove(true);
    try {
      const res = await api(updateExclusionCall, { params: { id: e._id }, body: { isDeleted: true } });
      qc.setQueryData<Exclusion[]>(key, (old) => old?.filter((x) => x._id !== e._id));
      void qc.invalidateQueries({ queryKey: ["exclusions", project._id] });
      notify.success(res.message);
    } catch {
      // shown by the API client
    } finally {
      setBusyRemove(false);
      setRemoving(null);
    }
  }

  const list = rows.data ?? [];
  const columns: TableColumn<Exclusion>[] = [
    {
      id: "project",
      header: "Project",
      cell: (e) => (
        <>
          <span className="font-medium">{e.projectCode}</span>{" "}
          <span className="text-muted-foreground">{e.projectName}</span>
        </>
      ),
    },
    {
      id: "type",
      header: "Type",
      cell: (e) => (
        <button
          type="button"
          disabled={!canEdit}
          onClick={() => void setFlag(e, "isExcluded", !e.isExcluded)}
          className="cursor-pointer rounded-full focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-default"
          aria-label={`${e.projectCode}: ${e.isExcluded ? "Exclude" : "Include"}. Switch`}
          title="Switch between Exclude and Include"
        >
          <Badge tone={e.isExcluded ? "red" : "green"}>{e.isExcluded ? "Exclude" : "Include"}</Badge>
        </button>
      ),
    },
    ...FLAGS.map((f): TableColumn<Exclusion> => ({
      id: f.key,
      header: f.label,
      align: "center",
      cell: (e) => (
        <Checkbox
          checked={e[f.key]}
          disabled={!canEdit}
          aria-label={`${f.label} of ${e.projectCode}`}
          onCheckedChange={(c) => void setFlag(e, f.key, c === true)}
        />
      ),
    })),
    {
      id: "createdAt",
      header: "Added",
      className: "text-muted-foreground",
      cell: (e) => formatDate(e.createdAt),
    },
  ];
  return (
    <div className="flex flex-col gap-5">
      <AddExclusion
        project={project}
        taken={new Set(list.map((e) => e.excludedProjectId))}
        disabled={!canEdit}
        onAdded={setAll}
      />
      <div className="flex flex-wrap items-center gap-2">
        <SearchInput value={search} onSearch={setSearch} placeholder="Search excluded projects" />
        {!project.isExclude
          ? (
            <p className="text-sm text-muted-foreground">
              Exclusions apply once Exclusions is on in Project Securities.
            </p>
          )
          : null}
      </div>
      <EditableTable
        caption="Excluded and included projects"
        testId="exclusions"
        columns={columns}
        rows={rows.data}
        rowKey={(e) => e._id}
        rowProps={(e) => ({ "data-exclusion": e.projectCode })}
        loading={rows.isPending}
        error={rows.isError ? rows.error : null}
        onRetry={() => void rows.refetch()}
        what="exclusions"
        emptyText={search ? MSG.noRows : "No projects excluded or included yet"}
        rowActions={(e) => (
          <Button
            variant="ghost"
            size="icon-sm"
            className="text-destructive hover:bg-destructive/10 hover:text-destructive"
            aria-label={`Remove ${e.projectCode}`}
            title="Remove"
            disabled={!canEdit}
            onClick={() => setRemoving(e)}
          >
            <Trash2 />
          </Button>
        )}
      />
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => !o && !busyRemove && setRemoving(null)}
        title={MSG.areYouSure}
        description={removing ? `${removing.projectCode} leaves the list.` : undefined}
        busy={busyRemove}
        onConfirm={() => (removing ? remove(removing) : undefined)}
      />
    </div>
  );
}

function AddExclusion({
  project,
  taken,
  disabled,
  onAdded,
}: {
  project: ProjectRecord;
  taken: Set<string>;
  disabled: boolean;
  onAdded: (list: Exclusion[]) => void;
}) {
  const start = {
    projectId: project._id,
    excludedProjectId: "",
    isExcluded: true,
    complete: true,
    terminate: true,
    overQuota: true,
    dropout: true,
  };
  const form = useSchemaForm(ExclusionForm, start);
  const projects = useQuery({
    queryKey: ["projects-all"],
    staleTime: 60_000,
    queryFn: async ({ signal }) => (await api(projectOptionsCall, {}, { signal })).result,
  });
  const options = (projects.data ?? [])
    .filter((p) => p._id !== project._id && !taken.has(p._id))
    .map((p) => ({ value: p._id, label: `${p.projectCode} - ${p.projectName}` }));

  async function submit(values: BodyIn<typeof addExclusionCall>) {
    const res = await api(addExclusionCall, { body: values });
    onAdded(res.result);
    form.reset(start);
    notify.success(res.message);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Add a project</CardTitle>
        <CardDescription>Respondents of the chosen project, by their outcome there.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
            <SelectField
              name="excludedProjectId"
              label="Project"
              required
              options={options}
              placeholder={projects.isPending ? "Loading projects…" : "Select a project"}
            />
            <TypeField />
          </div>
          <FlagsField />
          <div className="flex justify-end">
            {disabled ? <Button disabled>Add</Button> : (
              <SubmitButton>
                <Plus /> Add
              </SubmitButton>
            )}
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function TypeField() {
  const { setValue } = useFormContext();
  const excluded = useWatch({ name: "isExcluded" }) as boolean;
  return (
    <FieldShell name="isExcluded" label="Type">
      {({ id }) => (
        <div
          id={id}
          role="radiogroup"
          aria-label="Type"
          className="inline-flex h-9 w-fit rounded-md border bg-muted/50 p-0.5"
        >
          {[true, false].map((val) => (
            <button
              key={String(val)}
              type="button"
              role="radio"
              aria-checked={excluded === val}
              onClick={() => setValue("isExcluded", val, { shouldDirty: true })}
              className={cn(
                "min-w-20 cursor-pointer rounded-[5px] px-3 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring",
                excluded === val
                  ? "bg-card text-foreground shadow-xs"
                  : "text-muted-foreground hover:text-foreground",
              )}
            >
              {val ? "Exclude" : "Include"}
            </button>
          ))}
        </div>
      )}
    </FieldShell>
  );
}

function FlagsField() {
  const { setValue } = useFormContext();
  const values = useWatch({ name: FLAGS.map((f) => f.key) }) as boolean[];
  return (
    <fieldset className="flex flex-wrap items-center gap-x-5 gap-y-2">
      <legend className="mb-1.5 text-sm font-medium">Outcomes</legend>
      {FLAGS.map((f, i) => {
        const id = `new-exclusion-${f.key}`;
        return (
          <span key={f.key} className="flex items-center gap-1.5">
            <Checkbox
              id={id}
              checked={!!values[i]}
              onCheckedChange={(c) => setValue(f.key, c === true, { shouldDirty: true })}
            />
            <label htmlFor={id} className="cursor-pointer text-sm">{f.label}</label>
          </span>
        );
      })}
    </fieldset>
  );
}
