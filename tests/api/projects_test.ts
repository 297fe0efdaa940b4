import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectGuarded, testApp } from "../helpers/app.ts";
import { childProjectBody, makeChild, makeClient, makeParent, makeSupplier } from "../helpers/fixtures.ts";
import { enter, liveProject, PANEL } from "../helpers/router.ts";
import { MSG } from "../../shared/messages.ts";

Deno.test("projects: a parent gets a code, appears in the list with its client, and its log records the creation", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    assertMatch(parent.projectCode, /^P\d{5}$/);
    assertEquals(parent.projectStatus, 2);
    assertEquals(parent.isDynamicThanksUrl, true);
    const list = await t.call("POST", "/admin/projects", { token, body: { pageNo: 1, limit: 20 } });
    assertEquals(list.status, 200);
    assertEquals(list.json.result.metadata.total, 1);
    assertEquals(list.json.result.data[0].projectCode, parent.projectCode);
    assert(list.json.result.data[0].clienName.startsWith("Client "));
    const logs = await t.call("POST", "/admin/system/log", { token, body: { filter: parent._id } });
    assertEquals(logs.status, 200);
    assertMatch(logs.json.result[0].activity, /Created project P\d{5}/);
  } finally {
    await t.close();
  }
});

Deno.test("projects: group form validation uses the spec's messages; PO number required for Closed", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const r = await t.call("POST", "/admin/project/add", {
      token,
      body: { projectName: "ab", averageLOI: "1x", ir: "" },
    });
    assertEquals(r.status, 400);
    const byPath = Object.fromEntries(
      r.json.errors.map((e: { path: string; message: string }) => [e.path, e.message]),
    );
    assertEquals(byPath.projectName, "Project name  is required");
    assertEquals(byPath.clientId, "Client is required");
    assertEquals(byPath.userId, "Project Manager is required");
    assertEquals(byPath.averageLOI, "Only digits are allowed for this field ");
    const client = await makeClient(t);
    const m = await t.userWith("MANAGER");
    const closed = await t.call("POST", "/admin/project/add", {
      token,
      body: {
        projectName: "Closed one",
        clientId: client._id,
        userId: m.id,
        averageLOI: 5,
        ir: 5,
        projectStatus: 6,
      },
    });
    assertEquals(closed.status, 400);
    assertEquals(closed.json.errors[0], { path: "poNumber", message: "PO Number is required" });
  } finally {
    await t.close();
  }
});

Deno.test("projects: a MANAGER's new project is always their own", async () => {
  const t = await testApp();
  try {
    const mgr = await t.userWith("MANAGER");
    const other = await t.userWith("ADMIN");
    const client = await makeClient(t);
    const r = await t.call("POST", "/admin/project/add", {
      token: mgr.token,
      body: { projectName: "Mine only", clientId: client._id, userId: other.id, averageLOI: 5, ir: 5 },
    });
    assertEquals(r.status, 200);
    assertEquals(r.json.result.userId, mgr.id);
  } finally {
    await t.close();
  }
});

Deno.test("projects: child gets the parent's client and a -01 code; parent row sums its children", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    assertEquals(child.projectCode, `${parent.projectCode}-01`);
    assertEquals(child.clientId, parent.clientId);
    assertEquals(child.languageId, "en");
    assertEquals(child.respondentTestClickQuota, 5);
    await makeChild(t, parent, { sampleSize: 50 });
    await t.deps.db.updateTable("projects").set({ complete: 7, terminate: 3 }).where("id", "=", child._id)
      .execute();
    const list = await t.call("POST", "/admin/projects", { token, body: {} });
    const row = list.json.result.data[0];
    assertEquals(row.sampleSize, 150);
    assertEquals(row.complete, 7);
    assertEquals(row.terminate, 3);
    assertEquals(row.childCount, 2);
    const childs = await t.call("POST", `/admin/project/childs/${parent._id}`, { token, body: {} });
    assertEquals(childs.json.result.metadata.total, 2);
    assertEquals(childs.json.result.data.map((c: { projectCode: string }) => c.projectCode), [
      `${parent.projectCode}-01`,
      `${parent.projectCode}-02`,
    ]);
    // search finds a parent by its child's code
    const found = await t.call("POST", "/admin/projects", {
      token,
      body: { search: `${parent.projectCode}-02` },
    });
    assertEquals(found.json.result.metadata.total, 1);
  } finally {
    await t.close();
  }
});

