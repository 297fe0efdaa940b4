/**
 * Support (part 2, 2 "Support", 3 and 7 "Support and users"): identifier search and its export,
 * short codes, scheduled jobs; and the project progress report image (a project row action).
 */
import { defineCall, type Deleted, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import {
  IdentifierSearchBody,
  IdentifiersReportBody,
  JobForm,
  JobUpdate,
  ShortCodeBody,
} from "../schemas/support.ts";

const pad = (n: number) => String(n).padStart(2, "0");
/** Days of each month of a common year (February of a leap year has one more). */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The number of `n` digits of `s` from `at`, or -1 if one is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}
/** Whether `s` is `yyyy-MM-ddTHH:mm:ss`, then `Z` or a fraction of a second and `Z`. */
function storedIso(s: string): boolean {
  if (s.length < 20 || s[4] !== "-" || s[7] !== "-" || s[10] !== "T" || s[13] !== ":" || s[16] !== ":") {
    return false;
  }
  if (s.length === 20) return s[19] === "Z";
  return s[19] === "." && s[s.length - 1] === "Z" && s.length > 21 && digits(s, 20, s.length - 21) >= 0;
}

/**
 * DD/MM/YYYY hh:mm:ss in UTC: how identifiers show their dates (part 2, 9). A stored timestamp
 * (toISOString's text, or without its fraction: a valid date and time in UTC) is rearranged from
 * its own text: an export formats two a row, a million rows at a time, and a Date for each was most
 * of a row's cost. Anything else is read as a Date, as before (a rolled-over day, an offset, a
 * date alone).
 */
