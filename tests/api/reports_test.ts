/**
 * Reports (part 2, 2 "Reports" and 7 "Reports and exports"): each tab against values computed by
 * hand on a small rollup, its CSV agreeing with its rows, the reports agreeing with the dashboard's
 * figures over the same days, whole months and edge days read alike, and the guards of each call.
 */
import { addToRouterDaily, DAILY_COLUMNS, deleteFromRouterDaily } from "../../server/domain/router/rollup.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { expectCallGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { reportDataset, REPORTS_NOW as NOW } from "../helpers/reports.ts";
import * as D from "../../shared/api/dashboard.ts";
import { REPORT_KINDS, REPORT_LISTS, type ReportKind, type ReportRow } from "../../shared/api/reports.ts";
import { reportPage, reportQuery } from "../../server/domain/reports/reports.ts";
import { ROLLUP_COUNTERS } from "../../server/db/tables/router.ts";
import { sql } from "kysely";
import { csvLine } from "../../server/http/csv.ts";
import { splitRange } from "../../server/domain/dashboard/ranges.ts";
import * as Rep from "../../shared/api/reports.ts";
import type { AnyContract } from "../../shared/api/contract.ts";

type Body = Record<string, unknown>;
async function report(t: TestApp, kind: ReportKind, filter: Body = {}, extra: Body = {}, role = "MANAGER") {
  const call: AnyContract = kind === "supplier" ? Rep.supplierReportData : Rep.projectReportData;
  const body = kind === "supplier"
    ? { filter, limit: 100, ...extra }
    : { filter, type: kind, limit: 100, ...extra };
  const token = await t.tokenFor(role as never);
  const r = await t.api(call, { token, body });
  assertEquals(r.status, 200, r.text);
  const csv = await t.api(call, { token, body, search: { format: "csv" } });
  assertEquals(csv.status, 200, csv.text);
  return { rows: r.json.result.data as ReportRow[], metadata: r.json.result.metadata, csv: csv.text };
}

/** The CSV the declared columns make of these rows (header first): what the download must be. */
const csvOf = (kind: ReportKind, rows: ReportRow[]) => {
  const cols = REPORT_LISTS[kind].columns;
  // (the test client's text has dropped the file's byte-order mark)
  return csvLine(cols.map((c) => c.header)) + rows.map((r) => csvLine(cols.map((c) => c.value(r)))).join("");
};
const pick = <K extends keyof ReportRow>(rows: ReportRow[], ...keys: K[]) =>
  rows.map((r) => keys.map((k) => r[k]));
const sum = (rows: ReportRow[], k: keyof ReportRow) =>
  Math.round(rows.reduce((a, r) => a + Number(r[k]), 0) * 100) / 100;

