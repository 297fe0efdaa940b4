/**
 * The reconcile grid (POST /admin/reconcile/projects): group projects, paged on their own columns,
 * with one page's figures summed from its children's counters in one grouped query and each row's
 * last applied upload (its own or a child's: what Undo takes back) in another (never an aggregate
 * over sessions).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { inNumberFilter, listSpecOf } from "../../db/list.ts";
import { projectsQuery } from "../projects/lists.ts";
import { PROJECT_TYPE, projectStatusLabel } from "../../../shared/status.ts";
import { reconcileList, type ReconcileListItem } from "../../../shared/api/reconcile.ts";
import { toSummary } from "./summaries.ts";
import { lastApplied } from "./scope.ts";

const inList = (val: unknown) => (Array.isArray(val) ? val.map(String) : [String(val)]);

export const reconcileListQuery = (db: Db) => projectsQuery(db, PROJECT_TYPE.GROUP);

export const reconcileListSpec = listSpecOf(reconcileList, {
  search: ["projects.projectCode", "projects.projectName", "clients.clientName"],
  multiSearch: ["projects.projectCode"],
  filters: {
    projectStatus: inNumberFilter("projects.projectStatus"),
    clientId: (qb, val) => qb.where("projects.clientId", "in", inList(val)),
    userId: (qb, val) => qb.where("projects.userId", "in", inList(val)),
    projectId: (qb, val) => qb.where("projects.id", "=", String(val)),
  },
  status: inNumberFilter("projects.projectStatus"),
  sorts: {
    projectCode: "projects.projectCode",
    projectName: "projects.projectName",
    createdAt: "projects.createdAt",
  },
  defaultSort: [["projects.statusChangedAt", "desc"], ["projects.id", "desc"]],
  rowid: "projects.rowid",
});

type Row = {
  id: string;
  projectCode: string;
  projectName: string;
  clientId: string;
  clientName: string | null;
  managerName: string | null;
  projectStatus: number;
  poNumber: string;
  cpi: number;
  createdAt: string;
};

export function reconcileListMap(r: Row): ReconcileListItem {
  return {
    _id: r.id,
    projectCode: r.projectCode,
    projectName: r.projectName,
    clientId: r.clientId,
    clientName: r.clientName ?? "",
    managerName: (r.managerName ?? "").trim(),
    projectStatus: r.projectStatus,
    projectStatusLabel: projectStatusLabel(r.projectStatus),
    poNumber: r.poNumber,
    cpi: r.cpi,
    sampleSize: 0,
    clicked: 0,
    complete: 0,
    approved: 0,
    rejected: 0,
    pending: 0,
    childCount: 0,
    lastReconcile: null,
    createdAt: r.createdAt,
  };
}

/** A page's figures from its children's counters, and each project's last applied upload. */
export async function enrichReconcileRows(db: Db, rows: ReconcileListItem[]): Promise<ReconcileListItem[]> {
  if (!rows.length) return rows;
  const ids = rows.map((r) => r._id);
  const sums = await db.selectFrom("projects")
    .select([
      "parentProjectId",
      sql<number>`count(*)`.as("childCount"),
      sql<number>`sum(sampleSize)`.as("sampleSize"),
      sql<number>`sum(clicked)`.as("clicked"),
      sql<number>`sum(complete)`.as("complete"),
      sql<number>`sum(approved)`.as("approved"),
      sql<number>`sum(rejected)`.as("rejected"),
      sql<number>`max(cpi)`.as("cpi"),
    ])
    .where("parentProjectId", "in", ids).where("isDeleted", "=", 0)
    .groupBy("parentProjectId").execute();
  const by = new Map(sums.map((s) => [s.parentProjectId, s]));
  const last = await lastApplied(db, ids);
  return rows.map((r) => {
    const s = by.get(r._id);
    const l = last.get(r._id);
    const complete = Number(s?.complete ?? 0), approved = Number(s?.approved ?? 0);
    const rejected = Number(s?.rejected ?? 0);
    return {
      ...r,
      childCount: Number(s?.childCount ?? 0),
      sampleSize: Number(s?.sampleSize ?? 0),
      clicked: Number(s?.clicked ?? 0),
      complete,
      approved,
      rejected,
      pending: Math.max(0, complete - approved - rejected),
      cpi: Number(s?.cpi ?? r.cpi),
      lastReconcile: l ? toSummary(l) : null,
    };
  });
}
