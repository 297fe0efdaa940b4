/**
 * Approved hooks are delivered at least once: a hook whose sender died after sending it (before it
 * could record the answer) is sent again when its lease lapses. Every send of one hook carries the
 * same idempotency key, in the `Idempotency-Key` header and the [key] placeholder, so the supplier
 * can drop the duplicate.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, enter, liveProject, router, uidOf } from "../helpers/router.ts";
import { hookKey, HookSender } from "../../server/domain/router/hooks.ts";
import { createLogger } from "../../server/logger.ts";
import { fetchTransport } from "../../server/domain/common/outbound/client.ts";

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
      outbound: t.deps.outbound.with({ transport: fetchTransport(other.fetch) }),
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
    const claimed = await t.deps.db.selectFrom("router_hooks").select(["status", "attempts"]).execute();
    assertEquals(
      claimed,
      [{ status: "sending", attempts: 1 }],
      "the lease and the attempt are marked before the send",
    );

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
      warnings.some((w) => w.includes("sent again after its lease ran out") && w.includes(key)),
      "the possible duplicate is logged with its key",
    );
  } finally {
    release();
    second.close();
    await t.close();
  }
});
