/**
 * Counters recomputed from the session rows (outcomes.ts states the rules), compared with the
 * stored counters of projects and supplier maps and with the daily rollup. Tests and the benchmark
 * use it to prove the writer exact; `repairCounters` rewrites stored counters from sessions after
 * a manual database edit.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type CounterName, LIVE_COUNTERS, STATUS_COUNTER } from "./outcomes.ts";
import type { SessionStatus } from "../../db/tables/router.ts";
import { PROJECT_TYPE } from "../../../shared/status.ts";

export type CounterSet = Record<CounterName, number>;
const zero = (): CounterSet => Object.fromEntries(LIVE_COUNTERS.map((k) => [k, 0])) as CounterSet;

/** A project's measured LOI sums: the seconds of its live completes whose length is known, and how many. */
export type LoiSums = { loiSeconds: number; loiCompletes: number };

export async function recountFromSessions(db: Db, projectIds?: string[]) {
  let q = db.selectFrom("sessions")
    .select([
      "projectId",
      "supplierMapId",
      "isTest",
      "status",
      sql<number>`count(*)`.as("n"),
      sql<number>`count(seconds)`.as("timed"),
      sql<number>`coalesce(sum(seconds), 0)`.as("seconds"),
    ])
    .groupBy(["projectId", "supplierMapId", "isTest", "status"]);
  if (projectIds) q = q.where("projectId", "in", projectIds.length ? projectIds : [""]);
  const rows = await q.execute();
  const projects = new Map<string, CounterSet>(), maps = new Map<string, CounterSet>();
  const loi = new Map<string, LoiSums>();
  for (const r of rows) {
    const n = Number(r.n);
    if (r.status === "complete" && !r.isTest) {
      const l = loi.get(r.projectId) ?? { loiSeconds: 0, loiCompletes: 0 };
      l.loiSeconds += Number(r.seconds);
      l.loiCompletes += Number(r.timed);
      loi.set(r.projectId, l);
    }
    for (const [m, id] of [[projects, r.projectId], [maps, r.supplierMapId]] as const) {
      const c = m.get(id) ?? zero();
      m.set(id, c);
      if (r.status === "closed") continue;
      if (r.isTest) {
        c.testClicked += n;
        continue;
      }
      c.clicked += n;
      const k = STATUS_COUNTER[r.status as SessionStatus];
      if (k) c[k] += n;
    }
  }
  return { projects, maps, loi };
}

/** Every difference between stored counters, the recount and the rollup; empty when all agree. */
export async function counterMismatches(db: Db, projectIds?: string[]): Promise<string[]> {
  const { projects, maps, loi } = await recountFromSessions(db, projectIds);
  const out: string[] = [];
  let pq = db.selectFrom("projects").select(["id", ...LIVE_COUNTERS, "loiSeconds", "loiCompletes"]).where(
    "projectType",
    "=",
    PROJECT_TYPE.CHILD,
  );
  let mq = db.selectFrom("supplier_maps").select(["id", ...LIVE_COUNTERS]);
  if (projectIds) {
    pq = pq.where("id", "in", projectIds.length ? projectIds : [""]);
    mq = mq.where("projectId", "in", projectIds.length ? projectIds : [""]);
  }
  const [pRows, mRows] = await Promise.all([pq.execute(), mq.execute()]);
  for (const r of pRows) {
    const want = loi.get(r.id) ?? { loiSeconds: 0, loiCompletes: 0 };
    for (const k of ["loiSeconds", "loiCompletes"] as const) {
      if (r[k] !== want[k]) out.push(`project ${r.id} ${k}: stored ${r[k]}, sessions ${want[k]}`);
    }
  }
  for (const [label, rows, recount] of [["project", pRows, projects], ["map", mRows, maps]] as const) {
    for (const r of rows) {
      const want = recount.get(String(r.id)) ?? zero();
      for (const k of LIVE_COUNTERS) {
        if (r[k] !== want[k]) out.push(`${label} ${r.id} ${k}: stored ${r[k]}, sessions ${want[k]}`);
      }
    }
  }
  // the rollup adds up to the live counters
  const rollCols = LIVE_COUNTERS.filter((c) => c !== "testClicked");
  const roll = await db.selectFrom("router_daily")
    .select(["projectId", ...rollCols.map((c) => sql<number>`sum(${sql.ref(c)})`.as(c))])
    .groupBy("projectId").execute();
  for (const r of roll) {
    if (projectIds && !projectIds.includes(r.projectId)) continue;
    const want = projects.get(r.projectId) ?? zero();
    for (const k of rollCols) {
      const got = Number((r as Record<string, unknown>)[k]);
      if (got !== want[k]) out.push(`rollup ${r.projectId} ${k}: ${got}, sessions ${want[k]}`);
    }
  }
  return out;
}

/** Sets project and map counters (not approved/rejected) and the LOI sums to the recount from sessions. */
export async function repairCounters(db: Db): Promise<number> {
  const { projects, maps, loi } = await recountFromSessions(db);
  const none: LoiSums = { loiSeconds: 0, loiCompletes: 0 };
  let changed = 0;
  await db.transaction().execute(async (trx) => {
    for (const [table, m] of [["projects", projects], ["supplier_maps", maps]] as const) {
      for (const [id, c] of m) {
        const set = table === "projects" ? { ...c, ...(loi.get(id) ?? none) } : c;
        const r = await trx.updateTable(table).set(set).where("id", "=", id).executeTakeFirst();
        changed += Number(r.numUpdatedRows ?? 0);
      }
    }
  });
  return changed;
}