Deno.test("projects: child validation messages and date order", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const r = await t.call("POST", "/admin/project/add", {
      token,
      body: { parentProjectId: parent._id, projectName: "Kid" },
    });
    assertEquals(r.status, 400);
    const byPath = Object.fromEntries(
      r.json.errors.map((e: { path: string; message: string }) => [e.path, e.message]),
    );
    assertEquals(byPath.projectName, "Project name  is required");
    assertEquals(byPath.countryId, "Country  is required");
    assertEquals(byPath.sampleSize, "Sample size  is required");
    assertEquals(byPath.cpi, "CPI  is required");
    const bad = await t.call("POST", "/admin/project/add", {
      token,
      body: {
        parentProjectId: parent._id,
        clientId: parent.clientId,
        projectName: "Kids US",
        countryId: "US",
        averageLOI: 1,
        ir: 1,
        sampleSize: 1,
        respondentClickQuota: 1,
        cpi: 1,
        startDate: "2026-12-02",
        endDate: "2026-12-01",
      },
    });
    assertEquals(bad.status, 400);
    assertEquals(bad.json.errors[0].path, "endDate");
  } finally {
    await t.close();
  }
});

Deno.test("projects: status rules — Ready To Invoice before closing 409, Closed by code needs a PO number", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const live = await t.call("PUT", `/admin/project/update/${parent._id}`, {
      token,
      body: { projectStatus: 1 },
    });
    assertEquals(live.status, 200);
    assertEquals(live.json.result.projectStatus, 1);
    // Ready To Invoice is Proceed to Invoice's, on a Closed project only
    const early = await t.call("PUT", `/admin/project/update/${parent._id}`, {
      token,
      body: { projectStatus: 4 },
    });
    assertEquals(early.status, 409);
    assertEquals(early.json.message, "Proceed to Invoice needs a Closed project; this one is Live");
    const noPo = await t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, {
      token,
      body: { poNumber: "  " },
    });
    assertEquals(noPo.status, 400);
    assertEquals(noPo.json.message, "PO Number is required");
    const closed = await t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, {
      token,
      body: { poNumber: "PO-778" },
    });
    assertEquals(closed.status, 200);
    assertEquals(closed.json.result.projectStatus, 6);
    assertEquals(closed.json.result.poNumber, "PO-778");
    const unknown = await t.call("PUT", `/admin/project/code/update/P99999`, {
      token,
      body: { poNumber: "x" },
    });
    assertEquals(unknown.status, 404);
    const logs = await t.call("POST", "/admin/system/log", { token, body: { filter: parent._id } });
    assert(logs.json.result.some((l: { activity: string }) => /from Live to Closed/.test(l.activity)));
  } finally {
    await t.close();
  }
});

Deno.test("projects: clone copies children, suppliers and options, with zero counts, and returns the new parent", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent, { projectName: "Original child" });
    const supplier = await makeSupplier(t);
    assertEquals(
      (await t.call("POST", "/admin/supplierMap/add", {
        token,
        body: { projectId: child._id, supplierId: supplier._id, supplierCPI: 1.5 },
      })).status,
      200,
    );
    await t.deps.db.updateTable("projects").set({ complete: 9 }).where("id", "=", child._id).execute();
    const bad = await t.call("POST", `/admin/project/clone/${parent._id}`, {
      token,
      body: { isSupplier: true },
    });
    assertEquals(bad.status, 400);
    assertEquals(bad.json.errors.map((e: { message: string }) => e.message), [
      "Country   is required",
      "Language  is required",
    ]);
    const r = await t.call("POST", `/admin/project/clone/${parent._id}`, {
      token,
      body: { isSupplier: true, countryId: "GB", languageId: "en" },
    });
    assertEquals(r.status, 200);
    const newId = r.json.result.parentProjectId;
    const childs = await t.call("POST", `/admin/project/childs/${newId}`, { token, body: {} });
    assertEquals(childs.json.result.metadata.total, 1);
    const copy = childs.json.result.data[0];
    assertEquals(copy.countryId, "GB");
    assertEquals(copy.complete, 0);
    const maps = await t.call("POST", "/admin/supplierMaps", { token, body: { projectId: copy._id } });
    assertEquals(maps.json.result.length, 1);
    assertEquals(maps.json.result[0].supplierCPI, 1.5);
  } finally {
    await t.close();
  }
});

