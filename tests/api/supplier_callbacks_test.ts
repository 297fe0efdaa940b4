/**
 * Signed supplier callbacks (issue 23, item 3): every outcome event and every reconcile change
 * reaches the supplier's local receiver once, signed under its hash key (checked with the exported
 * verifier), built from the supplier's API fields; retries after an error; redeliver; a delivery log
 * per supplier that a SUPPLIER user sees only for its own; a refused URL recorded.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, enter, liveProject, router, uidOf } from "../helpers/router.ts";
import { closedProject } from "../helpers/reconcile.ts";
import { type CallbackParts, verifyCallbackSignature } from "../../shared/callbacks.ts";
import * as C from "../../shared/api/supplier-callbacks.ts";
import * as Rec from "../../shared/api/reconcile.ts";
import * as Sup from "../../shared/api/suppliers.ts";
import { sql } from "kysely";

const SECRET = "panel-shared-secret-0001";

type Got = CallbackParts & { headers: Headers };

/** A panel's callback receiver on 127.0.0.1 (internal: reachable only through OUTBOUND_ALLOW). */
function receiver(answer: (n: number) => number = () => 200) {
  const got: Got[] = [];
  /** While set, a call waits for it before it is answered (its callback stays in flight). */
  const held: { until: Promise<void> | null } = { until: null };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (held.until) await held.until;
    got.push({ method: req.method, url: req.url, headers: req.headers, body: await req.text() });
    return new Response("ok", { status: answer(got.length) });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { got, base, held, close: () => server.shutdown() };
}

async function app(retries = [0]) {
  return await testApp({ OUTBOUND_ALLOW: "127.0.0.1" }, { router: { hookRetryDelaysMs: retries } });
}

/** Lets the router write and the sender send until `done` (or a bounded number of rounds). */
async function settle(t: TestApp, done: () => boolean) {
  for (let i = 0; i < 200 && !done(); i++) {
    await router(t).idle();
    await new Promise((r) => setTimeout(r, 10));
  }
  await router(t).idle();
}

const param = (g: Got, name: string) => new URL(g.url).searchParams.get(name);
const hooks = (t: TestApp) =>
  t.deps.db.selectFrom("router_hooks").select(["event", "status", "attempts", "lastAnswer", "hookKey"])
    .orderBy("id").execute();

Deno.test("callbacks: each outcome event fires once, signed under the hash key, with the key header and the supplier's auth header", async () => {
  const r = receiver();
  const t = await app();
  try {
    const url = (e: string) => `${r.base}/cb/${e}?sid=[sid]&uid=[uid]&st=[status]&k=[key]&ev=[event]`;
    const supplier = await makeSupplier(t, {
      hashKey: SECRET,
      apiKey: "panel-api-key",
      apiHeader: "X-Panel-Key",
      supplierApprovedHook: url("c"),
      callbackTerminate: url("t"),
      callbackOverQuota: url("q"),
      callbackQualityTerm: url("f"),
    });
    const s = await liveProject(t, { supplierId: supplier._id });
    const uids: Record<string, string> = {};
    for (const letter of ["c", "t", "q", "f"]) {
      uids[letter] = uidOf((await enter(t, s.mapId, `m-${letter}`)).location);
      await back(t, uids[letter], letter);
    }
    await settle(t, () => r.got.length >= 4);
    await settle(t, () => false);
    assertEquals(r.got.length, 4, "one callback per outcome");
    const events = { c: "complete", t: "terminate", q: "overquota", f: "quality" } as const;
    for (const [letter, event] of Object.entries(events)) {
      const g = r.got.find((x) => new URL(x.url).pathname === `/cb/${letter}`);
      assert(g, `the ${event} callback arrived`);
      const uid = uids[letter];
      const key = `${uid}-${letter}`;
      assertEquals(g.method, "GET");
      assertEquals(
        [param(g, "sid"), param(g, "uid"), param(g, "st"), param(g, "k"), param(g, "ev")],
        [`m-${letter}`, uid, letter, key, event],
      );
      assertEquals(g.headers.get("idempotency-key"), key);
      assertEquals(g.headers.get("x-samplex-event"), event);
      assertEquals(g.headers.get("x-panel-key"), "panel-api-key");
      assertMatch(g.headers.get("x-samplex-signature") ?? "", /^t=\d+,v1=[0-9a-f]{64}$/);
      const ok = await verifyCallbackSignature(SECRET, g);
      assertEquals(ok, { ok: true, ts: ok.ok ? ok.ts : 0, key }, `${event} verifies`);
      const other = await verifyCallbackSignature("another-secret", g);
      assertEquals(other.ok, false, "another supplier's secret does not verify it");
    }
    const rows = await hooks(t);
    assertEquals(rows.map((h) => [h.event, h.status, h.attempts, h.lastAnswer]).sort(), [
      ["complete", "sent", 1, "HTTP 200"],
      ["overquota", "sent", 1, "HTTP 200"],
      ["quality", "sent", 1, "HTTP 200"],
      ["terminate", "sent", 1, "HTTP 200"],
    ]);
  } finally {
    await t.close();
    await r.close();
  }
});

