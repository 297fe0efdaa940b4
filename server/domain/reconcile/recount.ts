/**
 * The approved and rejected counters recounted from the sessions' reconcile state and compared with
 * the stored counters of child projects and supplier maps and with the daily rollup. Tests and the
 * benchmark use it to prove uploads and undos exact.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { RECONCILE_STATE } from "../../db/tables/reconcile.ts";
import { inList } from "./scope.ts";

/** Every difference between the stored approved/rejected counts and the sessions; empty when all agree. */
export async function reconcileMismatches(db: Db, projectIds: string[]): Promise<string[]> {
  const ids = inList(projectIds);
  const out: string[] = [];
  const live = sql`s.isTest = 0`;
  const A = RECONCILE_STATE.APPROVED, R = RECONCILE_STATE.REJECTED;
  for (
    const [label, table, key] of [["project", "projects", "projectId"], [
      "map",
      "supplier_maps",
      "supplierMapId",
    ]] as const
  ) {
    const stored = await db.selectFrom(table).select(["id", "approved", "rejected"])
      .where(table === "projects" ? "id" : "projectId", "in", ids).execute();
    const recount = await sql<{ id: string; approved: number; rejected: number }>`
      SELECT ${sql.ref(`s.${key}`)} AS id, sum(r.state = ${A}) AS approved, sum(r.state = ${R}) AS rejected
      FROM sessions s JOIN session_reconciles r ON r.sessionId = s.id
      WHERE s.projectId IN (${sql.join(ids)}) AND ${live} GROUP BY 1`.execute(db);
    const want = new Map(recount.rows.map((r) => [r.id, r]));
    for (const r of stored) {
      const w = want.get(r.id);
      for (const k of ["approved", "rejected"] as const) {
        const n = Number(w?.[k] ?? 0);
        if (r[k] !== n) out.push(`${label} ${r.id} ${k}: stored ${r[k]}, sessions ${n}`);
      }
    }
  }
  const roll = await sql<{ projectId: string; date: string; approved: number; rejected: number }>`
    SELECT projectId, date, sum(approved) AS approved, sum(rejected) AS rejected FROM router_daily
    WHERE projectId IN (${sql.join(ids)}) GROUP BY projectId, date`.execute(db);
  const recount = await sql<{ projectId: string; date: string; approved: number; rejected: number }>`
    SELECT s.projectId, substr(coalesce(s.endedAt, s.createdAt), 1, 10) AS date,
      sum(r.state = ${A}) AS approved, sum(r.state = ${R}) AS rejected
    FROM sessions s JOIN session_reconciles r ON r.sessionId = s.id
    WHERE s.projectId IN (${sql.join(ids)}) AND ${live}
    GROUP BY 1, 2`.execute(db);
  const key = (r: { projectId: string; date: string }) => `${r.projectId} ${r.date}`;
  const want = new Map(recount.rows.map((r) => [key(r), r]));
  const seen = new Set<string>();
  for (const r of roll.rows) {
    seen.add(key(r));
    const w = want.get(key(r));
    for (const k of ["approved", "rejected"] as const) {
      const n = Number(w?.[k] ?? 0);
      if (Number(r[k]) !== n) out.push(`rollup ${key(r)} ${k}: ${r[k]}, sessions ${n}`);
    }
  }
  for (const [k, w] of want) if (!seen.has(k)) out.push(`rollup ${k}: missing (${w.approved}/${w.rejected})`);
  return out;
}
