/**
 * Suppliers (part 1, 2.8 and 5 "Supplier map"): the suppliers mapped to this child project with
 * their entry link (copy, indicator 1000 ms), CPI, quotas and counts, and four toggles shown as
 * Active/InActive (allowTraffic, isTestLink, isPreScreen, isBoarded); a collapsible Add/Update
 * Supplier form (defaults: traffic and boarded on, test link off, CPI and quotas 0; redirects must
 * carry [sid]); the supplier report of each map (its respondents as CSV); and the 'Add Questionaire'
 * panel, the project's questionnaire (projectQuestionaire, part 1 section 3) saved with the project
 * update call: the supplier map update call takes only its toggles.
 */
import * as React from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useFormContext, useWatch } from "react-hook-form";
import * as v from "valibot";
import { ChevronDown, Download, Pencil, Plus, Trash2 } from "lucide-react";
import { MSG } from "../../../../../shared/messages.ts";
import { ProjectPatch, SupplierMapForm } from "../../../../../shared/schemas/project.ts";
import { api } from "../../../lib/api.ts";
import { updateProjectCall } from "../../../../../shared/api/projects.ts";
import { supplierReportCall } from "../../../../../shared/api/project-reports.ts";
import {
  listSupplierMapsCall,
  saveSupplierMapCall,
  type SupplierMapDefaults,
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
import { SubmitButton, TextField } from "../../../components/form/fields.tsx";
import { RichTextField } from "../../../components/form/rich-text-field.tsx";
import { SwitchField } from "../../../components/form/switch-field.tsx";
import { useOptions } from "../../../components/filters/useOptions.ts";
import { SelectField } from "../../../components/form/select-field.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { ConfirmDialog } from "../../../components/ui/dialog.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { SUPPLIERS } from "../../common/lookups.ts";
import { projectKey, type ProjectRecord, type SupplierMapRow, supplierMapsKey } from "../projects.ts";
import { CopyButton } from "../parts.tsx";
import { downloadReport } from "../actions.tsx";
import { SUPPLIER_MAP_DEFAULTS } from "../../../../../shared/api/supplier-maps.ts";

const TOGGLES = [
  { key: "allowTraffic", label: "Traffic" },
  { key: "isTestLink", label: "Test link" },
  { key: "isPreScreen", label: "Pre-screen" },
  { key: "isBoarded", label: "Boarded" },
] as const;
type ToggleKey = (typeof TOGGLES)[number]["key"];
/** One toggle's change (`{ [key]: on }`). */
type ToggleBody = BodyIn<typeof updateSupplierMapCall>;

const REDIRECTS = [
  { name: "redirectComplete", label: "Complete", example: "https://panel.example/complete?sid=[sid]" },
  { name: "redirectTerminate", label: "Terminate", example: "https://panel.example/terminate?sid=[sid]" },
  { name: "redirectQuotaFull", label: "Over Quota", example: "https://panel.example/quotafull?sid=[sid]" },
  { name: "redirectQualityTerm", label: "Quality Term", example: "https://panel.example/quality?sid=[sid]" },
  { name: "redirectSurveyClose", label: "Survey Close", example: "https://panel.example/closed?sid=[sid]" },
] as const;

/** The spec's defaults (what the supplier map's reset call answers), numbers as the text fields hold them. */
const DEFAULTS = {
  ...SUPPLIER_MAP_DEFAULTS,
  supplierCPI: String(SUPPLIER_MAP_DEFAULTS.supplierCPI),
  supplierQuota: String(SUPPLIER_MAP_DEFAULTS.supplierQuota),
  supplierClickQuota: String(SUPPLIER_MAP_DEFAULTS.supplierClickQuota),
};

/** The server's empty map as form values (numbers as the text fields hold them). */
function formDefaults(server: SupplierMapDefaults | undefined): typeof DEFAULTS {
  if (!server) return DEFAULTS;
  const out = { ...DEFAULTS } as Record<string, unknown>;
  for (const [k, v] of Object.entries(server)) if (k in DEFAULTS && v !== null && v !== undefined) out[k] = v;
  for (const k of ["supplierCPI", "supplierQuota", "supplierClickQuota"]) out[k] = String(out[k]);
  return out as typeof DEFAULTS;
}

function valuesOf(m: SupplierMapRow) {
  return {
    supplierId: m.supplierId,
    supplierCPI: String(m.supplierCPI),
    supplierQuota: String(m.supplierQuota),
    supplierClickQuota: String(m.supplierClickQuota),
    allowTraffic: m.allowTraffic,
    isBoarded: m.isBoarded,
    isTestLink: m.isTestLink,
    isPreScreen: m.isPreScreen,
    redirectComplete: m.redirectComplete,
    redirectTerminate: m.redirectTerminate,
    redirectQuotaFull: m.redirectQuotaFull,
    redirectQualityTerm: m.redirectQualityTerm,
    redirectSurveyClose: m.redirectSurveyClose,
  };
}

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

function SupplierMapEditor({
  projectId,
  maps,
  initial,
  empty,
  disabled,
  onSaved,
  onCancel,
}: {
  projectId: string;
  maps: SupplierMapRow[];
  initial: SupplierMapRow | null;
  empty: typeof DEFAULTS;
  disabled: boolean;
  onSaved: (saved: SupplierMapRow) => Promise<void>;
  onCancel: () => void;
}) {
  const start = { projectId, ...(initial ? valuesOf(initial) : empty) };
  const form = useSchemaForm(SupplierMapForm, start);

  async function submit(values: SupplierMapForm) {
    const res = await api(saveSupplierMapCall, { body: { ...values, projectId } });
    notify.success(res.message);
    // the whole form starts again, the supplier select included, ready for the next supplier
    form.reset({ projectId, ...empty });
    await onSaved(res.result);
  }

  return (
    <Form form={form} onSubmit={submit} guardUnsaved className="flex flex-col gap-5">
      <FollowSupplier maps={maps} projectId={projectId} />
      <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        <SupplierSelect maps={maps} />
        <TextField name="supplierCPI" label="Supplier CPI" required inputMode="decimal" autoComplete="off" />
        <TextField
          name="supplierQuota"
          label="Supplier Quota"
          required
          inputMode="numeric"
          autoComplete="off"
        />
        <TextField
          name="supplierClickQuota"
          label="Supplier Click Quota"
          required
          inputMode="numeric"
          autoComplete="off"
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <SwitchField name="allowTraffic" label="Allow traffic" />
        <SwitchField name="isBoarded" label="Boarded" />
        <SwitchField name="isTestLink" label="Test link" />
        <SwitchField name="isPreScreen" label="Pre-screen" />
      </div>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-medium">
          Redirects back to the supplier{" "}
          <span className="font-normal text-muted-foreground">
            (each must carry <code className="rounded bg-muted px-1">[sid]</code>)
          </span>
        </legend>
        <div className="grid gap-4 lg:grid-cols-2">
          {REDIRECTS.map((r) => (
            <TextField
              key={r.name}
              name={r.name}
              label={r.label}
              type="url"
              placeholder={r.example}
              autoComplete="off"
              spellCheck={false}
            />
          ))}
        </div>
      </fieldset>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onCancel}>Cancel</Button>
        {disabled ? <Button disabled>Save supplier</Button> : <SaveLabel maps={maps} />}
      </div>
    </Form>
  );
}

