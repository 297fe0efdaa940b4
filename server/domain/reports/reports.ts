/**
 * The six reports of /admin/report (part 2, 2 "Reports"): the router's rollup over a range of days
 * (../dashboard/ranges.ts: whole months from the monthly rollup, edge days from the daily one),
 * grouped per survey project, per survey project and supplier, or per group project, with every
 * figure computed by the dashboard's one definition (../dashboard/figures.ts). The same query serves
 * the grid's page, the streamed CSV of every matching row and the CLI.
 *
 * - Client: each survey project of the range (its client's name), its outcomes and revenue.
 * - Supplier: each survey project's supplier, its outcomes, approved completes and expense.
 * - Prescreen: survey projects with pre-screening (on, or pre-screen outcomes in the range); the
 *   answers themselves are the project's prescreen report (../projects/prescreen-report.ts).
 * - Complete Allocated: each supplier of a survey project, its allocation (the map's quota), the
 *   range's completes and over quotas, all-time completes and what remains.
 * - Complete: survey projects with completes in the range, approved, revenue and expense.
 * - Project Complete: group projects (their survey projects summed), against their sample sizes.
 */
import { type RawBuilder, sql } from "kysely";
import { PROJECT_TYPE } from "../../../shared/status.ts";
import type { Db } from "../../db/connection.ts";
import { type AnyQB, type FilterFn, iterateList, type ListSpec, listSpecOf, runList } from "../../db/list.ts";
import type { ListBody, ListResult } from "../../../shared/list.ts";
import {
  clientReportList,
  completeAllocatedReportList,
  completeReportList,
  prescreenReportList,
  projectCompleteReportList,
  type ReportFilter,
  type ReportKind,
  type ReportRow,
  supplierReportList,
} from "../../../shared/api/reports.ts";
import {
  completes,
  disqualified,
  expense,
  revenue,
  type RollupSums,
  routed,
  securityDrops,
  traffic,
} from "../dashboard/figures.ts";
import {
  COUNTED,
  type RangeOptions,
  type RollupKey,
  rollupRange,
  SUMMED,
  type Summed,
} from "../dashboard/ranges.ts";

/** How each report groups the rollup: per survey project, per project and supplier, per group. */
const GROUPING: Record<ReportKind, "project" | "supplier" | "group"> = {
  client: "project",
  supplier: "supplier",
  prescreen: "project",
  completeAllocated: "supplier",
  complete: "project",
  projectComplete: "group",
};

/** A report's filter, as the body's filter gives it (validated by the contract). */
export type ReportInput = Pick<ReportFilter, "from" | "to" | "clientId" | "supplierId">;

const sums = sql.raw(SUMMED.map((c) => `r."${c}" AS "${c}"`).join(", "));
const summed = sql.raw(SUMMED.map((c) => `sum("${c}") AS "${c}"`).join(", "));
/** The summed columns a report can be ordered by (the spec's sorts). */
const SORTED_SUMS = ["clicked", "complete", "revenue", "cost"] as const;

/** The range as the rollup filter reads it, narrowed to some report rows' keys when given. */
function rangeOf(
  f: ReportInput,
  columns: readonly (Summed | RollupKey)[],
  rows?: { projectId: string; parentProjectId: string }[],
  group = false,
  opts?: RangeOptions,
) {
  return rollupRange(
    {
      from: f.from || null,
      to: f.to || null,
      clientId: f.clientId || null,
      supplierId: f.supplierId || null,
      ...(rows &&
        (group
          ? { groupIds: [...new Set(rows.map((r) => r.projectId))] }
          : { projectIds: [...new Set(rows.map((r) => r.projectId))] })),
    },
    columns,
    opts,
  );
}

/** The rollup's key columns a report's grouping reads. */
const keysOf = (kind: ReportKind): RollupKey[] =>
  GROUPING[kind] === "supplier"
    ? ["projectId", "supplierId"]
    : GROUPING[kind] === "group"
    ? ["projectId", "parentProjectId"]
    : ["projectId"];

