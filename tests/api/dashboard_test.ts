/**
 * Dashboard (part 1, 2.3 and 7): every figure against values computed by hand on a small dataset,
 * the cards, charts, dialogs and manager table agreeing with each other, the live stream pushing
 * today's figures after router traffic, and the guards of every call.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { expectGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, enter, liveProject, panelRedirects, router, uidOf } from "../helpers/router.ts";
import { API } from "../../shared/permissions.ts";
import * as D from "../../shared/api/dashboard.ts";
import type { LiveUpdate } from "../../shared/api/dashboard.ts";
import type { AnyContract, ResultOf } from "../../shared/api/contract.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { addToRouterDaily } from "../../server/domain/router/rollup.ts";

/** 2026-11-20 12:00 UTC: "today" of the hand-computed dataset. */
const NOW = Date.UTC(2026, 10, 20, 12);

const DASHBOARD_CALLS = Object.keys(API).filter((k) => k.startsWith("POST /admin/dashboard/"));

type Row =
  & { date: string; projectId: string; supplierId: string; supplierMapId: string; clientId: string }
  & Record<
    string,
    unknown
  >;

/**
 * Two survey projects (each under its own group and client) and two suppliers:
 * P1 (client A, CPI 2.00) mapped to S1 (supplier CPI 1.25) and S2 (1.00); P2 (client B, CPI 3.50)
 * mapped to S1 (2.00), invoiced on 2026-11-19 with 5 approved completes.
 */
async function dataset(t: TestApp) {
  const s1 = await makeSupplier(t);
  const s2 = await makeSupplier(t);
  const p1 = await liveProject(t, { child: { cpi: "2.00" }, supplierId: s1._id, map: { supplierCPI: 1.25 } });
  const superadmin = await t.tokenFor("SUPERADMIN");
  const m12 = await t.call("POST", "/admin/supplierMap/add", {
    token: superadmin,
    body: { projectId: p1.child._id, supplierId: s2._id, supplierCPI: 1, ...panelRedirects },
  });
  assertEquals(m12.status, 200, m12.text);
  const p2 = await liveProject(t, { child: { cpi: "3.50" }, supplierId: s1._id, map: { supplierCPI: 2 } });
  const A = p1.child.clientId as string, B = p2.child.clientId as string;
  const row = (
    date: string,
    p: typeof p1,
    supplierId: string,
    mapId: string,
    v: Record<string, number>,
  ): Row => ({
    date,
    projectId: p.child._id,
    parentProjectId: p.parent._id,
    supplierId,
    supplierMapId: mapId,
    clientId: p.child.clientId,
    ...v,
  });
  const rows: Row[] = [
    row("2026-11-20", p1, s1._id, p1.mapId, {
      clicked: 10,
      complete: 4,
      terminate: 3,
      security: 2,
      secIp: 1,
      secGeo: 1,
      revenue: 8,
      cost: 5,
    }),
    row("2026-11-20", p2, s1._id, p2.mapId, {
      clicked: 5,
      complete: 1,
      security: 1,
      secProxy: 1,
      revenue: 3.5,
      cost: 2,
    }),
    row("2026-11-18", p1, s2._id, m12.json.result._id, {
      clicked: 6,
      complete: 2,
      drop: 1,
      revenue: 4,
      cost: 2,
    }),
    row("2026-10-05", p2, s1._id, p2.mapId, {
      clicked: 20,
      complete: 6,
      overQuota: 2,
      revenue: 21,
      cost: 12,
    }),
    row("2025-12-31", p1, s1._id, p1.mapId, { clicked: 3, complete: 1, revenue: 2, cost: 1.25 }),
  ];
  // the upsert path of the router (ON CONFLICT ... DO UPDATE) keeps the day totals too
  const first = {
    ...rows[0],
    clicked: 6,
    complete: 3,
    terminate: 3,
    security: 0,
    secIp: 0,
    secGeo: 0,
    revenue: 6,
    cost: 3.75,
  };
  await addToRouterDaily(t.deps.db, [first]);
  await addToRouterDaily(t.deps.db, [
    {
      ...rows[0],
      clicked: 4,
      complete: 1,
      terminate: 0,
      security: 2,
      secIp: 1,
      secGeo: 1,
      revenue: 2,
      cost: 1.25,
    },
  ]);
  for (const r of rows.slice(1)) await addToRouterDaily(t.deps.db, [r]);
  // counters the rollup stands for, and P2's reconcile and invoice
  await t.deps.db.updateTable("projects").set({ complete: 7 }).where("id", "=", p1.child._id).execute();
  await t.deps.db.updateTable("projects").set({
    complete: 7,
    approved: 5,
    projectStatus: PROJECT_STATUS.INVOICED,
    statusChangedAt: "2026-11-19T10:00:00.000Z",
  }).where("id", "=", p2.child._id).execute();
  await t.deps.db.updateTable("supplier_maps").set({ approved: 5 }).where("id", "=", p2.mapId).execute();
  return { p1, p2, s1, s2, A, B };
}

