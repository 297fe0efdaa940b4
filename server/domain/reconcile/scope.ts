/** What a reconcile works on: a group project (its children's sessions) or one child project. */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { UploadRow } from "./summaries.ts";
import { conflict, notFound } from "../errors.ts";
import { PROJECT_STATUS, PROJECT_TYPE, projectStatusLabel } from "../../../shared/status.ts";

export const MODULE = "Reconcile";

export type ReconcileTarget = {
  id: string;
  projectCode: string;
  projectName: string;
  projectType: number;
  projectStatus: number;
  poNumber: string;
  /** The child projects whose sessions it covers (itself for a child). */
  childIds: string[];
};

/** The project and the children its reconcile covers; a deleted or unknown project is not found. */
export async function reconcileTarget(db: Db, projectId: string): Promise<ReconcileTarget> {
  const p = await db.selectFrom("projects")
    .select(["id", "projectCode", "projectName", "projectType", "projectStatus", "poNumber"])
    .where("id", "=", projectId).where("isDeleted", "=", 0).executeTakeFirst();
  if (!p) throw notFound("Project");
  const childIds = p.projectType === PROJECT_TYPE.GROUP
    ? (await db.selectFrom("projects").select("id").where("parentProjectId", "=", p.id).execute()).map((
      r,
    ) => r.id)
    : [p.id];
  return { ...p, childIds };
}

/** Invoiced and archived projects are settled: their reconcile no longer changes. */
const SETTLED: readonly number[] = [PROJECT_STATUS.INVOICED, PROJECT_STATUS.ARCHIEVED];

export function assertReconcilable(p: ReconcileTarget) {
  if (SETTLED.includes(p.projectStatus)) {
    throw conflict(
      `${p.projectCode} is ${projectStatusLabel(p.projectStatus)}: its reconcile can no longer change`,
    );
  }
}

/** `?, ?, ?` for an IN list (never empty: an empty scope matches nothing). */
export const inList = (ids: string[]) => (ids.length ? ids : [""]);

/** An applied upload with the code of the project it was made on. */
export type AppliedUpload = UploadRow;

/**
 * The last applied upload of each project: what the reconcile list shows as its Last upload and
 * what Undo reconcile takes back. A group project's history is its own uploads and its children's
 * (one made on a child, by its code in the CLI say, is the group's too: the queue of uploads is
 * the group's); a child's, its own. Last by time, then id.
 */
export async function lastApplied(db: Db, projectIds: string[]): Promise<Map<string, AppliedUpload>> {
  if (!projectIds.length) return new Map();
  const ids = sql.join(projectIds);
  const rows = await sql<AppliedUpload & { owner: string }>`SELECT * FROM (
    SELECT r.*, p.projectCode, o.owner,
      row_number() OVER (PARTITION BY o.owner ORDER BY r.createdAt DESC, r.id DESC) AS k
    FROM (SELECT id AS pid, id AS owner FROM projects WHERE id IN (${ids})
      UNION ALL SELECT id, parentProjectId FROM projects WHERE parentProjectId IN (${ids})) o
      JOIN reconciles r ON r.projectId = o.pid AND r.status = 'applied'
      JOIN projects p ON p.id = r.projectId
  ) WHERE k = 1`.execute(db);
  return new Map(rows.rows.map((r) => [r.owner, r]));
}
