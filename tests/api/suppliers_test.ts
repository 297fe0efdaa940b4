import { assert, assertEquals, assertMatch, assertNotEquals } from "../helpers/assert.ts";
import { type ApiInput, expectCallGuarded, TEST_PASSWORD, testApp } from "../helpers/app.ts";
import type { AnyContract } from "../../shared/api/contract.ts";
import { auditOf, clientBody, created, parseCsv, supplierBody } from "../helpers/master.ts";
import { MSG } from "../../shared/messages.ts";
import { maskSecret } from "../../shared/secrets.ts";
import * as Sess from "../../shared/api/session.ts";
import * as Sup from "../../shared/api/suppliers.ts";
import * as Users from "../../shared/api/users.ts";
import * as C from "../../shared/api/clients.ts";

const FULL = {
  supplierType: "2",
  supplierName: " PanelPulse UK ",
  supplierShortCode: "PPUK",
  supplierPhoneNumber: "+44 161 555 0199",
  supplierEmail: "Supply@PanelPulse.example",
  supplierWebsite: "https://panelpulse.example",
  countryId: "gb",
  city: "Manchester",
  state: "Greater Manchester",
  company: "PanelPulse Ltd",
  address1: "1 Spinningfields",
  address2: "Level 4",
  zipCode: "M3 3AP",
  netDays: 45,
  apiClientId: "pp-client-7",
  hashKey: "hmac-secret",
  supplierPanelSize: "450000",
  supplierRuleCPI: "2.5 | 3.4|4|6",
  apiBody: '{"q":1}',
  apiKey: "secret-key",
  apiUrl: "https://api.panelpulse.example",
  apiHeader: "x-key: 1",
  variableMapping: "rid=[sid]",
  identifierMapping: "pid=[pid]",
  redirectComplete: "https://r.panelpulse.example/complete?status=c&rid=[sid]",
  redirectQuotaFull: "https://r.panelpulse.example/q?rid={sid}",
  redirectTerminate: "https://r.panelpulse.example/t?rid=[SID]&uid=[uid]",
  redirectQualityTerm: "",
  redirectSurveyClose: "https://r.panelpulse.example/closed/%5Bsid%5D",
  isEmailNotification: false,
  isPreScreen: true,
  supplierApprovedHook: "https://hooks.panelpulse.example/approved",
  supplierApiKey: "attacker-chosen",
  completed: 42,
};