/** How the rows of a report are keyed in the rollup (summed per row of the report first). */
function groupBy(kind: ReportKind) {
  const grouping = GROUPING[kind];
  return grouping === "supplier"
    ? { select: sql.raw("projectId, supplierId"), by: sql.raw("projectId, supplierId") }
    : grouping === "group"
    ? {
      select: sql.raw("coalesce(parentProjectId, projectId) AS projectId"),
      by: sql.raw("coalesce(parentProjectId, projectId)"),
    }
    : { select: sql.raw("projectId"), by: sql.raw("projectId") };
}

/**
 * Which rows a report has, in the grid's terms: each row's key and names, and only the sums that
 * decide whether it is a row (and the one it is ordered by, if any). The rollup is read once per
 * page (the list counts with the page, `countWithPage`) and its figures are read for the page's
 * rows alone (reportFigures): the full sums and the supplier maps' totals for 20 rows, not 6,000.
 *
 * A report row is a row only if the range counted something on it (a rollup row taken back to zero
 * makes none). Adding up 16 counters on every rollup row of the range to learn that was most of a
 * page's cost; instead each group counts its rollup rows (keys only, read from the rollup's keys)
 * less its rows that counted nothing (`COUNTED <= 0`, a partial index of migration 0015 holding
 * only those, normally none): a group is a row when some of its rows counted. As counters never go
 * below zero, that is exactly "the group's counters add up to more than zero". The Complete and
 * Project Complete tabs keep the groups whose completes add up to more than zero.
 */
export function reportQuery(db: Db, kind: ReportKind, f: ReportInput, sortBy?: string | null): AnyQB {
  const grouping = GROUPING[kind];
  const { select, by } = groupBy(kind);
  const completeOnly = grouping === "group" || kind === "complete";
  const sorted = SORTS[sortBy as keyof typeof SORTS] as string | undefined;
  const sortedSum = sorted && (SORTED_SUMS as readonly string[]).includes(sorted) ? sorted as Summed : null;
  const keys = keysOf(kind);
  let grouped: RawBuilder<unknown>;
  if (completeOnly) {
    const summedCols = [...new Set<Summed>(["complete", ...(sortedSum ? [sortedSum] : [])])];
    grouped = sql`SELECT ${select}, ${sql.raw(summedCols.map((c) => `sum("${c}") AS "${c}"`).join(", "))}
      FROM (${rangeOf(f, [...keys, ...summedCols])}) GROUP BY ${by} HAVING sum("complete") > 0`;
  } else {
    // columns summed besides the rows' count: the sorted one, the pre-screen outcomes
    const extra: Summed[] = [
      ...(sortedSum ? [sortedSum] : []),
      ...(kind === "prescreen" ? ["preScreenTerminate", "preScreenDrop"] as const : []),
    ];
    const every = rangeOf(f, [...keys, ...extra], undefined, false, { select: sql.raw(`1 AS "live"`) });
    const none = rangeOf(f, keys, undefined, false, {
      where: sql`${COUNTED} <= 0`,
      select: sql.raw([...extra.map((c) => `0 AS "${c}"`), `-1 AS "live"`].join(", ")),
    });
    const cols = [
      ...(sortedSum ? [`sum("${sortedSum}") AS "${sortedSum}"`] : []),
      ...(kind === "prescreen" ? [`sum("preScreenTerminate" + "preScreenDrop") AS preScreened`] : []),
    ];
    grouped = sql`SELECT ${select}${sql.raw(cols.map((c) => `, ${c}`).join(""))}
      FROM (${every} UNION ALL ${none}) GROUP BY ${by} HAVING sum("live") > 0`;
  }
  // deno-lint-ignore no-explicit-any
  let q = (db as any).selectFrom(sql`(${grouped})`.as("r"))
    .innerJoin(sql`projects`.as("p"), (j: AnyJoin) => j.on(sql`p.id`, "=", sql`r.projectId`)) as AnyQB;
  // only what orders the rows (and finds the page's figures): every matching row is materialized
  // and sorted for a page, so each column more is copied 6,000 times (names, the row's key text)
  const names = [
    sql<string>`r.projectId`.as("projectId"),
    sql<string>`p.projectCode`.as("projectCode"),
    ...(sortedSum ? [sql.ref(`r.${sortedSum}`).as(sortedSum)] : []),
  ];
  if (grouping === "supplier") {
    q = q.leftJoin(sql`suppliers`.as("s"), (j) => j.on(sql`s.id`, "=", sql`r.supplierId`)).select([
      ...names,
      sql<string>`coalesce(s.supplierName, '')`.as("supplierName"),
      sql<string>`r.supplierId`.as("supplierId"),
    ] as never);
  } else {
    q = q.select(names as never);
  }
  if (kind === "prescreen") return q.where(sql`p.isPreScreen = 1 OR r.preScreened > 0` as never);
  return q;
}

