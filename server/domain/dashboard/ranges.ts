/**
 * The router's rollup over a range of days, read the cheap way: whole calendar months inside the
 * range from router_monthly (one row per project, supplier and month, written with every
 * router_daily change by server/domain/router/rollup.ts), the days at the range's edges from router_daily. Both sources hold
 * the same counters, so a sum over the union is exactly router_daily's sum over the days: the
 * dashboard's dialogs and charts and every report read the same figures (./figures.ts) from it.
 */
import { type RawBuilder, sql } from "kysely";
import { ROLLUP_COUNTERS, ROUTED_COLUMNS } from "../../db/tables/router.ts";

/** Days (yyyy-MM-dd, UTC, both included); an open end reads everything on that side. */
export type DayRange = { from?: string | null; to?: string | null };
/** Whose rows: one client's projects, one supplier's traffic, or given projects. */
export type RollupFilter = DayRange & {
  clientId?: string | null;
  supplierId?: string | null;
  projectIds?: readonly string[];
  /** Rows of these group projects (a survey project's group, or a project without one itself). */
  groupIds?: readonly string[];
};

/** Every summed column of the rollup: the counters, revenue and cost, and routed traffic apart. */
export const SUMMED = [...ROLLUP_COUNTERS, "revenue", "cost", ...ROUTED_COLUMNS] as const;
export type Summed = (typeof SUMMED)[number];
/** Columns that say whose a rollup row is. */
export const KEYS = ["projectId", "supplierId", "clientId", "parentProjectId"] as const;
export type RollupKey = (typeof KEYS)[number];

const pad = (n: number) => String(n).padStart(2, "0");
const monthAfter = (m: string) => {
  const [y, mo] = m.split("-").map(Number);
  return mo === 12 ? `${pad4(y + 1)}-01` : `${pad4(y)}-${pad(mo + 1)}`;
};
const monthBefore = (m: string) => {
  const [y, mo] = m.split("-").map(Number);
  return mo === 1 ? `${pad4(y - 1)}-12` : `${pad4(y)}-${pad(mo - 1)}`;
};
const pad4 = (n: number) => String(n).padStart(4, "0");
/** The last day of a month (yyyy-MM), as yyyy-MM-dd. */
const lastDayOf = (m: string) => {
  const [y, mo] = m.split("-").map(Number);
  return `${m}-${pad(new Date(Date.UTC(y, mo, 0)).getUTCDate())}`;
};

export const OPEN_FROM = "0000-01-01";
export const OPEN_TO = "9999-12-31";

/**
 * How a range splits: the whole months read from router_monthly (none when `months` is null) and
 * the day ranges at its edges read from router_daily.
 */
export function splitRange(r: DayRange): { months: [string, string] | null; days: [string, string][] } {
  const from = r.from || OPEN_FROM, to = r.to || OPEN_TO;
  if (from > to) return { months: null, days: [] };
  const first = from.endsWith("-01") ? from.slice(0, 7) : monthAfter(from.slice(0, 7));
  const last = to >= lastDayOf(to.slice(0, 7)) ? to.slice(0, 7) : monthBefore(to.slice(0, 7));
  if (first > last) return { months: null, days: [[from, to]] };
  const days: [string, string][] = [];
  if (from < `${first}-01`) days.push([from, lastDayOf(monthBefore(first))]);
  if (to > lastDayOf(last)) days.push([`${monthAfter(last)}-01`, to]);
  return { months: [first, last], days };
}

/**
 * Every counter of a rollup row added up, exactly as migration 0015's partial indexes spell it (so
 * the planner matches `${COUNTED} <= 0` to them): a row whose counters are all zero counted nothing.
 * Counters count sessions and never go below zero, so this is 0 exactly when every counter is.
 */
export const COUNTED = sql.raw(`(${ROLLUP_COUNTERS.map((c) => `"${c}"`).join(" + ")})`);

/** More of each arm of a rollupRange: a condition every row must meet, an extra selected column. */
export type RangeOptions = { where?: RawBuilder<unknown>; select?: RawBuilder<unknown> };

/**
 * A derived table (use as `FROM (${rollupRange(...)}) r`) of rollup rows over the range with the
 * given key and summed columns; sum them for any grouping. Read only the columns needed: the
 * dialogs' columns are covered by an index on router_daily.
 */
export function rollupRange(
  f: RollupFilter,
  columns: readonly (Summed | RollupKey)[] = [...KEYS, ...SUMMED],
  opts: RangeOptions = {},
): RawBuilder<unknown> {
  const { months, days } = splitRange(f);
  const named = sql.raw(columns.map((c) => `"${c}"`).join(", "));
  const cols = opts.select ? (columns.length ? sql`${named}, ${opts.select}` : opts.select) : named;
  const whose = (): RawBuilder<unknown>[] => {
    const w: RawBuilder<unknown>[] = [];
    if (f.clientId) w.push(sql`clientId = ${f.clientId}`);
    if (f.supplierId) w.push(sql`supplierId = ${f.supplierId}`);
    if (f.projectIds) {
      w.push(sql`projectId IN (SELECT value FROM json_each(${JSON.stringify(f.projectIds)}))`);
    }
    if (f.groupIds) {
      // the groups' projects by the projects' keys (the rollup's project index), then the rollup's group
      const groups = sql`(SELECT value FROM json_each(${JSON.stringify(f.groupIds)}))`;
      w.push(sql`projectId IN (SELECT id FROM projects WHERE parentProjectId IN ${groups}
        UNION ALL SELECT id FROM projects WHERE parentProjectId IS NULL AND id IN ${groups})`);
      w.push(
        sql`coalesce(parentProjectId, projectId) IN (SELECT value FROM json_each(${
          JSON.stringify(f.groupIds)
        }))`,
      );
    }
    if (opts.where) w.push(opts.where);
    return w;
  };
  const arms: RawBuilder<unknown>[] = [];
  if (months) {
    const w = [sql`month >= ${months[0]}`, sql`month <= ${months[1]}`, ...whose()];
    // given projects: their rows by the project index (0015), not every row of the months
    const table = f.projectIds || f.groupIds
      ? sql`router_monthly INDEXED BY router_monthly_project`
      : sql`router_monthly`;
    arms.push(sql`SELECT ${cols} FROM ${table} WHERE ${sql.join(w, sql` AND `)}`);
  }
  for (const [a, b] of days) {
    const w = [sql`date >= ${a}`, sql`date <= ${b}`, ...whose()];
    arms.push(sql`SELECT ${cols} FROM router_daily WHERE ${sql.join(w, sql` AND `)}`);
  }
  // an empty range: no rows, same columns
  if (!arms.length) return sql`SELECT ${cols} FROM router_daily WHERE 0`;
  return sql.join(arms, sql` UNION ALL `);
}
