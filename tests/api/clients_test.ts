import { assert, assertEquals, assertMatch, assertNotEquals } from "../helpers/assert.ts";
import { type ApiInput, expectCallGuarded, testApp } from "../helpers/app.ts";
import type { AnyContract } from "../../shared/api/contract.ts";
import * as C from "../../shared/api/clients.ts";
import { auditOf, clientBody, created, parseCsv, supplierBody } from "../helpers/master.ts";
import { MSG } from "../../shared/messages.ts";
import { maskSecret } from "../../shared/secrets.ts";
import * as Users from "../../shared/api/users.ts";
import * as Sup from "../../shared/api/suppliers.ts";

Deno.test("clients: an accountant adds a client; every field round-trips, the API key is generated, never taken", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const bde = await t.userWith("BDE");
    const supplier = await created(t, token, Sup.addSupplier, supplierBody());
    const body = clientBody({
      clientName: "  Northbridge Insights  ",
      clientCode: "",
      clientContactName: "Laura Bennett",
      clientPhoneNumber: "+1 312 555 0148",
      clientEmail: "Projects@Northbridge.example",
      clientWebsite: "https://northbridge.example",
      countryId: "ca",
      city: "Toronto",
      state: "Ontario",
      company: "Northbridge Insights Inc.",
      address1: "100 King St W",
      address2: "Floor 21",
      zipCode: "M5X 1A9",
      netDays: "45",
      wolfAccount: "wcanada",
      isApiIntegration: true,
      isScreenUrlIntegration: true,
      apiUrl: "https://api.northbridge.example/v2",
      apiKey: "secret",
      apiHeader: '{"Accept":"application/json"}',
      apiFunctionHeader: "x-fn: list",
      apiBody: '{"status":"live"}',
      apiResponseVar: "data.surveys",
      apiFunction: "listSurveys",
      apiParams: "country=CA",
      variableMapping: "uid=[uid]",
      identifierMapping: "rid=[sid]",
      supplierId: [supplier._id],
      assignedTo: bde.id,
      clientApiKey: "attacker-chosen",
      totalProjects: 99,
    });
    const r = await t.api(C.addClient, { token, body });
    assertEquals(r.status, 200);
    assertEquals(r.json.message, "Client added successfully");
    const c = r.result;
    assertMatch(c._id, /^[0-9a-f]{24}$/);
    assertEquals(c.clientName, "Northbridge Insights");
    assertEquals(c.clientCode, "CL0001");
    assertEquals(c.clientEmail, "projects@northbridge.example");
    assertEquals([c.countryId, c.countryCode, c.countryName], ["CA", "CA", "Canada"]);
    assertEquals(c.flag, "🇨🇦");
    assertEquals(c.netDays, 45);
    assertEquals(c.wolfAccount, "wcanada");
    assertEquals([c.isApiIntegration, c.isScreenUrlIntegration, c.isActive], [true, true, true]);
    assertEquals(c.supplierId, [supplier._id]);
    assertEquals(c.assignedTo, bde.id);
    assertEquals(c.assignedToName, "TestBDE User");
    assertEquals(c.apiResponseVar, "data.surveys");
    // the keys answer masked (tests/api/security_test.ts); the stored key is a generated one
    const stored = await t.deps.db.selectFrom("clients").select("clientApiKey").where("id", "=", c._id)
      .executeTakeFirstOrThrow();
    assertNotEquals(stored.clientApiKey, "attacker-chosen");
    assertMatch(stored.clientApiKey, /^[0-9a-f]{48}$/);
    assertEquals(c.clientApiKey, maskSecret(stored.clientApiKey));
    assertEquals(c.totalProjects, 0, "figures come from projects, not from input");

    const got = await t.api(C.getClientCall, { params: { id: c._id }, token });
    assertEquals(got.status, 200);
    assertEquals(got.json.result, c);

    // an update cannot change the API key either
    const upd = await t.api(C.updateClientCall, {
      params: { id: c._id },
      token,
      body: { ...body, clientName: "Northbridge Insights Ltd", clientApiKey: "again" },
    });
    assertEquals(upd.status, 200);
    assertEquals(upd.json.message, "Client updated successfully");
    assertEquals(upd.json.result.clientName, "Northbridge Insights Ltd");
    assertEquals(upd.json.result.clientApiKey, c.clientApiKey);
    assertEquals(upd.json.result.clientCode, "CL0001", "a blank code keeps the current one");

    const log = await auditOf(t, c._id);
    assertEquals(log.map((l) => [l.module, l.activity]), [
      ["Clients", "Created client Northbridge Insights (CL0001)"],
      [
        "Clients",
        "Updated client Northbridge Insights Ltd (CL0001): Client name: Northbridge Insights -> Northbridge Insights Ltd",
      ],
    ]);
    assertEquals(log[0].name, "TestACCOUNTANT User");
  } finally {
    await t.close();
  }
});

