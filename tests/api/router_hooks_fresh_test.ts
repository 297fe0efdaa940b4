/**
 * An outcome's callback is claimed at birth: the router's writer writes its batch's callbacks as one
 * claim under this instance's lease (one attempt counted) and the sender sends them at the commit,
 * without a scan, then moves them into router_hooks by their answers.
 * What the sender has not put on its way when it closes is released to the queue (due now, the
 * attempt not counted); one claimed too near the end of its lease is left to the scan, which sends
 * it once the lease lapses. The sender keeps a supplier's signing fields a moment, dropped when the
 * supplier changes (a rotated key signs the next callback).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, enter, liveProject, router, uidOf } from "../helpers/router.ts";
import { type CallbackParts, verifyCallbackSignature } from "../../shared/callbacks.ts";
import * as C from "../../shared/api/supplier-callbacks.ts";
import { CLAIM_SLOTS } from "../../server/domain/router/callback-events.ts";

const HOOK = "https://panel.example/hook?uid=[uid]&key=[key]";

/** The callbacks by state and attempts, and those still in claims (`claimed`: callbacks, not claims). */
async function states(t: Awaited<ReturnType<typeof testApp>>) {
  const rows = await t.deps.db.selectFrom("router_hooks").select(["status", "attempts", "nextAt"]).execute();
  const out: Record<string, number> = {};
  for (const r of rows) out[`${r.status}:${r.attempts}`] = (out[`${r.status}:${r.attempts}`] ?? 0) + 1;
  const claims = await t.deps.db.selectFrom("router_hook_claims").select("rows").execute();
  const claimed = claims.reduce((n, c) => n + JSON.parse(c.rows).length, 0);
  if (claimed) out.claimed = claimed;
  return { out, rows };
}

Deno.test("router hooks: outcome callbacks are written claimed and sent at their commit; those not yet on their way when the sender closes go back to the queue", async () => {
  const calls: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const held = (async (url: string) => {
    calls.push(String(url));
    await gate;
    return new Response("ok");
  }) as typeof fetch;
  const t = await testApp({}, { router: { fetch: held } });
  try {
    const supplier = await makeSupplier(t, { supplierApprovedHook: HOOK });
    const s = await liveProject(t, { supplierId: supplier._id });
    for (let i = 0; i < 25; i++) await back(t, uidOf((await enter(t, s.mapId, `f${i}`)).location), "c");
    await router(t).writer.idle();
    for (let i = 0; i < 100 && calls.length < 20; i++) await new Promise((r) => setTimeout(r, 10));
    assertEquals(calls.length, 20, "20 on their way at once, none read back from the table first");
    assertEquals((await states(t)).out, { claimed: 25 }, "claimed when written");

    router(t).hooks.close();
    release();
    await router(t).hooks.idle();
    const after = await states(t);
    assertEquals(after.out, { "sent:1": 20, "queued:0": 5 }, "moved out of their claims, which are gone");
    assertEquals(calls.length, 20);
    const now = new Date().toISOString();
    assert(
      after.rows.filter((r) => r.status === "queued").every((r) => r.nextAt <= now),
      "the released ones are due at once",
    );
  } finally {
    release();
    await t.close();
  }
});

Deno.test("router hooks: a callback claimed too near the end of its lease is left to the scan, which sends it when the lease lapses", async () => {
  let offset = 0;
  const now = () => Date.now() + offset;
  const calls: string[] = [];
  const record =
    ((url: string) => (calls.push(String(url)), Promise.resolve(new Response("ok")))) as typeof fetch;
  // a lease shorter than two time-outs of the request (10 s each): not sure to be settled in it
  const t = await testApp({}, { now, router: { fetch: record, hookLeaseMs: 15_000 } });
  try {
    const supplier = await makeSupplier(t, { supplierApprovedHook: HOOK });
    const s = await liveProject(t, { supplierId: supplier._id });
    const uid = uidOf((await enter(t, s.mapId, "near")).location);
    await back(t, uid, "c");
    await router(t).idle();
    assertEquals(calls, []);
    assertEquals((await states(t)).out, { claimed: 1 });
    offset += 16_000;
    router(t).hooks.kick();
    await router(t).hooks.idle();
    assertEquals(calls, [`https://panel.example/hook?uid=${uid}&key=${uid}-c`]);
    assertEquals((await states(t)).out, { "sent:2": 1 });
  } finally {
    await t.close();
  }
});

Deno.test("router hooks: the sender keeps a supplier's signing key for a moment, but a rotation applies to the very next callback", async () => {
  const seen: { uid: string; req: CallbackParts }[] = [];
  const record = ((url: string, init?: RequestInit) => {
    seen.push({
      uid: new URL(String(url)).searchParams.get("uid") ?? "",
      req: { method: init?.method ?? "GET", url: String(url), headers: new Headers(init?.headers), body: "" },
    });
    return Promise.resolve(new Response("ok"));
  }) as typeof fetch;
  const t = await testApp({}, { router: { fetch: record } });
  try {
    const supplier = await makeSupplier(t, { supplierApprovedHook: HOOK });
    const portal = await t.userWith("SUPPLIER", { email: "rot@panel.example", supplierId: supplier._id });
    const s = await liveProject(t, { supplierId: supplier._id });
    const complete = async (sid: string) => {
      const uid = uidOf((await enter(t, s.mapId, sid)).location);
      await back(t, uid, "c");
      await router(t).idle();
      return seen.find((x) => x.uid === uid)!.req;
    };
    const first = (await t.ok(C.revealPortalCallbackSecretCall, { token: portal.token })).hashKey;
    assert((await verifyCallbackSignature(first, await complete("rot-1"))).ok);
    const rotated = (await t.ok(C.rotatePortalCallbackSecretCall, { token: portal.token })).hashKey;
    const next = await complete("rot-2");
    assert((await verifyCallbackSignature(rotated, next)).ok, "signed with the new key at once");
    assert(!(await verifyCallbackSignature(first, next)).ok);
  } finally {
    await t.close();
  }
});

