/**
 * Approved hooks are delivered at least once: a hook whose sender died after sending it (before it
 * could record the answer) is sent again when its lease lapses. Every send of one hook carries the
 * same idempotency key, in the `Idempotency-Key` header and the [key] placeholder, so the supplier
 * can drop the duplicate.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, enter, liveProject, router, uidOf } from "../helpers/router.ts";
import { hookKey, HookSender } from "../../server/domain/router/hooks.ts";
import { createLogger } from "../../server/logger.ts";
import { fetchTransport } from "../../server/domain/common/outbound/client.ts";
import { renderMetrics } from "../../server/domain/ops/metrics.ts";
import type { TestApp } from "../helpers/app.ts";
import * as Sup from "../../shared/api/suppliers.ts";

/** The callback series of a scrape: attempts by result (this process's so far) and deliveries by state. */
async function callbackSeries(t: TestApp): Promise<Record<string, number>> {
  const text = await renderMetrics(t.deps.db);
  const out: Record<string, number> = {};
  for (
    const m of text.matchAll(
      /^samplex_callback_(attempts_total|deliveries)\{(?:result|state)="(\w+)"\} (\d+)$/gm,
    )
  ) {
    out[`${m[1] === "deliveries" ? "state" : "attempt"}:${m[2]}`] = Number(m[3]);
  }
  return out;
}

type Call = { url: string; key: string | null };

function recorder() {
  const calls: Call[] = [];
  const send: typeof fetch = (url, init) => {
    calls.push({ url: String(url), key: new Headers(init?.headers).get("idempotency-key") });
    return Promise.resolve(new Response("ok"));
  };
  return { calls, fetch: send };
}

Deno.test("router hooks: each send carries the hook's key (the uid and the outcome) in the Idempotency-Key header and [key]", async () => {
  const { calls, fetch } = recorder();
  let failFirst = true;
  const flaky = ((url: string, init?: RequestInit) => {
    if (failFirst) {
      failFirst = false;
      calls.push({ url: String(url), key: new Headers(init?.headers).get("idempotency-key") });
      return Promise.resolve(new Response("busy", { status: 503 }));
    }
    return fetch(url, init);
  }) as typeof fetch;
  const t = await testApp({}, { router: { fetch: flaky, hookRetryDelaysMs: [0] } });
  try {
    const supplier = await makeSupplier(t, {
      supplierApprovedHook: "https://panel.example/hook?uid=[uid]&key=[key]&status=[status]",
    });
    const s = await liveProject(t, { supplierId: supplier._id });
    const uid = uidOf((await enter(t, s.mapId, "k1")).location);
    await back(t, uid, "c");
    for (let i = 0; i < 50 && calls.length < 2; i++) {
      await router(t).idle();
      await new Promise((r) => setTimeout(r, 10));
    }
    const key = `${uid}-c`;
    assertEquals(hookKey(uid, "complete"), key);
    const url = `https://panel.example/hook?uid=${uid}&key=${key}&status=c`;
    assertEquals(calls, [{ url, key }, { url, key }], "the retry after a failure: the same key");
  } finally {
    await t.close();
  }
});

