/**
 * A supplier's stats (`GET /supply/v1/stats`, shared/api/supply-books.ts): read from the router's
 * daily rollup (router_daily: per day, project and supplier, written with every outcome), never by
 * scanning sessions, so a year of traffic costs a year of rollup rows.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { invalid } from "../errors.ts";
import { day } from "../router/outcomes.ts";
import {
  STATS_DEFAULT_DAYS,
  STATS_MAX_DAYS,
  STATS_ORDER_MSG,
  STATS_RANGE_MSG,
  type StatsQuery,
  type SupplyFigures,
  type SupplyStats,
  type SupplyStatsRow,
} from "../../../shared/api/supply-books.ts";

const DAY_MS = 86_400_000;
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

type Sums = {
  clicked: number;
  complete: number;
  terminate: number;
  preScreenTerminate: number;
  overQuota: number;
  qualityTerm: number;
  drop: number;
  preScreenDrop: number;
  security: number;
  approved: number;
  rejected: number;
  cost: number;
};

function figures(s: Sums): SupplyFigures {
  const entries = Number(s.clicked) || 0;
  const earnings = round(Number(s.cost) || 0, 2);
  return {
    entries,
    completes: Number(s.complete) || 0,
    terminates: (Number(s.terminate) || 0) + (Number(s.preScreenTerminate) || 0),
    overQuota: Number(s.overQuota) || 0,
    quality: Number(s.qualityTerm) || 0,
    drops: (Number(s.drop) || 0) + (Number(s.preScreenDrop) || 0),
    security: Number(s.security) || 0,
    approved: Number(s.approved) || 0,
    rejected: Number(s.rejected) || 0,
    conversion: entries ? round((Number(s.complete) || 0) / entries, 4) : 0,
    earnings,
    epc: entries ? round(earnings / entries, 4) : 0,
  };
}

const SUMS = sql`sum(clicked) AS clicked, sum(complete) AS complete, sum(terminate) AS terminate,
  sum(preScreenTerminate) AS preScreenTerminate, sum(overQuota) AS overQuota, sum(qualityTerm) AS qualityTerm,
  sum("drop") AS "drop", sum(preScreenDrop) AS preScreenDrop, sum(security) AS security,
  sum(approved) AS approved, sum(rejected) AS rejected, sum(cost) AS cost`;

/** The range asked for, checked: dates, from <= to, at most STATS_MAX_DAYS days (400 otherwise). */
export function statsRange(query: StatsQuery, nowMs: number): { from: string; to: string } {
  const to = query.to ?? day(nowMs);
  const from = query.from ?? day(Date.parse(to) - (STATS_DEFAULT_DAYS - 1) * DAY_MS);
  if (from > to) throw invalid(STATS_ORDER_MSG, [{ path: "from", message: STATS_ORDER_MSG }]);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > STATS_MAX_DAYS) {
    throw invalid(STATS_RANGE_MSG, [{ path: "to", message: STATS_RANGE_MSG }]);
  }
  return { from, to };
}

export async function supplyStats(
  ctx: { db: Db; now: () => number },
  input: { supplierId: string; query: StatsQuery },
): Promise<SupplyStats> {
  const { from, to } = statsRange(input.query, ctx.now());
  const group = input.query.group;
  const key = group === "day" ? sql.ref("date") : sql.ref("projectId");
  const { rows } = await sql<Sums & { k: string }>`SELECT ${key} AS k, ${SUMS} FROM router_daily
    WHERE supplierId = ${input.supplierId} AND date >= ${from} AND date <= ${to}
    GROUP BY ${key} ORDER BY ${key}`.execute(ctx.db);
  const total = await sql<Sums>`SELECT ${SUMS} FROM router_daily
    WHERE supplierId = ${input.supplierId} AND date >= ${from} AND date <= ${to}`.execute(ctx.db);
  const out: SupplyStatsRow[] = rows.map((r) => ({
    ...(group === "day" ? { date: r.k } : { surveyId: r.k }),
    ...figures(r),
  }));
  return { from, to, group, rows: out, totals: figures(total.rows[0]) };
}
