/**
 * Reconcile (spec part 2, sections 2 "Reconcile", 4, 7): the reconcile list, the identifier upload
 * and its undo, revoke, the status step to invoicing or the archive, and the supplier summary.
 */
import { defineCall, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import {
  ApproveSummaryBody,
  ReconcileStatus,
  ReconcileUpload,
  RevokeBody,
  SupplierSummaryBody,
} from "../schemas/reconcile.ts";
import { moneyCell as money } from "../format.ts";
import type { CsvFile } from "./project-reports.ts";

/** A row of the reconcile grid: a group project with its children's figures. */
export type ReconcileListItem = {
  _id: string;
  projectCode: string;
  projectName: string;
  clientId: string;
  clientName: string;
  managerName: string;
  projectStatus: number;
  projectStatusLabel: string;
  poNumber: string;
  cpi: number;
  sampleSize: number;
  clicked: number;
  complete: number;
  approved: number;
  rejected: number;
  /** Completes not reconciled yet (complete - approved - rejected). */
  pending: number;
  childCount: number;
  /** The project's last upload still applied (what Undo reconcile takes back), or null. */
  lastReconcile: ReconcileSummary | null;
  createdAt: string;
};

/** What an upload did (the result summary). */
export type ReconcileSummary = {
  _id: string;
  projectId: string;
  projectCode: string;
  type: number;
  typeLabel: string;
  fileName: string;
  /** Lines of the file (blank ones included). */
  lines: number;
  /** Distinct identifiers in the file. */
  identifiers: number;
  /** Sessions now approved or rejected by this upload. */
  matched: number;
  /** Identifiers of no session of the project. */
  unknown: number;
  /** Identifiers found again further down the file. */
  duplicates: number;
  /** Sessions approved or rejected by an earlier upload: left as they are. */
  alreadyReconciled: number;
  /** Sessions of the project that are not a live complete: only completes are reconciled. */
  notComplete: number;
  /** Approved post-backs queued for the suppliers that have a hook. */
  hooksQueued: number;
  status: "staging" | "applying" | "applied" | "undone" | "failed";
  createdByName: string;
  createdAt: string;
  undoneAt: string | null;
  undoneByName: string;
};

/** How many unknown identifiers an upload's result lists (all of them: reconcileUnknownCall's CSV). */
export const UNKNOWN_SHOWN = 100;

/** What an upload answers: its summary and the first of the identifiers it did not match. */
export type ReconcileResult = ReconcileSummary & {
  /** The first UNKNOWN_SHOWN of the `unknown` identifiers, in the file's order. */
  unknownIdentifiers: string[];
};

/** What an undo did. */
export type UndoResult = {
  reconcile: ReconcileSummary;
  /** Sessions back to not reconciled. */
  restored: number;
  /** Queued approved post-backs withdrawn before they went out. */
  hooksWithdrawn: number;
  /** Approved post-backs already sent (or being sent): not sent again. */
  hooksAlreadySent: number;
};

/** Part 2, section 3: a supplier summary row. */
export type SupplierSummaryRow = {
  supplierId: string;
  supplierName: string;
  complete: number;
  /** Reconciled approved completes. */
  approved: number;
  rejected: number;
  /** The admin's own approved count (null: the reconciled count stands). */
  adminApproved: number | null;
  supplierCPI: number;
  /** adminApproved when set, else approved. */
  totalAccepted: number;
  /** totalAccepted x supplier CPI. */
  cost: number;
};

export type StatusResult = {
  _id: string;
  projectCode: string;
  projectStatus: number;
  projectStatusLabel: string;
};

export const listReconcileProjects = defineCall({
  method: "POST",
  path: "/admin/reconcile/projects",
  body: ListBody,
  csv: true,
  result: returns<ListResult<ReconcileListItem>>(),
});

/** The upload: a file body, so a larger limit than the API's 1 MiB. */
export const reconcileUpload = defineCall({
  method: "POST",
  path: "/admin/project/reconsile/:id",
  ids: { id: "Project" },
  body: ReconcileUpload,
  bodyLimit: 20 * 1024 * 1024 + 64 * 1024,
  fileFields: ["csv"],
  result: returns<ReconcileResult>(),
});
/** Every identifier an upload (its id) did not match, in the file's order: a streamed CSV. */
export const reconcileUnknownCall = defineCall({
  method: "GET",
  path: "/admin/reconcile/unknown/:id",
  ids: { id: "Reconcile" },
  media: "text/csv",
  result: returns<CsvFile>(),
});
export const reconcileUndo = defineCall({
  method: "POST",
  path: "/admin/project/reconsile/undo/:id",
  ids: { id: "Project" },
  result: returns<UndoResult>(),
});
export const reconcileStatusCall = defineCall({
  method: "PUT",
  path: "/admin/project/reconsile/update/:id",
  ids: { id: "Project" },
  body: ReconcileStatus,
  result: returns<StatusResult>(),
});
export const revokeProjectCall = defineCall({
  method: "POST",
  path: "/admin/project/revoke/:id",
  ids: { id: "Project" },
  body: RevokeBody,
  result: returns<StatusResult>(),
});
export const supplierSummaryCall = defineCall({
  method: "POST",
  path: "/admin/suppliers/summary",
  body: SupplierSummaryBody,
  result: returns<SupplierSummaryRow[]>(),
});
export const approveSummaryCall = defineCall({
  method: "POST",
  path: "/admin/suppliers/approve/summary",
  body: ApproveSummaryBody,
  result: returns<SupplierSummaryRow>(),
});

/** The reconcile grid (page size 20, default status filter 6). */
export const reconcileList = defineList<ReconcileListItem>()({
  id: "reconcile",
  call: listReconcileProjects,
  filters: { projectStatus: "numbers", clientId: "texts", userId: "texts", projectId: "text" },
  sorts: ["projectCode", "projectName", "createdAt"],
  columns: [
    { key: "projectCode", header: "Project code", value: (r) => r.projectCode },
    { key: "projectName", header: "Project name", value: (r) => r.projectName },
    { key: "clientName", header: "Client", value: (r) => r.clientName },
    { key: "projectStatusLabel", header: "Status", value: (r) => r.projectStatusLabel },
    { key: "complete", header: "Complete", value: (r) => r.complete },
    { key: "approved", header: "Approved", value: (r) => r.approved },
    { key: "rejected", header: "Rejected", value: (r) => r.rejected },
    { key: "pending", header: "Not reconciled", value: (r) => r.pending },
    { key: "cpi", header: "CPI ($)", value: (r) => money(r.cpi) },
    { key: "poNumber", header: "PO number", value: (r) => r.poNumber },
    { key: "createdAt", header: "Created", value: (r) => r.createdAt },
  ],
});
