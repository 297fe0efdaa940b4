/** Support > System Logs: every change by staff, newest first, searchable and exportable. */
import type { Db } from "../../db/connection.ts";
import { type AnyQB, dateRangeFilters, listSpecOf } from "../../db/list.ts";
import { systemLogList, type SystemLogRow } from "../../../shared/api/system-log.ts";
import { parseChanges } from "../../../shared/audit.ts";

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
    "changes",
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

/** The System Logs row as read (the query names its columns as the API does; changes are JSON). */
export const systemLogRow = (r: Omit<SystemLogRow, "changes"> & { changes: string }): SystemLogRow => ({
  ...r,
  changes: parseChanges(r.changes),
});