Deno.test("router hooks: results wait for others while callbacks are on their way, and are recorded at once when none is left", async () => {
  const calls: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  // the first is answered once the second is on its way too; the second's answer is held
  let bothIn!: () => void;
  const both = new Promise<void>((r) => bothIn = r);
  const fetch = (async (url: string) => {
    calls.push(String(url));
    if (calls.length === 1) await both;
    else {
      bothIn();
      await gate;
    }
    return new Response("ok");
  }) as typeof globalThis.fetch;
  const t = await testApp({}, { router: { fetch } });
  const sent = async () =>
    (await t.deps.db.selectFrom("router_hooks").select("id").where("status", "=", "sent").execute()).length;
  try {
    const supplier = await makeSupplier(t, { supplierApprovedHook: HOOK });
    const s = await liveProject(t, { supplierId: supplier._id });
    for (const sid of ["i1", "i2"]) await back(t, uidOf((await enter(t, s.mapId, sid)).location), "c");
    await router(t).writer.idle();
    for (let i = 0; i < 100 && calls.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    assertEquals(calls.length, 2);
    await new Promise((r) => setTimeout(r, 100));
    assertEquals(await sent(), 0, "the first answer waits for the one still on its way");
    release();
    // nothing left on its way: recorded within SETTLE_IDLE_MS, not the second a busy sender waits
    let n = 0;
    for (let i = 0; i < 16 && n < 2; i++) {
      await new Promise((r) => setTimeout(r, 5));
      n = await sent();
    }
    assertEquals(n, 2, "both recorded as soon as the sender has nothing on its way");
  } finally {
    release();
    await t.close();
  }
});

Deno.test("router hooks: a hand-over that throws fails each callback's attempt, retried from the queue, and leaves none counted as on its way", async () => {
  const { Outbound } = await import("../../server/domain/common/outbound/client.ts");
  const requestMany = Outbound.prototype.requestMany;
  const t = await testApp({}, { router: { fetch: () => Promise.resolve(new Response("ok")) } });
  try {
    const supplier = await makeSupplier(t, { supplierApprovedHook: HOOK });
    const s = await liveProject(t, { supplierId: supplier._id });
    Outbound.prototype.requestMany = () => {
      throw new Error("the hand-over broke");
    };
    for (let i = 0; i < 3; i++) await back(t, uidOf((await enter(t, s.mapId, `x${i}`)).location), "c");
    await router(t).idle();
    const rows = await t.deps.db.selectFrom("router_hooks").select(["status", "attempts", "lastError"])
      .execute();
    assertEquals(
      rows,
      [0, 1, 2].map(() => ({ status: "queued", attempts: 1, lastError: "the hand-over broke" })),
    );
  } finally {
    Outbound.prototype.requestMany = requestMany;
    await t.close();
  }
});

Deno.test("router hooks: the writer tells the sender each fresh callback's claim and slot (its settle moves them by slot)", async () => {
  const record = (() => Promise.resolve(new Response("ok"))) as typeof fetch;
  const t = await testApp({}, { router: { fetch: record } });
  try {
    const supplier = await makeSupplier(t, { supplierApprovedHook: HOOK });
    const s = await liveProject(t, { supplierId: supplier._id });
    const given: { key: string; id?: number; claim?: number }[] = [];
    const claims = new Map<number, string[]>();
    const hooks = router(t).hooks;
    const fresh = hooks.fresh.bind(hooks);
    hooks.fresh = (rows) => {
      given.push(...rows.map((r) => ({ key: r.key, id: r.id, claim: r.claim })));
      fresh(rows);
    };
    // each claim's keys as written, read at each commit (before its callbacks are moved out of it)
    router(t).writer.onFlushed(() => {
      const read = t.deps.db.selectFrom("router_hook_claims").select(["id", "rows"]).execute();
      settled.push(read.then((cs) => {
        for (const c of cs) claims.set(Number(c.id), JSON.parse(c.rows).map((r: string[]) => r[4]));
      }));
    });
    const settled: Promise<void>[] = [];
    const uids: string[] = [];
    for (let i = 0; i < 12; i++) uids.push(uidOf((await enter(t, s.mapId, `id${i}`)).location));
    await Promise.all(uids.map((uid) => back(t, uid, "c")));
    await router(t).idle();
    await Promise.all(settled);
    assertEquals(given.length, 12);
    for (const g of given) {
      assert(g.claim !== undefined && g.id !== undefined, JSON.stringify(g));
      const slot = g.id - g.claim * CLAIM_SLOTS;
      assertEquals(claims.get(g.claim)?.[slot], g.key, "its slot in its claim");
    }
    const rows = await t.deps.db.selectFrom("router_hooks").select(["hookKey", "status"]).orderBy("id")
      .execute();
    assertEquals(
      rows.map((r) => r.hookKey),
      given.sort((a, b) => a.id! - b.id!).map((g) => g.key),
      "moved in the order of their claims and slots",
    );
    assert(rows.every((r) => r.status === "sent"), JSON.stringify(rows));
    assertEquals(
      await t.deps.db.selectFrom("router_hook_claims").selectAll().execute(),
      [],
      "claims deleted",
    );
  } finally {
    await t.close();
  }
});
