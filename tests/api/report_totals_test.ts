/**
 * A report tab's totals row (issue 25, item 3): the server sums every row the tab's filters and
 * search match, on every page, not the page on screen; the figures are the rows' to the cent.
 */
import { assertEquals } from "../helpers/assert.ts";
import { expectGuarded, testApp } from "../helpers/app.ts";
import { reportDataset, REPORTS_NOW as NOW } from "../helpers/reports.ts";
import { REPORT_KINDS, type ReportKind, type ReportRow, TOTALLED } from "../../shared/api/reports.ts";

const paths = (kind: ReportKind) =>
  kind === "supplier"
    ? { data: "/admin/supplier/report/data", totals: "/admin/supplier/report/totals" }
    : { data: "/admin/project/report/data", totals: "/admin/project/report/totals" };

Deno.test("report totals: each tab's figures summed over every matching row, filters and search applied", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const { B, p2 } = await reportDataset(t);
    const token = await t.tokenFor("MANAGER");
    const call = async (path: string, body: Record<string, unknown>) => {
      const r = await t.call("POST", path, { token, body });
      assertEquals(r.status, 200, `${path}: ${r.text}`);
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
        const all = (await call(paths(kind).data, { ...body, limit: 100 })).data as ReportRow[];
        // a page of one row and a sort: the totals are still every row's
        const totals = await call(paths(kind).totals, { ...body, limit: 1, pageNo: 1, sortBy: "clicked" });
        const want: Record<string, number> = { rows: all.length };
        for (const k of TOTALLED) {
          want[k] = Math.round(all.reduce((a, r) => a + Number(r[k]), 0) * 100) / 100;
        }
        assertEquals(totals, want, `${kind}, ${label}`);
      }
    }

    // the hand-computed year on the Client tab: P1 10+6+3 clicks, P2 5+20; revenue 8+4+2 and 3.5+21
    const client = await call(paths("client").totals, { filter: year, type: "client" });
    assertEquals([client.rows, client.clicked, client.complete, client.revenue], [2, 44, 14, 38.5]);

    // the same guards as the data: a bad body is a 400, an undeclared sort too
    const bad = await t.call("POST", paths("client").totals, { token, body: { filter: { from: "soon" } } });
    assertEquals(bad.status, 400, bad.text);
    const sorted = await t.call("POST", paths("supplier").totals, { token, body: { sortBy: "nope" } });
    assertEquals(sorted.status, 400, sorted.text);
    await expectGuarded(t, "POST", paths("supplier").totals, "SUPPLIER");
  } finally {
    await t.close();
  }
});
