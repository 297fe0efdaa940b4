/**
 * /admin/reconcile/add and /admin/reconcile/:reconcileid/edit (part 2, "Reconcile"): upload a file
 * of approved (1) or rejected (2) identifiers to a project (the add page picks the project, the edit
 * page is the project's), see what the upload did (the identifiers it did not match listed and
 * downloadable), undo it ('Do you sure?'), and the supplier
 * summary with its editable supplier CPI and admin-approved counts.
 *
 * The file is read in the browser and checked with the same rules as the server (papaparse, one
 * identifier a line, a header line and blank lines skipped): Upload stays disabled until it yields an
 * identifier, and a broken line is named before anything is sent.
 */
import { useMemo, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FileUp, Undo2 } from "lucide-react";
import { api, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Select } from "../../components/ui/select.tsx";
import { StatusBadge } from "../projects/index.ts";
import {
  listReconcileProjects,
  reconcileUndo,
  reconcileUpload,
  supplierSummaryCall,
} from "../../../../shared/api/reconcile.ts";
import { RECONCILE_TYPES } from "../../../../shared/schemas/reconcile.ts";
import { type ParsedIdentifiers, parseIdentifierFile } from "../../../../shared/reconcile-file.ts";
import { PROJECT_STATUS } from "../../../../shared/status.ts";
import type { ReconcileListItem, ReconcileResult, ReconcileSummary } from "./reconcile.ts";
import { undoDescription } from "./ReconcileListPage.tsx";
import { UNDO_QUESTION } from "./ReconcileDialogs.tsx";
import { SupplierSummary } from "./SupplierSummary.tsx";
import { UnknownIdentifiers } from "./UnknownIdentifiers.tsx";

export default function ReconcileFormPage() {
  const { reconcileid } = useParams();
  const [picked, setPicked] = useState("");
  const projectId = reconcileid ?? picked;
  const project = useQuery({
    queryKey: callKey(listReconcileProjects, "one", projectId),
    enabled: !!projectId,
    queryFn: async () =>
      (await api(listReconcileProjects, { body: { filter: { projectId }, limit: 1 } })).result.data[0] ??
        null,
  });
  const p = project.data ?? null;
  return (
    <>
      <PageHeader
        title={reconcileid ? "Edit Reconcile" : "Add Reconcile"}
        description="Approve or reject a project's completes from the client's file of respondent identifiers."
      />
      <div className="flex flex-col gap-4">
        {reconcileid ? null : <ProjectPicker value={picked} onChange={setPicked} />}
        {project.isError && reconcileid
          ? <p className="text-sm text-destructive">Project not found</p>
          : null}
        {p ? <ProjectCard p={p} onChanged={() => void project.refetch()} /> : null}
        {p ? <UploadCard p={p} onDone={() => void project.refetch()} /> : null}
        {p ? <SupplierSummary projectId={p._id} /> : null}
      </div>
    </>
  );
}

