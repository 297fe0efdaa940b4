/**
 * The ONE way to add to the router's daily rollup (router_daily) and the two rollups kept from it:
 * router_daily_totals (per day over every project and supplier, the dashboard's unfiltered figures,
 * migration 0011) and router_monthly (per month, project and supplier, migration 0012). Until
 * migration 0014 triggers on router_daily kept those two, one trigger run per router_daily row
 * written, on the router's hot path; now whoever writes router_daily calls this module, which
 * aggregates its deltas (one upsert per key and batch, not per event) and returns the statements
 * to run in the writer's own transaction or write batch, so the three tables move together.
 *
 * Every writer of router_daily goes through here: the router's writer (writer/write.ts) and tests,
 * seeds and benchmarks that lay down rollup rows. Reconcile adds only `approved`/`rejected`, which
 * the day totals and the monthly rollup do not hold; it may still use `addToRouterDaily`.
 */
import { CompiledQuery, type QueryResult } from "kysely";
import type { Db } from "../../db/connection.ts";
import { ROLLUP_COUNTERS, ROUTED_COLUMNS } from "../../db/tables/router.ts";

/** The columns router_daily_totals and router_monthly hold: router_daily's counters and money. */
export const ROLLED_COLUMNS = [...ROLLUP_COUNTERS, "revenue", "cost", ...ROUTED_COLUMNS] as const;
/** The money columns (kept to the cent). */
const MONEY: readonly DailyColumn[] = ["revenue", "cost", "routedRevenue"];
/** Every additive column of router_daily (reconcile's counts are not rolled up further). */
export const DAILY_COLUMNS = [...ROLLED_COLUMNS, "approved", "rejected"] as const;
export type DailyColumn = (typeof DAILY_COLUMNS)[number];

/** What to add to one router_daily row (its key, the names it carries, and counts to add). */
export type DailyDelta =
  & {
    date: string;
    projectId: string;
    supplierId: string;
    supplierMapId: string;
    parentProjectId?: string | null;
    clientId: string;
  }
  & Partial<Record<DailyColumn, number>>;

/** A statement ready for the client or a Kysely raw query. */
export type Statement = { sql: string; args: unknown[] };

const q = (c: string) => `"${c}"`;
const cents = (n: number) => Math.round(n * 100) / 100;
const placeholders = (n: number, width: number) =>
  Array.from({ length: n }, () => `(${Array(width).fill("?").join(",")})`).join(",");

type Sums = Record<DailyColumn, number>;
const zero = (): Sums => Object.fromEntries(DAILY_COLUMNS.map((c) => [c, 0])) as Sums;
const addInto = (to: Sums, d: Partial<Record<DailyColumn, number>>) => {
  for (const c of DAILY_COLUMNS) to[c] += d[c] ?? 0;
};
const isZero = (s: Sums, cols: readonly DailyColumn[]) => cols.every((c) => !s[c]);

/**
 * The statements that add `deltas` to router_daily, router_daily_totals and router_monthly: one
 * upsert per table and chunk, each key once however many deltas name it. Money is kept in cents
 * per router_daily row, and the totals add exactly what the rows got.
 */
export function routerDailyStatements(deltas: DailyDelta[]): Statement[] {
  if (!deltas.length) return [];
  const daily = new Map<string, { key: DailyDelta; sums: Sums }>();
  for (const d of deltas) {
    const k = `${d.date}\u0000${d.projectId}\u0000${d.supplierId}`;
    let row = daily.get(k);
    if (!row) daily.set(k, row = { key: d, sums: zero() });
    addInto(row.sums, d);
  }
  for (const r of daily.values()) for (const c of MONEY) r.sums[c] = cents(r.sums[c]);
  const out: Statement[] = [];
  const rows = [...daily.values()].filter((r) => !isZero(r.sums, DAILY_COLUMNS));
  const keyCols = ["date", "projectId", "supplierId", "supplierMapId", "parentProjectId", "clientId"];
  const dailyCols = [...keyCols, ...DAILY_COLUMNS];
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    out.push({
      sql: `INSERT INTO router_daily (${dailyCols.map(q).join(", ")}) VALUES ${
        placeholders(chunk.length, dailyCols.length)
      } ON CONFLICT(date, projectId, supplierId) DO UPDATE SET ${
        DAILY_COLUMNS.map((c) => `${q(c)} = ${q(c)} + excluded.${q(c)}`).join(", ")
      }`,
      args: chunk.flatMap(({ key: k, sums }) => [
        k.date,
        k.projectId,
        k.supplierId,
        k.supplierMapId,
        k.parentProjectId ?? null,
        k.clientId,
        ...DAILY_COLUMNS.map((c) => sums[c]),
      ]),
    });
  }

  // the rolled-up tables: only the counters and money they hold
  const rolled = rows.filter((r) => !isZero(r.sums, ROLLED_COLUMNS));
  const totals = new Map<string, Sums>();
  const monthly = new Map<string, { key: DailyDelta; month: string; sums: Sums }>();
  for (const r of rolled) {
    const t = totals.get(r.key.date) ?? zero();
    totals.set(r.key.date, t);
    addInto(t, r.sums);
    const month = r.key.date.slice(0, 7);
    const mk = `${month}\u0000${r.key.projectId}\u0000${r.key.supplierId}`;
    let m = monthly.get(mk);
    if (!m) monthly.set(mk, m = { key: r.key, month, sums: zero() });
    addInto(m.sums, r.sums);
  }
  const set = ROLLED_COLUMNS.map((c) => `${q(c)} = ${q(c)} + excluded.${q(c)}`).join(", ");
  const totalRows = [...totals.entries()];
  for (let i = 0; i < totalRows.length; i += 300) {
    const chunk = totalRows.slice(i, i + 300);
    out.push({
      sql: `INSERT INTO router_daily_totals (date, ${ROLLED_COLUMNS.map(q).join(", ")}) VALUES ${
        placeholders(chunk.length, ROLLED_COLUMNS.length + 1)
      } ON CONFLICT(date) DO UPDATE SET ${set}`,
      args: chunk.flatMap(([date, s]) => [date, ...ROLLED_COLUMNS.map((c) => s[c])]),
    });
  }
  const monthRows = [...monthly.values()];
  const monthCols = ["month", "projectId", "supplierId", "clientId", "parentProjectId", ...ROLLED_COLUMNS];
  for (let i = 0; i < monthRows.length; i += 200) {
    const chunk = monthRows.slice(i, i + 200);
    out.push({
      sql: `INSERT INTO router_monthly (${monthCols.map(q).join(", ")}) VALUES ${
        placeholders(chunk.length, monthCols.length)
      } ON CONFLICT(month, projectId, supplierId) DO UPDATE SET ${set}`,
      args: chunk.flatMap(({ key: k, month, sums }) => [
        month,
        k.projectId,
        k.supplierId,
        k.clientId,
        k.parentProjectId ?? null,
        ...ROLLED_COLUMNS.map((c) => sums[c]),
      ]),
    });
  }
  return out;
}