Deno.test("projects: soft delete hides parent and children from lists, and the record is gone", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    assertEquals(
      (await t.call("PUT", `/admin/project/update/${parent._id}`, { token, body: { isDeleted: true } }))
        .status,
      200,
    );
    assertEquals(
      (await t.call("POST", "/admin/projects", { token, body: {} })).json.result.metadata.total,
      0,
    );
    assertEquals((await t.call("GET", `/admin/project/${child._id}`, { token })).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("projects: roles — BDE and SUBSCRIBER read the list but cannot add; ACCOUNTANT cannot list; no token 401", async () => {
  const t = await testApp();
  try {
    await expectGuarded(t, "POST", "/admin/projects", "ACCOUNTANT");
    await expectGuarded(t, "POST", "/admin/project/add", "BDE");
    await expectGuarded(t, "POST", "/admin/project/add", "SUBSCRIBER");
    await expectGuarded(t, "PUT", "/admin/project/update/000000000000000000000000", "SUPPLIER");
    assertEquals(
      (await t.call("POST", "/admin/projects", { token: await t.tokenFor("BDE"), body: {} })).status,
      200,
    );
    assertEquals(
      (await t.call("GET", "/admin/project/not-an-id", { token: await t.tokenFor("ADMIN") })).status,
      404,
    );
    const junk = await t.call("POST", "/admin/projects", {
      token: await t.tokenFor("ADMIN"),
      body: { pageNo: "x" },
    });
    assertEquals(junk.status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("supplier maps: defaults, entry link, sid rule on redirects, toggles, update instead of duplicate", async () => {
  const t = await testApp({ PUBLIC_URL: "https://go.samplex.test" });
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const supplier = await makeSupplier(t);
    const bad = await t.call("POST", "/admin/supplierMap/add", {
      token,
      body: {
        projectId: child._id,
        supplierId: "",
        redirectComplete: "https://x.example/done",
        supplierQuota: "1.5",
      },
    });
    assertEquals(bad.status, 400);
    const byPath = Object.fromEntries(
      bad.json.errors.map((e: { path: string; message: string }) => [e.path, e.message]),
    );
    assertEquals(byPath.supplierId, "Supplier  is required");
    assertEquals(byPath.redirectComplete, "Invalid Url");
    assertEquals(byPath.supplierQuota, "Only digits are allowed for this field ");
    const added = await t.call("POST", "/admin/supplierMap/add", {
      token,
      body: { projectId: child._id, supplierId: supplier._id },
    });
    assertEquals(added.status, 200);
    const m = added.json.result;
    assertEquals([m.allowTraffic, m.isBoarded, m.isTestLink, m.supplierCPI, m.supplierQuota], [
      true,
      true,
      false,
      0,
      0,
    ]);
    assertEquals(m.redirectUrl, `https://go.samplex.test/survey/start/${m._id}?sid=[sid]`);
    const again = await t.call("POST", "/admin/supplierMap/add", {
      token,
      body: { projectId: child._id, supplierId: supplier._id, supplierQuota: 40 },
    });
    assertEquals(again.json.result._id, m._id);
    assertEquals(again.json.result.supplierQuota, 40);
    const off = await t.call("PUT", `/admin/supplierMap/update/${m._id}`, {
      token,
      body: { allowTraffic: false },
    });
    assertEquals(off.json.result.allowTraffic, false);
    const two = await t.call("PUT", `/admin/supplierMap/update/${m._id}`, {
      token,
      body: { allowTraffic: true, isBoarded: false },
    });
    assertEquals(two.status, 400);
    assertEquals(
      (await t.call("GET", `/admin/project/${child._id}`, { token })).json.result.supplierCount,
      1,
    );
    await t.call("PUT", `/admin/supplierMap/update/${m._id}`, { token, body: { isDeleted: true } });
    assertEquals(
      (await t.call("POST", "/admin/supplierMaps", { token, body: { projectId: child._id } })).json.result
        .length,
      0,
    );
    assertEquals((await t.call("GET", `/admin/supplierMap/${m._id}`, { token })).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("system log: project timeline for project roles; the full log only for SUPPORT_LOG roles; bad bodies 400", async () => {
  const t = await testApp();
  try {
    const parent = await makeParent(t);
    const mgr = await t.tokenFor("MANAGER");
    assertEquals(
      (await t.call("POST", "/admin/system/log", { token: mgr, body: { filter: parent._id } })).status,
      200,
    );
    assertEquals((await t.call("POST", "/admin/system/log", { token: mgr, body: {} })).status, 403);
    const acc = await t.tokenFor("ACCOUNTANT");
    const all = await t.call("POST", "/admin/system/log", {
      token: acc,
      body: { search: "Created project" },
    });
    assertEquals(all.status, 200);
    assertEquals(all.json.result.metadata.total, 1);
    const csv = await t.call("POST", "/admin/system/log?format=csv", {
      token: acc,
      body: { search: "Created project" },
    });
    assertMatch(csv.text, /Date,User,Activity/);
    assertEquals(
      (await t.call("POST", "/admin/system/log", { token: mgr, body: { filter: "nope" } })).status,
      400,
    );
    assertEquals(
      (await t.call("POST", "/admin/system/log", { token: acc, body: { pageNo: -1 } })).status,
      400,
    );
    assertEquals((await t.call("POST", "/admin/system/log", { body: {} })).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("client and supplier list figures come from project and supplier-map counters", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const admin = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const a = await makeChild(t, parent, { cpi: 2 });
    const b = await makeChild(t, parent, { cpi: 3 });
    const supplier = await makeSupplier(t);
    const map = (await t.call("POST", "/admin/supplierMap/add", {
      token: admin,
      body: { projectId: a._id, supplierId: supplier._id, supplierCPI: 1 },
    })).json.result;
    await t.deps.db.updateTable("projects").set({ complete: 10, clicked: 40, approved: 8 }).where(
      "id",
      "=",
      a._id,
    ).execute();
    await t.deps.db.updateTable("projects").set({ complete: 5, clicked: 20 }).where("id", "=", b._id)
      .execute();
    await t.deps.db.updateTable("supplier_maps").set({ complete: 10, clicked: 40, approved: 8 }).where(
      "id",
      "=",
      map._id,
    ).execute();
    await t.call("PUT", `/admin/project/update/${a._id}`, { token: admin, body: { projectStatus: 1 } });
    const clients = await t.call("POST", "/admin/clients", { token, body: { search: parent.clienName } });
    const c = clients.json.result.data[0];
    assertEquals([c.totalProjects, c.activeProjects, c.responded, c.completed, c.approved], [
      1,
      1,
      60,
      15,
      8,
    ]);
    assertEquals([c.expectedRevenue, c.actualRevenue], [35, 16]);
    const suppliers = await t.call("POST", "/admin/suppliers", {
      token,
      body: { search: supplier.supplierName },
    });
    const s = suppliers.json.result.data[0];
    assertEquals([
      s.totalProjects,
      s.activeProjects,
      s.responded,
      s.completed,
      s.approved,
      s.expectedExpense,
      s.actualExpense,
    ], [1, 1, 40, 10, 8, 10, 8]);
  } finally {
    await t.close();
  }
});

Deno.test("projects: Proceed to Invoice with sendEmail tells the mapped suppliers; without it nobody is mailed", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const supplier = await makeSupplier(t);
    await t.call("POST", "/admin/supplierMap/add", {
      token,
      body: { projectId: child._id, supplierId: supplier._id },
    });
    await t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, {
      token,
      body: { poNumber: "PO-1" },
    });
    const r = await t.call("PUT", `/admin/project/update/${parent._id}`, {
      token,
      body: { projectStatus: 4, sendEmail: true },
    });
    assertEquals(r.status, 200);
    assertEquals(r.json.result.projectStatus, 4);
    const mails = await t.deps.db.selectFrom("email_outbox").selectAll().execute();
    assertEquals(mails.length, 1);
    assertEquals(mails[0].toAddress, supplier.supplierEmail);
    assertMatch(mails[0].subject, /is ready to invoice/);
    const archived = await t.call("PUT", `/admin/project/update/${parent._id}`, {
      token,
      body: { projectStatus: 7, sendEmail: false },
    });
    assertEquals(archived.json.result.projectStatus, 7);
    assertEquals((await t.deps.db.selectFrom("email_outbox").selectAll().execute()).length, 1);
    // the status menu's Live is offered from the archive too (part 1, 4)
    assertEquals(
      (await t.call("PUT", `/admin/project/update/${parent._id}`, { token, body: { projectStatus: 1 } }))
        .json.result.projectStatus,
      1,
    );
  } finally {
    await t.close();
  }
});

const statusOf = async (
  t: Awaited<ReturnType<typeof testApp>>,
  id: string,
) => (await t.deps.db.selectFrom("projects").select(["projectStatus", "poNumber"]).where("id", "=", id)
  .executeTakeFirstOrThrow());

Deno.test("projects: the status menu rule — Testing, Live, Paused, Waiting from any status; Closed always, again to correct the PO", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const set = (projectStatus: number) =>
      t.call("PUT", `/admin/project/update/${parent._id}`, { token, body: { projectStatus } });
    const close = (poNumber: string) =>
      t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, { token, body: { poNumber } });
    // from Closed, Ready To Invoice, Invoiced and Archieved every menu status may be chosen
    for (const from of ["closed", "ready", "archived"] as const) {
      for (const to of [9, 1, 3, 8]) {
        assertEquals((await close("PO-1")).status, 200);
        if (from !== "closed") assertEquals((await set(4)).status, 200);
        if (from === "archived") assertEquals((await set(7)).status, 200);
        const r = await set(to);
        assertEquals(r.status, 200, `${from} -> ${to}: ${r.text}`);
        assertEquals(r.json.result.projectStatus, to);
      }
    }
    await t.deps.db.updateTable("projects").set({ projectStatus: 5 }).where("id", "=", parent._id).execute();
    assertEquals((await set(8)).json.result.projectStatus, 8);
    // Closed on a Closed project: the PO number is corrected
    assertEquals((await close("PO-2")).json.result.poNumber, "PO-2");
    const again = await close("PO-3");
    assertEquals([again.status, again.json.result.projectStatus, again.json.result.poNumber], [
      200,
      6,
      "PO-3",
    ]);
    const logs = await t.call("POST", "/admin/system/log", { token, body: { filter: parent._id } });
    assert(logs.json.result.some((l: { activity: string }) => /from Archieved to Testing/.test(l.activity)));
  } finally {
    await t.close();
  }
});

Deno.test("projects: add and edit set only the restricted statuses (not 4, 5); keeping the current one saves", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const client = await makeClient(t);
    const m = await t.userWith("MANAGER");
    const group = {
      projectName: "Invoiced at once",
      clientId: client._id,
      userId: m.id,
      averageLOI: 5,
      ir: 5,
    };
    for (const projectStatus of [4, 5, "5"]) {
      const r = await t.call("POST", "/admin/project/add", { token, body: { ...group, projectStatus } });
      assertEquals(r.status, 400, `group ${projectStatus}`);
      assertEquals(r.json.errors, [{ path: "projectStatus", message: MSG.projectStatusNotEditable }]);
    }
    const parent = await makeParent(t, { clientId: client._id });
    const child = await t.call("POST", "/admin/project/add", {
      token,
      body: { ...childProjectBody(parent), projectStatus: 5 },
    });
    assertEquals(child.status, 400);
    assertEquals(child.json.errors, [{ path: "projectStatus", message: MSG.projectStatusNotEditable }]);
    // every other status may be chosen on the add form
    for (const projectStatus of [1, 2, 3, 7, 8, 9]) {
      const r = await t.call("POST", "/admin/project/add", { token, body: { ...group, projectStatus } });
      assertEquals(r.json.result?.projectStatus, projectStatus, r.text);
    }

    // editing: Invoiced is an invoice's doing, never an edit's
    const edit = (body: Record<string, unknown>) =>
      t.call("PUT", `/admin/project/update/${parent._id}`, { token, body });
    const invoiced = await edit({ projectName: "Renamed", projectStatus: 5 });
    assertEquals(invoiced.status, 400);
    assertEquals(invoiced.json.errors, [{ path: "projectStatus", message: MSG.projectStatusNotEditable }]);
    assertEquals((await statusOf(t, parent._id)).projectStatus, 2);
    // a Ready To Invoice project's edit form sends its status unchanged: it saves
    await t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, {
      token,
      body: { poNumber: "PO-9" },
    });
    assertEquals((await edit({ projectStatus: 4 })).status, 200);
    const kept = await edit({ projectName: "Renamed at 4", projectStatus: 4, poNumber: "PO-9" });
    assertEquals([kept.status, kept.json.result.projectName, kept.json.result.projectStatus], [
      200,
      "Renamed at 4",
      4,
    ]);
    await t.deps.db.updateTable("projects").set({ projectStatus: 5 }).where("id", "=", parent._id).execute();
    assertEquals((await edit({ projectName: "Renamed at 5", projectStatus: 5 })).status, 200);
    assertEquals((await edit({ projectStatus: 4 })).status, 409);
  } finally {
    await t.close();
  }
});

Deno.test("projects: a group's Paused, Closed, Ready To Invoice and Archieved reach its children, logged, never moving one back", async () => {
  const t = await testApp();
  const seen: string[] = [];
  const stop = t.deps.services.changes.on("project", (id) => seen.push(id));
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const live = await makeChild(t, parent, { projectStatus: 1 });
    const testing = await makeChild(t, parent, { projectStatus: 9 });
    const closed = await makeChild(t, parent, { projectStatus: 6, poNumber: "PO-OWN" });
    const other = await makeChild(t, await makeParent(t), { projectStatus: 1 });
    const set = (projectStatus: number) =>
      t.call("PUT", `/admin/project/update/${parent._id}`, { token, body: { projectStatus } });

    // Live leaves the children alone
    assertEquals((await set(1)).status, 200);
    assertEquals((await statusOf(t, live._id)).projectStatus, 1);
    seen.length = 0;
    assertEquals((await set(3)).status, 200);
    assertEquals((await statusOf(t, live._id)).projectStatus, 3);
    assertEquals((await statusOf(t, testing._id)).projectStatus, 3);
    assertEquals(await statusOf(t, closed._id), { projectStatus: 6, poNumber: "PO-OWN" });
    assertEquals((await statusOf(t, other._id)).projectStatus, 1);
    // the router forgets each child it had cached
    assertEquals(new Set(seen), new Set([parent._id, live._id, testing._id]));
    const childLog = await t.call("POST", "/admin/system/log", { token, body: { filter: live._id } });
    const followed =
      `Status of ${live.projectCode} changed from Live to Paused with its group ${parent.projectCode}`;
    assert(childLog.json.result.some((l: { activity: string }) => l.activity === followed));
    const parentLog = await t.call("POST", "/admin/system/log", { token, body: { filter: parent._id } });
    assert(
      parentLog.json.result.some((l: { activity: string }) =>
        l.activity === `Status of ${parent.projectCode} changed from Live to Paused (and 2 child projects)`
      ),
    );

    // closing by code: the children take the group's PO number unless they have their own
    seen.length = 0;
    await t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, {
      token,
      body: { poNumber: "PO-G" },
    });
    assertEquals(await statusOf(t, live._id), { projectStatus: 6, poNumber: "PO-G" });
    assertEquals(await statusOf(t, closed._id), { projectStatus: 6, poNumber: "PO-OWN" });
    assertEquals(new Set(seen), new Set([parent._id, live._id, testing._id]));
    // a group back at Live gives back what it stopped (tests/api/group_status_test.ts has the rest)
    await set(1);
    assertEquals((await statusOf(t, live._id)).projectStatus, 1);
    assertEquals((await statusOf(t, testing._id)).projectStatus, 9);
    assertEquals(await statusOf(t, closed._id), { projectStatus: 6, poNumber: "PO-OWN" });
    await t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, {
      token,
      body: { poNumber: "PO-G" },
    });
    assertEquals((await set(4)).status, 200);
    for (const c of [live, testing, closed]) assertEquals((await statusOf(t, c._id)).projectStatus, 4);
    assertEquals((await set(7)).status, 200);
    for (const c of [live, testing, closed]) assertEquals((await statusOf(t, c._id)).projectStatus, 7);
    assertEquals((await statusOf(t, other._id)).projectStatus, 1);
  } finally {
    stop();
    await t.close();
  }
});

