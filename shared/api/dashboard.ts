/**
 * Dashboard (part 1: 2.3, section 7 "Dashboard"): the calls, the figures they answer with, and the
 * live stream. Every figure comes from one domain module (server/domain/dashboard/figures.ts), read
 * from the router's counters and daily rollups, so cards, charts and the manager table agree.
 */
import * as v from "valibot";
import { defineCall, returns } from "./contract.ts";
import { optionalId } from "../schemas/common.ts";

// ---------------------------------------------------------------- inputs

/** Chart period (part 1, 9): Daily=1, Monthly=2, Yearly=3, default 1. */
export const CHART_PERIOD = { DAILY: 1, MONTHLY: 2, YEARLY: 3 } as const;
export type ChartPeriod = (typeof CHART_PERIOD)[keyof typeof CHART_PERIOD];
export const CHART_PERIODS: { value: ChartPeriod; label: string }[] = [
  { value: 1, label: "Daily" },
  { value: 2, label: "Monthly" },
  { value: 3, label: "Yearly" },
];

/** Sort by (part 1, 9): Today=1, Last 7 Days=2, This Month=3, default 1. */
export const SORT_DATE = { TODAY: 1, LAST_7_DAYS: 2, THIS_MONTH: 3 } as const;
export type SortDate = (typeof SORT_DATE)[keyof typeof SORT_DATE];

const periodMessage = "type must be 1 (Daily), 2 (Monthly) or 3 (Yearly)";
const sortMessage = "sortDate must be 1 (Today), 2 (Last 7 Days) or 3 (This Month)";

/** A chart's body: its period and, where the chart has one, its client or supplier filter. */
export const ChartBody = v.object({
  type: v.optional(v.picklist([1, 2, 3], periodMessage), 1),
  clientId: optionalId("Unknown client", "Client"),
  supplierId: optionalId("Unknown supplier", "Supplier"),
});
export type ChartInput = v.InferInput<typeof ChartBody>;

const sortDate = v.optional(v.picklist([1, 2, 3], sortMessage));
/** The Today dialogs' body: `sortDate` (Today, Last 7 Days, This Month), at the top or in `filter`. */
export const ProjectListBody = v.object({
  sortDate,
  filter: v.optional(v.nullable(v.object({ sortDate }))),
});

/** The live stream's query: the ticket from `liveTicketCall` (EventSource sends no headers). */
export const LiveQuery = v.object({
  ticket: v.optional(v.pipe(v.string(), v.maxLength(2000, "ticket is too long"))),
});

// ---------------------------------------------------------------- results

/** The cards (part 1, 3 "Dashboard box"). Money in dollars, rounded to the cent. */
export type DashboardBox = {
  totalCompleted: number;
  todayCompleted: number;
  monthCompleted: number;
  totalProjects: number;
  monthlyRevenue: number;
  monthlyExpense: number;
  /** Client invoices issued this month (0 until the accounts issue adds invoices). */
  monthlyInvoice: number;
  todaySecurityDrop: number;
  /** "Monthly Projects Cost": the value (completes x CPI) of projects closed or sent to invoicing this month. */
  revenueClosedInvoice: number;
  /** Supplier invoices this month (0 until the accounts issue adds invoices). */
  monthlyInvoiceCost: number;
};

/** A Today Completed dialog row. */
export type CompletedProjectRow = {
  _id: string;
  /** The group project: the code links to its child list. */
  parentProjectId: string;
  projectCode: string;
  projectName: string;
  complete: number;
  cpi: number;
  expectedRevenue: number;
};

/** A Today Security dialog row: sca = arrivals screened by the security checks (traffic). */
export type SecurityProjectRow = {
  _id: string;
  parentProjectId: string;
  projectCode: string;
  projectName: string;
  sca: number;
  security: number;
};

