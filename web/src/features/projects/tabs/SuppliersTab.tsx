/**
 * Suppliers (part 1, 2.8 and 5 "Supplier map"): the suppliers mapped to this child project with
 * their entry link (copy, indicator 1000 ms), CPI, quotas and counts, and four toggles shown as
 * Active/InActive (allowTraffic, isTestLink, isPreScreen, isBoarded); a collapsible Add/Update
 * Supplier form (defaults: traffic and boarded on, test link off, CPI and quotas 0; redirects must
 * carry [sid]; a new supplier's form starts with its own return links); a flag on a map for which
 * neither it nor its supplier has a return link for some outcome; the supplier report of each map
 * (its respondents as CSV); and the 'Add Questionaire'
 * panel, the project's questionnaire (projectQuestionaire, part 1 section 3) saved with the project
 * update call: the supplier map update call takes only its toggles.
 */
import * as React from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import * as v from "valibot";
import { ChevronDown, Download, Pencil, Plus, Trash2, TriangleAlert } from "lucide-react";
import { MSG } from "../../../../../shared/messages.ts";
import { ProjectPatch } from "../../../../../shared/schemas/project.ts";
import { api } from "../../../lib/api.ts";
import { updateProjectCall } from "../../../../../shared/api/projects.ts";
import { supplierReportCall } from "../../../../../shared/api/project-reports.ts";
import {
  listSupplierMapsCall,
  supplierMapDefaultsCall,
  updateSupplierMapCall,
} from "../../../../../shared/api/supplier-maps.ts";
import type { BodyIn } from "../../../../../shared/api/contract.ts";
import { notify } from "../../../lib/notify.ts";
import { formatCount, formatMoney } from "../../../lib/format.ts";
import { cn } from "../../../lib/utils.ts";
import { useCanEdit } from "../../../components/data-grid/DataGrid.tsx";
import { EditableTable, type TableColumn } from "../../../components/data-grid/EditableTable.tsx";
import { Form, useSchemaForm } from "../../../components/form/form.tsx";
import { SubmitButton } from "../../../components/form/fields.tsx";
import { RichTextField } from "../../../components/form/rich-text-field.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { ConfirmDialog } from "../../../components/ui/dialog.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { projectKey, type ProjectRecord, type SupplierMapRow, supplierMapsKey } from "../projects.ts";
import { CopyButton } from "../../../components/display/CopyButton.tsx";
import { downloadReport } from "../actions.tsx";
import { formDefaults, SupplierMapEditor } from "./SupplierMapEditor.tsx";

const TOGGLES = [
  { key: "allowTraffic", label: "Traffic" },
  { key: "isTestLink", label: "Test link" },
  { key: "isPreScreen", label: "Pre-screen" },
  { key: "isBoarded", label: "Boarded" },
] as const;
type ToggleKey = (typeof TOGGLES)[number]["key"];
/** One toggle's change (`{ [key]: on }`). */
type ToggleBody = BodyIn<typeof updateSupplierMapCall>;