Deno.test("clients: malformed input answers 400 with the spec's messages, never 500", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const admin = await t.userWith("ADMIN");
    const empty = await t.api(C.addClient, { token, bad: {} });
    assertEquals(empty.status, 400);
    assertEquals(empty.json.message, "Client name  is required");
    assertEquals(empty.json.errors, [
      { path: "clientName", message: "Client name  is required" },
      { path: "countryId", message: "Country is required" },
    ]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ clientName: "  abc  " }, "clientName", "Client name  is required"],
      [{ clientName: null }, "clientName", "Client name  is required"],
      [{ clientName: 12345 }, "clientName", "Client name  is required"],
      [{ countryId: "" }, "countryId", "Country is required"],
      [{ countryId: "XX" }, "countryId", "Country is required"],
      [{ countryId: "Narnia" }, "countryId", "Country is required"],
      [{ netDays: 31 }, "netDays", MSG.clientNetDaysInvalid],
      [{ netDays: "abc" }, "netDays", MSG.clientNetDaysInvalid],
      [{ clientEmail: "not-an-email" }, "clientEmail", "Email must be valid"],
      [{ assignedTo: admin.id }, "assignedTo", MSG.assignedToInvalid],
      [{ assignedTo: "nope" }, "assignedTo", MSG.assignedToInvalid],
      [{ supplierId: "x" }, "supplierId", MSG.supplierNotFound],
      [{ isApiIntegration: "yes" }, "isApiIntegration", "Must be true or false"],
    ];
    for (const [patch, path, message] of cases) {
      const r = await t.api(C.addClient, { token, bad: clientBody(patch) });
      assertEquals(r.status, 400, `${JSON.stringify(patch)} -> ${r.text}`);
      assertEquals(r.json.errors?.find((e: { path: string }) => e.path === path)?.message, message, r.text);
    }
    // an id of no supplier is that supplier not found (the registrar's check)
    const noSupplier = await t.api(C.addClient, {
      token,
      body: clientBody({ supplierId: ["0123456789abcdef01234567"] }),
    });
    assertEquals([noSupplier.status, noSupplier.json.message], [404, MSG.supplierNotFound]);
    for (const raw of ["{not json", "[1,2]", "null", '"text"']) {
      assertEquals((await t.api(C.addClient, { token, raw })).status, 400, raw);
    }
    const c = await created(t, token, C.addClient, clientBody());
    const putEmpty = await t.api(C.updateClientCall, { params: { id: c._id }, token, bad: {} });
    assertEquals(putEmpty.status, 400);
    assertEquals(putEmpty.json.message, "Client name  is required");
    const badSwitch = await t.api(C.updateClientCall, {
      params: { id: c._id },
      token,
      bad: { isActive: "on" },
    });
    assertEquals(badSwitch.status, 400);
    const undelete = await t.api(C.updateClientCall, {
      params: { id: c._id },
      token,
      bad: { isDeleted: false },
    });
    assertEquals(undelete.status, 400);
    assertEquals(
      // a malformed id in the path itself: spelled by hand
      (await t.call("PUT", `/admin/client/update/nope`, { token, body: { isActive: true } })).status,
      404,
    );
    assertEquals(
      (await t.api(C.getClientCall, { params: { id: "0123456789abcdef01234567" }, token })).status,
      404,
    );
    assertEquals((await t.api(C.listClients, { token, bad: { pageNo: 0 } })).status, 400);
    assertEquals((await t.api(C.listClients, { token, bad: { limit: "ten" } })).status, 400);
    assertEquals(
      (await t.api(C.filterClients, { token, bad: { isApiIntegration: "y" } })).status,
      400,
    );
    // nothing half-written
    const count = await t.deps.db.selectFrom("clients").select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    assertEquals(Number(count.n), 1);
  } finally {
    await t.close();
  }
});