Deno.test("reports: each tab matches hand-computed figures, its CSV its rows, and the dashboard over the same days", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const { p1, p2, s1, s2, B } = await reportDataset(t);
    const byCode = p1.child.projectCode < p2.child.projectCode;
    const order = <T>(a: T, b: T) => (byCode ? [a, b] : [b, a]);
    const november = { from: "2026-11-01", to: "2026-11-30" };

    // Client: each survey project of the month
    const client = await report(t, "client", november);
    assertEquals(
      pick(
        client.rows,
        "projectId",
        "clicked",
        "complete",
        "terminate",
        "qualityTerm",
        "overQuota",
        "security",
        "totalDisqualified",
        "drop",
        "revenue",
      ),
      order(
        [p1.child._id, 16, 6, 3, 0, 0, 2, 6, 1, 12],
        [p2.child._id, 5, 1, 0, 0, 0, 1, 1, 0, 3.5],
      ),
    );
    assertEquals(client.csv, csvOf("client", client.rows), "the CSV is the on-screen rows");
    assertEquals(client.metadata.total, 2);

    // the dashboard over the same month: cards and the This Month dialog agree to the cent
    const token = await t.tokenFor("BDE");
    const box = (await t.api(D.dashboardBoxCall, { token })).json.result;
    assertEquals(sum(client.rows, "complete"), box.monthCompleted);
    assertEquals(sum(client.rows, "revenue"), box.monthlyRevenue);
    const dialog = (await t.api(D.todayCompletedCall, { token, body: { sortDate: 3 } })).json.result;
    for (const r of client.rows) {
      const d = dialog.find((x: { _id: string }) => x._id === r.projectId);
      assertEquals([d.complete, d.expectedRevenue], [r.complete, r.revenue]);
    }

    // Supplier: each project's supplier, approved and expense; the month's expense is the card's
    const supplier = await report(t, "supplier", november);
    assertEquals(
      pick(supplier.rows, "supplierName", "projectId", "clicked", "complete", "approved", "expense"),
      [
        ...order(["Alpha panel", p1.child._id, 10, 4, 0, 5], ["Alpha panel", p2.child._id, 5, 1, 5, 2]),
        ["Beta panel", p1.child._id, 6, 2, 0, 2],
      ],
    );
    assertEquals(sum(supplier.rows, "expense"), box.monthlyExpense);
    assertEquals(supplier.csv, csvOf("supplier", supplier.rows));
    const onlyS2 = await report(t, "supplier", { ...november, supplierId: s2._id });
    assertEquals(pick(onlyS2.rows, "supplierId", "complete"), [[s2._id, 2]]);
    assertEquals(onlyS2.csv, csvOf("supplier", onlyS2.rows));

    // Prescreen: P1 pre-screens (and had a pre-screen terminate), P2 does not
    const prescreen = await report(t, "prescreen", {});
    assertEquals(pick(prescreen.rows, "projectId", "clicked", "preScreenTerminate", "complete"), [
      [p1.child._id, 19, 1, 7],
    ]);
    assertEquals(prescreen.csv, csvOf("prescreen", prescreen.rows));

    // Complete Allocated (all time): each map's quota against its completes
    const allocated = await report(t, "completeAllocated", {});
    const alloc = pick(
      allocated.rows,
      "projectId",
      "supplierId",
      "allocated",
      "complete",
      "overQuota",
      "totalComplete",
      "remaining",
    );
    assertEquals(
      alloc,
      order(
        [p1.child._id, s1._id, 50, 5, 0, 5, 45],
        [p2.child._id, s1._id, 10, 7, 2, 7, 3],
      ).flatMap((x) => x[0] === p1.child._id ? [x, [p1.child._id, s2._id, 20, 2, 0, 2, 18]] : [x]),
    );
    assertEquals(allocated.csv, csvOf("completeAllocated", allocated.rows));

    // Complete, October: P2 alone
    const october = await report(t, "complete", { from: "2026-10-01", to: "2026-10-31" });
    assertEquals(pick(october.rows, "projectId", "complete", "approved", "revenue", "expense"), [
      [p2.child._id, 6, 5, 21, 12],
    ]);
    assertEquals(october.csv, csvOf("complete", october.rows));

    // Project Complete: the group projects against their sample sizes
    const groups = await report(t, "projectComplete", november);
    assertEquals(
      pick(
        groups.rows,
        "projectId",
        "allocated",
        "complete",
        "totalComplete",
        "remaining",
        "approved",
        "revenue",
      ),
      order([p1.parent._id, 100, 6, 7, 93, 0, 12], [p2.parent._id, 10, 1, 7, 3, 5, 3.5]),
    );
    assertEquals(groups.csv, csvOf("projectComplete", groups.rows));

    // client filter, search, and the type given in the filter (the grids' fixed filter)
    const onlyB = await report(t, "client", { ...november, clientId: B });
    assertEquals(pick(onlyB.rows, "projectId"), [[p2.child._id]]);
    const r = await t.api(Rep.projectReportData, {
      token,
      body: { filter: { type: "client" }, search: p2.child.projectCode },
    });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.result.data.map((x: ReportRow) => [x.projectId, x.complete]), [[p2.child._id, 7]]);
  } finally {
    await t.close();
  }
});

