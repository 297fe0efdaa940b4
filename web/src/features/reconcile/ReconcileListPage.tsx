/**
 * /admin/reconcile (part 2, 2 "Reconcile"): group projects (page size 20, status Closed to start)
 * with their completes, approved, rejected and not yet reconciled counts, and the row actions of
 * the reconcile screens: upload, Undo Reconcile ('Do you sure?'), Proceed to Invoice, Archieve and
 * Revoke Project (each: confirm, then whether to e-mail the suppliers).
 */
import { useEffect, useMemo, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Archive, FileUp, Receipt, RotateCcw, Undo2 } from "lucide-react";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { countColumn, moneyColumn } from "../../components/data-grid/columns.tsx";
import { StatusBadge } from "../projects/index.ts";
import { PROJECT_STATUS } from "../../../../shared/status.ts";
import { reconcileUndo } from "../../../../shared/api/reconcile.ts";
import { DEFAULT_RECONCILE_STATUS, reconcileListDecl, type ReconcileListItem } from "./reconcile.ts";
import { type StatusStep, StatusStepDialog, UNDO_QUESTION } from "./ReconcileDialogs.tsx";

export default function ReconcileListPage() {
  const [params, setParams] = useSearchParams();
  // the list opens on Closed projects; a status the user picks (or clears) afterwards stands
  const [ready, setReady] = useState(() => params.has("projectStatus"));
  useEffect(() => {
    if (ready) return;
    const next = new URLSearchParams(params);
    next.append("projectStatus", String(DEFAULT_RECONCILE_STATUS));
    setParams(next, { replace: true });
    setReady(true);
  }, [ready, params, setParams]);
  return ready ? <ReconcileList /> : null;
}

function ReconcileList() {
  const list = useList<ReconcileListItem>(reconcileListDecl);
  const navigate = useNavigate();
  const [step, setStep] = useState<{ kind: StatusStep; row: ReconcileListItem } | null>(null);

  const columns = useMemo<GridColumn<ReconcileListItem>[]>(() => [
    {
      id: "projectCode",
      header: "Project code",
      className: "min-w-36",
      cell: (p) => (
        <div className="flex flex-col">
          <Link
            to={`/admin/reconcile/${p._id}/edit`}
            className="w-fit rounded-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            {p.projectCode}
          </Link>
          <span className="text-xs text-muted-foreground">{p.projectName}</span>
        </div>
      ),
    },
    { id: "clientName", header: "Client", cell: (p) => p.clientName },
    {
      id: "projectStatus",
      header: "Status",
      cell: (p) => <StatusBadge status={p.projectStatus} label={p.projectStatusLabel} />,
    },
    countColumn<ReconcileListItem>("complete", "Complete", (p) => p.complete),
    countColumn<ReconcileListItem>("approved", "Approved", (p) => p.approved),
    countColumn<ReconcileListItem>("rejected", "Rejected", (p) => p.rejected),
    countColumn<ReconcileListItem>("pending", "Not reconciled", (p) => p.pending),
    moneyColumn<ReconcileListItem>("cpi", "CPI", (p) => p.cpi),
    { id: "poNumber", header: "PO number", cell: (p) => p.poNumber },
    {
      id: "lastReconcile",
      header: "Last upload",
      cell: (p) =>
        p.lastReconcile
          ? (
            <span className="text-xs">
              {p.lastReconcile.typeLabel}: {p.lastReconcile.matched}
              {p.lastReconcile.fileName ? ` (${p.lastReconcile.fileName})` : ""}
            </span>
          )
          : <span className="text-xs text-muted-foreground">none</span>,
    },
  ], []);

  const settled = (p: ReconcileListItem) =>
    p.projectStatus === PROJECT_STATUS.INVOICED || p.projectStatus === PROJECT_STATUS.ARCHIEVED
      ? `${p.projectStatusLabel}: settled`
      : false;

  const actions = useMemo<RowAction<ReconcileListItem>[]>(() => [
    {
      label: "Upload identifiers",
      icon: FileUp,
      disabled: settled,
      onSelect: (p) => navigate(`/admin/reconcile/${p._id}/edit`),
    },
    {
      label: "Undo Reconcile",
      icon: Undo2,
      disabled: (p) => settled(p) || (!p.lastReconcile && "Nothing to undo"),
      confirm: { title: UNDO_QUESTION, description: (p) => undoDescription(p) },
      onSelect: async (p) => {
        const res = await api(reconcileUndo, { params: { id: p._id } });
        notify.success(res.message);
        void list.invalidate();
      },
    },
    {
      label: "Proceed to Invoice",
      icon: Receipt,
      hidden: (p) => p.projectStatus !== PROJECT_STATUS.CLOSED,
      onSelect: (p) => setStep({ kind: "invoice", row: p }),
    },
    {
      label: "Archieve",
      icon: Archive,
      hidden: (p) =>
        !([PROJECT_STATUS.CLOSED, PROJECT_STATUS.READY_TO_INVOICE, PROJECT_STATUS.INVOICED] as number[])
          .includes(p.projectStatus),
      onSelect: (p) => setStep({ kind: "archive", row: p }),
    },
    {
      label: "Revoke Project",
      icon: RotateCcw,
      destructive: true,
      hidden: (p) =>
        p.projectStatus !== PROJECT_STATUS.READY_TO_INVOICE && p.projectStatus !== PROJECT_STATUS.ARCHIEVED,
      onSelect: (p) => setStep({ kind: "revoke", row: p }),
    },
  ], [navigate, list.invalidate]);

  return (
    <>
      <PageHeader
        title="Reconcile"
        description="Approve or reject each project's respondent identifiers from the client's files, then send it on to invoicing."
      />
      <FilterToolbar
        list={list}
        actions={<NewButton to="/admin/reconcile/add">Add Reconcile</NewButton>}
      />
      <DataGrid list={list} columns={columns} rowActions={actions} caption="Reconcile" />
      <StatusStepDialog
        step={step?.kind ?? null}
        project={step?.row ?? null}
        onClose={() => setStep(null)}
        onDone={() => {
          setStep(null);
          void list.invalidate();
        }}
      />
    </>
  );
}

export function undoDescription(
  p: { projectCode: string; lastReconcile: ReconcileListItem["lastReconcile"] },
) {
  const r = p.lastReconcile;
  return r
    ? `Takes back the last upload of ${p.projectCode}: ${r.matched} ${r.typeLabel.toLowerCase()}${
      r.fileName ? ` from ${r.fileName}` : ""
    }.`
    : `${p.projectCode} has no upload to undo.`;
}