Deno.test("clients: a client whose Assigned To has left stays editable; only a new Assigned To is checked", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const bde = await t.userWith("BDE", { email: "leaving.bde@test.local" });
    const other = await t.userWith("BDE", { email: "other.bde@test.local" });
    const body = clientBody({ assignedTo: bde.id });
    const c = await created(t, token, C.addClient, body);
    // the BDE is deactivated, then deleted: an unrelated edit still saves and keeps the assignee
    const admin = await t.tokenFor("SUPERADMIN");
    for (const patch of [{ isActive: false }, { isDeleted: true }]) {
      assertEquals(
        (await t.api(Users.updateUserCall, { params: { id: bde.id }, token: admin, body: patch })).status,
        200,
      );
      const edit = await t.api(C.updateClientCall, {
        params: { id: c._id },
        token,
        body: { ...body, city: `Salem ${JSON.stringify(patch)}` },
      });
      assertEquals(edit.status, 200, edit.text);
      assertEquals(edit.json.result.assignedTo, bde.id);
      // the read names the old assignee, so the form can show "(inactive)"
      assertEquals(edit.json.result.assignedToName, "TestBDE User");
    }
    // clearing it, or picking another active BDE, saves
    const moved = await t.api(C.updateClientCall, {
      params: { id: c._id },
      token,
      body: { ...body, assignedTo: other.id },
    });
    assertEquals(moved.status, 200, moved.text);
    // ... but picking the departed one again is checked like any new choice
    const back = await t.api(C.updateClientCall, { params: { id: c._id }, token, body });
    assertEquals(back.status, 400);
    assertEquals(back.json.errors, [{ path: "assignedTo", message: MSG.assignedToInvalid }]);
    const cleared = await t.api(C.updateClientCall, {
      params: { id: c._id },
      token,
      body: { ...body, assignedTo: null },
    });
    assertEquals(cleared.status, 200, cleared.text);
    assertEquals(cleared.json.result.assignedTo, null);
  } finally {
    await t.close();
  }
});