Deno.test("reports: ranges of whole months and of edge days read the same figures as the days", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const { p1, p2 } = await reportDataset(t);
    const completes = async (filter: Body) =>
      Object.fromEntries((await report(t, "client", filter)).rows.map((r) => [r.projectId, r.complete]));
    // all time; whole months only; edges only; edges around whole months
    assertEquals(await completes({}), { [p1.child._id]: 7, [p2.child._id]: 7 });
    assertEquals(await completes({ from: "2025-12-01", to: "2026-10-31" }), {
      [p1.child._id]: 1,
      [p2.child._id]: 6,
    });
    assertEquals(await completes({ from: "2026-11-18", to: "2026-11-19" }), { [p1.child._id]: 2 });
    assertEquals(await completes({ from: "2025-12-31", to: "2026-11-18" }), {
      [p1.child._id]: 3,
      [p2.child._id]: 6,
    });
    assertEquals(await completes({ from: "2026-11-21" }), {});
    // the monthly rollup is the daily one summed per month, updates and deletes included
    // (through rollup.ts, the one writer of router_daily and its rollups)
    const oct5 = await t.deps.db.selectFrom("router_daily").selectAll().where("date", "=", "2026-10-05")
      .executeTakeFirstOrThrow();
    await addToRouterDaily(t.deps.db, [{ ...oct5, ...zeroRollup(), complete: 9 - oct5.complete }]);
    assertEquals(await completes({ from: "2026-10-01", to: "2026-10-31" }), { [p2.child._id]: 9 });
    await deleteFromRouterDaily(t.deps.db, { date: "2026-10-05" });
    assertEquals(await completes({ from: "2026-10-01", to: "2026-10-31" }), {});
  } finally {
    await t.close();
  }
});

const zeroRollup = () => Object.fromEntries(DAILY_COLUMNS.map((c) => [c, 0]));

Deno.test("reports: a range splits into whole months and edge days", () => {
  assertEquals(splitRange({}), { months: ["0000-01", "9999-12"], days: [] });
  assertEquals(splitRange({ from: "2026-11-01", to: "2026-11-30" }), {
    months: ["2026-11", "2026-11"],
    days: [],
  });
  assertEquals(splitRange({ from: "2026-11-14" }), {
    months: ["2026-12", "9999-12"],
    days: [["2026-11-14", "2026-11-30"]],
  });
  assertEquals(splitRange({ from: "2026-11-14", to: "2026-11-20" }), {
    months: null,
    days: [["2026-11-14", "2026-11-20"]],
  });
  assertEquals(splitRange({ from: "2025-12-31", to: "2026-03-02" }), {
    months: ["2026-01", "2026-02"],
    days: [["2025-12-31", "2025-12-31"], ["2026-03-01", "2026-03-02"]],
  });
  assertEquals(splitRange({ from: "2024-02-01", to: "2024-02-29" }), {
    months: ["2024-02", "2024-02"],
    days: [],
  });
  assertEquals(splitRange({ from: "2026-12-01", to: "2026-11-30" }), { months: null, days: [] });
});