Deno.test("suppliers: add and read one (POST /admin/supplier/:id); every field round-trips; the API key is generated", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const client = await created(t, token, C.addClient, clientBody());
    const r = await t.api(Sup.addSupplier, {
      token,
      body: { ...FULL, clientId: [client._id] },
    });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.message, "Supplier added successfully");
    const s = r.json.result;
    assertEquals(
      [s.supplierType, s.supplierTypeLabel, s.supplierName, s.supplierShortCode, s.supplierEmail],
      [2, "Local", "PanelPulse UK", "PPUK", "supply@panelpulse.example"],
    );
    assertEquals([s.countryId, s.countryName, s.countryCode], ["GB", "United Kingdom", "GB"]);
    assertEquals([s.netDays, s.supplierPanelSize, s.supplierRuleCPI], [45, 450000, "2.5|3.4|4|6"]);
    assertEquals([s.isEmailNotification, s.isPreScreen, s.isActive], [false, true, true]);
    assertEquals(s.clientId, [client._id]);
    assertEquals(s.hashKey, maskSecret("hmac-secret"), "keys answer masked (tests/api/security_test.ts)");
    assertEquals(s.apiClientId, "pp-client-7");
    assertEquals(s.redirectQualityTerm, "");
    assertEquals(s.supplierApprovedHook, "https://hooks.panelpulse.example/approved");
    const stored = await t.deps.db.selectFrom("suppliers").select(["supplierApiKey", "hashKey"])
      .where("id", "=", s._id).executeTakeFirstOrThrow();
    assertEquals(stored.hashKey, "hmac-secret");
    assertNotEquals(stored.supplierApiKey, "attacker-chosen");
    assertMatch(stored.supplierApiKey, /^[0-9a-f]{48}$/);
    assertEquals(s.supplierApiKey, maskSecret(stored.supplierApiKey));
    assertEquals(s.completed, 0);

    const one = await t.api(Sup.getSupplierCall, { params: { id: s._id }, token });
    assertEquals(one.status, 200);
    assertEquals(one.json.result, s);
    // the literal /admin/supplier/add is not taken for an id
    const add = await t.api(Sup.addSupplier, { token, bad: {} });
    assertEquals(add.status, 400);

    const upd = await t.api(Sup.updateSupplierCall, {
      params: { id: s._id },
      token,
      body: { ...FULL, supplierName: "PanelPulse United Kingdom", supplierApiKey: "x" },
    });
    assertEquals(upd.status, 200);
    assertEquals(upd.json.message, "Supplier updated successfully");
    assertEquals(upd.json.result.supplierName, "PanelPulse United Kingdom");
    assertEquals(upd.json.result.supplierApiKey, s.supplierApiKey);
    assertEquals(upd.json.result.clientId, [], "the client list is what the form sends");
    assertEquals((await auditOf(t, s._id)).map((l) => l.activity), [
      "Created supplier PanelPulse UK (PPUK)",
      "Updated supplier PanelPulse United Kingdom (PPUK): Supplier name: PanelPulse UK -> PanelPulse United Kingdom; " +
      "Clients: removed Client Research 1",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("suppliers: malformed input answers 400 with the spec's messages verbatim, never 500", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const empty = await t.api(Sup.addSupplier, { token, bad: {} });
    assertEquals(empty.status, 400);
    assertEquals(empty.json.message, "Supplier type  is required");
    assertEquals(empty.json.errors, [
      { path: "supplierType", message: "Supplier type  is required" },
      { path: "supplierName", message: "Supplier name  is required" },
      { path: "supplierShortCode", message: "Shortcode  is required" },
      { path: "supplierEmail", message: "Supplier email  is required" },
      { path: "countryId", message: "Country  is required" },
      { path: "supplierRuleCPI", message: "Supplier rule   is required" },
    ]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ supplierType: 3 }, "supplierType", "Supplier type  is required"],
      [{ supplierType: "DIY" }, "supplierType", "Supplier type  is required"],
      [{ supplierName: " abc " }, "supplierName", "Supplier name  is required"],
      [{ supplierShortCode: "   " }, "supplierShortCode", "Shortcode  is required"],
      [{ supplierShortCode: "A B" }, "supplierShortCode", MSG.shortcodeInvalid],
      [{ supplierEmail: "" }, "supplierEmail", "Supplier email  is required"],
      [{ supplierEmail: "nope" }, "supplierEmail", "Email must be valid"],
      [{ countryId: "ZZ" }, "countryId", "Country  is required"],
      [{ supplierRuleCPI: "" }, "supplierRuleCPI", "Supplier rule   is required"],
      [{ supplierRuleCPI: "2.5|abc" }, "supplierRuleCPI", MSG.supplierRuleInvalid],
      [{ supplierRuleCPI: "2.5|" }, "supplierRuleCPI", MSG.supplierRuleInvalid],
      [{ netDays: 90 }, "netDays", MSG.supplierNetDaysInvalid],
      [{ supplierPanelSize: "lots" }, "supplierPanelSize", MSG.panelSizeInvalid],
      [{ redirectComplete: "https://panel.example/complete?sid=" }, "redirectComplete", "Invalid Url"],
      [{ redirectTerminate: "panel.example/t?sid=[sid]" }, "redirectTerminate", "Invalid Url"],
      [{ redirectQuotaFull: "javascript:alert([sid])" }, "redirectQuotaFull", "Invalid Url"],
      [{ redirectQualityTerm: "https://x.example/?uid=[uid]" }, "redirectQualityTerm", "Invalid Url"],
      [{ redirectSurveyClose: 7 }, "redirectSurveyClose", "Must be text"],
      [{ supplierApprovedHook: "not a url" }, "supplierApprovedHook", "Invalid Url"],
      [{ isPreScreen: "true" }, "isPreScreen", "Must be true or false"],
    ];
    for (const [patch, path, message] of cases) {
      const r = await t.api(Sup.addSupplier, { token, bad: supplierBody(patch) });
      assertEquals(r.status, 400, `${JSON.stringify(patch)} -> ${r.text}`);
      assertEquals(r.json.errors?.find((e: { path: string }) => e.path === path)?.message, message, r.text);
    }
    // an id of no client is that client not found (the registrar's check)
    const noClient = await t.api(Sup.addSupplier, {
      token,
      body: supplierBody({ clientId: ["0123456789abcdef01234567"] }),
    });
    assertEquals([noClient.status, noClient.json.message], [404, MSG.clientNotFound]);
    for (const raw of ["{", "[]", "42"]) {
      assertEquals((await t.api(Sup.addSupplier, { token, raw })).status, 400);
    }
    const s = await created(t, token, Sup.addSupplier, supplierBody());
    const put = await t.api(Sup.updateSupplierCall, {
      params: { id: s._id },
      token,
      bad: { supplierName: "ab" },
    });
    assertEquals(put.status, 400);
    assertEquals(put.json.message, "Supplier type  is required");
    assertEquals(
      (await t.api(Sup.getSupplierCall, { params: { id: "0123456789abcdef01234567" }, token })).status,
      404,
    );
    // a malformed id in the path itself: spelled by hand
    assertEquals((await t.call("POST", `/admin/supplier/not-an-id`, { token })).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("suppliers: a short code names one live supplier: duplicates are a 409 on supplierShortCode", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const a = await created(t, token, Sup.addSupplier, supplierBody({ supplierShortCode: "OPH" }));
    const b = await created(t, token, Sup.addSupplier, supplierBody({ supplierShortCode: "VOX" }));
    const dup = await t.api(Sup.addSupplier, {
      token,
      body: supplierBody({ supplierShortCode: "oph" }),
    });
    assertEquals(dup.status, 409);
    assertEquals(dup.json.message, MSG.shortcodeTaken);
    assertEquals(dup.json.errors, [{ path: "supplierShortCode", message: MSG.shortcodeTaken }]);
    const edit = await t.api(Sup.updateSupplierCall, {
      params: { id: b._id },
      token,
      body: supplierBody({ supplierShortCode: "OPH" }),
    });
    assertEquals(edit.status, 409);
    // keeping one's own code is fine
    assertEquals(
      (await t.api(Sup.updateSupplierCall, {
        params: { id: a._id },
        token,
        body: supplierBody({ supplierShortCode: "OPH" }),
      }))
        .status,
      200,
    );
    await t.api(Sup.updateSupplierCall, { params: { id: a._id }, token, body: { isDeleted: true } });
    const reuse = await t.api(Sup.addSupplier, {
      token,
      body: supplierBody({ supplierShortCode: "OPH" }),
    });
    assertEquals(reuse.status, 200, "a deleted supplier's code is free again");
  } finally {
    await t.close();
  }
});

