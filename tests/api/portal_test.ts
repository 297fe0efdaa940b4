/**
 * Supplier portal: mapped projects with entry links and live counts, the inventory and its start
 * (a real supplier map the router and staff see), the scoped supplier report, the supplier
 * dashboard; and isolation: another supplier's ids are 404s, admin calls 403, a deactivated
 * supplier's users signed out at once.
 */
import Papa from "papaparse";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type ApiInput, type TestApp, testApp } from "../helpers/app.ts";
import type { AnyContract, BodyIn } from "../../shared/api/contract.ts";
import * as PRep from "../../shared/api/project-reports.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, counts, enter, liveProject, PANEL, panelRedirects, uidOf } from "../helpers/router.ts";
import { offeredCpi } from "../../server/domain/portal/inventory.ts";
import * as Dash from "../../shared/api/dashboard.ts";
import * as Portal from "../../shared/api/portal.ts";
import * as Proj from "../../shared/api/projects.ts";
import * as Sess from "../../shared/api/session.ts";
import * as SMap from "../../shared/api/supplier-maps.ts";
import * as Sup from "../../shared/api/suppliers.ts";

const NOW = Date.parse("2026-11-20T12:00:00Z");

/** Three live projects: one mapped to A, one mapped to B, one open (mapped to a third supplier only). */
async function world(t: TestApp) {
  const supA = await makeSupplier(t, { supplierRuleCPI: "1.1|2" });
  const supB = await makeSupplier(t);
  const a = await t.userWith("SUPPLIER", { email: "a@panel.test", supplierId: supA._id });
  const b = await t.userWith("SUPPLIER", { email: "b@panel.test", supplierId: supB._id });
  const pa = await liveProject(t, { supplierId: supA._id });
  const pb = await liveProject(t, { supplierId: supB._id });
  const open = await liveProject(t, { child: { cpi: "3.00" } });
  return { supA, supB, a, b, pa, pb, open };
}

const list = async (
  t: TestApp,
  token: string,
  call: typeof Portal.listMappedProjects | typeof Portal.listInventoryProjects,
  body: BodyIn<typeof Portal.listMappedProjects> = {},
) => {
  const r = await t.api(call, { token, body });
  assertEquals(r.status, 200, r.text);
  return r.json.result as { data: Record<string, unknown>[]; metadata: Record<string, unknown> };
};
const ids = (rows: { _id?: unknown }[]) => rows.map((r) => r._id).sort();

function csvRecords(text: string): Record<string, string>[] {
  const [head, ...body] = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
  return body.map((cells) => Object.fromEntries(head.map((h, i) => [h, cells[i]])));
}