async function post<C extends AnyContract>(
  t: TestApp,
  call: C,
  body: unknown = {},
  role: Parameters<TestApp["tokenFor"]>[0] = "BDE",
): Promise<ResultOf<C>> {
  const r = await t.call("POST", call.path, { token: await t.tokenFor(role), body });
  assertEquals(r.status, 200, `${call.path}: ${r.text}`);
  return r.json.result;
}

const last = <T>(xs: T[]) => xs[xs.length - 1];
const at = <T extends { date: string }>(xs: T[], date: string) => {
  const p = xs.find((x) => x.date === date);
  if (!p) throw new Error(`no point ${date} in ${xs.map((x) => x.date).join(",")}`);
  return p;
};

Deno.test("dashboard: cards, dialogs, manager table and every chart match hand-computed figures and each other", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const { p1, p2, s1, s2, A, B } = await dataset(t);

    await Promise.resolve();
    const totals = await t.deps.db.selectFrom("router_daily_totals").selectAll().orderBy("date").execute();
    assertEquals(totals.map((r) => [r.date, r.clicked, r.complete, r.security, r.revenue, r.cost]), [
      ["2025-12-31", 3, 1, 0, 2, 1.25],
      ["2026-10-05", 20, 6, 0, 21, 12],
      ["2026-11-18", 6, 2, 0, 4, 2],
      ["2026-11-20", 15, 5, 3, 11.5, 7],
    ], "the day totals are the rollup summed per day (inserts and upserts)");

    const box = await post(t, D.dashboardBoxCall);
    assertEquals(box, {
      totalCompleted: 14,
      todayCompleted: 5,
      monthCompleted: 7,
      totalProjects: 2,
      monthlyRevenue: 15.5,
      monthlyExpense: 9,
      monthlyInvoice: 0,
      todaySecurityDrop: 3,
      // P2: invoiced this month, its 5 approved completes (not its 7 completes) x $3.50
      revenueClosedInvoice: 17.5,
      monthlyInvoiceCost: 0,
    });

    // Today Completed and Today Security dialogs
    const today = await post(t, D.todayCompletedCall, { sortDate: 1 });
    assertEquals(
      today.map((
        r: { _id: string; complete: number; expectedRevenue: number; cpi: number },
      ) => [r._id, r.complete, r.cpi, r.expectedRevenue]),
      [
        [p1.child._id, 4, 2, 8],
        [p2.child._id, 1, 3.5, 3.5],
      ],
    );
    assertEquals(today[0].parentProjectId, p1.parent._id, "the code links to the group's child list");
    assertEquals(today[0].projectCode, p1.child.projectCode);
    const sumOf = <T>(xs: T[], f: (x: T) => number) =>
      Math.round(xs.reduce((a, x) => a + f(x), 0) * 100) / 100;
    assertEquals(sumOf(today, (r: { complete: number }) => r.complete), box.todayCompleted);
    const month = await post(t, D.todayCompletedCall, { filter: { sortDate: 3 } });
    assertEquals(
      month.map((r: { complete: number; expectedRevenue: number }) => [r.complete, r.expectedRevenue]),
      [[6, 12], [1, 3.5]],
    );
    assertEquals(sumOf(month, (r: { complete: number }) => r.complete), box.monthCompleted);
    assertEquals(sumOf(month, (r: { expectedRevenue: number }) => r.expectedRevenue), box.monthlyRevenue);
    const week = await post(t, D.todayCompletedCall, { sortDate: 2 });
    assertEquals(week.map((r: { complete: number }) => r.complete), [6, 1]);
    const security = await post(t, D.todaySecurityCall, {});
    assertEquals(
      security.map((r: { _id: string; sca: number; security: number }) => [r._id, r.sca, r.security]),
      [
        [p1.child._id, 10, 2],
        [p2.child._id, 5, 1],
      ],
    );
    assertEquals(sumOf(security, (r: { security: number }) => r.security), box.todaySecurityDrop);

    // the project-manager table: one manager with both groups
    const pm = await post(t, D.dashboardManagersCall);
    assertEquals(pm.length, 1);
    assertEquals(pm[0].name, "TestMANAGER User");
    assertEquals(
      [pm[0].live, pm[0].paused, pm[0].closed, pm[0].invoiced, pm[0].total, pm[0].active],
      [1, 0, 0, 1, 2, 2],
      "P2's group is itself still Awarded, so it is active as well as invoiced",
    );
    assertEquals(sumOf(pm, (r: { total: number }) => r.total), box.totalProjects);

    // Traffic: Daily (30 days to today), Monthly (12 months), Yearly (5 years); filters
    const daily = await post(t, D.trafficChartCall, { type: 1 });
    assertEquals(daily.length, 30);
    assertEquals(daily[0].date, "2026-10-22");
    assertEquals(last(daily), {
      date: "2026-11-20",
      traffic: 15,
      complete: 5,
      approved: 0,
      security: 3,
      failed: 6,
    });
    assertEquals(at(daily, "2026-11-19"), {
      date: "2026-11-19",
      traffic: 0,
      complete: 0,
      approved: 5,
      security: 0,
      failed: 0,
    });
    assertEquals(at(daily, "2026-11-18"), {
      date: "2026-11-18",
      traffic: 6,
      complete: 2,
      approved: 0,
      security: 0,
      failed: 1,
    });
    assertEquals(last(daily).complete, box.todayCompleted);
    const monthly = await post(t, D.trafficChartCall, { type: 2 });
    assertEquals(monthly.length, 12);
    assertEquals(monthly[0].date, "2025-12");
    assertEquals(
      monthly.filter((p: { traffic: number; approved: number }) => p.traffic || p.approved).map((
        p: { date: string; traffic: number; complete: number; approved: number; failed: number },
      ) => [p.date, p.traffic, p.complete, p.approved, p.failed]),
      [["2025-12", 3, 1, 0, 0], ["2026-10", 20, 6, 0, 2], ["2026-11", 21, 7, 5, 7]],
    );
    assertEquals(last(monthly).complete, box.monthCompleted);
    const yearly = await post(t, D.trafficChartCall, { type: 3 });
    assertEquals(yearly.map((p: { date: string }) => p.date), ["2022", "2023", "2024", "2025", "2026"]);
    assertEquals([at(yearly, "2025").traffic, at(yearly, "2026").traffic, at(yearly, "2026").complete], [
      3,
      41,
      13,
    ]);
    assertEquals(
      sumOf(yearly, (p: { complete: number }) => p.complete),
      box.totalCompleted,
      "the years add up to the total",
    );
    const clientA = await post(t, D.trafficChartCall, { type: 2, clientId: A });
    assertEquals([
      at(clientA, "2026-11").traffic,
      at(clientA, "2026-11").complete,
      at(clientA, "2026-10").traffic,
    ], [16, 6, 0]);
    const supplier2 = await post(t, D.trafficChartCall, { type: 2, supplierId: s2._id });
    assertEquals([at(supplier2, "2026-11").traffic, at(supplier2, "2026-11").approved], [6, 0]);
    const both = await post(t, D.trafficChartCall, { type: 3, clientId: B, supplierId: s1._id });
    assertEquals([at(both, "2026").traffic, at(both, "2026").approved], [25, 5]);

    // Revenue (client filter) and Expense (supplier filter): expected and actual
    const rev = await post(t, D.revenueChartCall, { type: 2 });
    assertEquals(at(rev, "2026-11"), { date: "2026-11", expected: 15.5, actual: 17.5 });
    assertEquals(at(rev, "2026-10"), { date: "2026-10", expected: 21, actual: 0 });
    assertEquals(at(rev, "2026-11").expected, box.monthlyRevenue);
    const revB = await post(t, D.revenueChartCall, { type: 3, clientId: B });
    assertEquals(at(revB, "2026"), { date: "2026", expected: 24.5, actual: 17.5 });
    const exp = await post(t, D.expenseChartCall, { type: 2 });
    assertEquals(at(exp, "2026-11"), { date: "2026-11", expected: 9, actual: 10 });
    assertEquals(at(exp, "2026-11").expected, box.monthlyExpense);
    const expS1 = await post(t, D.expenseChartCall, { type: 1, supplierId: s1._id });
    assertEquals(last(expS1), { date: "2026-11-20", expected: 7, actual: 0 });
    assertEquals(at(expS1, "2026-11-19").actual, 10);

    // Security: each reason; Daily Revenue/Expense; Invoice (none yet)
    const sec = await post(t, D.securityChartCall, {});
    assertEquals(last(sec), {
      date: "2026-11-20",
      traffic: 15,
      ipAddress: 1,
      vpn: 1,
      deviceStudy: 0,
      geoLocation: 1,
      preScreenDropout: 0,
      qualityTerm: 0,
      completeAllocated: 0,
      rd: 0,
      duplicate: 0,
    });
    const secMonthly = await post(t, D.securityChartCall, { type: 2, clientId: B });
    assertEquals([at(secMonthly, "2026-10").completeAllocated, at(secMonthly, "2026-11").vpn], [2, 1]);
    const re = await post(t, D.revenueExpenseChartCall, { type: 3 });
    assertEquals(at(re, "2026"), { date: "2026", revenue: 36.5, expense: 21 });
    assertEquals(at(re, "2025"), { date: "2025", revenue: 2, expense: 1.25 });
    const reDaily = await post(t, D.revenueExpenseChartCall, { type: 1 });
    assertEquals(last(reDaily), { date: "2026-11-20", revenue: 11.5, expense: 7 });
    assertEquals(
      last(reDaily).revenue,
      sumOf(today, (r: { expectedRevenue: number }) => r.expectedRevenue),
      "today's revenue point is the Today Completed dialog's total",
    );
    const inv = await post(t, D.invoiceChartCall, { type: 2, clientId: A });
    assertEquals(inv.length, 12);
    assert(inv.every((p: { total: number; count: number }) => p.total === 0 && p.count === 0));

    // Project Status: new groups, and what moved to each status when
    const status = await post(t, D.statusChartCall, { type: 1 });
    assertEquals(last(status).active, 2, "two groups created today");
    assertEquals(at(status, "2026-11-19").invoiced, 1);
    assertEquals(last(status).live, 1);
    const statusA = await post(t, D.statusChartCall, { type: 1, clientId: A });
    assertEquals([last(statusA).active, at(statusA, "2026-11-19").invoiced], [1, 0]);
  } finally {
    await t.close();
  }
});