Deno.test("suppliers: switch and soft delete; deleted suppliers leave lists and pickers; their portal users are signed out", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const keep = await created(t, token, Sup.addSupplier, supplierBody({ supplierName: "Keep Panel" }));
    const gone = await created(t, token, Sup.addSupplier, supplierBody({ supplierName: "Gone Panel" }));
    const portal = await t.userWith("SUPPLIER", { email: "portal@gone.example", supplierId: gone._id });
    assertEquals((await t.api(Sess.supplierMeCall, { token: portal.token })).status, 200);

    const off = await t.api(Sup.updateSupplierCall, {
      params: { id: keep._id },
      token,
      body: { isActive: false },
    });
    assertEquals([off.status, off.json.message, off.json.result.isActive], [
      200,
      "Supplier status updated successfully",
      false,
    ]);
    const picker = async () =>
      (await t.api(Sup.supplierOptionsCall, { token })).json.result.map((s: { label: string }) => s.label);
    assertEquals(await picker(), ["Gone Panel"]);

    const del = await t.api(Sup.updateSupplierCall, {
      params: { id: gone._id },
      token,
      body: { isDeleted: true },
    });
    assertEquals([del.status, del.json.message], [200, "Supplier deleted successfully"]);
    assertEquals(await picker(), []);
    const list = await t.api(Sup.listSuppliers, { token, body: {} });
    assertEquals(list.json.result.data.map((s: { supplierName: string }) => s.supplierName), ["Keep Panel"]);
    assertEquals((await t.api(Sup.getSupplierCall, { params: { id: gone._id }, token })).status, 404);
    assertEquals(
      (await t.api(Sess.supplierMeCall, { token: portal.token })).status,
      401,
      "portal user signed out",
    );
    assertEquals(
      (await t.api(Sess.loginCall, { body: { email: portal.email, password: TEST_PASSWORD } }))
        .status,
      401,
    );
    assertEquals(
      (await auditOf(t, gone._id)).at(-1)?.activity,
      "Deleted supplier Gone Panel (" + gone.supplierShortCode + "); deactivated 1 portal user",
    );
  } finally {
    await t.close();
  }
});