export function identifierDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  if (storedIso(iso)) {
    const year = digits(iso, 0, 4), month = digits(iso, 5, 2), day = digits(iso, 8, 2);
    const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const hour = digits(iso, 11, 2), minute = digits(iso, 14, 2), second = digits(iso, 17, 2);
    if (
      year >= 1000 && month >= 1 && month <= 12 && day >= 1 &&
      day <= MONTH_DAYS[month - 1] + (leap ? 1 : 0) &&
      hour >= 0 && hour < 24 && minute >= 0 && minute < 60 && second >= 0 && second < 60
    ) {
      return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
    }
  }
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${
    pad(d.getUTCMinutes())
  }:${pad(d.getUTCSeconds())}`;
}

/** A respondent found by the identifier search (part 2, 3 "Identifier record"). */
export type IdentifierMatch = {
  /** The user identifier (uid). */
  _id: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  supplierName: string;
  /** The supplier identifier. */
  sid: string;
  uid: string;
  createdAt: string;
  updatedAt: string;
  countryCode: string;
  countryName: string;
  ipAddress: string;
  deviceType: string;
  browser: string;
  /** The session status (complete, terminate...) and its label. */
  status: string;
  statusLabel: string;
  isTest: boolean;
};

/** A short code the router fills in links. */
export type ShortCodeRow = { shortCodeName: string; shortCodeDescription: string; filledIn: string[] };

export type JobRunStatus = "" | "ok" | "error";

/** A scheduled job (part 2, 3 "Scheduled job"), with its last run. */
export type ScheduledJob = {
  _id: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
  interval: number;
  comment: string;
  isSoft: boolean;
  isActive: boolean;
  createdAt: string;
  createdBy: string | null;
  /** The creator's name. */
  fullName: string;
  nextRunAt: string;
  lastRunAt: string | null;
  lastStatus: JobRunStatus;
  lastOutcome: string;
  runs: number;
};

export const searchIdentifiersCall = defineCall({
  method: "POST",
  path: "/admin/projects/identifier",
  body: IdentifierSearchBody,
  csv: true,
  result: returns<ListResult<IdentifierMatch>>(),
});
/** Every match of the identifiers, as a streamed CSV file. */
export const identifiersReportCall = defineCall({
  method: "POST",
  path: "/admin/identifiers/report",
  body: IdentifiersReportBody,
  media: "text/csv",
  result: returns<Blob>(),
});
export const shortCodesCall = defineCall({
  method: "POST",
  path: "/admin/shortcode",
  body: ShortCodeBody,
  result: returns<ShortCodeRow[]>(),
});
export const listJobsCall = defineCall({
  method: "POST",
  path: "/admin/schedule/jobs",
  body: ListBody,
  result: returns<ListResult<ScheduledJob>>(),
});
export const addJobCall = defineCall({
  method: "POST",
  path: "/admin/schedule/job/add",
  body: JobForm,
  result: returns<ScheduledJob>(),
});
export const updateJobCall = defineCall({
  method: "PUT",
  path: "/admin/schedule/job/update/:id",
  ids: { id: "Scheduled job" },
  body: JobUpdate,
  result: returns<ScheduledJob | Deleted>(),
});
export const getJobCall = defineCall({
  method: "GET",
  path: "/admin/schedule/job/:id",
  ids: { id: "Scheduled job" },
  result: returns<ScheduledJob>(),
});
/** The project's progress report, a PNG image (the project row action Progress Report). */
export const progressReportCall = defineCall({
  method: "GET",
  path: "/admin/project/progress/:projectId",
  ids: { projectId: "Project" },
  media: "image/png",
  result: returns<Blob>(),
});

const DEVICE_LABEL: Record<string, string> = { desktop: "Desktop", mobile: "Mobile", tablet: "Tablet" };
export const deviceLabel = (d: string) => DEVICE_LABEL[d] ?? d;

/** Support > Identifiers (100 a page; the export is every match). */
export const identifiersList = defineList<IdentifierMatch>()({
  id: "identifiers",
  call: searchIdentifiersCall,
  filters: { outcome: "texts" },
  sorts: ["createdAt", "projectCode"],
  columns: [
    { key: "projectCode", header: "Project code", value: (r) => r.projectCode },
    { key: "projectName", header: "Project name", value: (r) => r.projectName },
    { key: "supplierName", header: "Supplier name", value: (r) => r.supplierName },
    { key: "sid", header: "Supplier identifier", value: (r) => r.sid },
    { key: "uid", header: "User identifier", value: (r) => r.uid },
    { key: "createdAt", header: "Start (UTC)", value: (r) => identifierDateTime(r.createdAt) },
    { key: "updatedAt", header: "End (UTC)", value: (r) => identifierDateTime(r.updatedAt) },
    { key: "countryName", header: "Country", value: (r) => r.countryName },
    { key: "ipAddress", header: "IP address", value: (r) => r.ipAddress },
    { key: "deviceType", header: "Device type", value: (r) => deviceLabel(r.deviceType) },
    { key: "browser", header: "Browser detail", value: (r) => r.browser },
    { key: "status", header: "Status", value: (r) => r.statusLabel },
  ],
});

/** Support > Scheduled Jobs (10 a page). */
export const jobsList = defineList<ScheduledJob>()({
  id: "scheduled-jobs",
  call: listJobsCall,
  filters: { isSoft: "flag" },
  sorts: ["createdAt", "projectCode", "interval", "lastRunAt"],
  columns: [
    { key: "projectCode", header: "Project number", value: (r) => r.projectCode },
    { key: "projectName", header: "Project name", value: (r) => r.projectName },
    { key: "interval", header: "Interval (minutes)", value: (r) => r.interval },
    { key: "comment", header: "Comment", value: (r) => r.comment },
    { key: "createdAt", header: "Created on", value: (r) => r.createdAt },
    { key: "fullName", header: "Created by", value: (r) => r.fullName },
    { key: "isSoft", header: "Soft", value: (r) => (r.isSoft ? "Yes" : "No") },
    { key: "isActive", header: "Status", value: (r) => (r.isActive ? "Active" : "Inactive") },
    { key: "lastRunAt", header: "Last run", value: (r) => r.lastRunAt ?? "" },
    { key: "lastOutcome", header: "Last outcome", value: (r) => r.lastOutcome },
  ],
});
