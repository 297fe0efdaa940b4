/** Support > System Logs: every change by staff, newest first, searchable and exportable. */
import type { Db } from "../../db/connection.ts";
import { type AnyQB, dateRangeFilters, listSpecOf } from "../../db/list.ts";
import { systemLogList, type SystemLogRow } from "../../../shared/api/system-log.ts";

export type { SystemLogRow };

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

export const systemLogListSpec = listSpecOf(systemLogList, {
  search: ["name", "activity", "module", "ipAddress"],
  rowid: "system_logs.rowid",
  fts: { table: "system_logs_fts" },
  filters: {
    module: (qb, val) => qb.where("module", "=", String(val)),
    ...dateRangeFilters("createdAt"),
  },
  sorts: {},
  defaultSort: [["createdAt", "desc"], ["id", "desc"]],
});

/** The System Logs row as read (the query already names its columns as the API does). */
export const systemLogRow = (r: SystemLogRow): SystemLogRow => r;