Deno.test("suppliers: list filters, paging, figures; CSV honours the filters", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const specs: [string, number, string, boolean][] = [
      ["Opinion Harbor", 1, "US", true],
      ["PanelPulse UK", 2, "GB", true],
      ["SurveyNest", 2, "CA", true],
      ["VoxPop", 1, "DE", false],
      ["@Insight Bees", 2, "IN", true],
      ["Respondia", 1, "ES", true],
    ];
    for (const [supplierName, supplierType, countryId, isActive] of specs) {
      await created(
        t,
        token,
        Sup.addSupplier,
        supplierBody({ supplierName, supplierType, countryId, isActive }),
      );
    }
    const page = async (body: Record<string, unknown>) =>
      (await t.api(Sup.listSuppliers, { token, body })).json.result;
    const p2 = await page({ pageNo: 2, limit: 4 });
    assertEquals(p2.metadata, { total: 6, limit: 4, pageNo: 2 });
    assertEquals(p2.data.length, 2);
    const row = p2.data[0];
    for (
      const k of [
        "totalProjects",
        "activeProjects",
        "responded",
        "completed",
        "approved",
        "actualExpense",
        "expectedExpense",
      ]
    ) {
      assertEquals(row[k], 0, k);
    }
    assert(row.countryName && row.countryCode);
    assertEquals((await page({ filter: { countries: ["US", "GB"] } })).metadata.total, 2);
    assertEquals((await page({ filter: { supplierType: 2 } })).metadata.total, 3);
    assertEquals((await page({ status: false })).data.map((s: { supplierName: string }) => s.supplierName), [
      "VoxPop",
    ]);
    assertEquals((await page({ search: "pulse" })).metadata.total, 1);

    const csv = parseCsv(
      (await t.api(Sup.listSuppliers, {
        search: { format: "csv" },
        token,
        body: { filter: { supplierType: [2] }, status: true },
      })).text,
    );
    assertEquals(csv[0].slice(0, 6), [
      "Supplier name",
      "Short code",
      "Type",
      "Country",
      "Country code",
      "Total projects",
    ]);
    assertEquals(csv.slice(1).map((r) => r[0]).sort(), ["'@Insight Bees", "PanelPulse UK", "SurveyNest"]);
    assertEquals(csv.find((r) => r[0] === "SurveyNest")?.slice(2, 5), ["Local", "Canada", "CA"]);
  } finally {
    await t.close();
  }
});