Deno.test("reports: each call refuses a missing token (401), a wrong role (403) and malformed input (400)", async () => {
  const t = await testApp();
  try {
    await expectCallGuarded(t, Rep.projectReportData, "SUPPLIER", { body: { type: "client" } });
    await expectCallGuarded(t, Rep.supplierReportData, "BDE", { body: {} });
    const token = await t.tokenFor("ACCOUNTANT");
    const bad: [AnyContract, Body, string][] = [
      [Rep.projectReportData, {}, "type must be one of"],
      [Rep.projectReportData, { type: "nope" }, "type must be one of"],
      [
        Rep.projectReportData,
        { type: "client", filter: { from: "2026-13-45" } },
        "from must be a date",
      ],
      [Rep.projectReportData, { type: "client", filter: { from: 5 } }, "from must be a date"],
      [
        Rep.projectReportData,
        { type: "client", filter: { from: "2026-11-02", to: "2026-11-01" } },
        "to must not be before from",
      ],
      [Rep.projectReportData, { type: "client", filter: { clientId: "x" } }, "Unknown client"],
      [Rep.supplierReportData, { filter: { supplierId: "' OR 1=1 --" } }, "Unknown supplier"],
      [Rep.supplierReportData, { pageNo: 0 }, "pageNo must be at least 1"],
      [Rep.supplierReportData, { filter: "x" }, ""],
    ];
    for (const [call, body, message] of bad) {
      for (const search of [{}, { format: "csv" }] as Record<string, string>[]) {
        const r = await t.api(call, { token, bad: body, search });
        assertEquals(
          r.status,
          400,
          `${call.path} ${JSON.stringify(search)} ${JSON.stringify(body)}: ${r.text}`,
        );
        assert(typeof r.json.message === "string" && r.json.message.includes(message), r.text);
      }
    }
    const raw = await t.api(Rep.supplierReportData, { token, raw: "{not json" });
    assertEquals(raw.status, 400, raw.text);
  } finally {
    await t.close();
  }
});

