/**
 * With the app's own outbound client (no test resolver or fake network), supplier callbacks are
 * built, signed and sent from a worker (server/domain/router/callback-thread.ts): the panel's server
 * receives them as from the app's thread, every signature verifies, an answer that is not a 2xx is
 * a failed attempt left to the queue's retry, and the app's close ends the worker.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, enter, liveProject, router, uidOf } from "../helpers/router.ts";
import { outboundFor } from "../../server/boot.ts";
import { loadEnv } from "../../server/env.ts";
import { verifyCallbackSignature } from "../../shared/callbacks.ts";
import { HookSender } from "../../server/domain/router/hooks.ts";
import type { HookRow } from "../../server/domain/router/callback-events.ts";
import { PER_ORIGIN, PIPELINE_DEPTH } from "../../server/domain/router/callback-thread.ts";
import { createLogger } from "../../server/logger.ts";
import { metrics } from "../../server/lib/metrics.ts";

const SECRET = "thread-test-secret";

/**
 * Callbacks written claimed, as the router's writer writes a batch ('sending' under each one's lease,
 * one attempt counted, one INSERT: ids in turn), with their rows' ids.
 */
async function writeClaimed(t: TestApp, rows: (HookRow & { lease: string })[]): Promise<HookRow[]> {
  const at = new Date().toISOString();
  const r = await t.deps.db.insertInto("router_hooks").values(rows.map((h) => ({
    sessionId: h.sessionId,
    supplierId: h.supplierId,
    url: h.url,
    event: h.event,
    hookKey: h.key,
    vars: h.vars,
    status: "sending" as const,
    attempts: 1,
    nextAt: h.lease,
    createdAt: at,
    updatedAt: at,
  }))).returning("id").execute();
  return rows.map((h, i) => ({ ...h, id: Number(r[i].id) }));
}

Deno.test("router hooks: the app's own client sends callbacks from a worker; each verifies at the panel, a 500 is retried from the queue", async () => {
  const seen: { uid: string; verified: boolean }[] = [];
  let failUid = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const uid = new URL(req.url).searchParams.get("uid") ?? "";
    seen.push({ uid, verified: (await verifyCallbackSignature(SECRET, req)).ok });
    return new Response(uid === failUid ? "busy" : "ok", { status: uid === failUid ? 500 : 200 });
  });
  const env = { OUTBOUND_ALLOW: "127.0.0.1" };
  const t = await testApp(env, {
    outbound: outboundFor(loadEnv(env)),
    router: { hookRetryDelaysMs: [60_000] },
  });
  try {
    assert(router(t).hooks.threaded, "the app's own client goes to the worker");
    const supplier = await makeSupplier(t, {
      hashKey: SECRET,
      supplierApprovedHook: `http://127.0.0.1:${server.addr.port}/cb?uid=[uid]&key=[key]`,
    });
    const s = await liveProject(t, { supplierId: supplier._id });
    const ok = uidOf((await enter(t, s.mapId, "w1")).location);
    failUid = uidOf((await enter(t, s.mapId, "w2")).location);
    await back(t, ok, "c");
    await back(t, failUid, "c");
    for (let i = 0; i < 200 && seen.length < 2; i++) {
      await router(t).idle();
      await new Promise((r) => setTimeout(r, 10));
    }
    await router(t).hooks.idle();
    if (Deno.build.os === "linux") {
      // the worker's thread gives way to the router's (nice 10); the app's main thread keeps its own
      const threads = [...Deno.readDirSync("/proc/self/task")].map(({ name }) => ({
        name: Deno.readTextFileSync(`/proc/self/task/${name}/comm`).trim(),
        // the 19th field of stat, the 17th after the command's closing parenthesis
        nice: Number(Deno.readTextFileSync(`/proc/self/task/${name}/stat`).split(") ")[1].split(" ")[16]),
        main: name === String(Deno.pid),
      }));
      assert(threads.some((x) => x.name.startsWith("worker-") && x.nice === 10), JSON.stringify(threads));
      assertEquals(threads.find((x) => x.main)?.nice, 0);
    }
    assertEquals(
      seen.sort((a, b) => a.uid.localeCompare(b.uid)),
      [{ uid: ok, verified: true }, { uid: failUid, verified: true }].sort((a, b) =>
        a.uid.localeCompare(b.uid)
      ),
    );
    const rows = await t.deps.db.selectFrom("router_hooks").select([
      "sessionId",
      "status",
      "attempts",
      "lastAnswer",
    ])
      .orderBy("sessionId").execute();
    assertEquals(
      rows,
      [
        { sessionId: ok, status: "sent", attempts: 1, lastAnswer: "HTTP 200" },
        { sessionId: failUid, status: "queued", attempts: 1, lastAnswer: "HTTP 500" },
      ].sort((a, b) => a.sessionId.localeCompare(b.sessionId)),
    );
  } finally {
    await t.close();
    await server.shutdown();
  }
});