Deno.test("callbacks: the body template and variable mapping drive a signed POST; a tampered body, URL or an old timestamp fails verification", async () => {
  const r = receiver();
  const t = await app();
  try {
    const supplier = await makeSupplier(t, {
      hashKey: SECRET,
      apiKey: "tok-123",
      apiHeader: "Authorization: Bearer [apiKey]",
      variableMapping: "member_id=[sid]\noutcome=[status]",
      apiBody: `{"member":"[member_id]","outcome":"[outcome]","key":"[key]","project":"[pid]"}`,
      supplierApprovedHook: `${r.base}/done?m=[member_id]`,
    });
    const s = await liveProject(t, { supplierId: supplier._id });
    const uid = uidOf((await enter(t, s.mapId, `quote"me`)).location);
    await back(t, uid, "c");
    await settle(t, () => r.got.length >= 1);
    assertEquals(r.got.length, 1);
    const g = r.got[0];
    assertEquals(g.method, "POST");
    assertEquals(g.headers.get("content-type"), "application/json");
    assertEquals(g.headers.get("authorization"), "Bearer tok-123");
    assertEquals(param(g, "m"), `quote"me`);
    const body = JSON.parse(g.body);
    assertEquals(body.member, `quote"me`, "a value is JSON-escaped in the body");
    assertEquals([body.outcome, body.key], ["c", `${uid}-c`]);
    assertEquals(body.project, s.child.projectCode);
    assertEquals((await verifyCallbackSignature(SECRET, g)).ok, true);

    const tampered = await verifyCallbackSignature(SECRET, { ...g, body: g.body.replace(`"c"`, `"t"`) });
    assertEquals(tampered, { ok: false, reason: "signature does not match" });
    const otherUrl = await verifyCallbackSignature(SECRET, { ...g, url: g.url.replace("m=", "m=x") });
    assertEquals(otherUrl.ok, false);
    const replay = await verifyCallbackSignature(SECRET, g, { now: Date.now() + 10 * 60_000 });
    assertEquals(replay, { ok: false, reason: "timestamp outside the 300 s tolerance" });
    const tight = await verifyCallbackSignature(SECRET, g, { toleranceSec: 30, now: Date.now() + 31_000 });
    assertEquals(tight.ok, false, "the receiver's own tolerance applies");
    const unsigned = await verifyCallbackSignature(SECRET, { ...g, headers: new Headers() });
    assertEquals(unsigned.ok, false);
  } finally {
    await t.close();
    await r.close();
  }
});

