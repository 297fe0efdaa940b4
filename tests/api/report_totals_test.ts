/**
 * A report tab's totals row (issue 25, item 3): the server sums every row the tab's filters and
 * search match, on every page, not the page on screen; the figures are the rows' to the cent.
 */
import { assertEquals } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { reportDataset, REPORTS_NOW as NOW } from "../helpers/reports.ts";
import { REPORT_KINDS, type ReportKind, type ReportRow, TOTALLED } from "../../shared/api/reports.ts";
import * as Rep from "../../shared/api/reports.ts";
import type { AnyContract } from "../../shared/api/contract.ts";

const calls = (kind: ReportKind): { data: AnyContract; totals: AnyContract } =>
  kind === "supplier"
    ? { data: Rep.supplierReportData, totals: Rep.supplierReportTotals }
    : { data: Rep.projectReportData, totals: Rep.projectReportTotals };

Deno.test("report totals: each tab's figures summed over every matching row, filters and search applied", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const { B, p2 } = await reportDataset(t);
    const token = await t.tokenFor("MANAGER");
    const call = async (c: AnyContract, body: Record<string, unknown>) => {
      const r = await t.api(c, { token, body });
      assertEquals(r.status, 200, `${c.path}: ${r.text}`);
      return r.json.result;
    };
    const year = { from: "2025-12-01", to: "2026-11-30" };
    for (const kind of REPORT_KINDS) {
      for (
        const [label, extra] of [
          ["the year", { filter: year }],
          ["client B", { filter: { ...year, clientId: B } }],
          ["a search", { filter: year, search: p2.child.projectCode }],
          ["November", { filter: { from: "2026-11-01", to: "2026-11-30" } }],
        ] as const
      ) {
        const body = { ...extra, ...(kind === "supplier" ? {} : { type: kind }) };
        const all = (await call(calls(kind).data, { ...body, limit: 100 })).data as ReportRow[];
        // a page of one row and a sort: the totals are still every row's
        const totals = await call(calls(kind).totals, { ...body, limit: 1, pageNo: 1, sortBy: "clicked" });
        const want: Record<string, number> = { rows: all.length };
        for (const k of TOTALLED) {
          want[k] = Math.round(all.reduce((a, r) => a + Number(r[k]), 0) * 100) / 100;
        }
        assertEquals(totals, want, `${kind}, ${label}`);
      }
    }

    // the hand-computed year on the Client tab: P1 10+6+3 clicks, P2 5+20; revenue 8+4+2 and 3.5+21
    const client = await call(calls("client").totals, { filter: year, type: "client" });
    assertEquals([client.rows, client.clicked, client.complete, client.revenue], [2, 44, 14, 38.5]);

    // the same guards as the data: a bad body is a 400, an undeclared sort too
    const bad = await t.api(Rep.projectReportTotals, { token, bad: { filter: { from: "soon" } } });
    assertEquals(bad.status, 400, bad.text);
    const sorted = await t.api(Rep.supplierReportTotals, { token, bad: { sortBy: "nope" } });
    assertEquals(sorted.status, 400, sorted.text);
    await expectCallGuarded(t, Rep.supplierReportTotals, "SUPPLIER");
  } finally {
    await t.close();
  }
});