Deno.test("router: a Live child of a closed group project takes no more respondents", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const s = await liveProject(t);
    // the first respondent gets in, and the router has the child cached
    assertEquals((await enter(t, s.mapId, "before")).location.startsWith("https://client.example/"), true);
    await t.call("PUT", `/admin/project/code/update/${s.parent.projectCode}`, {
      token,
      body: { poNumber: "PO-1" },
    });
    assertEquals((await enter(t, s.mapId, "after")).location, `${PANEL}/closed?sid=after`);
  } finally {
    await t.close();
  }
});

Deno.test("projects: a group's Secured Url (isDynamicThanksUrl) goes to its children", async () => {
  const t = await testApp();
  const seen: string[] = [];
  const stop = t.deps.services.changes.on("project", (id) => seen.push(id));
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const a = await makeChild(t, parent);
    const b = await makeChild(t, parent);
    assertEquals(a.isDynamicThanksUrl, true);
    seen.length = 0;
    const r = await t.call("PUT", `/admin/project/update/${parent._id}`, {
      token,
      body: { isDynamicThanksUrl: false },
    });
    assertEquals(r.status, 200);
    for (const c of [a, b]) {
      assertEquals(
        (await t.call("GET", `/admin/project/${c._id}`, { token })).json.result.isDynamicThanksUrl,
        false,
      );
    }
    assertEquals(new Set(seen), new Set([parent._id, a._id, b._id]));
    // a child may still differ from its group until the group's setting changes again (the group
    // form sends it as it was with every save)
    await t.call("PUT", `/admin/project/update/${a._id}`, { token, body: { isDynamicThanksUrl: true } });
    await t.call("PUT", `/admin/project/update/${parent._id}`, {
      token,
      body: { projectName: "Renamed group", isDynamicThanksUrl: false },
    });
    assertEquals(
      (await t.call("GET", `/admin/project/${a._id}`, { token })).json.result.isDynamicThanksUrl,
      true,
    );
  } finally {
    stop();
    await t.close();
  }
});