/** Runs statements on a Kysely handle (a transaction's, to keep them atomic); their results in turn. */
export async function runStatements(db: Db, statements: Statement[]): Promise<QueryResult<unknown>[]> {
  const out: QueryResult<unknown>[] = [];
  for (const s of statements) out.push(await db.executeQuery(CompiledQuery.raw(s.sql, s.args)));
  return out;
}

/**
 * Adds `deltas` to router_daily and its rollups: in the caller's transaction when `db` is one,
 * else in a transaction of its own.
 */
export async function addToRouterDaily(db: Db, deltas: DailyDelta[]): Promise<void> {
  const statements = routerDailyStatements(deltas);
  if (!statements.length) return;
  if (db.isTransaction) return void await runStatements(db, statements);
  await db.transaction().execute((trx) => runStatements(trx, statements));
}

/**
 * Deletes router_daily rows (by day, and project if given) and takes them out of the rollups, in
 * one transaction: the rollups' one way to lose rows (maintenance, tests).
 */
export async function deleteFromRouterDaily(
  db: Db,
  where: { date: string; projectId?: string },
): Promise<void> {
  const run = async (trx: Db) => {
    let q = trx.selectFrom("router_daily").selectAll().where("date", "=", where.date);
    if (where.projectId) q = q.where("projectId", "=", where.projectId);
    const rows = await q.execute();
    if (!rows.length) return;
    const negated = rows.map((r) => {
      const d: DailyDelta = { ...r };
      for (const c of DAILY_COLUMNS) d[c] = -Number((r as Record<string, unknown>)[c] ?? 0);
      return d;
    });
    // the rollups first (the daily rows' own upsert would only zero them), then the rows
    await runStatements(
      trx,
      routerDailyStatements(negated).filter((s) => !s.sql.startsWith("INSERT INTO router_daily ")),
    );
    let del = trx.deleteFrom("router_daily").where("date", "=", where.date);
    if (where.projectId) del = del.where("projectId", "=", where.projectId);
    await del.execute();
  };
  if (db.isTransaction) return await run(db);
  await db.transaction().execute(run);
}

/**
 * Every difference between the rollups (day totals, monthly) and a recount of them from
 * router_daily; empty when they agree. Money compares in cents.
 */
export async function rollupMismatches(db: Db): Promise<string[]> {
  const sums = ROLLED_COLUMNS.map((c) => `sum(${q(c)}) AS ${q(c)}`).join(", ");
  const read = async (text: string) =>
    (await db.executeQuery(CompiledQuery.raw(text, []))).rows as Record<
      string,
      unknown
    >[];
  const out: string[] = [];
  const compare = (
    label: string,
    want: Record<string, unknown>[],
    got: Record<string, unknown>[],
    key: string[],
  ) => {
    const k = (r: Record<string, unknown>) => key.map((c) => String(r[c])).join(" ");
    const have = new Map(got.map((r) => [k(r), r]));
    for (const w of want) {
      const g = have.get(k(w));
      have.delete(k(w));
      for (const c of ROLLED_COLUMNS) {
        const a = cents(Number(w[c] ?? 0)), b = cents(Number(g?.[c] ?? 0));
        if (a !== b) out.push(`${label} ${k(w)} ${c}: rollup ${b}, router_daily ${a}`);
      }
    }
    for (const [key, g] of have) {
      for (const c of ROLLED_COLUMNS) {
        if (cents(Number(g[c] ?? 0)) !== 0) out.push(`${label} ${key} ${c}: rollup ${g[c]}, router_daily 0`);
      }
    }
  };
  compare(
    "totals",
    await read(`SELECT date, ${sums} FROM router_daily GROUP BY date`),
    await read(`SELECT * FROM router_daily_totals`),
    ["date"],
  );
  compare(
    "monthly",
    await read(
      `SELECT substr(date, 1, 7) AS month, projectId, supplierId, ${sums} FROM router_daily
       GROUP BY substr(date, 1, 7), projectId, supplierId`,
    ),
    await read(`SELECT * FROM router_monthly`),
    ["month", "projectId", "supplierId"],
  );
  return out;
}