Deno.test("dashboard: every call refuses a missing token (401), a supplier (403) and malformed input (400)", async () => {
  const t = await testApp();
  try {
    assertEquals(DASHBOARD_CALLS.length, 12);
    for (const key of DASHBOARD_CALLS) {
      const path = key.slice("POST ".length);
      await expectGuarded(t, "POST", path, "SUPPLIER");
    }
    const token = await t.tokenFor("ACCOUNTANT");
    const bad: [string, unknown, string][] = [
      ["/admin/dashboard/project/traffic/data", { type: 4 }, "type"],
      ["/admin/dashboard/project/traffic/data", { type: "1" }, "type"],
      ["/admin/dashboard/project/revenue/data", { clientId: "x" }, "clientId"],
      ["/admin/dashboard/project/security/data", { supplierId: 12 }, "supplierId"],
      ["/admin/dashboard/project/list/data", { sortDate: 9 }, "sortDate"],
      ["/admin/dashboard/project/list/security/data", { filter: { sortDate: "today" } }, "filter.sortDate"],
      ["/admin/dashboard/project/status/data", [], ""],
    ];
    for (const [path, body, field] of bad) {
      const r = await t.call("POST", path, { token, body });
      assertEquals(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
      assert(typeof r.json.message === "string" && r.json.message, r.text);
      if (field) assert(r.json.errors?.some((e: { path: string }) => e.path === field), r.text);
    }
    const notJson = await t.call("POST", "/admin/dashboard/project/expense/data", { token, raw: "{type:" });
    assertEquals(notJson.status, 400);
    // blank and null filters mean all
    const ok = await t.call("POST", "/admin/dashboard/project/traffic/data", {
      token,
      body: { type: 2, clientId: "", supplierId: null },
    });
    assertEquals(ok.status, 200, ok.text);
  } finally {
    await t.close();
  }
});

/** Reads server-sent events from a streamed response. */
function sseReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next(timeoutMs = 5_000): Promise<{ event: string; data: LiveUpdate }> {
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split("\n");
          const event = lines.find((l) => l.startsWith("event:"))?.slice(6).trim() ?? "";
          const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
          if (!event) continue; // a heartbeat comment
          return { event, data: JSON.parse(data) };
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error("no event in time");
        let timer: ReturnType<typeof setTimeout> | undefined;
        const r = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) =>
            timer = setTimeout(() => reject(new Error("no event in time")), left)
          ),
        ]).finally(() => clearTimeout(timer));
        if (r.done) throw new Error("stream ended");
        buffer += r.value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