Deno.test("router hooks: a hook sent but not marked sent (its sender died) is sent again after its lease lapses, with the same key", async () => {
  let offset = 0;
  const now = () => Date.now() + offset;
  const calls: Call[] = [];
  // the first sender's request goes out and never comes back: it died mid-send
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const hanging = (async (url: string, init?: RequestInit) => {
    calls.push({ url: String(url), key: new Headers(init?.headers).get("idempotency-key") });
    await gate;
    return new Response("ok");
  }) as typeof fetch;
  const t = await testApp({}, { now, router: { fetch: hanging, hookLeaseMs: 60_000 } });
  const warnings: string[] = [];
  const log = createLogger("warn", (line) => warnings.push(line));
  const other = recorder();
  const second = new HookSender(
    t.deps.db,
    {
      outbound: t.deps.services.outbound.with({ transport: fetchTransport(other.fetch) }),
      retryDelaysMs: [0],
      timeoutMs: 1_000,
      now,
    },
    log,
  );
  try {
    const supplier = await makeSupplier(t, { supplierApprovedHook: "https://panel.example/hook?key=[key]" });
    const s = await liveProject(t, { supplierId: supplier._id });
    const uid = uidOf((await enter(t, s.mapId, "crash-1")).location);
    await back(t, uid, "c");
    await router(t).writer.idle();
    for (let i = 0; i < 50 && !calls.length; i++) await new Promise((r) => setTimeout(r, 10));
    assertEquals(calls.length, 1, "the first send went out");
    assertEquals(await t.deps.db.selectFrom("router_hooks").selectAll().execute(), []);
    const claims = await t.deps.db.selectFrom("router_hook_claims").select(["rows", "lease"]).execute();
    assertEquals(claims.map((c) => JSON.parse(c.rows)[0][4]), [`${uid}-c`], "claimed before the send");

    // another sender: nothing to take while the lease holds
    second.kick();
    await second.idle();
    assertEquals(other.calls, []);
    // the lease lapses: the other sender sends the hook again, with the same key
    offset += 61_000;
    second.kick();
    await second.idle();
    const key = `${uid}-c`;
    assertEquals(calls, [{ url: `https://panel.example/hook?key=${key}`, key }]);
    assertEquals(other.calls, [{ url: `https://panel.example/hook?key=${key}`, key }]);
    const rows = await t.deps.db.selectFrom("router_hooks").select(["status", "attempts"]).execute();
    assertEquals(rows, [{ status: "sent", attempts: 2 }]);
    assert(
      warnings.some((w) => w.includes("queued again after their claim's lease ran out") && w.includes(key)),
      "the possible duplicate is logged with its key",
    );
    assertEquals(
      await t.deps.db.selectFrom("router_hook_claims").selectAll().execute(),
      [],
      "the claim is gone",
    );
    // the first sender's request comes back at last: its claim was taken over, nothing is moved twice
    release();
    await router(t).hooks.idle();
    assertEquals(
      await t.deps.db.selectFrom("router_hooks").select(["status", "attempts"]).execute(),
      [{ status: "sent", attempts: 2 }],
    );
  } finally {
    release();
    second.close();
    await t.close();
  }
});

/** A local listener for hooks (127.0.0.1: internal, so reachable only through OUTBOUND_ALLOW). */
function hookListener() {
  const seen: Call[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({ url: req.url, key: req.headers.get("idempotency-key") });
    return new Response("ok");
  });
  return { seen, port: server.addr.port, close: () => server.shutdown() };
}

async function settle(t: Awaited<ReturnType<typeof testApp>>, done: () => boolean) {
  for (let i = 0; i < 100 && !done(); i++) {
    await router(t).idle();
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test("router hooks: a local hook listed in OUTBOUND_ALLOW is delivered over the network through the outbound client", async () => {
  const l = hookListener();
  const t = await testApp({ OUTBOUND_ALLOW: "127.0.0.1" }, { router: { hookRetryDelaysMs: [0] } });
  try {
    const supplier = await makeSupplier(t, {
      supplierApprovedHook: `http://127.0.0.1:${l.port}/hook?uid=[uid]&key=[key]`,
    });
    const before = await callbackSeries(t);
    const s = await liveProject(t, { supplierId: supplier._id });
    const uid = uidOf((await enter(t, s.mapId, "net-1")).location);
    await back(t, uid, "c");
    await settle(t, () => l.seen.length > 0);
    const key = `${uid}-c`;
    assertEquals(l.seen, [{ url: `http://127.0.0.1:${l.port}/hook?uid=${uid}&key=${key}`, key }]);
    const rows = await t.deps.db.selectFrom("router_hooks").select(["status", "lastError"]).execute();
    assertEquals(rows, [{ status: "sent", lastError: "" }]);
    // the metrics an operator alerts on say the same
    const after = await callbackSeries(t);
    assertEquals((after["attempt:delivered"] ?? 0) - (before["attempt:delivered"] ?? 0), 1);
    assertEquals([after["state:queued"], after["state:sending"], after["state:failed"]], [0, 0, 0]);
  } finally {
    await t.close();
    await l.close();
  }
});

Deno.test("router hooks: saving a hook on an internal address is refused with a 400 naming the rule, for every master-data role", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const supplier = await makeSupplier(t);
    for (
      const [hook, rule] of [
        ["http://169.254.169.254/latest/meta-data/iam/", "169.254.169.254 is a link-local address"],
        ["http://127.0.0.1:8000/api/v1/admin?k=[key]", "127.0.0.1 is a loopback address"],
        ["http://2130706433/hook", "127.0.0.1 is a loopback address"],
        ["http://[::ffff:10.0.0.1]/hook", "::ffff:a00:1 (10.0.0.1) is a private address"],
        ["http://localhost/hook", "localhost is a loopback address"],
        ["http://panel.example:6379/hook", "port 6379 is not called"],
      ]
    ) {
      const r = await t.api(Sup.updateSupplierCall, {
        params: { id: supplier._id },
        token,
        bad: { ...supplier, supplierApprovedHook: hook },
      });
      assertEquals(r.status, 400, `${hook}: ${r.text}`);
      const message = `The server will not call this URL: ${rule}`;
      assert(r.json.message.startsWith(message), `${hook}: ${r.json.message}`);
      assertEquals(r.json.errors?.[0]?.path, "supplierApprovedHook");
      if (rule.includes("address")) assert(r.json.message.includes("OUTBOUND_ALLOW"), r.json.message);
    }
    const added = await t.api(Sup.addSupplier, {
      token,
      bad: { ...supplier, supplierShortCode: "HOOK2", supplierApprovedHook: "http://0x7f000001/" },
    });
    assertEquals(added.status, 400);
    const stored = await t.deps.db.selectFrom("suppliers").select("supplierApprovedHook").execute();
    assertEquals(stored.map((s) => s.supplierApprovedHook), [""], "nothing internal was saved");
    // a public hook is still saved
    const fine = await t.api(Sup.updateSupplierCall, {
      params: { id: supplier._id },
      token,
      body: { ...supplier, supplierApprovedHook: "https://panel.example/hook?uid=[uid]" },
    });
    assertEquals(fine.status, 200, fine.text);
  } finally {
    await t.close();
  }
});

