/**
 * The dashboard's figures (part 1, 2.3), each defined once here and read by every card, chart, the
 * manager table and the live update, so they agree to the cent:
 *
 * - traffic, completes, security refusals and the other outcomes: the router's daily rollup
 *   (router_daily, per project and supplier and day; router_daily_totals, its per-day sum written in
 *   the same batch: server/domain/router/rollup.ts), dated by the day the router counted the event (UTC);
 * - revenue: completes x the project's CPI, expense: completes x the supplier map's CPI, both as
 *   the router booked them at the time of each complete (router_daily.revenue and .cost);
 * - approved completes and the actual revenue and expense (approved x CPI): the reconciled
 *   counters of projects and supplier maps, dated by the project's last status change (reconciling
 *   is what moves a project on to invoicing);
 * - projects: a project is a group project (a child counts for its group, as in the clients'
 *   figures); its status counts when any of its survey projects has it;
 * - invoices: ./invoices.ts (none yet).
 *
 * Every read is over counters and rollups (a few hundred rows unfiltered, one client's or
 * supplier's rollup rows when filtered), never a GROUP BY over sessions (design.md 5a).
 */
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import {
  ROLLUP_COUNTERS,
  type RollupCounter,
  ROUTED_COLUMNS,
  type RoutedColumn,
} from "../../db/tables/router.ts";
import { FINISHED_PROJECT_STATUSES, PROJECT_STATUS, PROJECT_TYPE } from "../../../shared/status.ts";
import type {
  ChartPeriod,
  CompletedProjectRow,
  DashboardBox,
  InvoicePoint,
  ManagerRow,
  MoneyPoint,
  RevenueExpensePoint,
  SecurityPoint,
  SecurityProjectRow,
  SortDate,
  StatusPoint,
  TrafficPoint,
} from "../../../shared/api/dashboard.ts";
import { type Buckets, bucketsOf, sortDateFrom, todayAndMonth } from "./periods.ts";
import { invoiceSeries, invoiceTotals } from "./invoices.ts";
import { rollupRange } from "./ranges.ts";
import type { RoutedFigures } from "../../../shared/api/routing.ts";
import { mapAccepted, projectAccepted } from "../common/accepted.ts";

/** Money to the cent. */
export const cents = (n: number) => Math.round((Number(n) || 0) * 100) / 100;

export type ChartFilter = { clientId?: string | null; supplierId?: string | null };

/** The rollup's sums over some days: every counter, revenue and cost. */
export type RollupSums = Record<RollupCounter | RoutedColumn, number> & { revenue: number; cost: number };
const SUMMED = [...ROLLUP_COUNTERS, "revenue", "cost", ...ROUTED_COLUMNS] as const;
export const ZERO_SUMS: Readonly<RollupSums> = Object.freeze(
  Object.fromEntries(SUMMED.map((c) => [c, 0])) as RollupSums,
);

// ---------------------------------------------------------------- the figures, once

/** Completes. */
export const completes = (s: RollupSums) => s.complete;
/** Traffic: every live arrival the router counted. */
export const traffic = (s: RollupSums) => s.clicked;
/** Security refusals (the Today Security card and dialog). */
export const securityDrops = (s: RollupSums) => s.security;
/** Expected revenue: completes x project CPI as booked (to the cent). */
export const revenue = (s: RollupSums) => cents(s.revenue);
/** Expected expense: completes x supplier CPI as booked (to the cent). */
export const expense = (s: RollupSums) => cents(s.cost);
/** Routed traffic (hops 2 and 3 of routing chains), counted apart: entries, completes, revenue. */
export const routed = (s: RollupSums) => ({
  entries: s.routedEntry,
  completes: s.routedComplete,
  revenue: cents(s.routedRevenue),
});
/** Arrivals screened out: terminated, over quota, quality terms, security refusals, pre-screen terminates. */
export const disqualified = (s: RollupSums) =>
  s.terminate + s.overQuota + s.qualityTerm + s.security + s.preScreenTerminate;
/** Arrivals that ended without a complete. */
export const failed = (s: RollupSums) =>
  s.terminate + s.overQuota + s.qualityTerm + s.drop + s.security + s.preScreenTerminate + s.preScreenDrop;

/** A project as the dashboard counts it: its group (a child counts for its parent). */
const projectKey = (alias = "") => sql.raw(`coalesce(${alias}parentProjectId, ${alias}id)`);
const statusCount = (status: number, alias = "") =>
  sql<number>`count(DISTINCT CASE WHEN ${sql.raw(alias)}projectStatus = ${status} THEN ${
    projectKey(alias)
  } END)`;
