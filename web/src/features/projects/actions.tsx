/**
 * What a project row can do, shared by the group list and the child list: status changes, the row
 * action menu (each item only where it applies) and the dialog the menu opens.
 */
import * as React from "react";
import { useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import {
  Archive,
  BarChart3,
  CircleDot,
  ClipboardList,
  Copy,
  FileDown,
  FilePlus2,
  FileSpreadsheet,
  FileText,
  FolderTree,
  History,
  IdCard,
  Link2,
  ListChecks,
  Mail,
  Pencil,
  Receipt,
  Send,
  Share2,
  ShieldCheck,
  Trash2,
  Truck,
} from "lucide-react";
import {
  actionApplies,
  PROJECT_STATUS,
  PROJECT_TYPE,
  projectStatusLabel,
  stopsLiveTraffic,
} from "../../../../shared/status.ts";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { api, download } from "../../lib/api.ts";
import type { AnyContract, BodyIn } from "../../../../shared/api/contract.ts";
import { updateProjectCall } from "../../../../shared/api/projects.ts";
import {
  groupReportCall,
  identifiersReportCall,
  projectIdentifiersReportCall,
  sendClientReportCall,
  sendRfqCall,
  sendSupplierLinksCall,
  supplierMapReportCall,
} from "../../../../shared/api/project-reports.ts";
import { saveBlob } from "../../lib/download.ts";
import { notify } from "../../lib/notify.ts";
import type { RowAction, RowActionEntry } from "../../components/data-grid/types.ts";
import type { ListController } from "../../components/data-grid/useList.ts";
import type { OpenDialog } from "./ProjectDialogs.tsx";
import type { ProjectRow } from "./projects.ts";
import { progressReportAction } from "./progress.ts";
import { useMayCall } from "../../lib/auth.ts";

/**
 * Status change from a grid's menu: PUT /admin/project/update/:id {projectStatus}. A change that
 * stops a Live project's traffic (`stopsLiveTraffic`) asks first; `confirmed` skips the question
 * where the user already confirmed (Edit Status). The toast is the server's message, which says
 * which child projects went with a group and which stay stopped. Returns the change and the
 * question's dialog, to render beside the grid.
 */
export function useStatusChange(list: ListController<ProjectRow>) {
  const qc = useQueryClient();
  const { patchRow, invalidate } = list;
  const [asking, setAsking] = React.useState<{ project: ProjectRow; status: number } | null>(null);
  const apply = React.useCallback(async (p: ProjectRow, projectStatus: number) => {
    const before = { projectStatus: p.projectStatus, projectStatusLabel: p.projectStatusLabel };
    patchRow(p._id, { projectStatus, projectStatusLabel: projectStatusLabel(projectStatus) });
    try {
      const res = await api(updateProjectCall, { params: { id: p._id }, body: { projectStatus } });
      notify.success(res.message);
      void qc.invalidateQueries({ queryKey: ["project", p._id] });
      // a group's children moved with it: their rows (and the group's figures) are read again
      if ("childStatus" in res.result && res.result.childStatus?.changed.length) void invalidate();
    } catch {
      patchRow(p._id, before);
    }
  }, [patchRow, invalidate, qc]);
  const change = React.useCallback((p: ProjectRow, status: number, confirmed = false) => {
    if (!confirmed && stopsLiveTraffic(p.projectStatus, status)) setAsking({ project: p, status });
    else void apply(p, status);
  }, [apply]);
  const dialog = (
    <ConfirmDialog
      open={!!asking}
      onOpenChange={(o) => !o && setAsking(null)}
      title={asking ? `Stop live traffic to ${asking.project.projectCode}?` : ""}
      description={asking ? stopDescription(asking.project, asking.status) : undefined}
      cancelLabel="No, keep it Live"
      confirmLabel={asking ? `Yes, set ${projectStatusLabel(asking.status)}` : "Yes"}
      onConfirm={() => {
        const a = asking;
        setAsking(null);
        if (a) void apply(a.project, a.status);
      }}
    />
  );
  return [change, dialog] as const;
}

function stopDescription(p: ProjectRow, status: number) {
  const group = p.projectType === PROJECT_TYPE.GROUP;
  return `${p.projectCode} is Live. Set to ${projectStatusLabel(status)}, it takes no more respondents: ` +
    `new arrivals are told the survey is closed.${
      group && status === PROJECT_STATUS.PAUSED
        ? " Its live child projects pause with it, and come back when it is Live again."
        : ""
    }`;
}

/** Confirms, then posts one of the project e-mails (RFQ, progress report, supplier data). */
type ProjectEmailCall = typeof sendRfqCall | typeof sendClientReportCall | typeof sendSupplierLinksCall;
function emailAction(
  label: string,
  icon: RowAction<ProjectRow>["icon"],
  call: ProjectEmailCall,
  what: string,
) {
  return {
    label,
    icon,
    destructive: false,
    confirm: { description: what, confirmLabel: "Yes, send" },
    onSelect: async (p: ProjectRow) => {
      const res = await api(call as typeof sendRfqCall, { body: { projectId: p._id } });
      notify.success(res.message);
    },
  } satisfies RowAction<ProjectRow>;
}

/** A per-project CSV report (its call and body), streamed by the server, saved under its file name. */
export async function downloadReport<C extends AnyContract>(call: C, body: BodyIn<C>, fallbackName: string) {
  try {
    const { blob, filename } = await download(call as AnyContract, { body } as never);
    saveBlob(blob, filename ?? fallbackName);
    notify.success("Export ready");
  } catch {
    // the API client has shown the reason
  }
}

/** A row action that downloads one of the project's CSV reports. */
function reportAction(
  label: string,
  icon: RowAction<ProjectRow>["icon"],
  call: typeof identifiersReportCall | typeof supplierMapReportCall | typeof groupReportCall,
  suffix: string,
): RowAction<ProjectRow> {
  return {
    label,
    icon,
    onSelect: (p) => downloadReport(call, { projectId: p._id }, `${p.projectCode}-${suffix}.csv`),
  };
}

/**
 * The row menu of the project grids, in groups: open or copy the project, look into it, its
 * reports, its e-mails, its status, and Delete on its own at the end.
 */
export function useProjectActions({
  list,
  open,
  kind,
}: {
  list: ListController<ProjectRow>;
  open: (d: OpenDialog) => void;
  kind: "group" | "child";
}): RowActionEntry<ProjectRow>[] {
  const navigate = useNavigate();
  const { removeRow } = list;
  // the identifiers report has its own roles (reports and support), not those of the project grids
  const mayIdentifiers = useMayCall(projectIdentifiersReportCall.roles);
  return React.useMemo<RowActionEntry<ProjectRow>[]>(() => {
    const dialog = (k: NonNullable<OpenDialog>["kind"]) => (p: ProjectRow) => open({ kind: k, project: p });
    const noChildren = (p: ProjectRow) => kind === "group" && (p.childCount ?? 0) === 0;
    const editTo = (p: ProjectRow) =>
      p.projectType === 2 ? `/admin/project/child/${p._id}/edit` : `/admin/project/${p._id}/edit`;
    const groupOnly: RowAction<ProjectRow>[] = kind === "group"
      ? [
        { label: "Child", icon: FolderTree, onSelect: (p) => navigate(`/admin/project/${p._id}/childs`) },
        {
          label: "Add Project",
          icon: FilePlus2,
          onSelect: (p) => navigate(`/admin/project/child/${p._id}/add`),
        },
      ]
      : [];
    return [
      {
        label: "Open",
        actions: [
          ...groupOnly,
          { label: "Edit", icon: Pencil, onSelect: (p) => navigate(editTo(p)) },
          { label: "Clone", icon: Copy, onSelect: dialog("clone") },
        ],
      },
      {
        label: "View",
        actions: [
          { label: "Logs", icon: History, onSelect: dialog("logs") },
          { label: "Security", icon: ShieldCheck, onSelect: dialog("security"), hidden: noChildren },
          { label: "Supplier Stats", icon: BarChart3, onSelect: dialog("supplierStats"), hidden: noChildren },
          { label: "Redirects", icon: Link2, onSelect: dialog("redirects") },
          { label: "Supplier Mapped", icon: Truck, onSelect: dialog("supplierMapped"), hidden: noChildren },
        ],
      },
      {
        // the data exports of the row menu: respondents' identifiers, the suppliers, pre-screen answers
        label: "Reports & downloads",
        actions: [
          {
            ...reportAction("Export Data", FileDown, identifiersReportCall, "identifiers"),
            hidden: noChildren,
          },
          {
            ...reportAction("Supplier Data", ClipboardList, supplierMapReportCall, "suppliers"),
            hidden: noChildren,
          },
          { label: "Prescreen Data", icon: ListChecks, onSelect: dialog("prescreen"), hidden: noChildren },
          {
            // a project's respondents, of every supplier or of one (POST /admin/project/identifiers/report)
            label: "Identifiers",
            icon: IdCard,
            onSelect: dialog("identifiers"),
            hidden: (p) => !mayIdentifiers || noChildren(p),
          },
          progressReportAction<ProjectRow>(),
          {
            ...reportAction(
              "Child Projects Report",
              FileSpreadsheet,
              groupReportCall,
              "projects",
            ),
            hidden: (p) => kind === "child" || noChildren(p),
          },
        ],
      },
      {
        label: "E-mail",
        actions: [
          { label: "Send Bulk Email", icon: Mail, onSelect: dialog("email"), hidden: noChildren },
          {
            ...emailAction(
              "RFQ Email",
              Send,
              sendRfqCall,
              "A request for quote goes to every active supplier with e-mail notifications on.",
            ),
            hidden: noChildren,
          },
          {
            ...emailAction(
              "Progress Report",
              FileText,
              sendClientReportCall,
              "The client gets the project's progress by e-mail.",
            ),
            hidden: noChildren,
          },
          {
            ...emailAction(
              "Email Supplier Links",
              Share2,
              sendSupplierLinksCall,
              "Each mapped supplier gets its entry links and figures by e-mail.",
            ),
            hidden: noChildren,
          },
        ],
      },
      {
        label: "Status",
        actions: [
          { label: "Edit Status", icon: CircleDot, onSelect: dialog("status") },
          {
            label: "Proceed to Invoice",
            icon: Receipt,
            destructive: false,
            confirm: { description: "The project moves to Ready To Invoice." },
            onSelect: dialog("invoice"),
            hidden: (p) => kind === "child" || !actionApplies("proceedToInvoice", p.projectStatus),
          },
          {
            label: "Archieve",
            icon: Archive,
            destructive: false,
            confirm: { description: "The project moves to Archieved." },
            onSelect: dialog("archive"),
            hidden: (p) => kind === "child" || !actionApplies("archieve", p.projectStatus),
          },
        ],
      },
      {
        actions: [
          {
            label: "Delete",
            icon: Trash2,
            destructive: true,
            // 'Are you sure?' with No / Yes, and which project it is about
            confirm: { description: (p) => deleteQuestion(p, kind) },
            onSelect: async (p) => {
              const res = await api(updateProjectCall, { params: { id: p._id }, body: { isDeleted: true } });
              removeRow(p._id);
              notify.success(res.message);
            },
          },
        ],
      },
    ];
  }, [navigate, open, kind, removeRow, mayIdentifiers]);
}

/** The line under 'Are you sure?' when deleting: "Delete project P10006 Travel Intentions Winter?". */
export function deleteQuestion(p: Pick<ProjectRow, "projectCode" | "projectName">, kind: "group" | "child") {
  return `Delete ${kind === "child" ? "child project" : "project"} ${p.projectCode} ${p.projectName}?`;
}