Deno.test(`router hooks: on the worker a panel's server gets ${PER_ORIGIN} connections at once, ${PIPELINE_DEPTH} callbacks written on each; one that waited past its claim is not sent there but left to the scan`, async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const got: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const uid = new URL(req.url).searchParams.get("uid") ?? "";
    if (uid === "warm") return new Response("ok");
    got.push(uid);
    await gate;
    return new Response("ok");
  });
  const env = { OUTBOUND_ALLOW: "127.0.0.1" };
  const t = await testApp(env, { outbound: outboundFor(loadEnv(env)) });
  const log = createLogger("silent");
  // claims of 1.3 s, requests of at most 0.5 s: a callback may wait 0.8 s for its turn. The server
  // holds every request: PER_ORIGIN connections of PIPELINE_DEPTH callbacks go at once (it sees the
  // first of each: the others wait behind it), time out at 0.5 s, as many more go, and the last 5
  // would start at 1 s, too late to be settled within their claim
  const sender = new HookSender(t.deps.db, {
    outbound: t.deps.services.outbound,
    retryDelaysMs: [60_000],
    timeoutMs: 500,
    leaseMs: 1_300,
  }, log);
  try {
    assert(sender.threaded);
    const supplier = await makeSupplier(t, {
      hashKey: SECRET,
      supplierApprovedHook: `http://127.0.0.1:${server.addr.port}/cb?uid=[uid]`,
    });
    // the worker is started (its modules loaded) by a first callback, answered at once
    const row = (i: number | "warm", lease: string) => ({
      sessionId: `u${String(i).padStart(23, "0")}`,
      supplierId: supplier._id,
      url: `http://127.0.0.1:${server.addr.port}/cb?uid=[uid]`,
      event: "complete",
      key: `k${i}`,
      vars: JSON.stringify({ uid: i === "warm" ? i : `u${i}` }),
      lease,
    });
    sender.fresh(await writeClaimed(t, [row("warm", new Date(Date.now() + 1_300).toISOString())]));
    await sender.idle();
    const lease = new Date(Date.now() + 1_300).toISOString();
    const rows = Array.from({ length: 2 * PER_ORIGIN * PIPELINE_DEPTH + 5 }, (_, i) => row(i, lease));
    // without their ids, as through a remote primary: their results are found by key
    sender.fresh((await writeClaimed(t, rows)).map(({ id: _, ...r }) => r));
    // (the worker starts at the first callback)
    for (let i = 0; i < 300 && got.length < PER_ORIGIN; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    assertEquals(got.length, PER_ORIGIN, `${PER_ORIGIN} connections at once to one server; the others wait`);
    await sender.idle();
    release();
    const states = await t.deps.db.selectFrom("router_hooks").select(["status"]).execute();
    const count = (s: string) => states.filter((r) => r.status === s).length;
    // 2 x PER_ORIGIN x PIPELINE_DEPTH sent and timed out (queued for their retry); 5 never sent, still
    // claimed until the lease lapses
    assertEquals([got.length, count("queued"), count("sending")], [
      2 * PER_ORIGIN,
      2 * PER_ORIGIN * PIPELINE_DEPTH,
      5,
    ]);
  } finally {
    release();
    sender.close();
    await sender.idle();
    await t.close();
    await server.shutdown();
  }
});

