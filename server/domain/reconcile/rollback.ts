/**
 * Rollback of an upload that did not finish (a failed chunk, the project settled meanwhile, or a
 * crash half way), chunk by chunk, back to the state before it: all of an upload or nothing.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { RECONCILE_TYPE } from "../../../shared/schemas/reconcile.ts";
import { RECONCILE_STATE } from "../../db/tables/reconcile.ts";
import type { Ctx } from "../ctx.ts";
import { APPLY_CHUNK } from "./chunk.ts";
import { moveCounters, touchedBy } from "./counters.ts";
import { Pacer } from "./pace.ts";
import { approvedHookKey, HOOK_HELD, reconcileKey, releaseOrphanHooks } from "./post-backs.ts";
import { dropUnknown } from "./unknown.ts";

/**
 * Takes back the chunks of an upload not done (failed, or left `applying` by a crash), a chunk at
 * a time, each its own transaction that keeps counters equal to a recount: its sessions back to
 * not reconciled, the counters and rollup down, its held post-backs deleted, its records dropped.
 * Then the upload's row goes: an upload that did not finish left nothing behind. Idempotent.
 */
export async function rollBack(db: Db, id: string, size: number) {
  const row = await db.selectFrom("reconciles").select(["type", "status"]).where("id", "=", id)
    .executeTakeFirst();
  if (!row || row.status === "applied" || row.status === "undone") return;
  const state = row.type === RECONCILE_TYPE.APPROVED ? RECONCILE_STATE.APPROVED : RECONCILE_STATE.REJECTED;
  const pacer = new Pacer();
  for (;;) {
    const t0 = performance.now();
    const n = await db.transaction().execute(async (trx) => {
      const page = (await trx.selectFrom("reconcile_items").select("sessionId").where("reconcileId", "=", id)
        .orderBy("sessionId").limit(size).execute()).map((r) => r.sessionId);
      if (!page.length) return 0;
      await moveCounters(trx, await touchedBy(trx, page), row.type, -1);
      await sql`DELETE FROM session_reconciles
        WHERE sessionId IN (SELECT value FROM json_each(${JSON.stringify(page)})) AND state = ${state}`
        .execute(trx);
      // its held callbacks: the approvals, or the rejections' reconcile callbacks
      const keys = row.type === RECONCILE_TYPE.APPROVED
        ? page.map(approvedHookKey)
        : page.map((uid) => reconcileKey(uid, id, false));
      await sql`DELETE FROM router_hooks WHERE hookKey IN (SELECT value FROM json_each(${
        JSON.stringify(keys)
      }))
          AND status = 'queued' AND nextAt = ${HOOK_HELD}`.execute(trx);
      await sql`DELETE FROM reconcile_items WHERE reconcileId = ${id} AND sessionId IN (SELECT value FROM json_each(${
        JSON.stringify(page)
      }))`
        .execute(trx);
      return page.length;
    });
    if (!n) break;
    await pacer.step(performance.now() - t0);
  }
  await dropUnknown(db, id, size);
  await db.deleteFrom("reconcile_stage").where("reconcileId", "=", id).execute();
  await db.deleteFrom("reconciles").where("id", "=", id).execute();
}

/**
 * Rolls back every upload left `applying` (or `staging`, by an older version) that this process is
 * not applying: a crash half way. Then releases held post-backs that belong to no upload in
 * progress (a crash between an upload's end and their release). Each upload and undo runs it
 * first; the server may run it at start. Cheap when there is nothing to do (two indexed reads).
 */
export async function recoverReconciles(
  ctx: Pick<Ctx, "db" | "now">,
  /** The uploads this app is applying (deps.services.reconcile.active): not crashes. */
  active: ReadonlySet<string> = new Set(),
): Promise<number> {
  const { db, now } = ctx;
  const left = await db.selectFrom("reconciles").select("id").where("status", "in", ["applying", "staging"])
    .execute();
  let n = 0;
  for (const r of left) {
    if (active.has(r.id)) continue;
    await rollBack(db, r.id, APPLY_CHUNK);
    n++;
  }
  await releaseOrphanHooks(db, active, now);
  return n;
}
