/** Reports (part 2, 7 "Reports and exports"): handlers of the contracts in shared/api/reports.ts. */
import type { Api } from "../http/api.ts";
import * as R from "../../shared/api/reports.ts";
import { reportList } from "../domain/reports/reports.ts";
import { reportTotals } from "../domain/reports/totals.ts";

export function reportRoutes(api: Api) {
  // the five project tabs: which one is the body's type (or its filter's)
  api.list(R.projectReportData, ({ db, body }) => {
    const kind = R.projectReportKind(body);
    return { ...reportList(db, kind, body), list: R.REPORT_LISTS[kind] };
  });
  api.list(R.supplierReportData, ({ db, body }) => ({
    ...reportList(db, "supplier", body),
    list: R.supplierReportList,
  }));
  api.handle(R.projectReportTotals, ({ db, body }) => reportTotals(db, R.projectReportKind(body), body));
  api.handle(R.supplierReportTotals, ({ db, body }) => reportTotals(db, "supplier", body));
}
