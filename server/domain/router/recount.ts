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
import { HOLD_COUNTERS, type HoldCounter, TIME_SUMS, type TimeSum } from "../../db/tables/projects.ts";
import { parseCells } from "./writer/types.ts";
import { timeOf } from "./writer/load.ts";
import { REASON } from "./outcomes.ts";

export type CounterSet = Record<CounterName | HoldCounter, number>;
const COUNTED = [...LIVE_COUNTERS, ...HOLD_COUNTERS] as const;
const zero = (): CounterSet => Object.fromEntries(COUNTED.map((k) => [k, 0])) as CounterSet;

/** A project's time sums (TIME_SUMS): what its sessions' seconds add up to. */
export type LoiSums = Record<TimeSum, number>;
const noTime = (): LoiSums => timeOf({});

export async function recountFromSessions(db: Db, projectIds?: string[]) {
  let q = db.selectFrom("sessions")
    .select([
      "projectId",
      "supplierMapId",
      "isTest",
      "status",
      sql<number>`redirectedAt IS NOT NULL`.as("sent"),
      sql<number>`reason = ${REASON.pastLimit}`.as("pastLimit"),
      sql<number>`count(*)`.as("n"),
      sql<number>`count(seconds)`.as("timed"),
      sql<number>`coalesce(sum(seconds), 0)`.as("seconds"),
    ])
    .groupBy(["projectId", "supplierMapId", "isTest", "status", "sent", "pastLimit"]);
  if (projectIds) q = q.where("projectId", "in", projectIds.length ? projectIds : [""]);
  const rows = await q.execute();
  const projects = new Map<string, CounterSet>(), maps = new Map<string, CounterSet>();
  const loi = new Map<string, LoiSums>();
  for (const r of rows) {
    const n = Number(r.n);
    if (!r.isTest && STATUS_COUNTER[r.status as SessionStatus]) {
      const l = loi.get(r.projectId) ?? noTime();
      if (r.status === "complete") {
        l.loiSeconds += Number(r.seconds);
        l.loiCompletes += Number(r.timed);
      } else {
        l.otherSeconds += Number(r.seconds);
        l.otherTimed += Number(r.timed);
      }
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
      // holds (writer/holds.ts): in the client survey now, ever sent there, completes past a limit
      if (r.status === "redirected") c.held += n;
      if (Number(r.sent)) c.sent += n;
      if (r.status === "complete" && Number(r.pastLimit)) c.pastLimit += n;
    }
  }
  return { projects, maps, loi };
}

/** Every difference between stored counters, the recount and the rollup; empty when all agree. */
export async function counterMismatches(db: Db, projectIds?: string[]): Promise<string[]> {
  const { projects, maps, loi } = await recountFromSessions(db, projectIds);
  const out: string[] = [];
  let pq = db.selectFrom("projects").select(["id", ...COUNTED, ...TIME_SUMS]).where(
    "projectType",
    "=",
    PROJECT_TYPE.CHILD,
  );
  let mq = db.selectFrom("supplier_maps").select(["id", ...COUNTED]);
  if (projectIds) {
    pq = pq.where("id", "in", projectIds.length ? projectIds : [""]);
    mq = mq.where("projectId", "in", projectIds.length ? projectIds : [""]);
  }
  const [pRows, mRows] = await Promise.all([pq.execute(), mq.execute()]);
  for (const r of pRows) {
    const want = loi.get(r.id) ?? noTime();
    for (const k of TIME_SUMS) {
      if (r[k] !== want[k]) out.push(`project ${r.id} ${k}: stored ${r[k]}, sessions ${want[k]}`);
    }
  }
  for (const [label, rows, recount] of [["project", pRows, projects], ["map", mRows, maps]] as const) {
    for (const r of rows) {
      const want = recount.get(String(r.id)) ?? zero();
      for (const k of COUNTED) {
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
  out.push(...await cellHoldMismatches(db, projectIds));
  return out;
}

/** Sessions in the client survey per quota cell (`quotaId \0 quotaOptionId`), from their rows. */
export async function recountCellHolds(db: Db, projectIds?: string[]): Promise<Map<string, number>> {
  let q = db.selectFrom("sessions").select("quotaCells").where("status", "=", "redirected")
    .where("isTest", "=", 0).where("quotaCells", "!=", "[]");
  if (projectIds) q = q.where("projectId", "in", projectIds.length ? projectIds : [""]);
  const held = new Map<string, number>();
  for (const r of await q.execute()) {
    for (const c of parseCells(r.quotaCells)) {
      const key = `${c.quotaId}\u0000${c.quotaOptionId}`;
      held.set(key, (held.get(key) ?? 0) + 1);
    }
  }
  return held;
}

/** Every quota cell whose stored hold count (quota_cell_holds) differs from its sessions'. */
async function cellHoldMismatches(db: Db, projectIds?: string[]): Promise<string[]> {
  const want = await recountCellHolds(db, projectIds);
  let q = db.selectFrom("quota_cell_holds").select(["quotaId", "quotaOptionId", "held"]);
  if (projectIds) {
    q = q.where(
      "quotaId",
      "in",
      db.selectFrom("project_quotas").select("id").where(
        "projectId",
        "in",
        projectIds.length ? projectIds : [""],
      ),
    );
  }
  const stored = new Map((await q.execute()).map((r) => [`${r.quotaId}\u0000${r.quotaOptionId}`, r.held]));
  const out: string[] = [];
  for (const key of new Set([...want.keys(), ...stored.keys()])) {
    const a = stored.get(key) ?? 0, b = want.get(key) ?? 0;
    if (a !== b) out.push(`quota cell ${key.replace("\u0000", " ")} held: stored ${a}, sessions ${b}`);
  }
  return out;
}

/** Sets project and map counters (not approved/rejected) and the LOI sums to the recount from sessions. */
export async function repairCounters(db: Db): Promise<number> {
  const { projects, maps, loi } = await recountFromSessions(db);
  const none = noTime();
  let changed = 0;
  await db.transaction().execute(async (trx) => {
    for (const [table, m] of [["projects", projects], ["supplier_maps", maps]] as const) {
      for (const [id, c] of m) {
        const set = table === "projects" ? { ...c, ...(loi.get(id) ?? none) } : c;
        const r = await trx.updateTable(table).set(set).where("id", "=", id).executeTakeFirst();
        changed += Number(r.numUpdatedRows ?? 0);
      }
    }
    await trx.deleteFrom("quota_cell_holds").execute();
    for (const [key, held] of await recountCellHolds(trx)) {
      const [quotaId, quotaOptionId] = key.split("\u0000");
      await trx.insertInto("quota_cell_holds").values({ quotaId, quotaOptionId, held }).execute();
    }
  });
  return changed;
}
