/** A reconcile upload as the API, the CLI and the reconcile list show it: its summary. */
import type { Db } from "../../db/connection.ts";
import { reconcileTypeLabel } from "../../../shared/schemas/reconcile.ts";
import type { ReconcileSummary } from "../../../shared/api/reconcile.ts";

/** One upload as its summary. */
export async function getReconcile(db: Db, id: string): Promise<ReconcileSummary> {
  const r = await db.selectFrom("reconciles").innerJoin("projects", "projects.id", "reconciles.projectId")
    .selectAll("reconciles").select("projects.projectCode").where("reconciles.id", "=", id)
    .executeTakeFirstOrThrow();
  return toSummary(r);
}

export type UploadRow = {
  id: string;
  projectId: string;
  projectCode: string;
  type: number;
  fileName: string;
  lines: number;
  identifiers: number;
  matched: number;
  unknown: number;
  duplicates: number;
  alreadyReconciled: number;
  notComplete: number;
  hooksQueued: number;
  status: ReconcileSummary["status"];
  createdByName: string;
  createdAt: string;
  undoneAt: string | null;
  undoneByName: string;
};

export const toSummary = (r: UploadRow): ReconcileSummary => ({
  _id: r.id,
  projectId: r.projectId,
  projectCode: r.projectCode,
  type: r.type,
  typeLabel: reconcileTypeLabel(r.type),
  fileName: r.fileName,
  lines: r.lines,
  identifiers: r.identifiers,
  matched: r.matched,
  unknown: r.unknown,
  duplicates: r.duplicates,
  alreadyReconciled: r.alreadyReconciled,
  notComplete: r.notComplete,
  hooksQueued: r.hooksQueued,
  status: r.status,
  createdByName: r.createdByName,
  createdAt: r.createdAt,
  undoneAt: r.undoneAt,
  undoneByName: r.undoneByName,
});