export function SuppliersTab({ project }: { project: ProjectRecord }) {
  const qc = useQueryClient();
  const canEdit = useCanEdit();
  const key = supplierMapsKey(project._id);
  const maps = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await api(listSupplierMapsCall, { body: { projectId: project._id, search: "" } }, { signal })).result,
  });
  // the empty form as the server defines it (GET /admin/supplierMap), the spec's defaults until it answers
  const defaults = useQuery({
    queryKey: ["supplier-map-defaults"],
    staleTime: Infinity,
    queryFn: async ({ signal }) => (await api(supplierMapDefaultsCall, {}, { signal })).result,
  });
  const [formOpen, setFormOpen] = React.useState(false);
  const [editing, setEditing] = React.useState<SupplierMapRow | null>(null);
  const [removing, setRemoving] = React.useState<SupplierMapRow | null>(null);
  const [busyRemove, setBusyRemove] = React.useState(false);
  const formCard = React.useRef<HTMLDivElement>(null);
  // the map just saved: its row is brought into view and lit for a moment
  const [highlight, setHighlight] = React.useState<{ id: string; nonce: number } | null>(null);

  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: key });
    void qc.invalidateQueries({ queryKey: projectKey(project._id) });
  };
  const patch = (id: string, p: Partial<SupplierMapRow>) =>
    qc.setQueryData<SupplierMapRow[]>(key, (old) => old?.map((m) => (m._id === id ? { ...m, ...p } : m)));

  async function toggle(m: SupplierMapRow, k: ToggleKey, on: boolean) {
    patch(m._id, { [k]: on });
    try {
      const res = await api(updateSupplierMapCall, {
        params: { id: m._id },
        body: { [k]: on } as ToggleBody,
      });
      notify.success(res.message);
    } catch {
      patch(m._id, { [k]: m[k] });
    }
  }

  async function remove(m: SupplierMapRow) {
    setBusyRemove(true);
    try {
      const res = await api(updateSupplierMapCall, { params: { id: m._id }, body: { isDeleted: true } });
      qc.setQueryData<SupplierMapRow[]>(key, (old) => old?.filter((x) => x._id !== m._id));
      void qc.invalidateQueries({ queryKey: projectKey(project._id) });
      notify.success(res.message);
    } catch {
      // shown by the API client
    } finally {
      setBusyRemove(false);
      setRemoving(null);
    }
  }

  function edit(m: SupplierMapRow) {
    setEditing(m);
    setFormOpen(true);
    requestAnimationFrame(() => formCard.current?.scrollIntoView({ behavior: "smooth", block: "start" }));
  }

  const list = maps.data ?? [];
  return (
    <div className="flex flex-col gap-5">
      <MapsTable
        maps={maps.data}
        loading={maps.isPending}
        error={maps.isError ? maps.error : null}
        onRetry={() => void maps.refetch()}
        disabled={!canEdit}
        highlight={highlight}
        onToggle={toggle}
        onEdit={edit}
        onRemove={setRemoving}
        onAdd={() => setFormOpen(true)}
      />

      <div ref={formCard} className="scroll-mt-20">
        <Card>
          <button
            type="button"
            className="flex w-full cursor-pointer items-center justify-between gap-3 rounded-xl p-5 text-left focus-visible:ring-2 focus-visible:ring-ring"
            aria-expanded={formOpen}
            aria-controls="supplier-map-form"
            onClick={() => setFormOpen((o) => !o)}
          >
            <span className="flex flex-col gap-1">
              <span className="text-base font-semibold">Add/Update Supplier</span>
              <span className="text-sm text-muted-foreground">
                Choose a supplier already on the list to update its settings.
              </span>
            </span>
            <ChevronDown className={cn("size-5 shrink-0 transition-transform", formOpen && "rotate-180")} />
          </button>
          {formOpen
            ? (
              <CardContent id="supplier-map-form">
                <SupplierMapEditor
                  key={editing?._id ?? "new"}
                  projectId={project._id}
                  maps={list}
                  initial={editing}
                  empty={formDefaults(defaults.data)}
                  disabled={!canEdit}
                  onSaved={async (saved) => {
                    setEditing(null);
                    await refresh();
                    setHighlight((h) => ({ id: saved._id, nonce: (h?.nonce ?? 0) + 1 }));
                  }}
                  onCancel={() => {
                    setEditing(null);
                    setFormOpen(false);
                  }}
                />
              </CardContent>
            )
            : null}
        </Card>
      </div>

      <QuestionnairePanel project={project} disabled={!canEdit} />

      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => !o && !busyRemove && setRemoving(null)}
        title={MSG.areYouSure}
        description={removing ? `${removing.supplierName} is removed from the project.` : undefined}
        busy={busyRemove}
        onConfirm={() => (removing ? remove(removing) : undefined)}
      />
    </div>
  );
}

/**
 * The flag of a map that sends some respondents nowhere: for these statuses neither the map nor its
 * supplier has a return link, so they end on Samplex's own page instead of back at their panel.
 */
function MissingReturns({ map }: { map: SupplierMapRow }) {
  const missing = map.returnUrlsMissing ?? [];
  if (!missing.length) return null;
  return (
    <span
      className="mt-1 flex max-w-60 items-start gap-1 text-xs font-medium text-amber-700 dark:text-amber-400"
      role="note"
      data-testid="missing-returns"
      title="Neither this map nor the supplier's record has a return link for these outcomes: those respondents end on Samplex's own page, not back at their panel. Add the links here or on the supplier."
    >
      <TriangleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>No return link: {missing.join(", ")}</span>
    </span>
  );
}