// deno-lint-ignore no-explicit-any
type AnyJoin = any;

/**
 * The full figures of given report rows (from reportQuery) over the range, keyed by row key: every
 * summed column, client name, allocation and all-time counters. Reads only those rows' rollup.
 */
export async function reportFigures(
  db: Db,
  kind: ReportKind,
  f: ReportInput,
  rows: { key: string; projectId: string; parentProjectId: string }[],
): Promise<Map<string, RawRow>> {
  if (!rows.length) return new Map();
  const grouping = GROUPING[kind];
  const { select, by } = groupBy(kind);
  const grouped = sql`SELECT ${select}, ${summed} FROM (${
    rangeOf(f, [...keysOf(kind), ...SUMMED], rows, grouping === "group")
  }) GROUP BY ${by}`;
  // deno-lint-ignore no-explicit-any
  const from = (db as any).selectFrom(sql`(${grouped})`.as("r")) as AnyQB;
  const keys = sql`(SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.key))}))`;
  let q: AnyQB;
  if (grouping === "group") {
    q = from
      .innerJoin(sql`projects`.as("p"), (j) => j.on(sql`p.id`, "=", sql`r.projectId`))
      .leftJoin(sql`clients`.as("cl"), (j) => j.on(sql`cl.id`, "=", sql`p.clientId`))
      .select([
        sql<string>`p.id`.as("key"),
        sql<string>`''`.as("supplierId"),
        sql<string>`''`.as("supplierName"),
        sql`(SELECT coalesce(sum(c.sampleSize), 0) FROM projects c
          WHERE (c.parentProjectId = p.id OR c.id = p.id) AND c.projectType = ${PROJECT_TYPE.CHILD} AND c.isDeleted = 0)`
          .as("allocated"),
        sql`(SELECT coalesce(sum(c.complete), 0) FROM projects c
          WHERE (c.parentProjectId = p.id OR c.id = p.id) AND c.projectType = ${PROJECT_TYPE.CHILD})`.as(
          "totalComplete",
        ),
        sql`(SELECT coalesce(sum(c.approved), 0) FROM projects c
          WHERE (c.parentProjectId = p.id OR c.id = p.id) AND c.projectType = ${PROJECT_TYPE.CHILD})`.as(
          "approved",
        ),
      ] as never)
      .where(sql`p.id IN ${keys}` as never);
  } else {
    q = from
      .innerJoin(sql`projects`.as("p"), (j) => j.on(sql`p.id`, "=", sql`r.projectId`))
      .leftJoin(sql`clients`.as("cl"), (j) => j.on(sql`cl.id`, "=", sql`p.clientId`));
    if (grouping === "supplier") {
      q = q.leftJoin(sql`suppliers`.as("s"), (j) => j.on(sql`s.id`, "=", sql`r.supplierId`))
        .select([
          sql<string>`r.projectId || ':' || r.supplierId`.as("key"),
          sql<string>`coalesce(s.supplierName, '')`.as("supplierName"),
          sql<string>`r.supplierId`.as("supplierId"),
          sql`(SELECT coalesce(sum(m.supplierQuota), 0) FROM supplier_maps m
            WHERE m.projectId = r.projectId AND m.supplierId = r.supplierId AND m.isDeleted = 0)`.as(
            "allocated",
          ),
          sql`(SELECT coalesce(sum(m.complete), 0) FROM supplier_maps m
            WHERE m.projectId = r.projectId AND m.supplierId = r.supplierId)`.as("totalComplete"),
          sql`(SELECT coalesce(sum(m.approved), 0) FROM supplier_maps m
            WHERE m.projectId = r.projectId AND m.supplierId = r.supplierId)`.as("approved"),
        ] as never)
        .where(sql`r.projectId || ':' || r.supplierId IN ${keys}` as never);
    } else {
      q = q.select([
        sql<string>`r.projectId`.as("key"),
        sql<string>`''`.as("supplierName"),
        sql<string>`''`.as("supplierId"),
        sql`p.sampleSize`.as("allocated"),
        sql`p.complete`.as("totalComplete"),
        sql`p.approved`.as("approved"),
      ] as never);
    }
    q = q.select([
      sql<string>`coalesce(p.parentProjectId, p.id)`.as("parentProjectId"),
    ] as never);
  }
  q = q.select([
    sql<string>`r.projectId`.as("projectId"),
    sql<string>`p.projectCode`.as("projectCode"),
    sql<string>`p.projectName`.as("projectName"),
    sql<string>`coalesce(cl.clientName, '')`.as("clientName"),
    sums,
  ] as never);
  if (grouping === "group") q = q.select(sql<string>`p.id`.as("parentProjectId") as never);
  const found = await q.execute() as RawRow[];
  return new Map(found.map((r) => [String(r.key), r]));
}

