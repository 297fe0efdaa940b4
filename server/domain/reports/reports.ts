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
import { sql } from "kysely";
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
  securityDrops,
  traffic,
} from "../dashboard/figures.ts";
import { rollupRange, SUMMED } from "../dashboard/ranges.ts";
import { ROLLUP_COUNTERS } from "../../db/tables/router.ts";

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
const sumOf = (col: string) => sql.raw(`r."${col}"`);
const summed = sql.raw(SUMMED.map((c) => `sum("${c}") AS "${c}"`).join(", "));

/** The report's rows over the range, grouped and named; the list kit adds search, order and paging. */
export function reportQuery(db: Db, kind: ReportKind, f: ReportInput): AnyQB {
  const range = rollupRange({
    from: f.from || null,
    to: f.to || null,
    clientId: f.clientId || null,
    supplierId: f.supplierId || null,
  });
  const grouping = GROUPING[kind];
  // summed per row of the report first, then named: the joins run once per row, not per rollup row
  const by = grouping === "supplier"
    ? sql.raw("projectId, supplierId")
    : grouping === "group"
    ? sql.raw("coalesce(parentProjectId, projectId)")
    : sql.raw("projectId");
  const grouped = grouping === "supplier"
    ? sql`SELECT projectId, supplierId, ${summed} FROM (${range}) GROUP BY ${by}`
    : sql`SELECT ${by} AS projectId, ${summed} FROM (${range}) GROUP BY ${by}`;
  // deno-lint-ignore no-explicit-any
  const from = (db as any).selectFrom(sql`(${grouped})`.as("r")) as AnyQB;
  if (grouping === "group") {
    return from
      .innerJoin(
        sql`projects`.as("p"),
        (j) => j.on(sql`p.id`, "=", sql`r.projectId`),
      )
      .leftJoin(sql`clients`.as("cl"), (j) => j.on(sql`cl.id`, "=", sql`p.clientId`))
      .select([
        sql<string>`p.id`.as("key"),
        sql<string>`p.id`.as("projectId"),
        sql<string>`p.id`.as("parentProjectId"),
        sql<string>`p.projectCode`.as("projectCode"),
        sql<string>`p.projectName`.as("projectName"),
        sql<string>`coalesce(cl.clientName, '')`.as("clientName"),
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
        sums,
      ] as never)
      .where(sql`${sumOf("complete")} > 0` as never);
  }
  let q = from
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
      ] as never);
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
    sql<string>`r.projectId`.as("projectId"),
    sql<string>`coalesce(p.parentProjectId, p.id)`.as("parentProjectId"),
    sql<string>`p.projectCode`.as("projectCode"),
    sql<string>`p.projectName`.as("projectName"),
    sql<string>`coalesce(cl.clientName, '')`.as("clientName"),
    sums,
  ] as never);
  if (kind === "prescreen") {
    q = q.where(
      sql`p.isPreScreen = 1 OR ${sumOf("preScreenTerminate")} + ${sumOf("preScreenDrop")} > 0` as never,
    );
  } else if (kind === "complete") {
    q = q.where(sql`${sumOf("complete")} > 0` as never);
  } else {
    // rows the range counted nothing on (a rollup row taken back to zero) are no rows
    q = q.where(sql.raw(`${ROLLUP_COUNTERS.map((c) => `r."${c}"`).join(" + ")} > 0`) as never);
  }
  return q;
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
const common = {
  search: ["p.projectCode", "p.projectName"],
  defaultSort: [["projectCode", "asc"], ["key", "asc"]] as [string, "asc" | "desc"][],
  // a report has at most a row per project (and supplier): count them all
  countWindow: 100_000,
};

export const REPORT_SPECS: Record<ReportKind, ListSpec> = {
  client: listSpecOf(clientReportList, { ...common, filters: PROJECT_FILTERS, sorts: SORTS }),
  supplier: listSpecOf(supplierReportList, {
    ...common,
    search: ["p.projectCode", "p.projectName", "s.supplierName"],
    defaultSort: [["supplierName", "asc"], ["projectCode", "asc"], ["key", "asc"]],
    filters: FILTERS,
    sorts: { ...SORTS, supplierName: "supplierName" },
  }),
  prescreen: listSpecOf(prescreenReportList, { ...common, filters: PROJECT_FILTERS, sorts: SORTS }),
  completeAllocated: listSpecOf(completeAllocatedReportList, {
    ...common,
    defaultSort: [["projectCode", "asc"], ["supplierName", "asc"], ["key", "asc"]],
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

/** A page of a report (the grid). */
export function reportPage(db: Db, kind: ReportKind, body: ListBody): Promise<ListResult<ReportRow>> {
  return runList(db, reportQuery(db, kind, reportInput(body as never)), body, REPORT_SPECS[kind], reportRow);
}

/** Every row of a report, page by page (the CSV of the API and of the CLI). */
export function reportPages(db: Db, kind: ReportKind, body: ListBody): AsyncGenerator<ReportRow[]> {
  return iterateList(
    db,
    reportQuery(db, kind, reportInput(body as never)),
    body,
    REPORT_SPECS[kind],
    reportRow,
  );
}