Deno.test("clients: generated codes count up; a code in use by a live client is a 409 on clientCode", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const a = await created(t, token, C.addClient, clientBody());
    const b = await created(t, token, C.addClient, clientBody({ clientCode: "ACME-UK" }));
    const c = await created(t, token, C.addClient, clientBody());
    assertEquals([a.clientCode, b.clientCode, c.clientCode], ["CL0001", "ACME-UK", "CL0002"]);
    const dup = await t.api(C.addClient, {
      token,
      body: clientBody({ clientCode: "acme-uk" }),
    });
    assertEquals(dup.status, 409);
    assertEquals(dup.json.errors, [{ path: "clientCode", message: "This client code is already in use" }]);
    const dupEdit = await t.api(C.updateClientCall, {
      params: { id: a._id },
      token,
      body: clientBody({ clientCode: "CL0002" }),
    });
    assertEquals(dupEdit.status, 409);
    // deleting frees the code
    await t.api(C.updateClientCall, { params: { id: b._id }, token, body: { isDeleted: true } });
    assertEquals(
      (await t.api(C.addClient, { token, body: clientBody({ clientCode: "ACME-UK" }) }))
        .status,
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("clients: the switch and soft delete; deleted clients leave lists, pickers and reads; both are logged", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const keep = await created(t, token, C.addClient, clientBody({ clientName: "Keep Research" }));
    const gone = await created(t, token, C.addClient, clientBody({ clientName: "Gone Research" }));

    const off = await t.api(C.updateClientCall, {
      params: { id: keep._id },
      token,
      body: { isActive: false },
    });
    assertEquals(off.status, 200);
    assertEquals(off.json.message, "Client status updated successfully");
    assertEquals(off.json.result.isActive, false);
    assertEquals(off.json.result.clientName, "Keep Research", "the switch leaves the rest alone");
    // inactive clients stay in the grid but leave the pickers
    const names = async (call: typeof C.clientOptionsCall | typeof C.clientInvoiceOptionsCall) =>
      (await t.api(call, { token })).json.result.map((c: { clientName: string }) => c.clientName);
    assertEquals(await names(C.clientOptionsCall), ["Gone Research"]);

    const del = await t.api(C.updateClientCall, {
      params: { id: gone._id },
      token,
      body: { isDeleted: true },
    });
    assertEquals(del.status, 200);
    assertEquals(del.json.message, "Client deleted successfully");
    assertEquals(del.json.result, { _id: gone._id, isDeleted: true });

    const list = await t.api(C.listClients, { token, body: {} });
    assertEquals(list.json.result.data.map((c: { clientName: string }) => c.clientName), ["Keep Research"]);
    assertEquals(list.json.result.metadata.total, 1);
    assertEquals(await names(C.clientOptionsCall), []);
    assertEquals(await names(C.clientInvoiceOptionsCall), []);
    assertEquals((await t.api(C.getClientCall, { params: { id: gone._id }, token })).status, 404);
    assertEquals(
      (await t.api(C.updateClientCall, { params: { id: gone._id }, token, body: { isActive: true } })).status,
      404,
    );
    // the row stays for reports and the audit log
    const row = await t.deps.db.selectFrom("clients").select(["isDeleted", "isActive"]).where(
      "id",
      "=",
      gone._id,
    )
      .executeTakeFirstOrThrow();
    assertEquals(row, { isDeleted: 1, isActive: 0 });
    assertEquals((await auditOf(t, keep._id)).map((l) => l.activity), [
      "Created client Keep Research (CL0001)",
      "Deactivated client Keep Research",
    ]);
    assertEquals((await auditOf(t, gone._id)).at(-1)?.activity, "Deleted client Gone Research");
  } finally {
    await t.close();
  }
});

