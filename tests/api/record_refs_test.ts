/**
 * Input that names a record must name a real one (issue 26, item 5): the ids a schema declares are
 * checked against their tables by the registrar, control characters are refused in every text
 * field, unknown filter keys are a 400, and a junk provider id never reaches the provider.
 */
import * as v from "valibot";
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { childProjectBody, makeClient, makeParent } from "../helpers/fixtures.ts";
import { supplierBody } from "../helpers/master.ts";
import { ChildProject } from "../../shared/schemas/project.ts";
import * as C from "../../shared/api/clients.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Proj from "../../shared/api/projects.ts";
import * as Prov from "../../shared/api/providers.ts";
import * as Sess from "../../shared/api/session.ts";
import * as SMap from "../../shared/api/supplier-maps.ts";
import * as Sup from "../../shared/api/suppliers.ts";

const NO_RECORD = "0123456789abcdef01234567";

Deno.test("a project's categoryId must name a category: an id of none is 404, other text 400", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const parent = await makeParent(t);
    const add = (extra: Record<string, unknown>) =>
      t.api(Proj.addProject, { token, body: childProjectBody(parent, extra) });
    const none = await add({ categoryId: NO_RECORD });
    // the same answer as for a path id of no record (no field list: nothing tells "not there" from
    // "not yours" where a role sees only its own records)
    assertEquals([none.status, none.json.message, none.json.errors], [404, "Category not found", undefined]);
    const html = await add({ categoryId: "<b>x</b>" });
    assertEquals([html.status, html.json.errors], [400, [{
      path: "categoryId",
      message: "Unknown category",
    }]]);
    const count = await t.deps.db.selectFrom("projects").select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assertEquals(Number(count.n), 1, "only the parent: nothing was written");

    const category = await t.api(Lib.addCategory, {
      token,
      body: { categoryTitle: "Auto", categoryDesc: "Cars" },
    });
    const ok = await add({ categoryId: category.json.result._id });
    assertEquals(ok.status, 200, ok.text);
    const blank = await add({ categoryId: "" });
    assertEquals(blank.status, 200, blank.text);
    const rows = await t.deps.db.selectFrom("projects").select(["id", "categoryId"]).where("id", "in", [
      ok.json.result._id,
      blank.json.result._id,
    ]).execute();
    assertEquals(rows.map((r) => r.categoryId).sort(), [category.json.result._id, null].sort());

    // a body id in a list, and the ids of other calls, through the same check
    const supplier = await t.api(Sup.addSupplier, {
      token,
      body: supplierBody({ clientId: [(await makeClient(t))._id, NO_RECORD] }),
    });
    assertEquals([supplier.status, supplier.json.message], [404, "Client not found"]);
    const map = await t.api(SMap.saveSupplierMapCall, {
      token,
      body: { projectId: parent._id, supplierId: NO_RECORD },
    });
    assertEquals([map.status, map.json.message], [404, "Supplier not found"]);
  } finally {
    await t.close();
  }
});

Deno.test("the web form's schema alone does not look records up (that is the registrar's)", () => {
  const r = v.safeParse(
    ChildProject,
    childProjectBody({ _id: NO_RECORD, clientId: NO_RECORD }, { categoryId: NO_RECORD }),
  );
  assert(r.success, JSON.stringify(r.issues?.map((i) => i.message)));
});

Deno.test("control characters are refused in every text field: the field's own message, or the registrar's", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const parent = await makeParent(t);
    const wid = await t.api(Proj.addProject, {
      token,
      bad: childProjectBody(parent, { wid: "W\u0000ID" }),
    });
    assertEquals([wid.status, wid.json.errors], [400, [{
      path: "wid",
      message: "WID must not hold control characters",
    }]]);
    const client = await t.api(C.addClient, {
      token,
      bad: { clientName: "Acme \u001b[31mred", countryId: "US" },
    });
    assertEquals(client.status, 400);
    assert(
      client.json.errors.some((e: { path: string; message: string }) =>
        e.path === "clientName" && /control characters/.test(e.message)
      ),
      client.text,
    );
    // a field of no text helper (the sign-in e-mail), caught by the registrar after the schema
    const login = await t.api(Sess.loginCall, {
      bad: { email: "a\u0007@test.local", password: "x" },
    });
    assertEquals(login.status, 400, login.text);
    // tabs and line breaks are text
    const note = await t.api(Proj.addProject, {
      token,
      body: childProjectBody(parent, { projectDescription: "line one\n\tline two\r\n" }),
    });
    assertEquals(note.status, 200, note.text);
  } finally {
    await t.close();
  }
});

Deno.test("an unknown filter key is a 400 naming the list's filters; null (not set) is not a filter", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const r = await t.api(C.listClients, { token, bad: { filter: { countryy: "US" } } });
    assertEquals(r.status, 400);
    assertEquals(r.json.errors[0].path, "filter.countryy");
    assert(
      /Unknown filter "countryy": this list filters on .*countries/.test(r.json.message),
      r.json.message,
    );
    const unset = await t.api(C.listClients, { token, body: { filter: { countries: null } } });
    assertEquals(unset.status, 200, unset.text);
    const api = await t.tokenFor("APIMANAGER");
    const offers = await t.api(Prov.tolunaOffers, {
      token: api,
      body: { filter: { countryCode: "US", nope: 1 } },
    });
    assertEquals([offers.status, offers.json.errors?.[0]?.path], [400, "filter.nope"], offers.text);
  } finally {
    await t.close();
  }
});

Deno.test("a junk provider id is refused with a 400 before any provider is asked", async () => {
  const t = await testApp();
  try {
    const api = await t.tokenFor("APIMANAGER");
    for (
      const [call, body] of [
        [Prov.tolunaQuotaDetails, { quotaId: "../../admin?x=1" }],
        [Prov.mrktQuotas, { surveyId: "<script>" }],
        [Prov.logitQuotas, { projectId: "12 34" }],
        [Prov.tolunaQuestions, { questionId: ["1", "a/b"] }],
        [Prov.addTolunaOffer, { surveyId: "x\u0000", clientId: NO_RECORD }],
      ] as const
    ) {
      const r = await t.api(call, { token: api, bad: body });
      assertEquals(r.status, 400, `${call.key}: ${r.text}`);
      assert(/not valid|control characters/.test(r.json.message), r.text);
    }
  } finally {
    await t.close();
  }
});
