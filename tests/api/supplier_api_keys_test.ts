/**
 * A supplier's API keys (issue 23, item 1): staff who edit suppliers and the supplier's own portal
 * users create, list, rename and revoke keys; a key is shown once and stored hashed; the system log
 * names every change; a SUPPLIER user never reaches another supplier's key.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { auditOf, supplierBody } from "../helpers/master.ts";
import * as Sup from "../../shared/api/suppliers.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import {
  authenticateSupplierKey,
  hashApiKey,
  INITIAL_KEY_NAME,
  MAX_ACTIVE_KEYS,
} from "../../server/domain/suppliers/api-keys.ts";

async function setup() {
  let clock = Date.parse("2026-11-26T10:00:00.000Z");
  const t = await testApp({}, { now: () => clock });
  const a = await t.ok(Sup.addSupplier, { as: "ADMIN", body: supplierBody() });
  const b = await t.ok(Sup.addSupplier, { as: "ADMIN", body: supplierBody() });
  const portalA = await t.userWith("SUPPLIER", { email: "a@panel.example", supplierId: a._id });
  const portalB = await t.userWith("SUPPLIER", { email: "b@panel.example", supplierId: b._id });
  const advance = (ms: number) => (clock += ms);
  return { t, a, b, portalA, portalB, advance, now: () => clock };
}

Deno.test("api keys: created key is shown once, stored hashed; lists never show it; every change is logged", async () => {
  const { t, a } = await setup();
  try {
    const r = await t.api(K.createSupplierApiKeyCall, {
      as: "ACCOUNTANT",
      params: { id: a._id },
      body: { name: " Production " },
    });
    assertEquals(r.status, 200, r.text);
    assertMatch(r.json.message, /will not be shown again/);
    const created = r.result;
    assertMatch(created.key, /^spx_[A-Za-z0-9_-]{43}$/);
    assertEquals(created.name, "Production");
    assertEquals(created.state, "active");
    assertEquals(created.prefix, created.key.slice(0, 12));
    assertEquals(created.expiresAt, null);

    // stored as its SHA-256, never the key
    const rows = await t.deps.db.selectFrom("supplier_api_keys").selectAll().where("supplierId", "=", a._id)
      .execute();
    const row = rows.find((x) => x.id === created._id)!;
    assertEquals(row.keyHash, hashApiKey(created.key));
    assert(!JSON.stringify(rows).includes(created.key), "the key is stored somewhere");

    // a second key: several per supplier; the list shows neither key nor hash
    await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: a._id },
      body: { name: "Rotation" },
    });
    const list = await t.api(K.listSupplierApiKeysCall, { as: "SUPERADMIN", params: { id: a._id } });
    assertEquals(list.status, 200, list.text);
    assertEquals(list.result.map((k) => k.name), ["Rotation", "Production", INITIAL_KEY_NAME]);
    assert(!list.text.includes(created.key), "the list shows a key");
    assert(!list.text.includes(row.keyHash), "the list shows a hash");
    assert(list.result.every((k) => !("key" in k) && !("keyHash" in k)));

    const renamed = await t.api(K.renameSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: a._id, keyId: created._id },
      body: { name: "Production EU" },
    });
    assertEquals(renamed.status, 200, renamed.text);
    assertEquals(renamed.result.name, "Production EU");

    const log = (await auditOf(t, a._id)).map((l) => l.activity);
    assert(log.some((x) => /^Created API key "Production" \(spx_/.test(x)), log.join("\n"));
    assert(log.some((x) => /^Renamed API key spx_/.test(x)), log.join("\n"));
    assert(!log.join("\n").includes(created.key), "the log shows the key");
  } finally {
    await t.close();
  }
});

Deno.test("api keys: revoke stops a key at once; an expired key is refused; the supplier inactive refuses its keys", async () => {
  const { t, a, advance } = await setup();
  try {
    const k1 = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: a._id },
      body: { name: "one" },
    });
    const k2 = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: a._id },
      body: { name: "two", expiresOn: "2026-11-27" },
    });
    const auth = (key: string) => authenticateSupplierKey(t.deps, key);
    assertEquals((await auth(k1.key)).ok, true);
    assertEquals(k2.expiresAt, "2026-11-28T00:00:00.000Z");
    assertEquals((await auth(k2.key)).ok, true);

    const rv = await t.api(K.revokeSupplierApiKeyCall, { as: "ADMIN", params: { id: a._id, keyId: k1._id } });
    assertEquals(rv.status, 200, rv.text);
    assertEquals(rv.result.state, "revoked");
    assertEquals(await auth(k1.key), { ok: false, refusal: "revoked" });
    assert((await auditOf(t, a._id)).some((l) => /^Revoked API key "one"/.test(l.activity)));

    advance(2 * 86_400_000);
    assertEquals(await auth(k2.key), { ok: false, refusal: "expired" });
    // two days on, the test's sessions have ended: sign in again
    const { token } = await t.userWith("ADMIN");
    const list = await t.ok(K.listSupplierApiKeysCall, { token, params: { id: a._id } });
    assertEquals(list.find((k) => k._id === k2._id)?.state, "expired");

    // an expiry in the past is refused with its field named
    const past = await t.api(K.createSupplierApiKeyCall, {
      token,
      params: { id: a._id },
      body: { name: "old", expiresOn: "2026-11-01" },
    });
    assertEquals(past.status, 400, past.text);
    assertEquals(past.json.errors[0].path, "expiresOn");

    const k3 = await t.ok(K.createSupplierApiKeyCall, {
      token,
      params: { id: a._id },
      body: { name: "three" },
    });
    await t.ok(Sup.updateSupplierCall, { token, params: { id: a._id }, body: { isActive: false } });
    assertEquals(await auth(k3.key), { ok: false, refusal: "supplierInactive" });
    assertEquals(await auth("spx_nothing"), { ok: false, refusal: "unknown" });
    assertEquals(await auth(""), { ok: false, refusal: "missing" });
  } finally {
    await t.close();
  }
});

Deno.test("api keys: lastUsedAt moves on use, at most once a minute", async () => {
  const { t, a, advance } = await setup();
  try {
    const k = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: a._id },
      body: { name: "k" },
    });
    const lastUsed = async () =>
      (await t.ok(K.listSupplierApiKeysCall, { as: "ADMIN", params: { id: a._id } })).find((x) =>
        x._id === k._id
      )!
        .lastUsedAt;
    assertEquals(await lastUsed(), null);
    await authenticateSupplierKey(t.deps, k.key);
    assertEquals(await lastUsed(), "2026-11-26T10:00:00.000Z");
    advance(30_000);
    await authenticateSupplierKey(t.deps, k.key);
    assertEquals(await lastUsed(), "2026-11-26T10:00:00.000Z");
    advance(31_000);
    await authenticateSupplierKey(t.deps, k.key);
    assertEquals(await lastUsed(), "2026-11-26T10:01:01.000Z");
  } finally {
    await t.close();
  }
});

Deno.test("api keys: the portal sees only its own supplier's keys; another supplier's key id is 404", async () => {
  const { t, a, b, portalA, portalB } = await setup();
  try {
    const mine = await t.api(K.createPortalApiKeyCall, {
      token: portalA.token,
      body: { name: "From portal" },
    });
    assertEquals(mine.status, 200, mine.text);
    assertEquals(mine.result.supplierId, a._id);
    assertEquals(mine.result.createdBy, "TestSUPPLIER User");
    const theirs = await t.ok(K.createPortalApiKeyCall, { token: portalB.token, body: { name: "B's" } });

    const listA = await t.ok(K.listPortalApiKeysCall, { token: portalA.token });
    assertEquals(listA.map((k) => k.name), ["From portal", INITIAL_KEY_NAME]);
    assertEquals(listA.map((k) => k.supplierId), [a._id, a._id]);
    assertEquals(listA[0]._id, mine.result._id);
    assert(!JSON.stringify(listA).includes(mine.result.key));

    // B's key through A's portal, and through staff paths under the wrong supplier: not found
    for (
      const r of [
        await t.api(K.revokePortalApiKeyCall, { token: portalA.token, params: { keyId: theirs._id } }),
        await t.api(K.renamePortalApiKeyCall, {
          token: portalA.token,
          params: { keyId: theirs._id },
          body: { name: "mine now" },
        }),
        await t.api(K.revokeSupplierApiKeyCall, { as: "ADMIN", params: { id: a._id, keyId: theirs._id } }),
        await t.api(K.revokePortalApiKeyCall, { token: portalA.token, params: { keyId: "not-an-id" } }),
      ]
    ) {
      assertEquals(r.status, 404, r.text);
      assertEquals(r.json.message, "API key not found");
    }
    assertEquals((await authenticateSupplierKey(t.deps, theirs.key)).ok, true);

    const revoked = await t.api(K.revokePortalApiKeyCall, {
      token: portalA.token,
      params: { keyId: mine.result._id },
    });
    assertEquals(revoked.status, 200, revoked.text);
    assertEquals(revoked.result.state, "revoked");
    assertEquals(b._id !== a._id, true);
  } finally {
    await t.close();
  }
});

Deno.test("api keys: roles enforced, input validated", async () => {
  const { t, a } = await setup();
  try {
    const id = { params: { id: a._id } };
    await expectCallGuarded(t, K.listSupplierApiKeysCall, "MANAGER", id);
    await expectCallGuarded(t, K.createSupplierApiKeyCall, "SUPPLIER", { ...id, body: { name: "x" } });
    await expectCallGuarded(t, K.revokeSupplierApiKeyCall, "BDE", { params: { id: a._id, keyId: "x" } });
    await expectCallGuarded(t, K.listPortalApiKeysCall, "ADMIN");
    await expectCallGuarded(t, K.createPortalApiKeyCall, "SUPERADMIN", { body: { name: "x" } });

    const noName = await t.api(K.createSupplierApiKeyCall, { as: "ADMIN", ...id, body: { name: "  " } });
    assertEquals(noName.status, 400, noName.text);
    assertEquals(noName.json.errors[0], { path: "name", message: "Key name is required" });
    const long = await t.api(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      ...id,
      body: { name: "x".repeat(101) },
    });
    assertEquals(long.status, 400, long.text);
    const badDate = await t.api(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      ...id,
      body: { name: "k", expiresOn: "tomorrow" },
    });
    assertEquals(badDate.status, 400, badDate.text);
    assertEquals(badDate.json.errors[0], {
      path: "expiresOn",
      message: "Expiry date must be a date (yyyy-MM-dd)",
    });
    const badDay = await t.api(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      ...id,
      body: { name: "k", expiresOn: "2026-02-31" },
    });
    assertEquals(badDay.status, 400, badDay.text);
    const unknown = await t.api(K.listSupplierApiKeysCall, { as: "ADMIN", params: { id: "0".repeat(24) } });
    assertEquals(unknown.status, 404, unknown.text);
  } finally {
    await t.close();
  }
});

Deno.test("api keys: a supplier holds at most 20 active keys; a revoked one frees a place", async () => {
  const { t, portalA } = await setup();
  try {
    const made = [];
    // the supplier's initial key is one of the 20
    for (let i = 1; i < MAX_ACTIVE_KEYS; i++) {
      made.push(await t.ok(K.createPortalApiKeyCall, { token: portalA.token, body: { name: `k${i}` } }));
    }
    const over = await t.api(K.createPortalApiKeyCall, { token: portalA.token, body: { name: "one more" } });
    assertEquals(over.status, 409, over.text);
    assertEquals(over.json.message, "A supplier may hold at most 20 active keys: revoke one first");
    await t.ok(K.revokePortalApiKeyCall, { token: portalA.token, params: { keyId: made[0]._id } });
    const again = await t.api(K.createPortalApiKeyCall, { token: portalA.token, body: { name: "one more" } });
    assertEquals(again.status, 200, again.text);
  } finally {
    await t.close();
  }
});

Deno.test("api keys: a new supplier's record key (supplierApiKey) is its first key: it works, is listed, and revoking it stops it", async () => {
  const { t, a } = await setup();
  try {
    const revealed = await t.ok(Sup.revealSupplierKeysCall, { as: "ADMIN", params: { id: a._id } });
    const recordKey = revealed.supplierApiKey;
    assertMatch(recordKey, /^[0-9a-f]{48}$/);
    const check = await authenticateSupplierKey(t.deps, recordKey);
    assert(check.ok && check.supplier.supplierId === a._id, JSON.stringify(check));

    const list = await t.ok(K.listSupplierApiKeysCall, { as: "ADMIN", params: { id: a._id } });
    assertEquals(list.map((k) => [k.name, k.prefix, k.state]), [[
      INITIAL_KEY_NAME,
      recordKey.slice(0, 12),
      "active",
    ]]);
    const stored = await t.deps.db.selectFrom("supplier_api_keys").select("keyHash").where(
      "supplierId",
      "=",
      a._id,
    )
      .executeTakeFirstOrThrow();
    assertEquals(stored.keyHash, hashApiKey(recordKey));

    await t.ok(K.revokeSupplierApiKeyCall, { as: "ADMIN", params: { id: a._id, keyId: list[0]._id } });
    const after = await authenticateSupplierKey(t.deps, recordKey);
    assertEquals(after, { ok: false, refusal: "revoked" });
  } finally {
    await t.close();
  }
});