Deno.test("reports: a page sums the whole range once (counted with the page), its figures read for its rows alone", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    await reportDataset(t);
    const statements: string[] = [];
    const executor = t.deps.db.getExecutor();
    const db = t.deps.db.withPlugin({
      transformQuery: (a) => {
        statements.push(executor.compileQuery(a.node, a.queryId).sql);
        return a.node;
      },
      transformResult: (a) => Promise.resolve(a.result),
    });
    for (const kind of REPORT_KINDS) {
      const all = (await report(t, kind, {})).rows;
      for (const sortBy of [undefined, "revenue", "clicked"]) {
        const whole = sortBy ? (await report(t, kind, {}, { sortBy, sortDir: "desc" })).rows : all;
        for (let pageNo = 1; pageNo <= whole.length + 1; pageNo++) {
          statements.length = 0;
          const page = await reportPage(
            db,
            kind,
            { filter: {}, pageNo, limit: 1, sortBy, sortDir: "desc" } as never,
          );
          // every page's row is the full list's row, figures included, and the total is exact
          assertEquals(page.data, whole.slice(pageNo - 1, pageNo), `${kind} ${sortBy} page ${pageNo}`);
          assertEquals(page.metadata.total, whole.length);
          const read = statements.filter((s) =>
            s.includes("router_monthly") && !s.includes("json_each") && !s.startsWith('select 1 as "one"')
          );
          // (a subquery, a CTE's body, is shown to the plugin too: its outer statement is the one that runs)
          const whole_ = read.filter((s) => !read.some((o) => o !== s && o.includes(s)));
          // the range summed whole once (a page past the end counts apart: twice)
          assertEquals(
            whole_.length,
            pageNo <= whole.length ? 1 : 2,
            `${kind} page ${pageNo}: ${whole_.join("\n")}`,
          );
        }
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("reports: every tab's rows are a recount of the rollup: rows that counted nothing are none, one counter of any kind makes a row", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const db = t.deps.db;
    const at = new Date(NOW).toISOString();
    const id = (prefix: number, i: number) =>
      prefix.toString(16).padStart(8, "0") + i.toString(16).padStart(16, "0");
    const group = id(0x5a000000, 0), client = id(0x5c000000, 0);
    const base = { clientId: client, projectStatus: 1, createdAt: at, updatedAt: at, statusChangedAt: at };
    await db.insertInto("projects").values({
      ...base,
      id: group,
      projectType: 1,
      projectCode: "RG0",
      projectName: "Recount group",
    } as never).execute();
    // 20 survey projects under the group, the even ones pre-screening
    const projects = Array.from({ length: 20 }, (_, i) => ({
      ...base,
      id: id(0x5d000000, i),
      projectType: 2,
      parentProjectId: group,
      projectCode: `RC${String(i).padStart(2, "0")}`,
      projectName: `Recount ${i}`,
      isPreScreen: i % 2 === 0 ? 1 : 0,
    }));
    await db.insertInto("projects").values(projects as never).execute();
    const suppliers = [id(0x5f000000, 0), id(0x5f000000, 1)];
    type Row = Record<string, string | number>;
    const rows: Row[] = [];
    const add = (day: string, p: number, s: number, counts: Record<string, number>) =>
      rows.push({
        date: day,
        projectId: projects[p].id,
        parentProjectId: group,
        supplierId: suppliers[s],
        supplierMapId: id(0x5e000000, p * 2 + s),
        clientId: client,
        ...Object.fromEntries([...ROLLUP_COUNTERS, "revenue", "cost"].map((c) => [c, 0])),
        ...counts,
      });
    // project i (< 16) and supplier 0: only counter i, once, on an edge day or a whole month's day
    ROLLUP_COUNTERS.forEach((c, i) => add(i % 2 ? "2026-10-28" : "2026-11-03", i, 0, { [c]: 1 }));
    // rows that counted nothing: alone (project 16; project 3's supplier 1) or next to a live one (17)
    add("2026-10-29", 16, 0, {});
    add("2026-11-04", 16, 1, { revenue: 0, cost: 0 });
    add("2026-11-05", 3, 1, {});
    add("2026-11-06", 17, 0, {});
    add("2026-11-07", 17, 0, { clicked: 2, complete: 1, revenue: 2.5, cost: 1 });
    // outside the range: never a row
    add("2026-09-10", 18, 0, { clicked: 5, complete: 5 });
    // counters taken back to zero (a row counted, then not)
    add("2026-11-08", 19, 1, { clicked: 0, terminate: 0 });
    await db.insertInto("router_daily").values(rows as never).execute();
    // the monthly rollup as the router keeps it (whether by trigger or by its writer)
    await sql`DELETE FROM router_monthly`.execute(db);
    const cols = [...ROLLUP_COUNTERS, "revenue", "cost"].map((c) => `"${c}"`);
    await sql.raw(
      `INSERT INTO router_monthly (month, projectId, supplierId, clientId, parentProjectId, ${cols})
      SELECT substr(date, 1, 7), projectId, supplierId, max(clientId), max(parentProjectId), ${
        cols.map((c) => `sum(${c})`)
      } FROM router_daily GROUP BY 1, 2, 3`,
    ).execute(db);

    // the recount: router_daily's rows of the range, summed per report row by hand
    const filter = { from: "2026-10-25", to: "2026-11-30" };
    const inRange = rows.filter((r) => r.date >= filter.from && r.date <= filter.to);
    const counted = (r: Row) => ROLLUP_COUNTERS.reduce((a, c) => a + Number(r[c] ?? 0), 0);
    const keyOf = (kind: ReportKind, r: Row) =>
      kind === "supplier" || kind === "completeAllocated"
        ? `${r.projectId}:${r.supplierId}`
        : kind === "projectComplete"
        ? String(r.parentProjectId)
        : String(r.projectId);
    for (const kind of REPORT_KINDS) {
      const sums = new Map<string, { counted: number; complete: number; clicked: number; pre: number }>();
      for (const r of inRange) {
        const k = keyOf(kind, r);
        const s = sums.get(k) ?? { counted: 0, complete: 0, clicked: 0, pre: 0 };
        s.counted += counted(r);
        s.complete += Number(r.complete ?? 0);
        s.clicked += Number(r.clicked ?? 0);
        s.pre += Number(r.preScreenTerminate ?? 0) + Number(r.preScreenDrop ?? 0);
        sums.set(k, s);
      }
      const preScreening = new Set(projects.filter((p) => p.isPreScreen).map((p) => p.id));
      const expected = [...sums].filter(([k, s]) =>
        kind === "complete" || kind === "projectComplete"
          ? s.complete > 0
          : kind === "prescreen"
          ? s.counted > 0 && (preScreening.has(k) || s.pre > 0)
          : s.counted > 0
      ).map(([k, s]) => [k, s.clicked, s.complete]).sort();
      const page = await reportPage(db, kind, { filter, pageNo: 1, limit: 100 } as never);
      assertEquals(page.data.map((r) => [r.key, r.clicked, r.complete]).sort(), expected, kind);
      assertEquals(page.metadata.total, expected.length, kind);
    }
    // the rows that counted nothing are no rows, each single counter is one
    const client_ = await reportPage(db, "client", { filter, pageNo: 1, limit: 100 } as never);
    assertEquals(client_.data.length, 17, "projects 0-15 (one counter each) and 17");
    const supplier = await reportPage(db, "supplier", { filter, pageNo: 1, limit: 100 } as never);
    assert(!supplier.data.some((r) => r.key === `${projects[3].id}:${suppliers[1]}`));
  } finally {
    await t.close();
  }
});

Deno.test("reports: the rows that counted nothing are found through 0015's partial indexes, not by adding up counters", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const db = t.deps.db;
    const plan = async (q: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
      const c = q.compile();
      const r = await db.getExecutor().executeQuery({
        sql: `EXPLAIN QUERY PLAN ${c.sql}`,
        parameters: c.parameters,
        query: { kind: "RawNode" } as never,
        queryId: { queryId: "plan" },
      } as never);
      return (r.rows as { detail: string }[]).map((x) => x.detail).join("\n");
    };
    const q = reportQuery(db, "client", {
      from: "2026-10-25",
      to: "2026-11-30",
      clientId: null,
      supplierId: null,
    });
    const detail = await plan(q);
    assert(detail.includes("router_monthly_uncounted"), detail);
    assert(detail.includes("router_daily_uncounted"), detail);
  } finally {
    await t.close();
  }
});

