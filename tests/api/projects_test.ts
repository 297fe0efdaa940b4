import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectGuarded, testApp } from "../helpers/app.ts";
import { makeChild, makeClient, makeParent, makeSupplier } from "../helpers/fixtures.ts";

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

Deno.test("projects: status rules — illegal change 409, Closed by code needs a PO number", async () => {
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
    const invoiced = await t.call("PUT", `/admin/project/update/${parent._id}`, {
      token,
      body: { projectStatus: 5 },
    });
    assertEquals(invoiced.status, 409);
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
    // nothing leaves the archive
    assertEquals(
      (await t.call("PUT", `/admin/project/update/${parent._id}`, { token, body: { projectStatus: 1 } }))
        .status,
      409,
    );
  } finally {
    await t.close();
  }
});
