/**
 * With the app's own outbound client (no test resolver or fake network), supplier callbacks are
 * built, signed and sent from a worker (server/domain/router/callback-thread.ts): the panel's server
 * receives them as from the app's thread, every signature verifies, an answer that is not a 2xx is
 * a failed attempt left to the queue's retry, and the app's close ends the worker.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, enter, liveProject, router, uidOf } from "../helpers/router.ts";
import { outboundFor } from "../../server/boot.ts";
import { loadEnv } from "../../server/env.ts";
import { verifyCallbackSignature } from "../../shared/callbacks.ts";

const SECRET = "thread-test-secret";

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
