/** Reports (part 2, 2 "Reports"): each tab's grid, from the lists declared in shared/api/reports.ts. */
import {
  REPORT_KINDS,
  REPORT_LISTS,
  REPORT_TITLES,
  type ReportKind,
  type ReportRow,
} from "../../../../shared/api/reports.ts";
import type { FilterDecl, ListDecl } from "../../components/data-grid/types.ts";
import { CLIENTS, SUPPLIERS } from "../../lib/lookups.ts";

export { REPORT_KINDS, REPORT_TITLES };
export type { ReportKind, ReportRow };

type ReportFilterKey = "from" | "to" | "clientId" | "supplierId" | "type";

const filters: FilterDecl<ReportFilterKey>[] = [
  { kind: "search", placeholder: "Search projects", hint: "Searches project code and name (and supplier)" },
  { kind: "dateRange", minKey: "from", maxKey: "to" },
  { kind: "select", key: "clientId", label: "Client", source: CLIENTS },
  { kind: "select", key: "supplierId", label: "Supplier", source: SUPPLIERS },
  { kind: "export" },
];

/** A tab's grid: 20 a page; the five project tabs send their `type` in the filter. */
export function reportGrid(kind: ReportKind): ListDecl<ReportRow, ReportFilterKey> {
  return {
    list: REPORT_LISTS[kind] as ListDecl<ReportRow, ReportFilterKey>["list"],
    id: `${kind}-report`,
    rowId: (r) => r.key,
    defaultPageSize: 20,
    filters,
    fixedFilter: kind === "supplier" ? undefined : { type: kind },
    exportName: REPORT_LISTS[kind].id,
  };
}

export const isReportKind = (s: string | null): s is ReportKind => REPORT_KINDS.includes(s as ReportKind);
