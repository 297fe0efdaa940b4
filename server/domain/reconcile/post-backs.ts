/**
 * The approved post-backs of a reconcile: an approved session's supplier hook queued the way the
 * router queues a complete's (a row of router_hooks), held (never due) while its upload is being
 * applied, released when the upload is done; an undo withdraws those not sent yet (./undo.ts).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { fillPlaceholders } from "../router/outcomes.ts";
import { type Clock, isoAt } from "../common/clock.ts";
import { KIND, type Upload } from "./chunk.ts";
import { inList } from "./scope.ts";
import { Pacer } from "./pace.ts";

/** The approved post-back's idempotency key and [status] letter: apart from the complete's `<uid>-c`. */
export const APPROVED_LETTER = "a";
export const approvedHookKey = (uid: string) => `${uid}-${APPROVED_LETTER}`;

/** The nextAt of an approved post-back queued by an upload not done yet: never due until released. */
export const HOOK_HELD = "9999-12-31T23:59:59.999Z";

/**
 * Queues the approved post-back of each session the chunk approves (the chunk table's) whose
 * supplier has a hook, the same way the router queues a complete's (a row of router_hooks the
 * sender claims with a lease), held until the upload is done. A session whose approval was queued
 * before (and sent, or being sent) gets none again.
 */
export async function queueApprovedHooks(trx: Db, up: Upload): Promise<number> {
  // most suppliers have no hook: then there is nothing to join
  const hooked = await sql<{ n: number }>`SELECT count(*) AS n FROM supplier_maps m
    JOIN suppliers sup ON sup.id = m.supplierId
    WHERE m.projectId IN (${sql.join(up.scope)}) AND trim(sup.supplierApprovedHook) != ''`.execute(trx);
  if (!Number(hooked.rows[0].n)) return 0;
  const rows = await sql<{ uid: string; sid: string; supplierId: string; hook: string; projectCode: string }>`
    SELECT c.id AS uid, c.sid, c.supplierId, sup.supplierApprovedHook AS hook, p.projectCode
    FROM reconcile_chunk c
      JOIN suppliers sup ON sup.id = c.supplierId
      JOIN projects p ON p.id = c.projectId
    WHERE c.kind = ${KIND.CHANGE} AND trim(sup.supplierApprovedHook) != ''
      AND NOT EXISTS (SELECT 1 FROM router_hooks h WHERE h.hookKey = c.id || ${"-" + APPROVED_LETTER})`
    .execute(trx);
  const stamp = up.at.toISOString();
  for (let i = 0; i < rows.rows.length; i += 500) {
    const chunk = rows.rows.slice(i, i + 500);
    await trx.insertInto("router_hooks").values(chunk.map((r) => ({
      sessionId: r.uid,
      supplierId: r.supplierId,
      url: fillPlaceholders(r.hook.trim(), {
        sid: r.sid,
        uid: r.uid,
        pid: r.projectCode,
        status: APPROVED_LETTER,
        key: approvedHookKey(r.uid),
      }),
      hookKey: approvedHookKey(r.uid),
      nextAt: HOOK_HELD,
      createdAt: stamp,
      updatedAt: stamp,
    }))).execute();
  }
  return rows.rows.length;
}

/**
 * Makes an upload's held post-backs due, `size` of its recorded sessions at a time in key order,
 * the loop given back between slices as between chunks. A slice goes by its bounds: no id comes
 * back to JavaScript.
 */
export async function releaseHooks(db: Db, id: string, stamp: string, size: number) {
  const slice = Math.max(size, 500);
  const pacer = new Pacer();
  for (let after = "";;) {
    const t0 = performance.now();
    const last = (await sql<{ last: string | null }>`SELECT max(sessionId) AS last FROM (
      SELECT sessionId FROM reconcile_items WHERE reconcileId = ${id} AND sessionId > ${after}
      ORDER BY sessionId LIMIT ${slice})`.execute(db)).rows[0]?.last;
    if (!last) return;
    await sql`UPDATE router_hooks SET nextAt = ${stamp}, updatedAt = ${stamp}
      WHERE hookKey IN (SELECT sessionId || ${"-" + APPROVED_LETTER} FROM reconcile_items
        WHERE reconcileId = ${id} AND sessionId > ${after} AND sessionId <= ${last})
        AND status = 'queued' AND nextAt = ${HOOK_HELD}`.execute(db);
    after = last;
    await pacer.step(performance.now() - t0);
  }
}

/**
 * Makes due the held post-backs that belong to no upload in progress (`active`: the uploads this
 * process is applying): a crash between an upload's end and their release.
 */
export async function releaseOrphanHooks(db: Db, active: ReadonlySet<string>, now: Clock): Promise<void> {
  const held = await db.selectFrom("router_hooks").select(["id", "sessionId"]).where("status", "=", "queued")
    .where("nextAt", "=", HOOK_HELD).execute();
  if (!held.length) return;
  const busy = [...active];
  const stamp = isoAt(now);
  for (let i = 0; i < held.length; i += 500) {
    const part = held.slice(i, i + 500);
    await sql`UPDATE router_hooks SET nextAt = ${stamp}, updatedAt = ${stamp}
      WHERE id IN (${sql.join(part.map((h) => h.id))}) AND nextAt = ${HOOK_HELD}
        AND NOT EXISTS (SELECT 1 FROM reconcile_items i
          WHERE i.reconcileId IN (${sql.join(inList(busy))}) AND i.sessionId = router_hooks.sessionId)`
      .execute(db);
  }
}