/**
 * A row of reportQuery as a report row (its key: the project, or the project and supplier; its
 * figures come with the page's figures, withFigures).
 */
function listedRow(kind: ReportKind) {
  const bySupplier = GROUPING[kind] === "supplier";
  return (raw: RawRow): ReportRow =>
    reportRow({ ...raw, key: bySupplier ? `${raw.projectId}:${raw.supplierId}` : raw.projectId });
}

/** Report rows (from reportQuery) with their full figures: one query for the lot. */
export async function withFigures(db: Db, kind: ReportKind, f: ReportInput, rows: ReportRow[]) {
  const figures = await reportFigures(db, kind, f, rows);
  return rows.map((r) => {
    const full = figures.get(r.key);
    return full ? reportRow(full) : r;
  });
}

/** Read inside the range's derived table (reportQuery): the outer query has nothing left to narrow. */
const inRange: FilterFn = (qb) => qb;
const FILTERS = { from: inRange, to: inRange, clientId: inRange, supplierId: inRange };
const PROJECT_FILTERS = { ...FILTERS, type: inRange };
const SORTS = {
  projectCode: "projectCode",
  clicked: "clicked",
  complete: "complete",
  revenue: "revenue",
  expense: "cost",
};
/*
 * The orders end on the row's key: the project for a project's row (its code is unique, so that is
 * never reached), the supplier for a project and supplier's row. Rows tied up to there have the
 * same project code, so the same project: ordering by the key text (`projectId:supplierId`) would
 * order them by their supplier, as this does without building that text for every row.
 */
const common = {
  search: ["p.projectCode", "p.projectName"],
  defaultSort: [["projectCode", "asc"], ["projectId", "asc"]] as [string, "asc" | "desc"][],
  // a report has at most a row per project (and supplier): count them all, with the page (the
  // rollup is summed whole either way: summed once, not once to count and once for the page)
  countWindow: 100_000,
  countWithPage: true,
};