Deno.test("reports: a page of project-and-supplier rows is in name order, suppliers of one name by their key; only the ordering columns are listed", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const db = t.deps.db;
    const at = new Date(NOW).toISOString();
    const id = (prefix: number, i: number) =>
      prefix.toString(16).padStart(8, "0") + i.toString(16).padStart(16, "0");
    const group = id(0x4a000000, 0), client = id(0x4c000000, 0);
    const base = { clientId: client, projectStatus: 1, createdAt: at, updatedAt: at, statusChangedAt: at };
    await db.insertInto("projects").values({
      ...base,
      id: group,
      projectType: 1,
      projectCode: "OG0",
      projectName: "Order group",
    } as never).execute();
    // survey projects whose codes run against their ids
    const projects = Array.from({ length: 4 }, (_, i) => ({
      ...base,
      id: id(0x4d000000, i),
      projectType: 2,
      parentProjectId: group,
      projectCode: `OC${3 - i}`,
      projectName: `Order ${i}`,
    }));
    await db.insertInto("projects").values(projects as never).execute();
    // two suppliers of one name (ids against their short codes), one sorting first, one unknown
    const supplier = (i: number, name: string) => ({
      id: id(0x4f000000, i),
      supplierType: 1,
      supplierName: name,
      supplierShortCode: `OS${i}`,
      supplierEmail: `os${i}@example.test`,
      countryId: "US",
      supplierRuleCPI: "[]",
      supplierApiKey: `order-key-${i}`,
      createdAt: at,
      updatedAt: at,
    });
    await db.insertInto("suppliers").values(
      [supplier(2, "Same"), supplier(1, "Same"), supplier(3, "Alpha")] as never,
    )
      .execute();
    const suppliers = [id(0x4f000000, 2), id(0x4f000000, 1), id(0x4f000000, 3), id(0x4f000000, 9)];
    const names = new Map([[suppliers[0], "Same"], [suppliers[1], "Same"], [suppliers[2], "Alpha"]]);
    const rows = projects.flatMap((p, i) =>
      suppliers.map((s, k) => ({
        date: "2026-11-03",
        projectId: p.id,
        parentProjectId: group,
        supplierId: s,
        supplierMapId: id(0x4e000000, i * 4 + k),
        clientId: client,
        ...Object.fromEntries([...ROLLUP_COUNTERS, "revenue", "cost"].map((c) => [c, 0])),
        // ties on purpose: clicked 1 or 2, complete 0 or 1
        clicked: 1 + ((i + k) % 2),
        complete: (i * k) % 2,
      }))
    );
    await db.insertInto("router_daily").values(rows as never).execute();
    await sql`DELETE FROM router_monthly`.execute(db);
    const cols = [...ROLLUP_COUNTERS, "revenue", "cost"].map((c) => `"${c}"`);
    await sql.raw(
      `INSERT INTO router_monthly (month, projectId, supplierId, clientId, parentProjectId, ${cols})
      SELECT substr(date, 1, 7), projectId, supplierId, max(clientId), max(parentProjectId), ${
        cols.map((c) => `sum(${c})`)
      } FROM router_daily GROUP BY 1, 2, 3`,
    ).execute(db);

    // the expected order: the sort asked for, then the tab's names, then the row's key text
    const code = new Map(projects.map((p) => [p.id, p.projectCode]));
    const expected = (kind: ReportKind, sortBy?: "clicked" | "complete", dir: "asc" | "desc" = "asc") => {
      const list = rows.map((r) => ({
        key: `${r.projectId}:${r.supplierId}`,
        code: code.get(r.projectId)!,
        name: names.get(r.supplierId) ?? "",
        sorted: sortBy ? Number(r[sortBy]) : 0,
      }));
      const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      return list.sort((a, b) =>
        (sortBy ? (dir === "asc" ? a.sorted - b.sorted : b.sorted - a.sorted) : 0) ||
        (kind === "supplier"
          ? cmp(a.name, b.name) || cmp(a.code, b.code)
          : cmp(a.code, b.code) || cmp(a.name, b.name)) ||
        cmp(a.key, b.key)
      ).map((r) => r.key);
    };
    const filter = { from: "2026-11-01", to: "2026-11-30" };
    for (const kind of ["supplier", "completeAllocated"] as const) {
      for (const [sortBy, dir] of [[undefined, "asc"], ["clicked", "desc"], ["complete", "asc"]] as const) {
        const want = expected(kind, sortBy, dir);
        const whole = await reportPage(
          db,
          kind,
          { filter, pageNo: 1, limit: 100, sortBy, sortDir: dir } as never,
        );
        assertEquals(whole.data.map((r) => r.key), want, `${kind} ${sortBy}`);
        // page by page, the same order (3 rows a page)
        const paged: string[] = [];
        for (let pageNo = 1; pageNo <= Math.ceil(want.length / 3); pageNo++) {
          const page = await reportPage(
            db,
            kind,
            { filter, pageNo, limit: 3, sortBy, sortDir: dir } as never,
          );
          assertEquals(page.metadata.total, want.length);
          paged.push(...page.data.map((r) => r.key));
        }
        assertEquals(paged, want, `${kind} ${sortBy} paged`);
      }
      // a page's row still carries its names and figures (read for the page alone)
      const first = (await reportPage(db, kind, { filter, pageNo: 1, limit: 1 } as never)).data[0];
      assertEquals(first.projectName, projects.find((p) => p.id === first.projectId)!.projectName);
      assertEquals(first.parentProjectId, group);
      // every matching row is listed (materialized, sorted) by the columns that order it alone: no
      // names but the sorted ones, no key text built per row
      const listed = reportQuery(db, kind, { ...filter, clientId: null, supplierId: null }).compile().sql;
      const outer = listed.slice(0, listed.indexOf(" from "));
      assert(!outer.includes("projectName") && !outer.includes("||"), outer);
    }
  } finally {
    await t.close();
  }
});