Deno.test("clients: list filters (countries, status, search), paging metadata and figures per row", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const countries = ["US", "US", "GB", "DE", "US", "FR", "GB", "US", "JP", "US", "IN", "US"];
    for (const [i, countryId] of countries.entries()) {
      await created(
        t,
        token,
        C.addClient,
        clientBody({
          clientName: `Buyer ${String(i).padStart(2, "0")} Co`,
          countryId,
          isActive: i % 4 !== 0,
        }),
      );
    }
    const page = async (body: Record<string, unknown>) =>
      (await t.api(C.listClients, { token, body })).json.result;
    const p3 = await page({ pageNo: 3, limit: 5 });
    assertEquals(p3.metadata, { total: 12, limit: 5, pageNo: 3 });
    assertEquals(p3.data.length, 2);
    // newest first by default
    assertEquals((await page({ limit: 1 })).data[0].clientName, "Buyer 11 Co");
    const row = (await page({ limit: 1 })).data[0];
    for (
      const k of [
        "totalProjects",
        "activeProjects",
        "responded",
        "completed",
        "approved",
        "actualRevenue",
        "expectedRevenue",
      ]
    ) {
      assertEquals(row[k], 0, k);
    }
    assertEquals(row.countryName, "United States");
    assert(!("apiKey" in row), "list rows carry no API secrets");

    assertEquals((await page({ filter: { countries: ["GB", "de"] } })).metadata.total, 3);
    assertEquals((await page({ filter: { countries: "JP" } })).metadata.total, 1);
    assertEquals((await page({ status: false })).metadata.total, 3);
    assertEquals((await page({ status: "true" })).metadata.total, 9);
    assertEquals((await page({ status: "any" })).metadata.total, 12);
    assertEquals((await page({ search: "Buyer 0" })).metadata.total, 10);
    assertEquals((await page({ search: "buyer 1", filter: { countries: ["US"] } })).metadata.total, 1);
    assertEquals((await page({ search: "100%_" })).metadata.total, 0, "LIKE wildcards are literal");
    // a filter the list does not have is refused, never ignored (nor interpolated)
    const unknown = await t.api(C.listClients, {
      token,
      bad: { filter: { unknown: "x; DROP TABLE clients" } },
    });
    assertEquals(unknown.status, 400);
    assertEquals(unknown.json.errors[0].path, "filter.unknown");
    assertEquals((await page({ limit: 1000 })).metadata.limit, 100, "limit is capped");
  } finally {
    await t.close();
  }
});

Deno.test("clients: CSV export streams every matching row with the grid's columns and defuses formulas", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    await created(
      t,
      token,
      C.addClient,
      clientBody({ clientName: '=HYPERLINK("http://evil")', countryId: "US" }),
    );
    await created(
      t,
      token,
      C.addClient,
      clientBody({ clientName: "+Plus Research", countryId: "US" }),
    );
    await created(
      t,
      token,
      C.addClient,
      clientBody({ clientName: "Other Country Co", countryId: "GB" }),
    );
    await created(
      t,
      token,
      C.addClient,
      clientBody({ clientName: 'Quiet, "Inactive" Co', countryId: "US", isActive: false }),
    );
    const r = await t.api(C.listClients, {
      search: { format: "csv" },
      token,
      body: { filter: { countries: ["US"] }, status: true, pageNo: 1, limit: 1 },
    });
    assertEquals(r.status, 200);
    assertMatch(r.headers.get("content-type") ?? "", /^text\/csv/);
    assertMatch(
      r.headers.get("content-disposition") ?? "",
      /attachment; filename="clients-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const rows = parseCsv(r.text);
    assertEquals(rows[0], [
      "Client name",
      "Client code",
      "Region",
      "Country code",
      "Total projects",
      "Active projects",
      "Traffic",
      "Complete",
      "Approved",
      "Actual revenue ($)",
      "Expected revenue ($)",
      "Email",
      "Assigned to",
      "Status",
    ]);
    // all pages (not just `limit`), only active US clients, formula cells prefixed with a quote
    assertEquals(rows.slice(1).map((x) => x[0]).sort(), ["'+Plus Research", '\'=HYPERLINK("http://evil")']);
    assertEquals(rows[1].slice(2, 11), ["United States", "US", "0", "0", "0", "0", "0", "0.00", "0.00"]);
    const all = parseCsv(
      (await t.api(C.listClients, { search: { format: "csv" }, token, body: { search: "inactive" } })).text,
    );
    assertEquals(all[1][0], 'Quiet, "Inactive" Co');
    assertEquals(all[1].at(-1), "Inactive");
  } finally {
    await t.close();
  }
});