Deno.test("portal: mapped projects are the supplier's own maps, with entry link, CPI, quota and live counts", async () => {
  const t = await testApp({ PUBLIC_URL: "https://go.samplex.test" }, { now: () => NOW });
  try {
    const { a, b, pa, pb } = await world(t);
    const mine = await list(t, a.token, Portal.listMappedProjects);
    assertEquals(ids(mine.data), [pa.mapId]);
    const row = mine.data[0];
    assertEquals(row.redirectUrl, `https://go.samplex.test/survey/start/${pa.mapId}?sid=[sid]`);
    assertEquals([row.supplierCPI, row.projectCode, row.projectStatus], [1.25, pa.child.projectCode, 1]);
    assertEquals([row.clicked, row.complete, row.conversion], [0, 0, null]);
    assertEquals(ids((await list(t, b.token, Portal.listMappedProjects)).data), [pb.mapId]);

    // a respondent through the entry link moves the counts
    const r1 = await enter(t, pa.mapId, "resp-1");
    assertEquals(r1.status, 302);
    await back(t, uidOf(r1.location), "c");
    const r2 = await enter(t, pa.mapId, "resp-2");
    await back(t, uidOf(r2.location), "t");
    const after = (await list(t, a.token, Portal.listMappedProjects)).data[0];
    assertEquals([after.clicked, after.complete, after.terminate, after.conversion], [2, 1, 1, 50]);

    // search, sort and paging on the shared list body; the CSV is the declared columns
    assertEquals((await list(t, a.token, Portal.listMappedProjects, { search: "no-such-code" })).data, []);
    const paged = await list(t, a.token, Portal.listMappedProjects, { limit: 5, sortBy: "complete" });
    assertEquals(paged.metadata.total, 1);
    const csv = await t.api(Portal.listMappedProjects, {
      search: { format: "csv" },
      token: a.token,
      body: {},
    });
    assertEquals(csv.status, 200);
    const [rec] = csvRecords(csv.text);
    assertEquals([rec["Project code"], rec["Completes"], rec["Conversion"]], [
      pa.child.projectCode,
      "1",
      "50%",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("portal: the inventory is Live survey projects the supplier never mapped; starting one maps it with its links", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const { supA, a, b, pa, pb, open } = await world(t);
    const inv = await list(t, a.token, Portal.listInventoryProjects);
    assertEquals(ids(inv.data), [pb.child._id, open.child._id].sort());
    assertEquals(
      ids((await list(t, b.token, Portal.listInventoryProjects)).data),
      [pa.child._id, open.child._id].sort(),
    );
    const offered = inv.data.find((r) => r._id === open.child._id)!;
    assertEquals(offered.supplierCPI, 1.1, "its own rate, under 60% of the $3.00 client CPI");
    assertEquals(offered.remaining, 100);
    assert(!("cpi" in offered) && !("clientName" in offered), "nothing of the client's side");
    assertEquals((inv.metadata.redirects as Record<string, string>).redirectComplete, supA.redirectComplete);

    // the same messages as the staff's supplier map
    const bad = await t.api(Portal.startInventoryProjectCall, {
      params: { id: open.child._id },
      token: a.token,
      bad: { ...panelRedirects, redirectComplete: "https://panel.example/done", isUrlUpdated: true },
    });
    assertEquals(bad.status, 400);
    assertEquals(bad.json.errors, [{ path: "redirectComplete", message: "Invalid Url" }]);

    const started = await t.api(Portal.startInventoryProjectCall, {
      params: { id: open.child._id },
      token: a.token,
      body: { ...panelRedirects, isUrlUpdated: true },
    });
    assertEquals(started.status, 200, started.text);
    assertEquals(started.json.message, "Project started successfully");
    const mapId = started.json.result._id as string;
    assertMatch(started.json.result.redirectUrl, new RegExp(`/survey/start/${mapId}\\?sid=\\[sid\\]$`));
    assertEquals(started.json.result.supplierCPI, 1.1);

    // now among the mapped ones, gone from the inventory, and on the staff's Suppliers tab
    assert(ids((await list(t, a.token, Portal.listMappedProjects)).data).includes(mapId));
    assert(!ids((await list(t, a.token, Portal.listInventoryProjects)).data).includes(open.child._id));
    const staff = await t.api(SMap.listSupplierMapsCall, {
      token: await t.tokenFor("ADMIN"),
      body: { projectId: open.child._id },
    });
    const staffMap = staff.json.result.find((m: { _id: string }) => m._id === mapId);
    assertEquals(staffMap.supplierId, supA._id);
    assertEquals(staffMap.redirectComplete, panelRedirects.redirectComplete);
    assertEquals([staffMap.allowTraffic, staffMap.isBoarded, staffMap.isTestLink], [true, true, false]);

    // the router takes respondents at once (its map cache was told), and sends them back to the links given
    const r = await enter(t, mapId, "inv-1");
    assertEquals(r.status, 302);
    const end = await back(t, uidOf(r.location), "c");
    assertEquals(end.location.startsWith(`${PANEL}/complete?sid=inv-1`), true, end.location);
    assertEquals((await counts(t, "supplier_maps", mapId)).complete, 1);

    // started twice: 409; a project not open (another's or not Live): 404
    const twice = await t.api(Portal.startInventoryProjectCall, {
      params: { id: open.child._id },
      token: a.token,
      body: panelRedirects,
    });
    assertEquals(twice.status, 409);
    const closed = await t.api(Proj.updateProjectCall, {
      params: { id: pb.child._id },
      token: await t.tokenFor("SUPERADMIN"),
      body: { projectStatus: 2 },
    });
    assertEquals(closed.status, 200, closed.text);
    const notLive = await t.api(Portal.startInventoryProjectCall, {
      params: { id: pb.child._id },
      token: a.token,
      body: panelRedirects,
    });
    assertEquals(notLive.status, 404);
    assert(!ids((await list(t, a.token, Portal.listInventoryProjects)).data).includes(pb.child._id));
  } finally {
    await t.close();
  }
});

Deno.test("portal: isUrlUpdated false maps the supplier's own saved redirect links", async () => {
  const t = await testApp();
  try {
    const { supA, a, open } = await world(t);
    const r = await t.api(Portal.startInventoryProjectCall, {
      params: { id: open.child._id },
      token: a.token,
      body: { ...panelRedirects, isUrlUpdated: false },
    });
    assertEquals(r.status, 200, r.text);
    const map = await t.deps.db.selectFrom("supplier_maps").selectAll().where("id", "=", r.json.result._id)
      .executeTakeFirstOrThrow();
    assertEquals(map.redirectComplete, supA.redirectComplete);
    assertEquals(map.redirectTerminate, "");
  } finally {
    await t.close();
  }
});

Deno.test("portal: the supplier report is the supplier's own map's respondents; every other id is a 404", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const { a, pa, pb, open } = await world(t);
    const r = await enter(t, pa.mapId, "who-1");
    await back(t, uidOf(r.location), "c");
    // B's respondent on B's map must never show in A's report
    await enter(t, pb.mapId, "who-b");

    for (const projectId of [pa.child._id, pa.parent._id]) {
      const rep = await t.api(Portal.supplierPortalReportCall, {
        token: a.token,
        body: { supplierMapId: pa.mapId, projectId },
      });
      assertEquals(rep.status, 200, rep.text);
      assertMatch(rep.headers.get("content-type") ?? "", /^text\/csv/);
      const rows = csvRecords(rep.text);
      assertEquals(rows.map((x) => [x["Supplier identifier"], x["Status"]]), [["who-1", "Complete"]]);
    }

    const cases: [string, Record<string, unknown>][] = [
      ["another supplier's map on its project", { supplierMapId: pb.mapId, projectId: pb.child._id }],
      ["another supplier's map on my project", { supplierMapId: pb.mapId, projectId: pa.child._id }],
      ["my map on another's project", { supplierMapId: pa.mapId, projectId: pb.child._id }],
      ["my map on a project I am not on", { supplierMapId: pa.mapId, projectId: open.child._id }],
      ["a third supplier's map", { supplierMapId: open.mapId, projectId: open.child._id }],
      ["an unknown map", { supplierMapId: "0".repeat(24), projectId: pa.child._id }],
    ];
    for (const [what, body] of cases) {
      const x = await t.api(Portal.supplierPortalReportCall, { token: a.token, body });
      assertEquals(x.status, 404, `${what}: ${x.text}`);
      assert(!x.text.includes(pb.child.projectCode), `${what}: says nothing of B's project`);
    }
    const malformed = await t.api(Portal.supplierPortalReportCall, {
      token: a.token,
      bad: { supplierMapId: 5 },
    });
    assertEquals(malformed.status, 400);

    // starting another supplier's project (already mapped to it, so not in A's inventory? it is open
    // to A) is fine; but an unknown or malformed project id is a 404
    for (const id of ["0".repeat(24), "not-an-id"]) {
      const s = await t.api(Portal.startInventoryProjectCall, { params: { id }, token: a.token, body: {} });
      assertEquals(s.status, 404, `${id}: ${s.text}`);
    }
    // a group project is not open
    const group = await t.api(Portal.startInventoryProjectCall, {
      params: { id: pa.parent._id },
      token: a.token,
      body: {},
    });
    assertEquals(group.status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("portal: the dashboard is the staff's figures with the supplier filter, and only the supplier's", async () => {
  const t = await testApp({}, { now: () => NOW });
  try {
    const { a, b, pa, pb } = await world(t);
    for (const sid of ["d1", "d2", "d3"]) {
      const r = await enter(t, pa.mapId, sid);
      if (sid !== "d3") await back(t, uidOf(r.location), "c");
    }
    for (const sid of ["x1", "x2"]) {
      const r = await enter(t, pb.mapId, sid);
      await back(t, uidOf(r.location), "c");
    }
    await Promise.resolve();
    const dash = await t.api(Portal.supplierDashboardCall, { token: a.token });
    assertEquals(dash.status, 200, dash.text);
    const d = dash.json.result;
    assertEquals([d.month, d.monthTraffic, d.monthCompleted, d.conversion], ["2026-11", 3, 2, 66.7]);
    assertEquals(d.expectedEarnings, 2.5, "2 completes x $1.25");
    assertEquals(d.earnings, 0, "nothing approved yet");
    assertEquals(d.traffic.length, 30);
    assertEquals(d.traffic.at(-1), {
      date: "2026-11-20",
      traffic: 3,
      complete: 2,
      approved: 0,
      security: 0,
      failed: 0,
    });
    // the staff's traffic chart with the supplier filter says the same
    const staff = await t.api(Dash.trafficChartCall, {
      token: await t.tokenFor("ADMIN"),
      body: { type: 1, supplierId: pa.supplierId },
    });
    assertEquals(staff.json.result, d.traffic);
    const other = (await t.api(Portal.supplierDashboardCall, { token: b.token })).json.result;
    assertEquals([other.monthTraffic, other.monthCompleted], [2, 2]);

    // approved completes x supplier CPI once reconciled
    await t.deps.db.updateTable("supplier_maps").set({ approved: 2 }).where("id", "=", pa.mapId).execute();
    await t.deps.db.updateTable("projects").set({ statusChangedAt: new Date(NOW).toISOString() })
      .where("id", "=", pa.child._id).execute();
    const later = (await t.api(Portal.supplierDashboardCall, { token: a.token })).json.result;
    assertEquals([later.approved, later.earnings], [2, 2.5]);

    // a supplier user tied to no supplier sees nothing, never everyone's figures
    const orphan = await t.tokenFor("SUPPLIER");
    const none = (await t.api(Portal.supplierDashboardCall, { token: orphan })).json.result;
    assertEquals([none.monthTraffic, none.monthCompleted, none.expectedEarnings], [0, 0, 0]);
    assertEquals((await list(t, orphan, Portal.listMappedProjects)).data, []);
    assertEquals((await list(t, orphan, Portal.listInventoryProjects)).data, []);
  } finally {
    await t.close();
  }
});

Deno.test("portal: supplier calls need a supplier's token; admin calls refuse a supplier", async () => {
  const t = await testApp();
  try {
    const { a, pa } = await world(t);
    const admin = await t.tokenFor("ADMIN");
    const supplierCall = async <K extends AnyContract>(call: K, input: ApiInput<K>) => {
      assertEquals((await t.api(call, input)).status, 401, `${call.key} without token`);
      assertEquals((await t.api(call, { ...input, token: admin })).status, 403, `${call.key} as ADMIN`);
    };
    await supplierCall(Portal.listMappedProjects, { body: {} });
    await supplierCall(Portal.listInventoryProjects, { body: {} });
    await supplierCall(Portal.startInventoryProjectCall, {
      params: { id: pa.child._id },
      body: panelRedirects,
    });
    await supplierCall(Portal.supplierPortalReportCall, {
      body: { supplierMapId: pa.mapId, projectId: pa.child._id },
    });
    await supplierCall(Portal.supplierDashboardCall, {});
    const adminCall = async <K extends AnyContract>(call: K, input: ApiInput<K>) => {
      assertEquals((await t.api(call, { ...input, token: a.token })).status, 403, `${call.key} as SUPPLIER`);
    };
    await adminCall(SMap.listSupplierMapsCall, { body: { projectId: pa.child._id } });
    await adminCall(SMap.saveSupplierMapCall, {
      body: { projectId: pa.child._id, supplierId: pa.supplierId },
    });
    await adminCall(PRep.supplierReportCall, { body: { supplierMapId: pa.mapId, projectId: pa.child._id } });
    await adminCall(Dash.trafficChartCall, { body: { supplierId: pa.supplierId } });
    await adminCall(Proj.listProjects, { body: {} });
    await adminCall(Sess.adminMeCall, {});
  } finally {
    await t.close();
  }
});

Deno.test("portal: a supplier deactivated or deleted mid-session signs its users out at once", async () => {
  const t = await testApp();
  try {
    const { supA, a, b } = await world(t);
    const admin = await t.tokenFor("SUPERADMIN");
    assertEquals((await t.api(Sess.supplierMeCall, { token: a.token })).status, 200);

    const off = await t.api(Sup.updateSupplierCall, {
      params: { id: supA._id },
      token: admin,
      body: { isActive: false },
    });
    assertEquals(off.status, 200, off.text);
    for (const call of [Sess.supplierMeCall, Portal.listMappedProjects]) {
      const r = await t.api(call, { token: a.token });
      assertEquals(r.status, 401, `${call.key} after the supplier's deactivation`);
    }
    const login = await t.api(Sess.loginCall, { body: { email: a.email, password: "Passw0rd!" } });
    assertEquals([login.status, login.json.message], [401, "Your account is inactive"]);
    // another supplier's users are untouched
    assertEquals((await t.api(Sess.supplierMeCall, { token: b.token })).status, 200);

    // reactivated: sign in again and work
    await t.api(Sup.updateSupplierCall, { params: { id: supA._id }, token: admin, body: { isActive: true } });
    const again = await t.api(Sess.loginCall, { body: { email: a.email, password: "Passw0rd!" } });
    assertEquals(again.status, 200);
    const token = again.json.result.accessToken as string;
    assertEquals((await t.api(Sess.supplierMeCall, { token })).status, 200);

    // deleted: the same
    await t.api(Sup.updateSupplierCall, {
      params: { id: supA._id },
      token: admin,
      body: { isDeleted: true },
    });
    assertEquals((await t.api(Sess.supplierMeCall, { token })).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("portal: the offered CPI is the supplier's first rate, never above 60% of the client CPI", () => {
  assertEquals(offeredCpi(3, "1.1|2"), 1.1);
  assertEquals(offeredCpi(2, "2.5|3.4"), 1.2);
  assertEquals(offeredCpi(2, ""), 1.2);
  assertEquals(offeredCpi(0, "2"), 0);
});