Deno.test("projects: clone to another country drops the regions, cities and zip codes; the same country keeps them", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    await makeChild(t, parent, {
      regionId: ["US-CA"],
      cityId: ["US-CA:Los Angeles"],
      zipCodeId: ["90001", "90002"],
    });
    const copyIn = async (countryId: string) => {
      const r = await t.call("POST", `/admin/project/clone/${parent._id}`, {
        token,
        body: { countryId, languageId: "en" },
      });
      assertEquals(r.status, 200, r.text);
      const kids = await t.call("POST", `/admin/project/childs/${r.json.result.parentProjectId}`, {
        token,
        body: {},
      });
      const k = kids.json.result.data[0];
      return [k.countryId, k.regionId, k.cityId, k.zipCodeId];
    };
    assertEquals(await copyIn("GB"), ["GB", [], [], []]);
    assertEquals(await copyIn("us"), ["US", ["US-CA"], ["US-CA:Los Angeles"], ["90001", "90002"]]);
    const bad = await t.call("POST", `/admin/project/clone/${parent._id}`, {
      token,
      body: { countryId: "XX", languageId: "zz" },
    });
    assertEquals(bad.status, 400);
    assertEquals(bad.json.errors, [
      { path: "countryId", message: "Country   is required" },
      { path: "languageId", message: "Language  is required" },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("projects: a child's country, language and currency must be lookup entries, on add and on edit", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const bad = await t.call("POST", "/admin/project/add", {
      token,
      body: childProjectBody(parent, { countryId: "XX", languageId: "zz", currencyId: "ABC" }),
    });
    assertEquals(bad.status, 400);
    assertEquals(bad.json.errors, [
      { path: "countryId", message: "Country  is required" },
      { path: "languageId", message: "Language  is required" },
      { path: "currencyId", message: "Currency  is required" },
    ]);
    assertEquals(
      (await t.call("POST", "/admin/projects", { token, body: {} })).json.result.data[0].childCount,
      0,
    );
    // known codes in any case are kept as the lookups spell them
    const ok = await t.call("POST", "/admin/project/add", {
      token,
      body: childProjectBody(parent, { countryId: "gb", languageId: "EN", currencyId: "gbp" }),
    });
    assertEquals(ok.status, 200, ok.text);
    assertEquals([ok.json.result.countryId, ok.json.result.languageId, ok.json.result.currencyId], [
      "GB",
      "en",
      "GBP",
    ]);
    const edit = await t.call("PUT", `/admin/project/update/${ok.json.result._id}`, {
      token,
      body: { countryId: "ZZ", currencyId: "XYZ" },
    });
    assertEquals(edit.status, 400);
    assertEquals(edit.json.errors, [
      { path: "countryId", message: "Country  is required" },
      { path: "currencyId", message: "Currency  is required" },
    ]);
    const moved = await t.call("PUT", `/admin/project/update/${ok.json.result._id}`, {
      token,
      body: { countryId: "de", currencyId: "eur" },
    });
    assertEquals([moved.json.result.countryId, moved.json.result.currencyId], ["DE", "EUR"]);
  } finally {
    await t.close();
  }
});

Deno.test("projects: records carry countryName and countryCode; the child export has a Country column", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent, { countryId: "DE" });
    assertEquals([child.countryName, child.countryCode], ["Germany", "DE"]);
    const read = (await t.call("GET", `/admin/project/${child._id}`, { token })).json.result;
    assertEquals([read.countryName, read.countryCode], ["Germany", "DE"]);
    const row = (await t.call("POST", `/admin/project/childs/${parent._id}`, { token, body: {} })).json.result
      .data[0];
    assertEquals([row.countryName, row.countryCode], ["Germany", "DE"]);
    const group = (await t.call("POST", "/admin/projects", { token, body: {} })).json.result.data[0];
    assertEquals([group.countryName, group.countryCode], ["", ""]);
    const csv = await t.call("POST", `/admin/project/childs/${parent._id}?format=csv`, { token, body: {} });
    assertEquals(csv.status, 200);
    const [header, first] = csv.text.trim().split(/\r?\n/);
    assertEquals(header.split(",").slice(0, 3), ["Project code", "Project name", "Country"]);
    assertEquals(first.split(",").slice(0, 3), [child.projectCode, child.projectName, "Germany"]);
  } finally {
    await t.close();
  }
});

Deno.test("projects: 'Add Questionaire' is the project's projectQuestionaire; a supplier map takes only its toggles", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const r = await t.call("PUT", `/admin/project/update/${child._id}`, {
      token,
      body: { projectQuestionaire: "<p>Car owners only</p>" },
    });
    assertEquals(r.status, 200);
    assertEquals(
      (await t.call("GET", `/admin/project/${child._id}`, { token })).json.result.projectQuestionaire,
      "<p>Car owners only</p>",
    );
    const supplier = await makeSupplier(t);
    const map = (await t.call("POST", "/admin/supplierMap/add", {
      token,
      body: { projectId: child._id, supplierId: supplier._id },
    })).json.result;
    const wrong = await t.call("PUT", `/admin/supplierMap/update/${map._id}`, {
      token,
      body: { questionnaire: "<p>x</p>" },
    });
    assertEquals(wrong.status, 400);
  } finally {
    await t.close();
  }
});
