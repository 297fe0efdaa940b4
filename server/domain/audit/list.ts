/** Support > System Logs: every change by staff, newest first, searchable and exportable. */
import type { Db } from "../../db/connection.ts";
import type { AnyQB, ListSpec } from "../../db/list.ts";

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
};

export function systemLogQuery(db: Db): AnyQB {
  return db.selectFrom("system_logs").select([
    "id as _id",
    "createdAt",
    "name",
    "activity",
    "ipAddress",
    "device",
    "city",
    "country",
    "module",
  ]);
}

export const systemLogListSpec: ListSpec = {
  search: ["name", "activity", "module", "ipAddress"],
  rowid: "system_logs.rowid",
  fts: { table: "system_logs_fts" },
  filters: {
    module: (qb, val) => qb.where("module", "=", String(val)),
    minDate: (qb, val) => qb.where("createdAt", ">=", String(val)),
    maxDate: (qb, val) => qb.where("createdAt", "<", `${String(val).slice(0, 10)}T23:59:59.999Z`),
  },
  defaultSort: [["createdAt", "desc"], ["id", "desc"]],
};

export const systemLogCsv = [
  { header: "Date", value: (r: SystemLogRow) => r.createdAt },
  { header: "User", value: (r: SystemLogRow) => r.name },
  { header: "Activity", value: (r: SystemLogRow) => r.activity },
  { header: "IP address", value: (r: SystemLogRow) => r.ipAddress },
  { header: "Device", value: (r: SystemLogRow) => r.device },
  { header: "City", value: (r: SystemLogRow) => r.city },
  { header: "Country", value: (r: SystemLogRow) => r.country },
  { header: "Module", value: (r: SystemLogRow) => r.module },
];
