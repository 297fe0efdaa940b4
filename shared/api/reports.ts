/**
 * Reports (part 2, 2 "Reports: /admin/report" and 7 "Reports and exports"): six tabs over the
 * router's rollup for a range of days, each a list (JSON page, or `?format=csv` for every matching
 * row). The Supplier tab is `POST /admin/supplier/report/data`; the five others are
 * `POST /admin/project/report/data` with their `type`. Every figure is the dashboard's (one
 * definition in server/domain/dashboard/figures.ts), so a report and the dashboard agree to the cent
 * over the same days.
 */
import * as v from "valibot";
import { defineCall, returns } from "./contract.ts";
import { defineList, ListBody, type ListDeclaration, type ListResult } from "../list.ts";
import { isoDate, optionalId } from "../schemas/common.ts";
import { moneyCell as money } from "../format.ts";

/** The tabs, in the screen's order, by the `type` (and the CLI's `report <kind>`) naming them. */
export const REPORT_KINDS = [
  "client",
  "supplier",
  "prescreen",
  "completeAllocated",
  "complete",
  "projectComplete",
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_TITLES: Record<ReportKind, string> = {
  client: "Client",
  supplier: "Supplier",
  prescreen: "Prescreen",
  completeAllocated: "Complete Allocated",
  complete: "Complete",
  projectComplete: "Project Complete",
};
/** The kinds `POST /admin/project/report/data` serves (the Supplier tab has its own call). */
export const PROJECT_REPORT_KINDS = REPORT_KINDS.filter((k) => k !== "supplier") as Exclude<
  ReportKind,
  "supplier"
>[];

const typeMessage = `type must be one of ${PROJECT_REPORT_KINDS.join(", ")}`;
const dayMessage = (name: string) => `${name} must be a date (yyyy-MM-dd)`;
/** An optional filter value: absent, null or blank mean "not set". */
const optional = <S extends v.GenericSchema<string, string>>(schema: S) =>
  v.optional(v.nullable(v.union([v.literal(""), schema], (schema as { message?: string }).message)), null);
const optionalDay = (name: string) =>
  v.optional(v.nullable(v.union([v.literal(""), isoDate(dayMessage(name))], dayMessage(name))), null);

/**
 * A report's filter: the days (both included, UTC as the router counts them), the client (its
 * projects) and the supplier (its traffic). `type` may also come here (the grids' fixed filter).
 */
export const ReportFilter = v.pipe(
  v.object({
    from: optionalDay("from"),
    to: optionalDay("to"),
    clientId: optionalId("Unknown client", "Client"),
    supplierId: optionalId("Unknown supplier", "Supplier"),
    type: optional(v.picklist(PROJECT_REPORT_KINDS, typeMessage)),
  }),
  v.forward(
    v.check((f) => !f.from || !f.to || f.from <= f.to, "to must not be before from"),
    ["to"],
  ),
);
export type ReportFilter = v.InferOutput<typeof ReportFilter>;

/** The Supplier tab's body: the list body with the report's filter. */
export const SupplierReportBody = v.object({ ...ListBody.entries, filter: v.optional(ReportFilter, {}) });
/** `{ filter, type }`: the list body with the report's filter and which tab (also accepted in filter). */
export const ProjectReportBody = v.pipe(
  v.object({
    ...SupplierReportBody.entries,
    type: v.optional(v.picklist(PROJECT_REPORT_KINDS, typeMessage)),
  }),
  v.check((b) => !!(b.type ?? b.filter.type), typeMessage),
);
export type ProjectReportInput = v.InferInput<typeof ProjectReportBody>;
/** Which tab a project report body asks for: its `type`, else its filter's (the body's check requires one). */
export function projectReportKind(
  body: v.InferOutput<typeof ProjectReportBody>,
): (typeof PROJECT_REPORT_KINDS)[number] {
  return body.type || body.filter.type || "client";
}

/**
 * One row of any report: a survey project (Client, Prescreen, Complete), a group project (Project
 * Complete) or a survey project's supplier (Supplier, Complete Allocated), with the range's figures.
 */
export type ReportRow = {
  /** Unique in its report: the project id, or project id and supplier id. */
  key: string;
  projectId: string;
  /** The group project (a group's own id on Project Complete). */
  parentProjectId: string;
  projectCode: string;
  projectName: string;
  clientName: string;
  /** The supplier (Supplier and Complete Allocated rows), else "". */
  supplierId: string;
  supplierName: string;
  /** Traffic: every live arrival. */
  clicked: number;
  complete: number;
  terminate: number;
  qualityTerm: number;
  overQuota: number;
  security: number;
  drop: number;
  preScreenTerminate: number;
  preScreenDrop: number;
  /** Arrivals screened out: terminate, over quota, quality term, security, pre-screen terminate. */
  totalDisqualified: number;
  /** Expected revenue: completes x project CPI as booked (the dashboard's Monthly Revenue). */
  revenue: number;
  /** Expected expense: completes x supplier CPI as booked (the dashboard's Monthly Expense). */
  expense: number;
  /** Routed traffic (respondents a routing chain sent on from another survey), counted apart. */
  routedEntries: number;
  routedCompletes: number;
  routedRevenue: number;
  /** Approved completes (reconciled; the project's or the supplier map's counter). */
  approved: number;
  /** Completes allocated: the supplier map's quota (Complete Allocated), the sample size otherwise. */
  allocated: number;
  /** Completes of all time (the counter), against the allocation. */
  totalComplete: number;
  /** Allocated completes not yet reached. */
  remaining: number;
};

export const projectReportData = defineCall({
  method: "POST",
  path: "/admin/project/report/data",
  body: ProjectReportBody,
  result: returns<ListResult<ReportRow>>(),
  csv: true,
});
export const supplierReportData = defineCall({
  method: "POST",
  path: "/admin/supplier/report/data",
  body: SupplierReportBody,
  result: returns<ListResult<ReportRow>>(),
  csv: true,
});

/** The figures of a report row that add up: a tab's totals row sums them over every matching row. */
export const TOTALLED = [
  "clicked",
  "complete",
  "terminate",
  "qualityTerm",
  "overQuota",
  "security",
  "drop",
  "preScreenTerminate",
  "preScreenDrop",
  "totalDisqualified",
  "revenue",
  "expense",
  "routedEntries",
  "routedCompletes",
  "routedRevenue",
  "approved",
  "allocated",
  "totalComplete",
  "remaining",
] as const satisfies readonly (keyof ReportRow)[];
/** A tab's totals: each figure summed over every row its filters and search match (all pages), and how many rows. */
export type ReportTotals = Record<(typeof TOTALLED)[number], number> & { rows: number };

/** The totals of a project tab, for the same body as its data (page and order aside). */
export const projectReportTotals = defineCall({
  method: "POST",
  path: "/admin/project/report/totals",
  body: ProjectReportBody,
  result: returns<ReportTotals>(),
});
/** The totals of the Supplier tab, for the same body as its data. */
export const supplierReportTotals = defineCall({
  method: "POST",
  path: "/admin/supplier/report/totals",
  body: SupplierReportBody,
  result: returns<ReportTotals>(),
});

// ---------------------------------------------------------------- the tabs' lists

type Col = { key: string; header: string; value: (r: ReportRow) => unknown };
const c = {
  projectCode: { key: "projectCode", header: "Project code", value: (r) => r.projectCode },
  projectName: { key: "projectName", header: "Project name", value: (r) => r.projectName },
  clientName: { key: "clientName", header: "Client name", value: (r) => r.clientName },
  supplierName: { key: "supplierName", header: "Supplier name", value: (r) => r.supplierName },
  clicked: { key: "clicked", header: "Clicked", value: (r) => r.clicked },
  complete: { key: "complete", header: "Complete", value: (r) => r.complete },
  terminate: { key: "terminate", header: "Terminate", value: (r) => r.terminate },
  qualityTerm: { key: "qualityTerm", header: "Quality term", value: (r) => r.qualityTerm },
  overQuota: { key: "overQuota", header: "Over quota", value: (r) => r.overQuota },
  security: { key: "security", header: "Security", value: (r) => r.security },
  totalDisqualified: {
    key: "totalDisqualified",
    header: "Total disqualified",
    value: (r) => r.totalDisqualified,
  },
  drop: { key: "drop", header: "Drop", value: (r) => r.drop },
  preScreenTerminate: {
    key: "preScreenTerminate",
    header: "Prescreen terminate",
    value: (r) => r.preScreenTerminate,
  },
  preScreenDrop: { key: "preScreenDrop", header: "Prescreen drop", value: (r) => r.preScreenDrop },
  revenue: { key: "revenue", header: "Revenue", value: (r) => money(r.revenue) },
  expense: { key: "expense", header: "Expense", value: (r) => money(r.expense) },
  approved: { key: "approved", header: "Approved", value: (r) => r.approved },
  routedEntries: { key: "routedEntries", header: "Routed entries", value: (r) => r.routedEntries },
  routedCompletes: { key: "routedCompletes", header: "Routed completes", value: (r) => r.routedCompletes },
  routedRevenue: { key: "routedRevenue", header: "Routed revenue", value: (r) => money(r.routedRevenue) },
  allocated: { key: "allocated", header: "Allocated", value: (r) => r.allocated },
  totalComplete: { key: "totalComplete", header: "Total complete", value: (r) => r.totalComplete },
  remaining: { key: "remaining", header: "Remaining", value: (r) => r.remaining },
} satisfies Record<string, Col>;

const FILTERS = { from: "date", to: "date", clientId: "text", supplierId: "text" } as const;
const PROJECT_FILTERS = { ...FILTERS, type: "text" } as const;
const SORTS = ["projectCode", "clicked", "complete", "revenue", "expense"] as const;
const outcomes = [
  c.clicked,
  c.complete,
  c.terminate,
  c.qualityTerm,
  c.overQuota,
  c.security,
  c.totalDisqualified,
  c.drop,
];

export const clientReportList = defineList<ReportRow>()({
  id: "client-report",
  call: projectReportData,
  filters: PROJECT_FILTERS,
  sorts: SORTS,
  columns: [
    c.clientName,
    c.projectCode,
    c.projectName,
    ...outcomes,
    c.revenue,
    c.routedEntries,
    c.routedCompletes,
    c.routedRevenue,
  ],
});
export const supplierReportList = defineList<ReportRow>()({
  id: "supplier-report",
  call: supplierReportData,
  filters: FILTERS,
  sorts: [...SORTS, "supplierName"],
  columns: [c.supplierName, c.projectCode, c.projectName, ...outcomes, c.approved, c.expense],
});
export const prescreenReportList = defineList<ReportRow>()({
  id: "prescreen-report",
  call: projectReportData,
  filters: PROJECT_FILTERS,
  sorts: SORTS,
  columns: [
    c.projectCode,
    c.projectName,
    c.clientName,
    c.clicked,
    c.preScreenTerminate,
    c.preScreenDrop,
    c.complete,
    c.totalDisqualified,
  ],
});
export const completeAllocatedReportList = defineList<ReportRow>()({
  id: "complete-allocated-report",
  call: projectReportData,
  filters: PROJECT_FILTERS,
  sorts: [...SORTS, "supplierName"],
  columns: [
    c.projectCode,
    c.projectName,
    c.supplierName,
    c.allocated,
    c.complete,
    c.overQuota,
    c.totalComplete,
    c.remaining,
    c.expense,
  ],
});
export const completeReportList = defineList<ReportRow>()({
  id: "complete-report",
  call: projectReportData,
  filters: PROJECT_FILTERS,
  sorts: SORTS,
  columns: [c.projectCode, c.projectName, c.clientName, c.complete, c.approved, c.revenue, c.expense],
});
export const projectCompleteReportList = defineList<ReportRow>()({
  id: "project-complete-report",
  call: projectReportData,
  filters: PROJECT_FILTERS,
  sorts: SORTS,
  columns: [
    c.projectCode,
    c.projectName,
    c.clientName,
    c.allocated,
    c.complete,
    c.totalComplete,
    c.remaining,
    c.approved,
    c.revenue,
  ],
});

/** Each tab's list, by kind. */
export const REPORT_LISTS: Record<ReportKind, ListDeclaration<ReportRow>> = {
  client: clientReportList,
  supplier: supplierReportList,
  prescreen: prescreenReportList,
  completeAllocated: completeAllocatedReportList,
  complete: completeReportList,
  projectComplete: projectCompleteReportList,
};