Deno.test("suppliers: a SUPPLIER user must belong to a live supplier; supplier-user rows name their supplier", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const s = await created(
      t,
      token,
      Sup.addSupplier,
      supplierBody({ supplierName: "Opinion Harbor" }),
    );
    const user = {
      firstName: "Hannah",
      lastName: "Brooks",
      email: "hannah@opinionharbor.example",
      role: "SUPPLIER",
      password: "Secret123",
    };
    const unknown = await t.api(Users.addUser, {
      token,
      body: { ...user, supplierId: "0123456789abcdef01234567" },
    });
    assertEquals([unknown.status, unknown.json.message], [404, "Supplier not found"]);
    const none = await t.api(Users.addUser, { token, body: user });
    assertEquals(none.json.errors, [{ path: "supplierId", message: "Supplier is required" }]);

    const ok = await t.api(Users.addUser, { token, body: { ...user, supplierId: s._id } });
    assertEquals(ok.status, 200, ok.text);
    assertEquals(ok.json.result.supplierId, s._id);

    const list = await t.api(Users.listSupplierUsers, { token, body: {} });
    assertEquals(
      list.json.result.data.map((u: { email: string; supplierName: string }) => [u.email, u.supplierName]),
      [
        ["hannah@opinionharbor.example", "Opinion Harbor"],
      ],
    );
    const csv = parseCsv(
      (await t.api(Users.listSupplierUsers, { search: { format: "csv" }, token, body: {} })).text,
    );
    assertEquals(csv[0][4], "Supplier");
    assertEquals(csv[1][4], "Opinion Harbor");

    // moving the user to a deleted supplier is refused
    const other = await created(t, token, Sup.addSupplier, supplierBody());
    await t.api(Sup.updateSupplierCall, { params: { id: other._id }, token, body: { isDeleted: true } });
    const move = await t.api(Users.updateUserCall, {
      params: { id: ok.json.result._id },
      token,
      bad: { ...user, password: "", supplierId: other._id },
    });
    assertEquals(move.status, 400);
    assertEquals(move.json.errors, [{ path: "supplierId", message: "Supplier is required" }]);
  } finally {
    await t.close();
  }
});

Deno.test("suppliers: every call refuses a missing token and a wrong role; accountants may manage", async () => {
  const t = await testApp();
  try {
    const admin = await t.tokenFor("ADMIN");
    const s = await created(t, admin, Sup.addSupplier, supplierBody());
    const accountant = await t.tokenFor("ACCOUNTANT");
    const calls: [AnyContract, "MANAGER" | "SUPPLIER", ApiInput<AnyContract>][] = [
      [Sup.listSuppliers, "MANAGER", { body: {} }],
      [Sup.supplierOptionsCall, "SUPPLIER", {}],
      [Sup.addSupplier, "MANAGER", { body: supplierBody() }],
      [Sup.updateSupplierCall, "MANAGER", { params: { id: s._id }, body: { isActive: true } }],
      [Sup.getSupplierCall, "MANAGER", { params: { id: s._id } }],
    ];
    for (const [call, wrong, input] of calls) {
      await expectCallGuarded(t, call, wrong, input);
      const r = await t.api(call, { ...input, token: accountant });
      assertEquals(r.status, 200, `${call.key} as ACCOUNTANT: ${r.text}`);
    }
    assertEquals(
      (await t.api(Sup.supplierOptionsCall, { token: await t.tokenFor("BDE") })).status,
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("supplier picker: ?search finds by name or short code; an overlong search is a 400, not a scan", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    await created(
      t,
      token,
      Sup.addSupplier,
      supplierBody({ supplierName: "Alpha Panel", supplierShortCode: "ALP" }),
    );
    await created(
      t,
      token,
      Sup.addSupplier,
      supplierBody({ supplierName: "Beta Panel", supplierShortCode: "BET" }),
    );
    const labels = async (search: string) =>
      (await t.api(Sup.supplierOptionsCall, { query: { search }, token })).json
        .result
        .map((s: { label: string }) => s.label);
    assertEquals(await labels("alp"), ["Alpha Panel"]);
    assertEquals(await labels("BET"), ["Beta Panel"]);
    const long = await t.api(Sup.supplierOptionsCall, { query: { search: "x".repeat(201) }, token });
    assertEquals([long.status, long.json.message], [400, "search is too long"]);
    assertEquals(long.json.errors, [{ path: "search", message: "search is too long" }]);
  } finally {
    await t.close();
  }
});