function SupplierSelect({ maps }: { maps: SupplierMapRow[] }) {
  const { options, loading } = useOptions(SUPPLIERS);
  const mapped = new Set(maps.map((m) => m.supplierId));
  const labelled = options.map((o) => (mapped.has(o.value) ? { ...o, label: `${o.label} (mapped)` } : o));
  return (
    <SelectField
      name="supplierId"
      label="Supplier"
      required
      options={labelled}
      placeholder={loading ? "Loading suppliers…" : "Select a supplier"}
    />
  );
}

/** Choosing a supplier that is already mapped loads its settings: the form becomes its Update. */
function FollowSupplier({ maps, projectId }: { maps: SupplierMapRow[]; projectId: string }) {
  const { reset } = useFormContext();
  const supplierId = useWatch({ name: "supplierId" }) as string;
  const last = React.useRef(supplierId);
  React.useEffect(() => {
    if (supplierId === last.current) return;
    last.current = supplierId;
    // a supplier not mapped yet keeps what was typed
    const m = maps.find((x) => x.supplierId === supplierId);
    if (m) reset({ projectId, ...valuesOf(m) });
  }, [supplierId, maps, projectId, reset]);
  return null;
}

function SaveLabel({ maps }: { maps: SupplierMapRow[] }) {
  const supplierId = useWatch({ name: "supplierId" }) as string;
  const update = maps.some((m) => m.supplierId === supplierId);
  return <SubmitButton>{update ? "Update supplier" : "Add supplier"}</SubmitButton>;
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