/** The project-manager table (part 1, 3 "Project manager row"). */
export type ManagerRow = {
  userId: string | null;
  name: string;
  live: number;
  paused: number;
  closed: number;
  invoiced: number;
  total: number;
  /** Projects not finished (not closed, invoiced or archived). */
  active: number;
};

/** Each series row starts with its bucket: yyyy-MM-dd (Daily), yyyy-MM (Monthly) or yyyy (Yearly). */
export type Dated = { date: string };
export type StatusPoint = Dated & {
  active: number;
  live: number;
  paused: number;
  closed: number;
  invoiced: number;
};
export type MoneyPoint = Dated & { expected: number; actual: number };
export type TrafficPoint = Dated & {
  traffic: number;
  complete: number;
  approved: number;
  security: number;
  /** Every arrival that ended without a complete (terminates, over quota, quality terms, drops, security, pre-screen). */
  failed: number;
};
export type SecurityPoint = Dated & {
  traffic: number;
  ipAddress: number;
  vpn: number;
  deviceStudy: number;
  geoLocation: number;
  preScreenDropout: number;
  qualityTerm: number;
  completeAllocated: number;
  rd: number;
  duplicate: number;
};
export type RevenueExpensePoint = Dated & { revenue: number; expense: number };
export type InvoicePoint = Dated & { total: number; count: number };

/** What the live stream pushes (and the fallback poll answers): today's moving figures. */
export type LiveUpdate = {
  /** When the figures were read (ISO). */
  at: string;
  /** Today (yyyy-MM-dd, UTC: the rollup's day). */
  date: string;
  todayCompleted: number;
  todaySecurityDrop: number;
  /** Today's point of the unfiltered Daily traffic chart. */
  traffic: TrafficPoint;
};

/** A short-lived ticket that opens the live stream, with the figures as they are now. */
export type LiveTicket = { ticket: string; expiresInSeconds: number; update: LiveUpdate };

// ---------------------------------------------------------------- calls

export const dashboardBoxCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/box/data",
  result: returns<DashboardBox>(),
});
export const dashboardManagersCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/pm/data",
  result: returns<ManagerRow[]>(),
});
export const todayCompletedCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/list/data",
  body: ProjectListBody,
  result: returns<CompletedProjectRow[]>(),
});
export const todaySecurityCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/list/security/data",
  body: ProjectListBody,
  result: returns<SecurityProjectRow[]>(),
});
export const invoiceChartCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/invoice/data",
  body: ChartBody,
  result: returns<InvoicePoint[]>(),
});
export const statusChartCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/status/data",
  body: ChartBody,
  result: returns<StatusPoint[]>(),
});
export const revenueChartCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/revenue/data",
  body: ChartBody,
  result: returns<MoneyPoint[]>(),
});
export const expenseChartCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/expense/data",
  body: ChartBody,
  result: returns<MoneyPoint[]>(),
});
export const trafficChartCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/traffic/data",
  body: ChartBody,
  result: returns<TrafficPoint[]>(),
});
export const securityChartCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/security/data",
  body: ChartBody,
  result: returns<SecurityPoint[]>(),
});
export const revenueExpenseChartCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/project/expense/revenue/data",
  body: ChartBody,
  result: returns<RevenueExpensePoint[]>(),
});

/** A signed ticket (valid 60 s) that opens the live stream, and the live figures as they are now. */
export const liveTicketCall = defineCall({
  method: "POST",
  path: "/admin/dashboard/live/ticket",
  result: returns<LiveTicket>(),
});

/**
 * The live stream (server-sent events, `event: update` with a LiveUpdate). EventSource cannot send
 * an Authorization header, so the call is opened with `?ticket=` from liveTicketCall instead: the
 * registrar does not check a bearer token here (`public`), the handler checks the ticket, and with
 * it the user and the roles of this call's permission-table entry.
 */
export const dashboardLiveCall = defineCall({
  method: "GET",
  path: "/admin/dashboard/live",
  query: LiveQuery,
  public: true,
  media: "text/event-stream",
  result: returns<LiveUpdate>(),
});