Deno.test("callbacks: a 500 is retried with back-off, then delivered, each attempt signed with the same key", async () => {
  const r = receiver((n) => n === 1 ? 500 : 200);
  const t = await app([0, 0]);
  try {
    const supplier = await makeSupplier(t, { hashKey: SECRET, callbackTerminate: `${r.base}/t?k=[key]` });
    const s = await liveProject(t, { supplierId: supplier._id });
    const uid = uidOf((await enter(t, s.mapId, "retry-1")).location);
    await back(t, uid, "t");
    await settle(t, () => r.got.length >= 2);
    assertEquals(r.got.length, 2);
    for (const g of r.got) {
      assertEquals(g.headers.get("idempotency-key"), `${uid}-t`);
      assertEquals((await verifyCallbackSignature(SECRET, g)).ok, true);
    }
    assertEquals((await hooks(t)).map((h) => [h.status, h.attempts, h.lastAnswer]), [[
      "sent",
      2,
      "HTTP 200",
    ]]);
  } finally {
    await t.close();
    await r.close();
  }
});

Deno.test("callbacks: a rejecting reconcile sends exactly one reversal callback per changed session, with old and new status and the CPI; its undo one more", async () => {
  const r = receiver();
  const t = await app();
  try {
    const supplier = await makeSupplier(t, {
      hashKey: SECRET,
      callbackReconcile: `${r.base}/rec?uid=[uid]&from=[oldStatus]&to=[newStatus]&cpi=[cpi]&k=[key]`,
    });
    const s = await closedProject(t, { complete: 3, terminate: 1 }, { supplierId: supplier._id });
    const [a, b] = s.completes;
    const rejected = await t.api(Rec.reconcileUpload, {
      params: { id: s.parent._id },
      as: "SUPERADMIN",
      body: { type: 2, csv: `${a}\n${b}\n${s.terminates[0]}\n` },
    });
    assertEquals(rejected.status, 200, rejected.text);
    assertEquals([rejected.json.result.matched, rejected.json.result.hooksQueued], [2, 2]);
    await settle(t, () => r.got.length >= 2);
    // the same sessions again: already reconciled, nothing more
    const again = await t.api(Rec.reconcileUpload, {
      params: { id: s.parent._id },
      as: "SUPERADMIN",
      body: { type: 2, csv: `${a}\n${b}\n` },
    });
    assertEquals(again.json.result.alreadyReconciled, 2);
    await settle(t, () => false);
    assertEquals(r.got.length, 2, "one per changed session");
    const seen = r.got.map((g) => [param(g, "uid"), param(g, "from"), param(g, "to"), param(g, "cpi")])
      .sort();
    assertEquals(seen, [[a, "complete", "rejected", "1.25"], [b, "complete", "rejected", "1.25"]].sort());
    for (const g of r.got) {
      assertEquals(g.headers.get("x-samplex-event"), "reconcile");
      assertEquals((await verifyCallbackSignature(SECRET, g)).ok, true);
    }

    // undoing the upload that changed nothing sends nothing
    const undoNothing = await t.api(Rec.reconcileUndo, { params: { id: s.parent._id }, as: "SUPERADMIN" });
    assertEquals([undoNothing.status, undoNothing.json.result.restored], [200, 0]);
    // undo the rejection: each session back to complete, one more callback each, with a new key
    const undo = await t.api(Rec.reconcileUndo, { params: { id: s.parent._id }, as: "SUPERADMIN" });
    assertEquals([undo.status, undo.json.result.restored], [200, 2], undo.text);
    await settle(t, () => r.got.length >= 4);
    await settle(t, () => false);
    assertEquals(r.got.length, 4);
    const back2 = r.got.slice(2).map((g) => [param(g, "uid"), param(g, "from"), param(g, "to")]).sort();
    assertEquals(back2, [[a, "rejected", "complete"], [b, "rejected", "complete"]].sort());
    const keys = new Set(r.got.map((g) => g.headers.get("idempotency-key")));
    assertEquals(keys.size, 4, "each change its own idempotency key");
    for (const g of r.got.slice(2)) assertEquals((await verifyCallbackSignature(SECRET, g)).ok, true);
  } finally {
    await t.close();
    await r.close();
  }
});

