/**
 * The counters an upload moves: the approved or rejected counts of the child projects and supplier
 * maps its sessions belong to, and the daily rollup (the day of the complete), keyed as the router
 * keys them. Used by an upload's chunks, their roll-back and the undo, so counters equal a recount
 * at every commit.
 */
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { RECONCILE_TYPE } from "../../../shared/schemas/reconcile.ts";

/** What a session's approved or rejected counters are keyed on. */
export const TOUCHED = sql`projectId, supplierMapId, supplierId, parentProjectId, clientId,
  substr(coalesce(endedAt, createdAt), 1, 10) AS day`;
export const GROUP_KEYS = sql`projectId, supplierMapId, supplierId, parentProjectId, clientId, day`;

/** Sessions that share their counter keys: `n` of them. */
export type Group = {
  projectId: string;
  supplierMapId: string;
  supplierId: string;
  parentProjectId: string | null;
  clientId: string;
  day: string;
  n: number;
};

/** The counter keys of the given sessions (a list, or a query of their ids), counted by key. */
export async function touchedBy(trx: Db, sessionIds: string[] | RawBuilder<unknown>): Promise<Group[]> {
  const ids = Array.isArray(sessionIds)
    ? sql`SELECT value FROM json_each(${JSON.stringify(sessionIds)})`
    : sessionIds;
  return (await sql<Group>`SELECT ${TOUCHED}, count(*) AS n FROM sessions WHERE id IN (${ids})
    GROUP BY projectId, supplierId, supplierMapId, day`.execute(trx)).rows;
}

/**
 * Adds (`sign` 1) or takes back (-1) the given sessions of an upload (counted by their counter
 * keys) on the approved or rejected counters of their child projects and supplier maps and on the
 * daily rollup (the day of the complete).
 */
export async function moveCounters(trx: Db, touched: Group[], type: number, sign: 1 | -1) {
  const col = type === RECONCILE_TYPE.APPROVED ? "approved" : "rejected";
  const groups = new Map<string, Group>();
  for (const t of touched) {
    const k = `${t.projectId} ${t.supplierId} ${t.day}`;
    const g = groups.get(k);
    if (g) g.n += Number(t.n);
    else groups.set(k, { ...t, n: Number(t.n) });
  }
  const projects = new Map<string, number>(), maps = new Map<string, number>();
  for (const g of groups.values()) {
    const n = g.n * sign;
    projects.set(g.projectId, (projects.get(g.projectId) ?? 0) + n);
    maps.set(g.supplierMapId, (maps.get(g.supplierMapId) ?? 0) + n);
    // the day's row is there (the router counted the complete on it): an update, which costs less
    // than an upsert (the rollup's triggers are compiled for one statement kind, not two)
    const moved = await sql`UPDATE router_daily SET ${sql.ref(col)} = ${sql.ref(col)} + ${n}
      WHERE date = ${g.day} AND projectId = ${g.projectId} AND supplierId = ${g.supplierId}`.execute(trx);
    if (Number(moved.numAffectedRows ?? 0)) continue;
    await sql`INSERT INTO router_daily (date, projectId, supplierId, supplierMapId, parentProjectId, clientId, ${
      sql.ref(col)
    })
      VALUES (${g.day}, ${g.projectId}, ${g.supplierId}, ${g.supplierMapId}, ${g.parentProjectId}, ${g.clientId}, ${n})`
      .execute(trx);
  }
  for (const [table, m] of [["projects", projects], ["supplier_maps", maps]] as const) {
    for (const [rowId, n] of m) {
      if (!n) continue;
      await sql`UPDATE ${sql.table(table)} SET ${sql.ref(col)} = ${sql.ref(col)} + ${n} WHERE id = ${rowId}`
        .execute(trx);
    }
  }
}