const FINISHED = sql.raw(`(${FINISHED_PROJECT_STATUSES.join(", ")})`);

// ---------------------------------------------------------------- reads

/** Rollup sums per bucket since `from`: the day totals unfiltered, else the filtered rollup rows. */
export async function rollupSums(
  db: Db,
  b: Pick<Buckets, "from" | "keyLength">,
  f: ChartFilter = {},
): Promise<Map<string, RollupSums>> {
  const cols = sql.raw(SUMMED.map((c) => `sum("${c}") AS "${c}"`).join(", "));
  const key = sql.raw(`substr(date, 1, ${b.keyLength})`);
  const where: RawBuilder<unknown>[] = [sql`date >= ${b.from}`];
  if (f.clientId) where.push(sql`clientId = ${f.clientId}`);
  if (f.supplierId) where.push(sql`supplierId = ${f.supplierId}`);
  const filtered = !!(f.clientId || f.supplierId);
  // filtered months and years (whose buckets start on a month's first day): the monthly rollup
  const monthly = filtered && b.keyLength <= 7 && b.from.endsWith("-01");
  if (monthly) {
    where[0] = sql`month >= ${b.from.slice(0, 7)}`;
  }
  const table = sql.raw(monthly ? "router_monthly" : filtered ? "router_daily" : "router_daily_totals");
  const bucket = monthly ? sql.raw(`substr(month, 1, ${b.keyLength})`) : key;
  const { rows } = await sql<RollupSums & { k: string }>`SELECT ${bucket} AS k, ${cols} FROM ${table}
    WHERE ${sql.join(where, sql` AND `)} GROUP BY k`.execute(db);
  return new Map(rows.map((r) => [r.k, numbers(r)]));
}

function numbers(r: Record<string, unknown>): RollupSums {
  return Object.fromEntries(SUMMED.map((c) => [c, Number(r[c] ?? 0)])) as RollupSums;
}

export type ApprovedSums = { approved: number; actualRevenue: number; actualExpense: number };
const ZERO_APPROVED: Readonly<ApprovedSums> = Object.freeze({
  approved: 0,
  actualRevenue: 0,
  actualExpense: 0,
});

/**
 * Approved completes and their actual revenue (approved x project CPI) and expense (approved x
 * supplier CPI) per bucket, from the reconciled counters (the admin-approved count where staff set
 * one: ../common/accepted.ts), dated by the project's last status change.
 * With a supplier filter, that supplier's maps only.
 */
export async function approvedSums(
  db: Db,
  b: Pick<Buckets, "from" | "keyLength">,
  f: ChartFilter = {},
): Promise<Map<string, ApprovedSums>> {
  const key = sql.raw(`substr(p.statusChangedAt, 1, ${b.keyLength})`);
  const accepted = mapAccepted("m");
  const where: RawBuilder<unknown>[] = [
    sql`p.statusChangedAt >= ${b.from}`,
    sql`p.isDeleted = 0`,
    sql`m.isDeleted = 0`,
    sql`${accepted} > 0`,
  ];
  if (f.clientId) where.push(sql`p.clientId = ${f.clientId}`);
  if (f.supplierId) where.push(sql`m.supplierId = ${f.supplierId}`);
  const { rows } = await sql<{ k: string; approved: number; actualRevenue: number; actualExpense: number }>`
    SELECT ${key} AS k, sum(${accepted}) AS approved, sum(${accepted} * p.cpi) AS actualRevenue,
      sum(${accepted} * m.supplierCPI) AS actualExpense
    FROM supplier_maps m JOIN projects p ON p.id = m.projectId
    WHERE ${sql.join(where, sql` AND `)} GROUP BY k`.execute(db);
  return new Map(rows.map((r) => [r.k, {
    approved: Number(r.approved ?? 0),
    actualRevenue: cents(r.actualRevenue),
    actualExpense: cents(r.actualExpense),
  }]));
}

function series<T>(b: Buckets, point: (key: string) => T): T[] {
  return b.keys.map(point);
}

// ---------------------------------------------------------------- the calls' answers