/** The add page's project: a search over the reconcile list, Closed projects first. */
function ProjectPicker({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const [search, setSearch] = useState("");
  const found = useQuery({
    queryKey: callKey(listReconcileProjects, "picker", search),
    queryFn: async () =>
      (await api(listReconcileProjects, {
        body: { search: search.trim(), limit: 50, filter: { projectStatus: [PROJECT_STATUS.CLOSED] } },
      })).result.data,
  });
  const options = (found.data ?? []).map((p) => ({
    value: p._id,
    label: `${p.projectCode} - ${p.projectName}`,
  }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Project</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="reconcile-search">Search a Closed project</Label>
          <Input
            id="reconcile-search"
            value={search}
            maxLength={100}
            placeholder="Code or name"
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="reconcile-project">Project</Label>
          <Select
            id="reconcile-project"
            value={value}
            onValueChange={onChange}
            options={options}
            placeholder={found.isLoading ? "Loading projects…" : "Select a project"}
          />
        </div>
      </CardContent>
    </Card>
  );
}

function ProjectCard({ p, onChanged }: { p: ReconcileListItem; onChanged: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  async function undo() {
    setBusy(true);
    try {
      const res = await api(reconcileUndo, { params: { id: p._id } });
      notify.success(res.message);
      setAsking(false);
      onChanged();
      void qc.invalidateQueries({ queryKey: callKey(supplierSummaryCall) });
    } catch {
      // shown by the API client
    } finally {
      setBusy(false);
    }
  }
  const figures: [string, number][] = [
    ["Complete", p.complete],
    ["Approved", p.approved],
    ["Rejected", p.rejected],
    ["Not reconciled", p.pending],
  ];
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle className="flex items-center gap-2">
          <span data-testid="reconcile-project">{p.projectCode} - {p.projectName}</span>
          <StatusBadge status={p.projectStatus} label={p.projectStatusLabel} />
        </CardTitle>
        <Button variant="outline" disabled={!p.lastReconcile} onClick={() => setAsking(true)}>
          <Undo2 /> Undo Reconcile
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {figures.map(([label, n]) => (
            <div key={label} className="rounded-md border p-2">
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid={`figure-${label}`}>{n}</dd>
            </div>
          ))}
        </dl>
        {p.lastReconcile ? <SummaryView s={p.lastReconcile} title="Last upload" /> : null}
      </CardContent>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={UNDO_QUESTION}
        description={undoDescription(p)}
        busy={busy}
        onConfirm={undo}
      />
    </Card>
  );
}

function SummaryView({ s, title, unknown }: { s: ReconcileSummary; title: string; unknown?: string[] }) {
  const rows: [string, number][] = [
    [`Matched (${s.typeLabel.toLowerCase()})`, s.matched],
    ["Unknown", s.unknown],
    ["Duplicate in the file", s.duplicates],
    ["Already reconciled", s.alreadyReconciled],
    ["Not a complete", s.notComplete],
  ];
  if (s.hooksQueued) rows.push(["Approved post-backs queued", s.hooksQueued]);
  return (
    <div className="rounded-md border p-3 text-sm" data-testid="reconcile-summary">
      <p className="mb-2 font-medium">
        {title}: {s.typeLabel}
        {s.fileName ? `, ${s.fileName}` : ""} ({s.identifiers} identifiers, {s.lines} lines)
      </p>
      <ul className="grid gap-1 sm:grid-cols-3">
        {rows.map(([label, n]) => (
          <li key={label}>
            {label}: <strong className="tabular-nums">{n}</strong>
          </li>
        ))}
      </ul>
      <UnknownIdentifiers s={s} shown={unknown} />
    </div>
  );
}

function UploadCard({ p, onDone }: { p: ReconcileListItem; onDone: () => void }) {
  const [type, setType] = useState("");
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ReconcileResult | null>(null);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const parsed = useMemo(() => (file ? parseIdentifierFile(file.text) : null), [file]);
  const ok: ParsedIdentifiers | null = parsed?.ok ? parsed.value : null;
  const settled = p.projectStatus === PROJECT_STATUS.INVOICED || p.projectStatus === PROJECT_STATUS.ARCHIEVED;
  async function submit() {
    if (!file || !type) return;
    setBusy(true);
    try {
      const res = await api(reconcileUpload, {
        params: { id: p._id },
        body: { type: Number(type) as 1 | 2, csv: file.text, fileName: file.name },
      });
      notify.success(res.message);
      setResult(res.result);
      setFile(null);
      onDone();
      void qc.invalidateQueries({ queryKey: callKey(supplierSummaryCall) });
      navigate(`/admin/reconcile/${p._id}/edit`, { replace: true });
    } catch {
      // shown by the API client
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Upload identifiers</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="reconcile-type">Type</Label>
            <Select
              id="reconcile-type"
              value={type}
              onValueChange={setType}
              options={RECONCILE_TYPES.map((t) => ({ value: String(t.value), label: t.label }))}
              placeholder="Approved or Rejected"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="reconcile-file">Identifier file (CSV, one identifier a line)</Label>
            <Input
              id="reconcile-file"
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              onChange={async (e) => {
                const f = e.target.files?.[0];
                setResult(null);
                setFile(f ? { name: f.name, text: await f.text() } : null);
              }}
            />
          </div>
        </div>
        {parsed && !parsed.ok
          ? <p className="text-sm text-destructive" role="alert">{parsed.error.message}</p>
          : null}
        {ok
          ? (
            <p className="text-sm text-muted-foreground" data-testid="reconcile-preview">
              {ok.identifiers.length} identifiers read
              {ok.duplicates ? `, ${ok.duplicates} duplicate` : ""}
              {ok.header ? ", header line skipped" : ""}
            </p>
          )
          : null}
        <div>
          <Button
            disabled={!ok || !ok.identifiers.length || !type || busy || settled}
            loading={busy}
            onClick={() => void submit()}
          >
            <FileUp /> Upload
          </Button>
        </div>
        {result ? <SummaryView s={result} title="Uploaded" unknown={result.unknownIdentifiers} /> : null}
      </CardContent>
    </Card>
  );
}