export const REPORT_SPECS: Record<ReportKind, ListSpec> = {
  client: listSpecOf(clientReportList, { ...common, filters: PROJECT_FILTERS, sorts: SORTS }),
  supplier: listSpecOf(supplierReportList, {
    ...common,
    search: ["p.projectCode", "p.projectName", "s.supplierName"],
    defaultSort: [["supplierName", "asc"], ["projectCode", "asc"], ["supplierId", "asc"]],
    filters: FILTERS,
    sorts: { ...SORTS, supplierName: "supplierName" },
  }),
  prescreen: listSpecOf(prescreenReportList, { ...common, filters: PROJECT_FILTERS, sorts: SORTS }),
  completeAllocated: listSpecOf(completeAllocatedReportList, {
    ...common,
    defaultSort: [["projectCode", "asc"], ["supplierName", "asc"], ["supplierId", "asc"]],
    search: ["p.projectCode", "p.projectName", "s.supplierName"],
    filters: PROJECT_FILTERS,
    sorts: { ...SORTS, supplierName: "supplierName" },
  }),
  complete: listSpecOf(completeReportList, { ...common, filters: PROJECT_FILTERS, sorts: SORTS }),
  projectComplete: listSpecOf(projectCompleteReportList, {
    ...common,
    filters: PROJECT_FILTERS,
    sorts: SORTS,
  }),
};

type RawRow = Record<string, unknown>;

/** A grouped row to the report's row: every figure by the dashboard's definitions. */
export function reportRow(raw: RawRow): ReportRow {
  const s = Object.fromEntries(SUMMED.map((c) => [c, Number(raw[c] ?? 0)])) as RollupSums;
  const allocated = Number(raw.allocated ?? 0);
  const totalComplete = Number(raw.totalComplete ?? 0);
  return {
    key: String(raw.key),
    projectId: String(raw.projectId),
    parentProjectId: String(raw.parentProjectId ?? raw.projectId),
    projectCode: String(raw.projectCode ?? ""),
    projectName: String(raw.projectName ?? ""),
    clientName: String(raw.clientName ?? ""),
    supplierId: String(raw.supplierId ?? ""),
    supplierName: String(raw.supplierName ?? ""),
    clicked: traffic(s),
    complete: completes(s),
    terminate: s.terminate,
    qualityTerm: s.qualityTerm,
    overQuota: s.overQuota,
    security: securityDrops(s),
    drop: s.drop,
    preScreenTerminate: s.preScreenTerminate,
    preScreenDrop: s.preScreenDrop,
    totalDisqualified: disqualified(s),
    revenue: revenue(s),
    expense: expense(s),
    routedEntries: routed(s).entries,
    routedCompletes: routed(s).completes,
    routedRevenue: routed(s).revenue,
    approved: Number(raw.approved ?? 0),
    allocated,
    totalComplete,
    remaining: Math.max(0, allocated - totalComplete),
  };
}

/** The filter a body carries (validated by the report contracts). */
export function reportInput(body: { filter?: Partial<ReportInput> | null }): ReportInput {
  const f = body.filter ?? {};
  return {
    from: f.from ?? null,
    to: f.to ?? null,
    clientId: f.clientId ?? null,
    supplierId: f.supplierId ?? null,
  };
}

/**
 * A report as the list kit serves it (the grid's page and the CSV): which rows, in the body's
 * order, then each page's figures (`enrich`, one query per page).
 */
export function reportList(db: Db, kind: ReportKind, body: ListBody) {
  const f = reportInput(body as never);
  return {
    query: reportQuery(db, kind, f, body.sortBy),
    spec: REPORT_SPECS[kind],
    map: listedRow(kind),
    enrich: (rows: ReportRow[]) => withFigures(db, kind, f, rows),
  };
}

/** A page of a report (the grid). */
export async function reportPage(db: Db, kind: ReportKind, body: ListBody): Promise<ListResult<ReportRow>> {
  const { query, spec, map, enrich } = reportList(db, kind, body);
  const page = await runList(db, query, body, spec, map);
  return { ...page, data: await enrich(page.data) };
}

/** Every row of a report, page by page (the CSV of the API and of the CLI). */
export async function* reportPages(db: Db, kind: ReportKind, body: ListBody): AsyncGenerator<ReportRow[]> {
  const { query, spec, map, enrich } = reportList(db, kind, body);
  for await (const page of iterateList(db, query, body, spec, map)) yield await enrich(page);
}
