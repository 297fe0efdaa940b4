/**
 * The row dialogs of the project grids (part 1, 2.6), behind one switch: Logs (activity timeline),
 * Security stats, Supplier Stats, Redirects, Prescreen Data, Identifiers, Supplier Mapped, Send Bulk Email, Clone Criteria,
 * Edit Status, Close (PO number) and the second question of Proceed to Invoice and Archieve (e-mail
 * the suppliers?). Each loads what it shows when it opens.
 */
import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { projectStatusLabel } from "../../../../shared/status.ts";
import { childOptionsCall, updateProjectCall } from "../../../../shared/api/projects.ts";
import { listSupplierMapsCall } from "../../../../shared/api/supplier-maps.ts";
import { systemLogCall } from "../../../../shared/api/system-log.ts";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { formatCount, formatDateTime, formatMoney } from "../../lib/format.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { LogActivity } from "../../components/display/LogActivity.tsx";
import { CopyButton } from "../../components/display/CopyButton.tsx";
import { EmptyState, ErrorState, LoadingRows } from "../../components/display/states.tsx";
import { type StaticColumn, StaticTable } from "../../components/table/StaticTable.tsx";
import { ViewDialog } from "../../components/dialogs/ViewDialog.tsx";
import type { LogItem, ProjectRow, SupplierMapRow } from "./projects.ts";
import { subtitle } from "./parts.tsx";
import { CloseProjectDialog, EditStatusDialog } from "./StatusMenu.tsx";
import { SupplierStatsDialog } from "./SupplierStatsDialog.tsx";
import { SecurityStatsDialog } from "./SecurityStatsDialog.tsx";
import { RedirectsDialog } from "./RedirectsDialog.tsx";
import { PrescreenDataDialog } from "./PrescreenDataDialog.tsx";
import { IdentifiersReportDialog } from "./IdentifiersReportDialog.tsx";
import { CloneDialog } from "./CloneDialog.tsx";
import { ProjectEmailDialog } from "./ProjectEmailDialog.tsx";
import { EmailSuppliersQuestion } from "./EmailSuppliersQuestion.tsx";

export type DialogKind =
  | "logs"
  | "security"
  | "supplierStats"
  | "redirects"
  | "prescreen"
  | "identifiers"
  | "supplierMapped"
  | "email"
  | "clone"
  | "status"
  | "close"
  | "invoice"
  | "archive";

export type OpenDialog = { kind: DialogKind; project: ProjectRow } | null;

export function ProjectDialogs({
  open,
  onOpenChange,
  onChanged,
  onStatusChange,
}: {
  open: OpenDialog;
  onOpenChange: (open: OpenDialog) => void;
  /** A dialog changed the project (closed, invoiced, archived): refresh the grid. */
  onChanged: (project?: ProjectRow) => void;
  /** Edit Status chose a status set at once: the same change as the grid's status menu. */
  onStatusChange: (project: ProjectRow, status: number) => void;
}) {
  const close = () => onOpenChange(null);
  const is = (k: DialogKind) => (open?.kind === k ? open.project : null);
  return (
    <>
      <LogsDialog project={is("logs")} onClose={close} />
      <SecurityStatsDialog project={is("security")} onClose={close} />
      <SupplierStatsDialog project={is("supplierStats")} onClose={close} />
      <RedirectsDialog project={is("redirects")} onClose={close} />
      <PrescreenDataDialog project={is("prescreen")} onClose={close} />
      <IdentifiersReportDialog project={is("identifiers")} onClose={close} />
      <SupplierMappedDialog project={is("supplierMapped")} onClose={close} />
      <ProjectEmailDialog
        projects={is("email") ? [is("email")!] : []}
        onClose={close}
      />
      <CloneDialog project={is("clone")} onClose={close} />
      <EditStatusDialog
        project={is("status")}
        onOpenChange={(o) => !o && close()}
        onChange={(status) => {
          const p = is("status");
          close();
          if (p) onStatusChange(p, status);
        }}
        onClose={() => {
          const p = is("status");
          if (p) onOpenChange({ kind: "close", project: p });
        }}
      />
      <CloseProjectDialog
        project={is("close")}
        onOpenChange={(o) => !o && close()}
        onClosed={(p) => {
          close();
          onChanged(p);
        }}
      />
      <SupplierEmailQuestion
        project={is("invoice") ?? is("archive")}
        to={open?.kind === "archive" ? 7 : 4}
        onClose={close}
        onDone={(p) => {
          close();
          onChanged(p);
        }}
      />
    </>
  );
}

// ---------------------------------------------------------------- Logs

function LogsDialog({ project, onClose }: { project: ProjectRow | null; onClose: () => void }) {
  return (
    <ViewDialog
      row={project}
      onClose={onClose}
      title="Logs"
      description={(project) => `${subtitle(project)}: every change, newest first.`}
    >
      {(project) => <Logs project={project} />}
    </ViewDialog>
  );
}

