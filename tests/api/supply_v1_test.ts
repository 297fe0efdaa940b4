/**
 * `/supply/v1` authentication (issue 23, item 2): a supplier's key in `X-Api-Key` opens the supply
 * API; no key, an unknown, revoked or expired key, or a key of an inactive supplier is a 401
 * `{ message }`; a key in the URL is refused with 400. `GET /supply/v1/questions` proves it end to end.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { questionBody, supplierBody } from "../helpers/master.ts";
import * as Sup from "../../shared/api/suppliers.ts";
import * as L from "../../shared/api/library.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import { SUPPLY_BASE, type SupplyQuestion, supplyQuestionsCall } from "../../shared/api/supply.ts";

async function setup() {
  let clock = Date.parse("2026-11-26T10:00:00.000Z");
  const t = await testApp({}, { now: () => clock });
  const s = await t.ok(Sup.addSupplier, { as: "ADMIN", body: supplierBody() });
  const supply = async (path: string, headers: Record<string, string> = {}) => {
    const res = await t.app.request(`${SUPPLY_BASE}${path}`, { headers });
    const text = await res.text();
    return { status: res.status, json: JSON.parse(text), headers: res.headers };
  };
  return { t, s, supply, advance: (ms: number) => (clock += ms) };
}

Deno.test("supply v1: 401 without a valid key, 200 with one; the key's lastUsedAt moves", async () => {
  const { t, s, supply } = await setup();
  try {
    const q = await t.ok(L.addTempQuestion, { as: "ADMIN", body: questionBody() });
    const text = await t.ok(L.addTempQuestion, {
      as: "ADMIN",
      body: questionBody({ questionType: "TEXT", questionOption: [] }),
    });
    const key = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: s._id },
      body: { name: "k" },
    });
    const path = supplyQuestionsCall.path;

    const none = await supply(path);
    assertEquals(none.status, 401);
    assertEquals(none.json, { message: "An API key is required in the X-Api-Key header" });
    const wrong = await supply(path, { "X-Api-Key": "spx_not-a-key" });
    assertEquals(wrong.status, 401);
    assertEquals(wrong.json.message, "Unknown API key");
    // a session token is not a key
    const bearer = await supply(path, { authorization: `Bearer ${await t.tokenFor("ADMIN")}` });
    assertEquals(bearer.status, 401);

    const r = await supply(path, { "x-api-key": key.key });
    assertEquals(r.status, 200, JSON.stringify(r.json));
    assertEquals(r.headers.get("cache-control"), "no-store");
    const data: SupplyQuestion[] = r.json.result.data;
    const radio = data.find((x) => x.id === q._id)!;
    assertEquals(radio.type, "RADIO");
    assertEquals(radio.text, q.title);
    assertEquals(radio.answers.map((a) => a.text), ["18-34", "35-54", "55+"]);
    assertEquals(radio.answers.map((a) => a.id), q.questionOption.map((o) => o._id));
    assertEquals(data.find((x) => x.id === text._id)?.answers, []);

    const listed = await t.ok(K.listSupplierApiKeysCall, { as: "ADMIN", params: { id: s._id } });
    assertEquals(listed[0].lastUsedAt, "2026-11-26T10:00:00.000Z");

    const unknownPath = await supply("/nothing-here", { "X-Api-Key": key.key });
    assertEquals(unknownPath.status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("supply v1: a key in the URL is refused with 400 naming the header", async () => {
  const { t, s, supply } = await setup();
  try {
    const key = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: s._id },
      body: { name: "k" },
    });
    for (const name of ["api_key", "apiKey", "key", "X-Api-Key"]) {
      const r = await supply(`${supplyQuestionsCall.path}?${name}=${key.key}`, { "X-Api-Key": key.key });
      assertEquals(r.status, 400, name);
      assertMatch(r.json.message, /X-Api-Key header/);
    }
  } finally {
    await t.close();
  }
});

Deno.test("supply v1: a revoked key stops at once, an expired key and an inactive supplier's key are 401", async () => {
  const { t, s, supply, advance } = await setup();
  try {
    const path = supplyQuestionsCall.path;
    const k1 = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: s._id },
      body: { name: "a" },
    });
    const k2 = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: s._id },
      body: { name: "b", expiresOn: "2026-11-26" },
    });
    assertEquals((await supply(path, { "X-Api-Key": k1.key })).status, 200);
    await t.ok(K.revokeSupplierApiKeyCall, { as: "ADMIN", params: { id: s._id, keyId: k1._id } });
    const revoked = await supply(path, { "X-Api-Key": k1.key });
    assertEquals([revoked.status, revoked.json.message], [401, "This API key has been revoked"]);

    // the other key keeps working: a rotation has no gap
    assertEquals((await supply(path, { "X-Api-Key": k2.key })).status, 200);
    advance(14 * 3600_000); // past the end of 26/11/2026 (UTC)
    const expired = await supply(path, { "X-Api-Key": k2.key });
    assertEquals([expired.status, expired.json.message], [401, "This API key has expired"]);

    const { token } = await t.userWith("ADMIN");
    const k3 = await t.ok(K.createSupplierApiKeyCall, { token, params: { id: s._id }, body: { name: "c" } });
    assertEquals((await supply(path, { "X-Api-Key": k3.key })).status, 200);
    await t.ok(Sup.updateSupplierCall, { token, params: { id: s._id }, body: { isDeleted: true } });
    const gone = await supply(path, { "X-Api-Key": k3.key });
    assertEquals(gone.status, 401);
    assert(!("result" in gone.json));
  } finally {
    await t.close();
  }
});