/** The cards (Dashboard box). */
export async function dashboardBox(db: Db, now: number): Promise<DashboardBox> {
  const { today, monthStart } = todayAndMonth(now);
  const [all, days, month, projects, closedValue, invoices] = await Promise.all([
    rollupSums(db, { from: "0000-00-00", keyLength: 4 as const }).then(sumAll),
    rollupSums(db, { from: today, keyLength: 10 }),
    rollupSums(db, { from: monthStart, keyLength: 7 }),
    db.selectFrom("projects").select(sql<number>`count(DISTINCT ${projectKey()})`.as("n"))
      .where("isDeleted", "=", 0).executeTakeFirst(),
    closedProjectsValue(db, monthStart),
    invoiceTotals(db, monthStart),
  ]);
  const t = days.get(today) ?? ZERO_SUMS;
  const m = month.get(monthStart.slice(0, 7)) ?? ZERO_SUMS;
  return {
    totalCompleted: completes(all),
    todayCompleted: completes(t),
    monthCompleted: completes(m),
    totalProjects: Number(projects?.n ?? 0),
    monthlyRevenue: revenue(m),
    monthlyExpense: expense(m),
    monthlyInvoice: invoices.clientAmount,
    todaySecurityDrop: securityDrops(t),
    revenueClosedInvoice: closedValue,
    monthlyInvoiceCost: invoices.supplierAmount,
  };
}

/** Routed traffic of this month (the Routed figures), from the same rollup as the cards. */
export async function routedFigures(db: Db, now: number): Promise<RoutedFigures> {
  const { monthStart } = todayAndMonth(now);
  const month = await rollupSums(db, { from: monthStart, keyLength: 7 });
  const r = routed(month.get(monthStart.slice(0, 7)) ?? ZERO_SUMS);
  return { monthRoutedEntries: r.entries, monthRoutedCompleted: r.completes, monthRoutedRevenue: r.revenue };
}

function sumAll(m: Map<string, RollupSums>): RollupSums {
  const out = { ...ZERO_SUMS } as RollupSums;
  for (const s of m.values()) for (const c of SUMMED) out[c] += s[c];
  return out;
}

/**
 * "Monthly Projects Cost" (revenueClosedInvoice): what the survey projects closed or sent to
 * invoicing this month are worth, from their counters: a closed project's completes x CPI, a
 * reconciled one's (sent to invoicing) accepted count x CPI, as its invoice bills it.
 */
export async function closedProjectsValue(db: Db, monthStart: string): Promise<number> {
  const count = sql`CASE WHEN p.projectStatus = ${PROJECT_STATUS.CLOSED} THEN p.complete
    ELSE ${projectAccepted("p")} END`;
  const r = await db.selectFrom("projects as p")
    .select(sql<number>`sum(${count} * p.cpi)`.as("value"))
    .where("p.projectType", "=", PROJECT_TYPE.CHILD).where("p.isDeleted", "=", 0)
    .where("p.projectStatus", "in", [
      PROJECT_STATUS.CLOSED,
      PROJECT_STATUS.READY_TO_INVOICE,
      PROJECT_STATUS.INVOICED,
    ])
    .where("p.statusChangedAt", ">=", monthStart).executeTakeFirst();
  return cents(r?.value ?? 0);
}

/**
 * Rows of a dialog as one JSON text: hundreds of rows cross from SQLite to JavaScript as one value
 * (reading them as rows costs several times the query itself). Ordered here, as the SQL would.
 */
async function jsonRows<T>(db: Db, query: RawBuilder<unknown>): Promise<T[]> {
  const { rows } = await sql<{ j: string | null }>`SELECT ${query} AS j`.execute(db);
  return JSON.parse(rows[0]?.j ?? "[]") as T[];
}
const byMostThenCode = <T extends { projectCode: string }>(most: (r: T) => number) => (a: T, b: T) =>
  most(b) - most(a) || (a.projectCode < b.projectCode ? -1 : a.projectCode > b.projectCode ? 1 : 0);

/** The Today Completed dialog: projects with completes since the sort date, most first. */
export async function completedProjects(
  db: Db,
  sortDate: SortDate,
  now: number,
): Promise<CompletedProjectRow[]> {
  const from = sortDateFrom(sortDate, now);
  const rows = await jsonRows<CompletedProjectRow>(
    db,
    sql`(SELECT json_group_array(json_object('_id', d.projectId,
      'parentProjectId', coalesce(p.parentProjectId, d.projectId), 'projectCode', p.projectCode,
      'projectName', p.projectName, 'complete', d.complete, 'cpi', p.cpi, 'expectedRevenue', d.revenue))
    FROM (SELECT projectId, sum(complete) AS complete, sum(revenue) AS revenue
          FROM (${rollupRange({ from }, ["projectId", "complete", "revenue"])})
          GROUP BY projectId HAVING sum(complete) > 0) d
    JOIN projects p ON p.id = d.projectId)`,
  );
  return rows.map((r) => ({
    _id: r._id,
    parentProjectId: r.parentProjectId,
    projectCode: r.projectCode,
    projectName: r.projectName,
    complete: Number(r.complete),
    cpi: cents(r.cpi),
    expectedRevenue: cents(r.expectedRevenue),
  })).sort(byMostThenCode((r) => r.complete));
}