Deno.test("callbacks: the delivery log per supplier, filters, redeliver on both sides (logged), and a SUPPLIER user sees only its own", async () => {
  const r = receiver();
  const t = await app();
  try {
    const a = await makeSupplier(t, { hashKey: SECRET, supplierApprovedHook: `${r.base}/a?k=[key]` });
    const b = await makeSupplier(t, { hashKey: SECRET, callbackTerminate: `${r.base}/b?k=[key]` });
    const sa = await liveProject(t, { supplierId: a._id });
    const sb = await liveProject(t, { supplierId: b._id });
    const ua = uidOf((await enter(t, sa.mapId, "a-1")).location);
    await back(t, ua, "c");
    const ub = uidOf((await enter(t, sb.mapId, "b-1")).location);
    await back(t, ub, "t");
    await settle(t, () => r.got.length >= 2);

    const staff = await t.ok(C.supplierCallbacksCall, { params: { id: a._id }, as: "ACCOUNTANT", body: {} });
    assertEquals(staff.data.map((x) => [x.event, x.state, x.attempts, x.lastAnswer, x.key]), [
      ["complete", "sent", 1, "HTTP 200", `${ua}-c`],
    ]);
    const none = await t.ok(C.supplierCallbacksCall, {
      params: { id: a._id },
      as: "SUPERADMIN",
      body: { filter: { event: "terminate" } },
    });
    assertEquals(none.data, []);
    const sentOnly = await t.ok(C.supplierCallbacksCall, {
      params: { id: b._id },
      as: "SUPERADMIN",
      body: { filter: { state: "sent", event: "terminate" } },
    });
    assertEquals(sentOnly.data.map((x) => x.sessionId), [ub]);
    await expectCallGuarded(t, C.supplierCallbacksCall, "SUPPLIER", { params: { id: a._id }, body: {} });
    await expectCallGuarded(t, C.redeliverSupplierCallbackCall, "BDE", {
      params: { id: a._id, callbackId: staff.data[0]._id },
    });

    // the portal: only the user's own supplier's log and callbacks
    const portalA = await t.userWith("SUPPLIER", { email: "cb-a@panel.example", supplierId: a._id });
    const mine = await t.ok(C.portalCallbacksCall, { token: portalA.token, body: {} });
    assertEquals(mine.data.map((x) => x.sessionId), [ua]);
    const bRow = sentOnly.data[0];
    const foreign = await t.api(C.redeliverPortalCallbackCall, {
      params: { callbackId: bRow._id },
      token: portalA.token,
    });
    assertEquals(foreign.status, 404, "another supplier's callback is not found");
    const bogus = await t.api(C.redeliverPortalCallbackCall, {
      params: { callbackId: "../../x" },
      token: portalA.token,
    });
    assertEquals(bogus.status, 404);

    // redeliver: the supplier's own, then staff's; both logged, both delivered again with the same key
    const again = await t.api(C.redeliverPortalCallbackCall, {
      params: { callbackId: staff.data[0]._id },
      token: portalA.token,
    });
    assertEquals(again.status, 200, again.text);
    assertEquals([again.json.result.state, again.json.result.redeliveries], ["queued", 1]);
    await settle(t, () => r.got.length >= 3);
    // the next delivery waits at the receiver until the second request below has had its answer
    let release = () => {};
    r.held.until = new Promise<void>((res) => release = res);
    const staffAgain = await t.api(C.redeliverSupplierCallbackCall, {
      params: { id: b._id, callbackId: bRow._id },
      as: "ACCOUNTANT",
    });
    assertEquals(staffAgain.status, 200, staffAgain.text);
    // queued (not yet delivered) again: nothing to redeliver
    const twice = await t.api(C.redeliverSupplierCallbackCall, {
      params: { id: b._id, callbackId: bRow._id },
      as: "ACCOUNTANT",
    });
    assertEquals(twice.status, 409, twice.text);
    r.held.until = null;
    release();
    await settle(t, () => r.got.length >= 4);
    assertEquals(r.got.length, 4);
    assertEquals(r.got.filter((g) => g.headers.get("idempotency-key") === `${ua}-c`).length, 2);
    assertEquals(r.got.filter((g) => g.headers.get("idempotency-key") === `${ub}-t`).length, 2);
    const logs = await t.deps.db.selectFrom("system_logs").select("activity")
      .where("activity", "like", "Redelivered%").execute();
    assertEquals(logs.length, 2, logs.map((l) => l.activity).join("\n"));
    assertMatch(logs[0].activity + logs[1].activity, new RegExp(`${ua}-c`));
  } finally {
    await t.close();
    await r.close();
  }
});

