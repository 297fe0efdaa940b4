/**
 * Supplier portal (part 2, "Supplier portal"; part 1, 2.1 and 6): a supplier user's window onto its
 * own traffic. Every call is scoped on the server to the signed-in user's supplier: another
 * supplier's project, map, report or figure is a 404 whatever ids are sent.
 *
 * - mapped projects: the supplier's maps, with entry links, CPI, quota and live counts;
 * - inventory: Live survey (child) projects the supplier has never been mapped to, each offered at
 *   the supplier's CPI; starting one maps the supplier with its five redirect links;
 * - the supplier report: one map's respondents as a streamed CSV;
 * - the dashboard: this month's completes, conversion and earnings, and 30 days of traffic.
 */
import * as v from "valibot";
import { defineCall, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import { SupplierMapForm, SupplierReportRequest } from "../schemas/project.ts";
import { moneyCell as money } from "../format.ts";
import { projectStatusLabel } from "../status.ts";
import type { TrafficPoint } from "./dashboard.ts";
import type { CsvFile } from "./project-reports.ts";

/** Conversion: completes over clicks, in percent to one decimal; null before the first click. */
export function conversionOf(complete: number, clicked: number): number | null {
  return clicked > 0 ? Math.round((complete / clicked) * 1000) / 10 : null;
}
const pct = (n: number | null) => (n === null ? "" : `${n}%`);

/** A project the supplier is mapped to: its map (the row's id), entry links and live counts. */
export type PortalProject = {
  /** The supplier map's id. */
  _id: string;
  supplierMapId: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
  countryId: string;
  countryName: string;
  averageLOI: number;
  ir: number;
  supplierCPI: number;
  supplierQuota: number;
  supplierClickQuota: number;
  allowTraffic: boolean;
  isBoarded: boolean;
  /** The live entry link (`/survey/start/{mapId}?sid=[sid]`). */
  redirectUrl: string;
  /** The test entry link, when staff turned the map's test link on. */
  testUrl: string | null;
  clicked: number;
  complete: number;
  terminate: number;
  overQuota: number;
  qualityTerm: number;
  drop: number;
  security: number;
  approved: number;
  conversion: number | null;
  createdAt: string;
};

/** A project of the inventory: open to the supplier, not started by it. No client, no client CPI. */
export type InventoryProject = {
  /** The project's id. */
  _id: string;
  projectCode: string;
  projectName: string;
  countryId: string;
  countryName: string;
  averageLOI: number;
  ir: number;
  sampleSize: number;
  /** Completes still wanted (sample size less completes so far). */
  remaining: number;
  isPreScreen: boolean;
  /** What the supplier is paid per complete once it starts. */
  supplierCPI: number;
  createdAt: string;
};

/** The five redirect links of a supplier, back to its panel. */
export type SupplierRedirects = {
  redirectComplete: string;
  redirectTerminate: string;
  redirectQuotaFull: string;
  redirectQualityTerm: string;
  redirectSurveyClose: string;
};

/** The supplier dashboard: this month's figures and the last 30 days of traffic. */
export type SupplierDashboard = {
  month: string;
  monthTraffic: number;
  monthCompleted: number;
  /** Completes over clicks this month, in percent (null before the first click). */
  conversion: number | null;
  /** Approved completes x the supplier's CPI, from reconciled projects (dated by their last status change). */
  earnings: number;
  approved: number;
  /** Completes x the supplier's CPI as the router booked them this month (before reconciling). */
  expectedEarnings: number;
  /** One point per day, the last 30 days (UTC), oldest first. */
  traffic: TrafficPoint[];
};

/**
 * Starting an inventory project (the start dialog): the five redirect links, validated by the very
 * entries of the staff's supplier map form (same 'Invalid Url' rule), and `isUrlUpdated`: true when
 * the links were edited in the dialog (they become the map's), false to use the supplier's own
 * saved links.
 */
const R = SupplierMapForm.entries;
export const InventoryStart = v.object({
  redirectComplete: R.redirectComplete,
  redirectTerminate: R.redirectTerminate,
  redirectQuotaFull: R.redirectQuotaFull,
  redirectQualityTerm: R.redirectQualityTerm,
  redirectSurveyClose: R.redirectSurveyClose,
  isUrlUpdated: v.optional(v.boolean("isUrlUpdated must be true or false"), true),
});
export type InventoryStart = v.InferOutput<typeof InventoryStart>;

export const listMappedProjects = defineCall({
  method: "POST",
  path: "/supplier/project/mapped",
  body: ListBody,
  csv: true,
  result: returns<ListResult<PortalProject>>(),
});
/** The inventory; its metadata carries the supplier's saved redirect links (`redirects`) for the start dialog. */
export const listInventoryProjects = defineCall({
  method: "POST",
  path: "/supplier/project/inventory",
  body: ListBody,
  csv: true,
  result: returns<ListResult<InventoryProject>>(),
});
/** Starts an inventory project: maps the supplier to it and answers the new mapped project. */
export const startInventoryProjectCall = defineCall({
  method: "PUT",
  path: "/supplier/project/inventory/:id/update",
  ids: { id: "Project" },
  body: InventoryStart,
  result: returns<PortalProject>(),
});
/** One of the supplier's maps: its respondents as a CSV (the staff's supplier report, scoped). */
export const supplierPortalReportCall = defineCall({
  method: "POST",
  path: "/supplier/project/supplier/report",
  body: SupplierReportRequest,
  media: "text/csv",
  result: returns<CsvFile>(),
});
export const supplierDashboardCall = defineCall({
  method: "POST",
  path: "/supplier/dashboard/data",
  result: returns<SupplierDashboard>(),
});

/** The mapped projects grid (/supplier/project). */
export const mappedProjectsList = defineList<PortalProject>()({
  id: "supplier-projects",
  call: listMappedProjects,
  filters: { projectStatus: "numbers" },
  sorts: ["projectCode", "projectName", "createdAt", "clicked", "complete", "supplierCPI"],
  columns: [
    { key: "projectCode", header: "Project code", value: (r) => r.projectCode },
    { key: "projectName", header: "Project name", value: (r) => r.projectName },
    { key: "countryName", header: "Country", value: (r) => r.countryName },
    { key: "redirectUrl", header: "Entry link", value: (r) => r.redirectUrl },
    { key: "supplierCPI", header: "CPI ($)", value: (r) => money(r.supplierCPI) },
    { key: "supplierQuota", header: "Quota", value: (r) => r.supplierQuota },
    { key: "clicked", header: "Clicks", value: (r) => r.clicked },
    { key: "complete", header: "Completes", value: (r) => r.complete },
    { key: "terminate", header: "Terminates", value: (r) => r.terminate },
    { key: "overQuota", header: "Over quota", value: (r) => r.overQuota },
    { key: "qualityTerm", header: "Quality", value: (r) => r.qualityTerm },
    { key: "drop", header: "Drops", value: (r) => r.drop },
    { key: "conversion", header: "Conversion", value: (r) => pct(r.conversion) },
    { key: "projectStatus", header: "Status", value: (r) => projectStatusLabel(r.projectStatus) },
  ],
});

/** The inventory grid (/supplier/inventory). */
export const inventoryList = defineList<InventoryProject>()({
  id: "supplier-inventory",
  call: listInventoryProjects,
  filters: {},
  sorts: ["projectCode", "projectName", "createdAt", "averageLOI", "ir"],
  columns: [
    { key: "projectCode", header: "Project code", value: (r) => r.projectCode },
    { key: "projectName", header: "Project name", value: (r) => r.projectName },
    { key: "countryName", header: "Country", value: (r) => r.countryName },
    { key: "averageLOI", header: "LOI (min)", value: (r) => r.averageLOI },
    { key: "ir", header: "IR (%)", value: (r) => r.ir },
    { key: "remaining", header: "Completes wanted", value: (r) => r.remaining },
    { key: "supplierCPI", header: "CPI ($)", value: (r) => money(r.supplierCPI) },
  ],
});