/** The Today Security dialog: projects with security refusals since the sort date, most first. */
export async function securityProjects(
  db: Db,
  sortDate: SortDate,
  now: number,
): Promise<SecurityProjectRow[]> {
  const from = sortDateFrom(sortDate, now);
  const rows = await jsonRows<SecurityProjectRow>(
    db,
    sql`(SELECT json_group_array(json_object('_id', d.projectId,
      'parentProjectId', coalesce(p.parentProjectId, d.projectId), 'projectCode', p.projectCode,
      'projectName', p.projectName, 'sca', d.sca, 'security', d.security))
    FROM (SELECT projectId, sum(clicked) AS sca, sum(security) AS security
          FROM (${rollupRange({ from }, ["projectId", "clicked", "security"])})
          GROUP BY projectId HAVING sum(security) > 0) d
    JOIN projects p ON p.id = d.projectId)`,
  );
  return rows.map((r) => ({
    _id: r._id,
    parentProjectId: r.parentProjectId,
    projectCode: r.projectCode,
    projectName: r.projectName,
    sca: Number(r.sca),
    security: Number(r.security),
  })).sort(byMostThenCode((r) => r.security));
}

/** The project-manager table: each manager's projects by status (a group counts under its manager). */
export async function managerTable(db: Db): Promise<ManagerRow[]> {
  const { rows } = await sql<
    {
      userId: string | null;
      firstName: string | null;
      lastName: string | null;
      live: number;
      paused: number;
      closed: number;
      invoiced: number;
      total: number;
      active: number;
    }
  >`SELECT g.userId, u.firstName, u.lastName,
      ${statusCount(PROJECT_STATUS.LIVE, "p.")} AS live,
      ${statusCount(PROJECT_STATUS.PAUSED, "p.")} AS paused,
      ${statusCount(PROJECT_STATUS.CLOSED, "p.")} AS closed,
      ${statusCount(PROJECT_STATUS.INVOICED, "p.")} AS invoiced,
      count(DISTINCT ${projectKey("p.")}) AS total,
      count(DISTINCT CASE WHEN p.projectStatus NOT IN ${FINISHED} THEN ${projectKey("p.")} END) AS active
    FROM projects p
    JOIN projects g ON g.id = ${projectKey("p.")}
    LEFT JOIN users u ON u.id = g.userId
    WHERE p.isDeleted = 0
    GROUP BY g.userId
    ORDER BY total DESC, u.firstName, u.lastName`.execute(db);
  return rows.map((r) => ({
    userId: r.userId,
    name: r.userId ? `${r.firstName ?? ""} ${r.lastName ?? ""}`.trim() || "(unknown user)" : "(no manager)",
    live: Number(r.live),
    paused: Number(r.paused),
    closed: Number(r.closed),
    invoiced: Number(r.invoiced),
    total: Number(r.total),
    active: Number(r.active),
  }));
}

/**
 * Project Status chart: `active` = new projects (groups created in the bucket, not deleted, nor
 * emptied by deleting every survey project they had: a group still waiting for its first one
 * counts); live, paused, closed, invoiced = projects whose survey project moved to that status in
 * the bucket and has it still.
 */
export async function statusSeries(db: Db, period: ChartPeriod, now: number, f: ChartFilter = {}) {
  const b = bucketsOf(period, now);
  const client = f.clientId ? sql`AND clientId = ${f.clientId}` : sql``;
  const [created, moved] = await Promise.all([
    sql<{ k: string; n: number }>`SELECT ${sql.raw(`substr(createdAt, 1, ${b.keyLength})`)} AS k,
      count(*) AS n FROM projects
      WHERE projectType = ${PROJECT_TYPE.GROUP} AND isDeleted = 0 AND createdAt >= ${b.from} ${client}
        AND (EXISTS (SELECT 1 FROM projects c WHERE c.parentProjectId = projects.id AND c.isDeleted = 0)
          OR NOT EXISTS (SELECT 1 FROM projects c WHERE c.parentProjectId = projects.id))
      GROUP BY k`.execute(db),
    sql<{ k: string; live: number; paused: number; closed: number; invoiced: number }>`SELECT
      ${sql.raw(`substr(statusChangedAt, 1, ${b.keyLength})`)} AS k,
      ${statusCount(PROJECT_STATUS.LIVE)} AS live, ${statusCount(PROJECT_STATUS.PAUSED)} AS paused,
      ${statusCount(PROJECT_STATUS.CLOSED)} AS closed, ${statusCount(PROJECT_STATUS.INVOICED)} AS invoiced
      FROM projects WHERE isDeleted = 0 AND statusChangedAt >= ${b.from} ${client} GROUP BY k`.execute(db),
  ]);
  const c = new Map(created.rows.map((r) => [r.k, Number(r.n)]));
  const m = new Map(moved.rows.map((r) => [r.k, r]));
  return series<StatusPoint>(b, (date) => {
    const r = m.get(date);
    return {
      date,
      active: c.get(date) ?? 0,
      live: Number(r?.live ?? 0),
      paused: Number(r?.paused ?? 0),
      closed: Number(r?.closed ?? 0),
      invoiced: Number(r?.invoiced ?? 0),
    };
  });
}

