/**
 * A report tab's totals row: every figure summed over all the rows the tab's filters and search
 * match, not over the page on screen. The rows are read as the CSV reads them (reportPages: the
 * same query, the same figures, a thousand rows at a time), so the totals are the sums of the rows
 * the tab and its export show, to the cent.
 */
import type { Db } from "../../db/connection.ts";
import type { ListBody } from "../../../shared/list.ts";
import { type ReportKind, type ReportTotals, TOTALLED } from "../../../shared/api/reports.ts";
import { reportPages } from "./reports.ts";

const cents = (n: number) => Math.round(n * 100) / 100;

export async function reportTotals(db: Db, kind: ReportKind, body: ListBody): Promise<ReportTotals> {
  const totals = { ...Object.fromEntries(TOTALLED.map((k) => [k, 0])), rows: 0 } as ReportTotals;
  // every page from the first (the order changes no sum, but an undeclared one is refused as ever)
  for await (const page of reportPages(db, kind, { ...body, pageNo: 1 })) {
    totals.rows += page.length;
    for (const row of page) for (const k of TOTALLED) totals[k] += Number(row[k] ?? 0);
  }
  // money is summed from cents: no 0.30000000000000004 in a total
  totals.revenue = cents(totals.revenue);
  totals.expense = cents(totals.expense);
  totals.routedRevenue = cents(totals.routedRevenue);
  return totals;
}