Deno.test("clients: pickers for selects, invoices and API-integrated work", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const a = await created(
      t,
      token,
      C.addClient,
      clientBody({
        clientName: "Maple Leaf Research",
        countryId: "CA",
        company: "Maple Leaf Research Inc.",
        address1: "100 King St W",
        city: "Toronto",
        zipCode: "M5X 1A9",
        netDays: 60,
        wolfAccount: "wcanada",
        clientEmail: "ap@maple.example",
        clientPhoneNumber: "+1 416 555 0190",
      }),
    );
    await created(
      t,
      token,
      C.addClient,
      clientBody({ clientName: "Albion Analytics", isApiIntegration: true }),
    );

    const bde = await t.tokenFor("BDE");
    const all = await t.api(C.clientOptionsCall, { token: bde });
    assertEquals(all.status, 200);
    assertEquals(all.json.result.map((c: { label: string }) => c.label), [
      "Albion Analytics",
      "Maple Leaf Research",
    ]);
    const maple = all.json.result[1];
    assertEquals([maple._id, maple.value, maple.clientName, maple.clientEmail], [
      a._id,
      a._id,
      "Maple Leaf Research",
      "ap@maple.example",
    ]);
    const searched = await t.api(C.clientOptionsCall, { query: { search: "maple" }, token: bde });
    assertEquals(searched.json.result.length, 1);

    const inv = await t.api(C.clientInvoiceOptionsCall, {
      query: { search: "Maple" },
      token: await t.tokenFor("ACCOUNTANT"),
    });
    assertEquals(inv.status, 200);
    const row = inv.json.result[0];
    assertEquals(row.countryId, { _id: "CA", name: "Canada", code: "CA", flag: "🇨🇦" });
    assertEquals(
      [
        row.label,
        row.address1,
        row.city,
        row.zipCode,
        row.netDays,
        row.wolfAccount,
        row.clientPhoneNumber,
        row.company,
      ],
      [
        "Maple Leaf Research",
        "100 King St W",
        "Toronto",
        "M5X 1A9",
        60,
        "wcanada",
        "+1 416 555 0190",
        "Maple Leaf Research Inc.",
      ],
    );

    const api = await t.api(C.filterClients, {
      token: bde,
      body: { isApiIntegration: true },
    });
    assertEquals(api.json.result.map((c: { label: string }) => c.label), ["Albion Analytics"]);
    const notApi = await t.api(C.filterClients, {
      token: bde,
      body: { isApiIntegration: false },
    });
    assertEquals(notApi.json.result.map((c: { label: string }) => c.label), ["Maple Leaf Research"]);
    const any = await t.api(C.filterClients, { token: bde });
    assertEquals(any.json.result.length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("clients: every call refuses a missing token (401) and a wrong role (403); accountants may manage", async () => {
  const t = await testApp();
  try {
    const admin = await t.tokenFor("ADMIN");
    const c = await created(t, admin, C.addClient, clientBody());
    const accountant = await t.tokenFor("ACCOUNTANT");
    const calls: [AnyContract, "MANAGER" | "SUPPLIER", ApiInput<AnyContract>][] = [
      [C.listClients, "MANAGER", { body: {} }],
      [C.clientOptionsCall, "SUPPLIER", {}],
      [C.clientInvoiceOptionsCall, "MANAGER", {}],
      [C.filterClients, "SUPPLIER", { body: {} }],
      [C.addClient, "MANAGER", { body: clientBody() }],
      [C.updateClientCall, "MANAGER", { params: { id: c._id }, body: { isActive: true } }],
      [C.getClientCall, "MANAGER", { params: { id: c._id } }],
    ];
    for (const [call, wrong, input] of calls) {
      await expectCallGuarded(t, call, wrong, input);
      const r = await t.api(call, { ...input, token: accountant });
      assertEquals(r.status, 200, `${call.key} as ACCOUNTANT: ${r.text}`);
    }
    for (const role of ["SUBSCRIBER", "BDE", "APIMANAGER"] as const) {
      assertEquals(
        (await t.api(C.addClient, { token: await t.tokenFor(role), body: clientBody() }))
          .status,
        403,
      );
    }
  } finally {
    await t.close();
  }
});