Deno.test("router hooks: a write batch goes to the worker whole; its 2xx answers settle as runs of ids, a 500 is retried, a refusal kept on the supplier is cleared, each counted once", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const n = new URL(req.url).searchParams.get("n") ?? "";
    return new Response(n === "5" ? null : "x", { status: n === "3" ? 500 : n === "5" ? 204 : 200 });
  });
  const env = { OUTBOUND_ALLOW: "127.0.0.1" };
  const t = await testApp(env, { outbound: outboundFor(loadEnv(env)) });
  const sender = new HookSender(t.deps.db, {
    outbound: t.deps.services.outbound,
    retryDelaysMs: [60_000],
    timeoutMs: 2_000,
  }, createLogger("silent"));
  const delivered = () => metrics.callbackAttempts.get({ result: "delivered" });
  const before = delivered();
  try {
    assert(sender.threaded);
    const url = `http://127.0.0.1:${server.addr.port}/cb?n=[n]`;
    const a = await makeSupplier(t, { hashKey: SECRET, supplierApprovedHook: url });
    // b's complete URL was refused before: its record is cleared by a delivery
    const b = await makeSupplier(t, { hashKey: SECRET, supplierApprovedHook: url });
    await t.deps.db.updateTable("suppliers").set({ approvedHookRefusal: "private address" })
      .where("id", "=", b._id).execute();
    const lease = new Date(Date.now() + 60_000).toISOString();
    // ids 1-7, written as the router's writer writes a batch (one INSERT: ids in turn)
    const rows = Array.from({ length: 7 }, (_, i) => ({
      sessionId: `s${i + 1}`,
      supplierId: i === 5 ? b._id : a._id,
      url,
      event: i === 6 ? "terminate" : "complete",
      key: `k${i + 1}`,
      vars: JSON.stringify({ n: String(i + 1) }),
      lease,
    }));
    const fresh = await writeClaimed(t, rows);
    sender.fresh(fresh);
    await sender.idle();
    const got = await t.deps.db.selectFrom("router_hooks").select(["id", "status", "attempts", "lastAnswer"])
      .orderBy("id").execute();
    assertEquals(got.map((h) => [h.status, h.attempts, h.lastAnswer]), [
      ["sent", 1, "HTTP 200"],
      ["sent", 1, "HTTP 200"],
      ["queued", 1, "HTTP 500"],
      ["sent", 1, "HTTP 200"],
      ["sent", 1, "HTTP 204"],
      ["sent", 1, "HTTP 200"],
      ["sent", 1, "HTTP 200"],
    ]);
    assertEquals(delivered() - before, 6, "each delivery counted once, those of a run together");
    const refusal = await t.deps.db.selectFrom("suppliers").select("approvedHookRefusal").where(
      "id",
      "=",
      b._id,
    )
      .executeTakeFirstOrThrow();
    assertEquals(refusal.approvedHookRefusal, "", "a delivery clears the refusal kept on the supplier");
  } finally {
    sender.close();
    await sender.idle();
    await t.close();
    await server.shutdown();
  }
});

Deno.test("router hooks: write batches that come together go to the worker as one batch; a run of delivered ids is settled under each row's own lease", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).searchParams.get("n") ?? "");
    return new Response("ok");
  });
  const env = { OUTBOUND_ALLOW: "127.0.0.1" };
  const t = await testApp(env, { outbound: outboundFor(loadEnv(env)) });
  const warnings: string[] = [];
  const sender = new HookSender(t.deps.db, {
    outbound: t.deps.services.outbound,
    retryDelaysMs: [60_000],
    timeoutMs: 2_000,
  }, createLogger("warn", (line) => warnings.push(line)));
  try {
    const url = `http://127.0.0.1:${server.addr.port}/cb?n=[n]`;
    const supplier = await makeSupplier(t, { hashKey: SECRET, supplierApprovedHook: url });
    // three write batches, as the router's writer commits them one after another: ids in turn across
    // them, each batch under its own lease
    const batches: HookRow[][] = [];
    for (let b = 0; b < 3; b++) {
      const lease = new Date(Date.now() + 60_000 + b).toISOString();
      const rows = Array.from({ length: 3 }, (_, i) => {
        const n = String(3 * b + i + 1);
        const key = `k${n}`, vars = JSON.stringify({ n });
        return { sessionId: `s${n}`, supplierId: supplier._id, url, event: "complete", key, vars, lease };
      });
      batches.push(await writeClaimed(t, rows));
    }
    assertEquals(new Set(batches.map((b) => b[0].lease)).size, 3, "three leases");
    for (const b of batches) sender.fresh(b);
    await sender.idle();
    assertEquals(seen.sort((a, b) => Number(a) - Number(b)), ["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    const rows = await t.deps.db.selectFrom("router_hooks").select(["status", "attempts", "lastAnswer"])
      .orderBy("id").execute();
    assertEquals(rows, Array(9).fill({ status: "sent", attempts: 1, lastAnswer: "HTTP 200" }));
    assertEquals(warnings, [], "every row's claim matched: none taken for another sender's");
  } finally {
    sender.close();
    await sender.idle();
    await t.close();
    await server.shutdown();
  }
});