Deno.test("router hooks: a stored hook the policy refuses is never called, fails without retries, is logged once and shown on the supplier", async () => {
  const l = hookListener();
  const lines: string[] = [];
  const t = await testApp({}, {
    log: createLogger("warn", (line) => lines.push(line)),
    router: { hookRetryDelaysMs: [0, 0, 0] },
  });
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const supplier = await makeSupplier(t, { supplierApprovedHook: "https://panel.example/hook?uid=[uid]" });
    // stored before the policy (or by hand): the router must check it when it calls it
    const internal = `http://127.0.0.1:${l.port}/hook?uid=[uid]`;
    await t.deps.db.updateTable("suppliers").set({ supplierApprovedHook: internal }).execute();
    const before = await callbackSeries(t);
    const s = await liveProject(t, { supplierId: supplier._id });
    for (const sid of ["r1", "r2", "r3"]) await back(t, uidOf((await enter(t, s.mapId, sid)).location), "c");
    const failed =
      async () => (await t.deps.db.selectFrom("router_hooks").select(["status", "attempts", "lastError"])
        .execute());
    await settle(t, () => false);
    const rows = await failed();
    assertEquals(rows.map((r) => [r.status, r.attempts]), [["failed", 1], ["failed", 1], ["failed", 1]]);
    for (const r of rows) assertMatch(r.lastError, /^Refused: 127\.0\.0\.1 is a loopback address/);
    assertEquals(l.seen, [], "the internal listener was never called");
    const after = await callbackSeries(t);
    assertEquals((after["attempt:refused"] ?? 0) - (before["attempt:refused"] ?? 0), 3);
    assertEquals(after["state:failed"], 3, "the three refused callbacks by state");
    const refusals = lines.filter((x) => x.includes("refused by the outbound policy"));
    assertEquals(refusals.length, 1, "one log line for three refused hooks");
    assertMatch(refusals[0], /127\.0\.0\.1 is a loopback address/);

    const shown = await t.api(Sup.getSupplierCall, { params: { id: supplier._id }, token });
    assertEquals(shown.status, 200, shown.text);
    assertMatch(shown.json.result.approvedHookRefusal, /^127\.0\.0\.1 is a loopback address/);
    assert(shown.json.result.approvedHookRefusedAt, "when it was refused");

    // a new hook clears what the old one earned
    const changed = await t.api(Sup.updateSupplierCall, {
      params: { id: supplier._id },
      token,
      body: { ...shown.json.result, supplierApprovedHook: "https://panel.example/v2?uid=[uid]" },
    });
    assertEquals(changed.status, 200, changed.text);
    assertEquals([changed.json.result.approvedHookRefusal, changed.json.result.approvedHookRefusedAt], [
      "",
      null,
    ]);
  } finally {
    await t.close();
    await l.close();
  }
});