Deno.test("callbacks: URLs per event are validated and checked by the outbound policy on the form and in the portal; a stored internal URL is refused and recorded", async () => {
  const t = await testApp({}, { router: { hookRetryDelaysMs: [0, 0] } });
  try {
    const supplier = await makeSupplier(t);
    const portal = await t.userWith("SUPPLIER", { email: "cb-urls@panel.example", supplierId: supplier._id });
    const blank = {
      supplierApprovedHook: "",
      callbackTerminate: "",
      callbackOverQuota: "",
      callbackQualityTerm: "",
      callbackReconcile: "",
    };
    const internal = await t.api(C.updatePortalCallbackUrlsCall, {
      token: portal.token,
      bad: { ...blank, callbackReconcile: "http://10.0.0.5/rec" },
    });
    assertEquals(internal.status, 400, internal.text);
    assertEquals(internal.json.errors?.[0]?.path, "callbackReconcile");
    assertMatch(
      internal.json.message,
      /^The server will not call this URL: 10\.0\.0\.5 is a private address/,
    );
    const notHttp = await t.api(C.updatePortalCallbackUrlsCall, {
      token: portal.token,
      bad: { ...blank, callbackTerminate: "ftp://panel.example/x" },
    });
    assertEquals(notHttp.status, 400);
    assertEquals(notHttp.json.errors?.[0]?.path, "callbackTerminate");
    const tooLong = await t.api(C.updatePortalCallbackUrlsCall, {
      token: portal.token,
      bad: { ...blank, callbackTerminate: `https://panel.example/${"x".repeat(5000)}` },
    });
    assertEquals(tooLong.status, 400);
    const staffForm = await t.api(Sup.updateSupplierCall, {
      params: { id: supplier._id },
      as: "SUPERADMIN",
      bad: { ...supplier, callbackQualityTerm: "http://localhost/q" },
    });
    assertEquals(staffForm.status, 400, staffForm.text);
    assertEquals(staffForm.json.errors?.[0]?.path, "callbackQualityTerm");

    const saved = await t.ok(C.updatePortalCallbackUrlsCall, {
      token: portal.token,
      body: { ...blank, callbackTerminate: "https://panel.example/t?uid=[uid]" },
    });
    assertEquals(saved.callbackTerminate, "https://panel.example/t?uid=[uid]");
    const read = await t.ok(C.portalCallbackUrlsCall, { token: portal.token });
    assertEquals(read.callbackTerminate, "https://panel.example/t?uid=[uid]");
    const log = await t.deps.db.selectFrom("system_logs").select("activity")
      .where("activity", "like", "Updated the callback URLs%").execute();
    assertEquals(log.length, 1);

    // the signing secret: masked in the URLs' answer, revealed and rotated by the supplier's own user
    const stored = async () =>
      (await t.deps.db.selectFrom("suppliers").select("hashKey").where("id", "=", supplier._id)
        .executeTakeFirstOrThrow()).hashKey;
    const first = await stored();
    assertEquals(read.hashKey, `••••••••${first.slice(-4)}`);
    assertEquals((await t.ok(C.revealPortalCallbackSecretCall, { token: portal.token })).hashKey, first);
    const rotated = await t.ok(C.rotatePortalCallbackSecretCall, { token: portal.token });
    assertMatch(rotated.hashKey, /^[0-9a-f]{64}$/);
    assert(rotated.hashKey !== first && rotated.hashKey === await stored(), "a new secret, stored");
    const secretLog = await t.deps.db.selectFrom("system_logs").select("activity")
      .where("activity", "like", "%callback signing secret%").orderBy("createdAt").execute();
    assertEquals(secretLog.map((l) => l.activity.split(" ")[0]), ["Revealed", "Rotated"]);
    await expectCallGuarded(t, C.rotatePortalCallbackSecretCall, "ACCOUNTANT");

    // stored by hand on an internal address: called never, failed at once, the refusal in the log
    await t.deps.db.updateTable("suppliers").set({ callbackTerminate: "http://127.0.0.1:9/t" }).execute();
    const s = await liveProject(t, { supplierId: supplier._id });
    await back(t, uidOf((await enter(t, s.mapId, "int-1")).location), "t");
    await settle(t, () => false);
    const rows = await hooks(t);
    assertEquals(rows.map((h) => [h.event, h.status, h.attempts]), [["terminate", "failed", 1]]);
    assertMatch(rows[0].lastAnswer, /^Refused: 127\.0\.0\.1 is a loopback address/);
    const shown = await t.ok(C.supplierCallbacksCall, {
      params: { id: supplier._id },
      as: "SUPERADMIN",
      body: {},
    });
    assertMatch(shown.data[0].lastAnswer, /^Refused: /);
  } finally {
    await t.close();
  }
});

