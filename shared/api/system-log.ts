/**
 * POST /admin/system/log (part 1, section 7): with `filter` = a project id, that project's activity
 * timeline (the project Logs dialog, for whoever may read projects); otherwise a page of the System
 * Logs of Support (search, dates, module; CSV export), for the SUPPORT_LOG roles only.
 */
import * as v from "valibot";
import { defineCall, returns } from "./contract.ts";
import { defineList, type ListResult } from "../list.ts";
import type { LogChange } from "../audit.ts";

/** A line of the System Logs grid. */
export type SystemLogRow = {
  _id: string;
  createdAt: string;
  name: string;
  activity: string;
  ipAddress: string;
  device: string;
  city: string;
  country: string;
  module: string;
  /** What an update changed, one entry per field ([] for other entries); `activity` says it too. */
  changes: LogChange[];
};

/** A line of a project's activity timeline. */
export type ProjectLogEntry = {
  _id: string;
  name: string;
  activity: string;
  createdAt: string;
  module: string;
  /** What an update changed, one entry per field ([] for other entries). */
  changes: LogChange[];
};

/** The body asking for one project's timeline. */
export const ProjectLogBody = v.object({
  filter: v.pipe(v.string(), v.regex(/^[0-9a-f]{24}$/, "Project is required")),
});

/**
 * Either body: a string `filter` reads as {@link ProjectLogBody}, anything else as the list body
 * (ListBody of shared/list.ts); the handler validates it with the one that applies.
 */
export const SystemLogBody = v.record(v.string(), v.unknown());

/** Whether a (JSON object) body asks for a project's timeline rather than the System Logs page. */
export const asksProjectLog = (body: Record<string, unknown>) => typeof body.filter === "string";

export const systemLogCall = defineCall({
  method: "POST",
  path: "/admin/system/log",
  body: SystemLogBody,
  csv: true,
  result: returns<ListResult<SystemLogRow> | ProjectLogEntry[]>(),
});

/** Support > System Logs: newest first. */
export const systemLogList = defineList<SystemLogRow>()({
  id: "system-logs",
  call: systemLogCall,
  filters: { module: "text", minDate: "date", maxDate: "date" },
  sorts: [],
  columns: [
    { key: "createdAt", header: "Date", value: (r) => r.createdAt },
    { key: "name", header: "User", value: (r) => r.name },
    { key: "activity", header: "Activity", value: (r) => r.activity },
    { key: "ipAddress", header: "IP address", value: (r) => r.ipAddress },
    { key: "device", header: "Device", value: (r) => r.device },
    { key: "city", header: "City", value: (r) => r.city },
    { key: "country", header: "Country", value: (r) => r.country },
    { key: "module", header: "Module", value: (r) => r.module },
  ],
});