/** Project Revenue chart: expected (completes x CPI) and actual (approved x CPI); client filter. */
export async function revenueSeries(db: Db, period: ChartPeriod, now: number, f: ChartFilter = {}) {
  const b = bucketsOf(period, now);
  const filter = { clientId: f.clientId };
  const [sums, approved] = await Promise.all([rollupSums(db, b, filter), approvedSums(db, b, filter)]);
  return series<MoneyPoint>(b, (date) => ({
    date,
    expected: revenue(sums.get(date) ?? ZERO_SUMS),
    actual: (approved.get(date) ?? ZERO_APPROVED).actualRevenue,
  }));
}

/** Project Expense chart: expected (completes x supplier CPI) and actual (approved x supplier CPI); supplier filter. */
export async function expenseSeries(db: Db, period: ChartPeriod, now: number, f: ChartFilter = {}) {
  const b = bucketsOf(period, now);
  const filter = { supplierId: f.supplierId };
  const [sums, approved] = await Promise.all([rollupSums(db, b, filter), approvedSums(db, b, filter)]);
  return series<MoneyPoint>(b, (date) => ({
    date,
    expected: expense(sums.get(date) ?? ZERO_SUMS),
    actual: (approved.get(date) ?? ZERO_APPROVED).actualExpense,
  }));
}

/** One traffic point from the bucket's sums. */
export const trafficPoint = (date: string, s: RollupSums, a: ApprovedSums = ZERO_APPROVED): TrafficPoint => ({
  date,
  traffic: traffic(s),
  complete: completes(s),
  approved: a.approved,
  security: securityDrops(s),
  failed: failed(s),
});

/** Project Traffic chart: traffic, complete, approved, failed (and security); client and supplier filters. */
export async function trafficSeries(db: Db, period: ChartPeriod, now: number, f: ChartFilter = {}) {
  const b = bucketsOf(period, now);
  const [sums, approved] = await Promise.all([rollupSums(db, b, f), approvedSums(db, b, f)]);
  return series(b, (date) => trafficPoint(date, sums.get(date) ?? ZERO_SUMS, approved.get(date)));
}

/** Project Security chart: traffic and each refusal reason; client and supplier filters. */
export async function securitySeries(db: Db, period: ChartPeriod, now: number, f: ChartFilter = {}) {
  const b = bucketsOf(period, now);
  const sums = await rollupSums(db, b, f);
  return series<SecurityPoint>(b, (date) => {
    const s = sums.get(date) ?? ZERO_SUMS;
    return {
      date,
      traffic: traffic(s),
      ipAddress: s.secIp,
      vpn: s.secProxy,
      deviceStudy: s.secDevice,
      geoLocation: s.secGeo,
      preScreenDropout: s.preScreenDrop,
      qualityTerm: s.qualityTerm,
      // completes the allocation (sample size, supplier quota) could no longer take: over quota
      completeAllocated: s.overQuota,
      rd: s.secRd,
      duplicate: s.secDuplicate,
    };
  });
}

/** Daily Revenue/Expense chart: expected revenue and expense. */
export async function revenueExpenseSeries(db: Db, period: ChartPeriod, now: number) {
  const b = bucketsOf(period, now);
  const sums = await rollupSums(db, b);
  return series<RevenueExpensePoint>(b, (date) => {
    const s = sums.get(date) ?? ZERO_SUMS;
    return { date, revenue: revenue(s), expense: expense(s) };
  });
}

/** Project Invoice chart: invoiced amount and number of invoices; client filter. */
export async function invoiceChart(db: Db, period: ChartPeriod, now: number, f: ChartFilter = {}) {
  const b = bucketsOf(period, now);
  const sums = await invoiceSeries(db, b, { clientId: f.clientId });
  return series<InvoicePoint>(b, (date) => ({ date, ...(sums.get(date) ?? { total: 0, count: 0 }) }));
}