Deno.test("callbacks: never unsigned (a supplier saved without a hash key gets one; a key cleared by hand is replaced before sending); no URL, no row", async () => {
  const r = receiver();
  const t = await app();
  try {
    const quiet = await makeSupplier(t, { hashKey: "" });
    const keys = await t.ok(Sup.revealSupplierKeysCall, { params: { id: quiet._id }, as: "SUPERADMIN" });
    assertMatch(keys.hashKey, /^[0-9a-f]{64}$/, "a new supplier without a hash key gets one");
    const s0 = await liveProject(t, { supplierId: quiet._id });
    await back(t, uidOf((await enter(t, s0.mapId, "q-1")).location), "c");
    await router(t).idle();
    assertEquals(await hooks(t), [], "no callback URL: no row");

    const supplier = await makeSupplier(t, { supplierApprovedHook: `${r.base}/c` });
    await t.deps.db.updateTable("suppliers").set({ hashKey: "" }).where("id", "=", supplier._id).execute();
    const s = await liveProject(t, { supplierId: supplier._id });
    await back(t, uidOf((await enter(t, s.mapId, "k-1")).location), "c");
    await settle(t, () => r.got.length >= 1);
    const row = await t.deps.db.selectFrom("suppliers").select("hashKey").where("id", "=", supplier._id)
      .executeTakeFirstOrThrow();
    assertMatch(row.hashKey, /^[0-9a-f]{64}$/);
    assertEquals((await verifyCallbackSignature(row.hashKey, r.got[0])).ok, true);
  } finally {
    await t.close();
    await r.close();
  }
});

Deno.test("callbacks: a rejecting upload that fails at its end is rolled back with its held reconcile callbacks: none is sent", async () => {
  const r = receiver();
  const t = await app();
  try {
    const supplier = await makeSupplier(t, { hashKey: SECRET, callbackReconcile: `${r.base}/rec?uid=[uid]` });
    const s = await closedProject(t, { complete: 2 }, { supplierId: supplier._id });
    // every chunk goes in (its callbacks held), then the last step fails
    await sql`CREATE TRIGGER fail_finish BEFORE UPDATE OF status ON reconciles WHEN NEW.status = 'applied'
      BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`.execute(t.deps.db);
    const failed = await t.api(Rec.reconcileUpload, {
      params: { id: s.parent._id },
      as: "SUPERADMIN",
      body: { type: 2, csv: s.completes.join("\n") + "\n" },
    });
    assert(failed.status >= 400, failed.text);
    await settle(t, () => false);
    assertEquals(await hooks(t), [], "the held callbacks went with the upload");
    assertEquals(r.got, []);
    await sql`DROP TRIGGER fail_finish`.execute(t.deps.db);
    const ok = await t.api(Rec.reconcileUpload, {
      params: { id: s.parent._id },
      as: "SUPERADMIN",
      body: { type: 2, csv: s.completes.join("\n") + "\n" },
    });
    assertEquals([ok.status, ok.json.result.matched], [200, 2], ok.text);
    await settle(t, () => r.got.length >= 2);
    assertEquals(r.got.map((g) => param(g, "uid")).sort(), [...s.completes].sort());
  } finally {
    await t.close();
    await r.close();
  }
});
