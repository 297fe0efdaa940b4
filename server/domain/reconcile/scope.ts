/** What a reconcile works on: a group project (its children's sessions) or one child project. */
import type { Db } from "../../db/connection.ts";
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