async function openLive(t: TestApp, token: string) {
  const ticket = await t.call("POST", "/admin/dashboard/live/ticket", { token });
  assertEquals(ticket.status, 200, ticket.text);
  const res = await t.app.request(
    `/api/v1/admin/dashboard/live?ticket=${encodeURIComponent(ticket.json.result.ticket)}`,
  );
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/event-stream");
  return { res, ticket: ticket.json.result };
}

Deno.test("dashboard live: router traffic pushes today's completes, security and traffic to every viewer, read once", async () => {
  const t = await testApp();
  const hub = t.deps.services.live;
  try {
    const s = await liveProject(t);
    const token = await t.tokenFor("SUBSCRIBER");
    const one = await openLive(t, token);
    assertEquals(one.ticket.update.todayCompleted, 0, "the ticket answers the figures as they are now");
    assertEquals(one.ticket.expiresInSeconds, 60);
    const a = sseReader(one.res);
    const first = await a.next();
    assertEquals(first.event, "update");
    assertEquals([first.data.todayCompleted, first.data.traffic.traffic], [0, 0]);
    const b = sseReader((await openLive(t, await t.tokenFor("BDE"))).res);
    await b.next();
    assertEquals(hub.viewers, 2);

    // a respondent enters and completes; another enters twice (a duplicate is a security refusal)
    const r1 = await enter(t, s.mapId, "live-1");
    await back(t, uidOf(r1.location), "c");
    await enter(t, s.mapId, "live-2");
    await router(t).idle();
    const readsBefore = hub.reads;
    const [ua, ub] = await Promise.all([a.next(), b.next()]);
    const want = { todayCompleted: 1, traffic: 2, complete: 1 };
    for (const u of [ua, ub]) {
      assertEquals(u.event, "update");
      assertEquals(
        {
          todayCompleted: u.data.todayCompleted,
          traffic: u.data.traffic.traffic,
          complete: u.data.traffic.complete,
        },
        want,
      );
    }
    assertEquals(ua.data.at, ub.data.at, "both viewers got the same reading");
    assertEquals(hub.reads - readsBefore, 1, "one reading for all viewers");
    // the same figures as the card and the chart
    const box = await t.call("POST", "/admin/dashboard/box/data", { token });
    assertEquals(box.json.result.todayCompleted, ua.data.todayCompleted);
    const daily = await t.call("POST", "/admin/dashboard/project/traffic/data", { token, body: { type: 1 } });
    assertEquals(last(daily.json.result), ua.data.traffic);

    // a duplicate entry: security moves too; updates come at most about once a second
    const t0 = performance.now();
    await enter(t, s.mapId, "live-1");
    const next = await a.next();
    assertEquals(next.data.todaySecurityDrop, 1);
    assert(performance.now() - t0 >= 500, "throttled to about once a second");
    await b.next();

    await a.cancel();
    await b.cancel();
    for (let i = 0; i < 50 && hub.viewers; i++) await new Promise((r) => setTimeout(r, 10));
    assertEquals(hub.viewers, 0, "a closed stream stops listening");
  } finally {
    hub.close();
    await t.close();
  }
});