function Logs({ project }: { project: ProjectRow }) {
  const logs = useQuery({
    queryKey: ["project-logs", project._id],
    staleTime: 0,
    queryFn: async ({ signal }) => {
      const { result } = await api(systemLogCall, { body: { filter: project._id } }, { signal });
      return (Array.isArray(result) ? result : []) as LogItem[];
    },
  });
  return (
    <>
      {logs.isPending
        ? <LoadingRows label="Loading logs" rows={4} />
        : logs.isError
        ? <ErrorState what="logs" error={logs.error} onRetry={() => void logs.refetch()} />
        : logs.data.length === 0
        ? <EmptyState text="No activity yet" />
        : (
          <ol className="relative ml-2 border-l pl-5" aria-label="Activity" data-testid="log-timeline">
            {logs.data.map((l) => (
              <li key={l._id} className="relative pb-4 last:pb-0">
                <span
                  className="absolute -left-[25px] top-1.5 size-2.5 rounded-full border-2 border-card bg-primary"
                  aria-hidden="true"
                />
                <LogActivity activity={l.activity} changes={l.changes} className="font-medium leading-snug" />
                <p className="text-xs text-muted-foreground">
                  <time dateTime={l.createdAt}>{formatDateTime(l.createdAt)}</time> · by {l.name || "system"}
                </p>
              </li>
            ))}
          </ol>
        )}
    </>
  );
}

// ---------------------------------------------------------------- Supplier Mapped

type MappedRow = SupplierMapRow & { projectCode: string };

const MAPPED_COLUMNS: StaticColumn<MappedRow>[] = [
  { header: "Project", cell: (m) => m.projectCode, className: "whitespace-nowrap" },
  { header: "Supplier", cell: (m) => m.supplierName, className: "font-medium" },
  { header: "CPI", cell: (m) => formatMoney(m.supplierCPI), numeric: true },
  { header: "Quota", cell: (m) => formatCount(m.supplierQuota), numeric: true },
  { header: "Complete", cell: (m) => formatCount(m.complete), numeric: true },
  { header: "ST", cell: (m) => formatCount(m.terminate), numeric: true },
  { header: "OQ", cell: (m) => formatCount(m.overQuota), numeric: true },
  { header: "Clicked", cell: (m) => formatCount(m.clicked), numeric: true },
  {
    header: "Traffic",
    cell: (m) => (
      <Badge tone={m.allowTraffic ? "green" : "zinc"}>{m.allowTraffic ? "Active" : "InActive"}</Badge>
    ),
  },
  {
    header: "Entry link",
    cell: (m) => (
      <span className="flex items-center gap-1">
        <code className="max-w-48 truncate text-xs" title={m.redirectUrl}>{m.redirectUrl}</code>
        <CopyButton text={m.redirectUrl} label={`entry link of ${m.supplierName}`} />
      </span>
    ),
  },
];

function SupplierMappedDialog({ project, onClose }: { project: ProjectRow | null; onClose: () => void }) {
  return (
    <ViewDialog
      row={project}
      onClose={onClose}
      className="max-w-5xl"
      title="Supplier Mapped"
      description={(project) => `${subtitle(project)}: suppliers sending respondents and how they do.`}
    >
      {(project) => <SupplierMapped project={project} />}
    </ViewDialog>
  );
}

function SupplierMapped({ project }: { project: ProjectRow }) {
  const maps = useQuery({
    queryKey: ["supplier-mapped", project._id],
    staleTime: 0,
    queryFn: async ({ signal }): Promise<MappedRow[]> => {
      const p = project!;
      const children: { _id: string; projectCode: string }[] = p.projectType === 2
        ? [p]
        : (await api(childOptionsCall, { params: { parentProjectId: p._id } }, { signal })).result;
      const lists = await Promise.all(children.map(async (c) => {
        const res = await api(listSupplierMapsCall, { body: { projectId: c._id, search: "" } }, { signal });
        return res.result.map((m) => ({ ...m, projectCode: c.projectCode }));
      }));
      return lists.flat();
    },
  });
  return (
    <>
      {maps.isPending
        ? <LoadingRows label="Loading supplier maps" />
        : maps.isError
        ? <ErrorState what="supplier maps" error={maps.error} onRetry={() => void maps.refetch()} />
        : maps.data.length === 0
        ? <EmptyState text="No suppliers mapped yet" />
        : (
          <StaticTable
            caption="Mapped suppliers"
            rows={maps.data}
            rowKey={(m) => m._id}
            columns={MAPPED_COLUMNS}
          />
        )}
    </>
  );
}

// ---------------------------------------------------------------- Proceed to Invoice / Archieve

/**
 * The second question of Proceed to Invoice (4) and Archieve (7), after 'Are you sure?': whether
 * to e-mail the mapped suppliers. The status goes with the answer as sendEmail.
 */
function SupplierEmailQuestion({
  project,
  to,
  onClose,
  onDone,
}: {
  project: ProjectRow | null;
  to: 4 | 7;
  onClose: () => void;
  onDone: (p: ProjectRow) => void;
}) {
  const [busy, setBusy] = React.useState<"yes" | "no" | null>(null);
  async function apply(sendEmail: boolean) {
    if (!project) return;
    setBusy(sendEmail ? "yes" : "no");
    try {
      const res = await api(updateProjectCall, {
        params: { id: project._id },
        body: { projectStatus: to, sendEmail },
      });
      notify.success(res.message);
      onDone(res.result);
    } catch {
      // the API client has shown the reason
    } finally {
      setBusy(null);
    }
  }
  return (
    <EmailSuppliersQuestion
      project={project}
      action={to === 4 ? "Proceed to Invoice" : "Archieve"}
      what={`moves to ${projectStatusLabel(to)}`}
      busy={busy}
      onClose={onClose}
      onAnswer={(sendEmail) => void apply(sendEmail)}
    />
  );
}
