/**
 * The "callbacks on" option of router_bench.ts (issue 23, item 3): a second Live project on the same
 * database whose supplier has a signed callback URL for every event, pointed at a receiver of its
 * own (a bare server on Deno.serve, `/cb` answers 200: the panel's server, which in life runs on
 * another machine), which the app instance may call (OUTBOUND_ALLOW=127.0.0.1). Each complete then
 * queues a callback in the router's batch and the sender (its worker) delivers it while the bench
 * runs: the pairs of this project against the pairs of a project without callbacks, in the same
 * rounds (target: 0.9 or more), the time the sender takes to deliver what the phase queued counted in
 * the phase. ROUTER_BENCH_CALLBACKS=0 leaves it out.
 */
import { createClient } from "@libsql/client";
import { testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { liveProject } from "../helpers/router.ts";
import { projectSecret } from "../../server/domain/router/config.ts";

export const CALLBACKS_ON = Deno.env.get("ROUTER_BENCH_CALLBACKS") !== "0";
/** What the app instance needs to call the local receiver. */
export const CALLBACK_ENV = { OUTBOUND_ALLOW: "127.0.0.1" };

export async function setupCallbackProject(
  dbUrl: string,
  receiver: string,
): Promise<{ mapId: string; childId: string; secret: string }> {
  const t = await testApp({ DATABASE_URL: dbUrl, ...CALLBACK_ENV });
  const url = `${receiver}/cb?uid=[uid]&sid=[sid]&status=[status]&key=[key]`;
  const supplier = await makeSupplier(t, {
    hashKey: "bench-callback-secret",
    apiKey: "bench-key",
    apiHeader: "X-Panel-Key",
    supplierApprovedHook: url,
    callbackTerminate: url,
    callbackOverQuota: url,
    callbackQualityTerm: url,
    callbackReconcile: url,
  });
  const s = await liveProject(t, {
    supplierId: supplier._id,
    child: { sampleSize: 0 },
    project: { isDynamicThanksUrl: true },
  });
  const secret = await projectSecret(t.deps.db, s.child._id);
  await t.close();
  return { mapId: s.mapId, childId: s.child._id, secret };
}

/** Waits (at most a minute) until the app instance on `dbPath` has no callback left to deliver. */
export async function drainCallbacks(dbPath: string): Promise<void> {
  const db = createClient({ url: `file:${dbPath}` });
  try {
    // looked at every 5 ms: the time counted is the sender's, not this loop's (at 50 ms it added up to
    // 2% to a 3 s phase)
    for (let i = 0; i < 12_000; i++) {
      const r = await db.execute(
        `SELECT (SELECT count(*) FROM router_hooks WHERE status IN ('queued', 'sending'))
          + (SELECT count(*) FROM router_hook_claims) AS n`,
      );
      if (Number(r.rows[0].n) === 0) return;
      await new Promise((res) => setTimeout(res, 5));
    }
  } finally {
    db.close();
  }
}