Deno.test("dashboard live: the stream opens only with a valid ticket of a staff user still signed in", async () => {
  const t = await testApp();
  try {
    const live = "/api/v1/admin/dashboard/live";
    const none = await t.app.request(live);
    assertEquals(none.status, 401);
    assertEquals((await none.json()).message.length > 0, true);
    assertEquals((await t.app.request(`${live}?ticket=not-a-ticket`)).status, 401);
    const long = await t.app.request(`${live}?ticket=${"x".repeat(2100)}`);
    assertEquals(long.status, 400, "malformed query");
    await long.body?.cancel();
    // a session token is not a ticket, and a ticket is not a session token
    const token = await t.tokenFor("ADMIN");
    assertEquals((await t.app.request(`${live}?ticket=${token}`)).status, 401);
    const ticket = (await t.call("POST", "/admin/dashboard/live/ticket", { token })).json.result
      .ticket as string;
    const asBearer = await t.call("POST", "/admin/dashboard/box/data", { token: ticket });
    assertEquals(asBearer.status, 401);
    // a client that can send headers may use its bearer token; a supplier's is refused
    const byBearer = await t.app.request(live, { headers: { authorization: `Bearer ${token}` } });
    assertEquals(byBearer.status, 200);
    await byBearer.body?.cancel();
    const supplierBearer = await t.app.request(live, {
      headers: { authorization: `Bearer ${await t.tokenFor("SUPPLIER")}` },
    });
    assertEquals(supplierBearer.status, 403);
    // the ticket call itself is guarded like any other
    await expectGuarded(t, "POST", "/admin/dashboard/live/ticket", "SUPPLIER");
    // signed out: the session's tickets die with it
    const manager = await t.userWith("MANAGER");
    const mTicket = (await t.call("POST", "/admin/dashboard/live/ticket", { token: manager.token })).json
      .result
      .ticket as string;
    assertEquals((await t.call("POST", "/admin/logout", { token: manager.token })).status, 200);
    assertEquals((await t.app.request(`${live}?ticket=${mTicket}`)).status, 401);
    // a user given the SUPPLIER role since is refused
    const bde = await t.userWith("BDE");
    const bTicket = (await t.call("POST", "/admin/dashboard/live/ticket", { token: bde.token })).json.result
      .ticket as string;
    await t.deps.db.updateTable("users").set({ role: "SUPPLIER" }).where("id", "=", bde.id).execute();
    assertEquals((await t.app.request(`${live}?ticket=${bTicket}`)).status, 403);
  } finally {
    await t.close();
  }
});

Deno.test("dashboard live: a ticket expires after 60 seconds", async () => {
  let now = Date.UTC(2026, 10, 20, 12);
  const t = await testApp({}, { now: () => now });
  try {
    const token = await t.tokenFor("ADMIN");
    const ticket = (await t.call("POST", "/admin/dashboard/live/ticket", { token })).json.result
      .ticket as string;
    now += 61_000;
    assertEquals((await t.app.request(`/api/v1/admin/dashboard/live?ticket=${ticket}`)).status, 401);
  } finally {
    await t.close();
  }
});