function MapsTable({
  maps,
  loading,
  error,
  onRetry,
  disabled,
  highlight,
  onToggle,
  onEdit,
  onRemove,
  onAdd,
}: {
  maps: SupplierMapRow[] | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  disabled: boolean;
  highlight: { id: string; nonce: number } | null;
  onToggle: (m: SupplierMapRow, k: ToggleKey, on: boolean) => void;
  onEdit: (m: SupplierMapRow) => void;
  onRemove: (m: SupplierMapRow) => void;
  onAdd: () => void;
}) {
  const columns: TableColumn<SupplierMapRow>[] = [
    {
      id: "supplier",
      header: "Supplier and entry link",
      className: "min-w-52",
      cell: (m) => (
        <>
          <span className="block font-medium">{m.supplierName}</span>
          <span className="flex items-center gap-1">
            <code className="max-w-60 truncate text-xs text-muted-foreground" title={m.redirectUrl}>
              {m.redirectUrl}
            </code>
            <CopyButton text={m.redirectUrl} label={`entry link of ${m.supplierName}`} className="size-7" />
          </span>
          <MissingReturns map={m} />
        </>
      ),
    },
    {
      id: "cpi",
      header: "CPI",
      align: "right",
      className: "tabular-nums",
      cell: (m) => formatMoney(m.supplierCPI),
    },
    {
      id: "quota",
      header: "Quota",
      align: "right",
      className: "tabular-nums",
      cell: (m) => formatCount(m.supplierQuota),
    },
    {
      id: "clickQuota",
      header: "Click quota",
      align: "right",
      headerClassName: "leading-tight whitespace-normal!",
      className: "tabular-nums",
      cell: (m) => formatCount(m.supplierClickQuota),
    },
    {
      id: "outcomes",
      header: (
        <span title="Complete / Terminate / Over quota / Quality term / Drop">C / ST / OQ / QT / DO</span>
      ),
      align: "right",
      className: "tabular-nums",
      cell: (m) => [m.complete, m.terminate, m.overQuota, m.qualityTerm, m.drop].map(formatCount).join(" / "),
    },
    {
      id: "clicked",
      header: "Clicked",
      align: "right",
      className: "tabular-nums",
      cell: (m) => formatCount(m.clicked),
    },
    ...TOGGLES.map((t): TableColumn<SupplierMapRow> => ({
      id: t.key,
      header: t.label,
      cell: (m) => (
        <label className="flex flex-col items-start gap-1 whitespace-nowrap text-xs">
          <Switch
            checked={m[t.key]}
            disabled={disabled}
            aria-label={`${t.label} of ${m.supplierName}`}
            onCheckedChange={(on) => onToggle(m, t.key, on)}
          />
          <span className={m[t.key] ? "text-foreground" : "text-muted-foreground"}>
            {m[t.key] ? "Active" : "InActive"}
          </span>
        </label>
      ),
    })),
  ];
  return (
    <EditableTable
      caption="Mapped suppliers"
      testId="supplier-maps"
      columns={columns}
      rows={maps}
      rowKey={(m) => m._id}
      rowProps={(m) => ({ "data-map-id": m._id })}
      loading={loading}
      error={error}
      onRetry={onRetry}
      what="suppliers"
      emptyText="No suppliers mapped yet"
      emptyAction={
        <Button variant="outline" size="sm" disabled={disabled} onClick={onAdd}>
          <Plus /> Add Supplier
        </Button>
      }
      highlightKey={highlight?.id}
      highlightNonce={highlight?.nonce}
      rowActions={(m) => (
        <>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={`Download respondents of ${m.supplierName}`}
            title="Supplier report: this supplier's respondents (CSV)"
            onClick={() =>
              downloadReport(
                supplierReportCall,
                { supplierMapId: m._id, projectId: m.projectId },
                "supplier-identifiers.csv",
              )}
          >
            <Download />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={`Edit ${m.supplierName}`}
            title="Edit"
            disabled={disabled}
            onClick={() => onEdit(m)}
          >
            <Pencil />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            className="text-destructive hover:bg-destructive/10 hover:text-destructive"
            aria-label={`Remove ${m.supplierName}`}
            title="Remove"
            disabled={disabled}
            onClick={() => onRemove(m)}
          >
            <Trash2 />
          </Button>
        </>
      )}
    />
  );
}

// ---------------------------------------------------------------- Add Questionaire

const QuestionnaireForm = v.object({
  projectQuestionaire: v.optional(ProjectPatch.entries.projectQuestionaire, ""),
});

/** 'Add Questionaire': the project's questionnaire in rich text, saved by Update. */
function QuestionnairePanel({ project, disabled }: { project: ProjectRecord; disabled: boolean }) {
  const qc = useQueryClient();
  const form = useSchemaForm(QuestionnaireForm, { projectQuestionaire: project.projectQuestionaire ?? "" });
  async function submit(values: v.InferOutput<typeof QuestionnaireForm>) {
    const res = await api(updateProjectCall, { params: { id: project._id }, body: values });
    qc.setQueryData<ProjectRecord>(projectKey(project._id), (old) => (old ? { ...old, ...res.result } : old));
    form.reset(values);
    notify.success(res.message);
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Add Questionaire</CardTitle>
        <CardDescription>The questionnaire of this project, for its suppliers.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form form={form} onSubmit={submit} guardUnsaved className="flex flex-col gap-3">
          <RichTextField
            name="projectQuestionaire"
            label={`Questionnaire of ${project.projectCode}`}
            minHeight={500}
            placeholder="Write the questionnaire…"
          />
          <div className="flex justify-end">
            {disabled ? <Button disabled>Update</Button> : <SubmitButton>Update</SubmitButton>}
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
