/**
 * The approved post-backs of a reconcile: an approved session's supplier hook queued the way the
 * router queues a complete's (a row of router_hooks), held (never due) while its upload is being
 * applied, released when the upload is done; an undo withdraws those not sent yet (./undo.ts).
 */
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type Clock, isoAt } from "../common/clock.ts";
import { KIND, type Upload } from "./chunk.ts";
import { inList } from "./scope.ts";
import { Pacer } from "./pace.ts";

/** The approved post-back's idempotency key and [status] letter: apart from the complete's `<uid>-c`. */
export const APPROVED_LETTER = "a";
export const approvedHookKey = (uid: string) => `${uid}-${APPROVED_LETTER}`;

/** The nextAt of an approved post-back queued by an upload not done yet: never due until released. */
export const HOOK_HELD = "9999-12-31T23:59:59.999Z";

/** A callback a reconcile queues: the session, its supplier, the URL and what fills it. */
type Queued = {
  uid: string;
  supplierId: string;
  url: string;
  event: "approved" | "reconcile";
  key: string;
  vars: Record<string, string>;
};

/** Inserts callbacks into the one queue (router_hooks), 500 rows a statement. */
async function insertCallbacks(trx: Db, rows: Queued[], nextAt: string, stamp: string) {
  for (let i = 0; i < rows.length; i += 500) {
    await trx.insertInto("router_hooks").values(
      rows.slice(i, i + 500).map((r) => ({
        sessionId: r.uid,
        supplierId: r.supplierId,
        url: r.url.trim(),
        event: r.event,
        hookKey: r.key,
        vars: JSON.stringify({ ...r.vars, key: r.key }),
        nextAt,
        createdAt: stamp,
        updatedAt: stamp,
      })),
    ).execute();
  }
}

/** Whether any supplier mapped in the upload's scope has a URL in `column` (most have none: no join then). */
async function anyUrl(trx: Db, up: Upload, column: "supplierApprovedHook" | "callbackReconcile") {
  const r = await sql<{ n: number }>`SELECT count(*) AS n FROM supplier_maps m
    JOIN suppliers sup ON sup.id = m.supplierId
    WHERE m.projectId IN (${sql.join(up.scope)}) AND trim(${sql.ref(`sup.${column}`)}) != ''`.execute(trx);
  return Number(r.rows[0].n) > 0;
}

/**
 * Queues the approved post-back of each session the chunk approves (the chunk table's) whose
 * supplier has a hook, the same way the router queues a complete's (a row of router_hooks the
 * sender claims with a lease), held until the upload is done. A session whose approval was queued
 * before (and sent, or being sent) gets none again.
 */
export async function queueApprovedHooks(trx: Db, up: Upload): Promise<number> {
  if (!(await anyUrl(trx, up, "supplierApprovedHook"))) return 0;
  const rows = await sql<{ uid: string; sid: string; supplierId: string; hook: string; projectCode: string }>`
    SELECT c.id AS uid, c.sid, c.supplierId, sup.supplierApprovedHook AS hook, p.projectCode
    FROM reconcile_chunk c
      JOIN suppliers sup ON sup.id = c.supplierId
      JOIN projects p ON p.id = c.projectId
    WHERE c.kind = ${KIND.CHANGE} AND trim(sup.supplierApprovedHook) != ''
      AND NOT EXISTS (SELECT 1 FROM router_hooks h WHERE h.hookKey = c.id || ${"-" + APPROVED_LETTER})`
    .execute(trx);
  await insertCallbacks(
    trx,
    rows.rows.map((r) => ({
      uid: r.uid,
      supplierId: r.supplierId,
      url: r.hook,
      event: "approved",
      key: approvedHookKey(r.uid),
      vars: { sid: r.sid, uid: r.uid, pid: r.projectCode, status: APPROVED_LETTER },
    })),
    HOOK_HELD,
    up.at.toISOString(),
  );
  return rows.rows.length;
}

/**
 * A reconcile change's idempotency key: `<uid>-r-<upload id>` for the rejection of an upload,
 * `<uid>-u-<upload id>` for its undo (each change of a session its own callback, sent once).
 */
export const reconcileKey = (uid: string, reconcileId: string, undo: boolean) =>
  `${uid}-${undo ? "u" : "r"}-${reconcileId}`;

type ChangeRow = {
  uid: string;
  sid: string;
  supplierId: string;
  url: string;
  projectCode: string;
  cpi: number;
};

function reconcileCallbacks(rows: ChangeRow[], reconcileId: string, undo: boolean): Queued[] {
  const [oldStatus, newStatus] = undo ? ["rejected", "complete"] : ["complete", "rejected"];
  return rows.map((r) => ({
    uid: r.uid,
    supplierId: r.supplierId,
    url: r.url,
    event: "reconcile",
    key: reconcileKey(r.uid, reconcileId, undo),
    vars: {
      sid: r.sid,
      uid: r.uid,
      pid: r.projectCode,
      status: undo ? "c" : "r",
      oldStatus,
      newStatus,
      cpi: String(Number(r.cpi) || 0),
    },
  }));
}

/**
 * The sessions of `source` (a table or subquery named `c` with id, sid, supplierId, projectId and
 * supplierMapId) whose supplier has a reconcile callback URL, with the URL, project code and CPI.
 */
async function changeRows(trx: Db, source: RawBuilder<unknown>): Promise<ChangeRow[]> {
  const r = await sql<ChangeRow>`
    SELECT c.id AS uid, c.sid, c.supplierId, sup.callbackReconcile AS url, p.projectCode, m.supplierCPI AS cpi
    FROM ${source}
      JOIN suppliers sup ON sup.id = c.supplierId
      JOIN projects p ON p.id = c.projectId
      JOIN supplier_maps m ON m.id = c.supplierMapId
    WHERE trim(sup.callbackReconcile) != ''`.execute(trx);
  return r.rows;
}

/**
 * Queues the reconcile callback (complete -> rejected, with the session's CPI) of each session the
 * chunk of a rejecting upload changes, whose supplier has a reconcile callback URL: held until the
 * upload is done, like the approvals, and gone with it when it rolls back.
 */
export async function queueRejectCallbacks(trx: Db, up: Upload): Promise<number> {
  if (!(await anyUrl(trx, up, "callbackReconcile"))) return 0;
  const rows = await changeRows(trx, sql`(SELECT * FROM reconcile_chunk WHERE kind = ${KIND.CHANGE}) c`);
  await insertCallbacks(trx, reconcileCallbacks(rows, up.id, false), HOOK_HELD, up.at.toISOString());
  return rows.length;
}

/**
 * Queues, due now, the reconcile callback (rejected -> complete) of each session an undone rejecting
 * upload turns back, whose supplier has a reconcile callback URL; in the undo's transaction.
 */
export async function queueUndoCallbacks(trx: Db, reconcileId: string, at: Date): Promise<number> {
  const rows = await changeRows(
    trx,
    sql`(SELECT s.id, s.sid, s.supplierId, s.projectId, s.supplierMapId FROM reconcile_items i
      JOIN sessions s ON s.id = i.sessionId WHERE i.reconcileId = ${reconcileId}) c`,
  );
  const stamp = at.toISOString();
  await insertCallbacks(trx, reconcileCallbacks(rows, reconcileId, true), stamp, stamp);
  return rows.length;
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
    const itemsOf = (suffix: string) =>
      sql`SELECT sessionId || ${suffix} FROM reconcile_items
        WHERE reconcileId = ${id} AND sessionId > ${after} AND sessionId <= ${last}`;
    // an approval's key, or a rejection's (by the index on hookKey)
    await sql`UPDATE router_hooks SET nextAt = ${stamp}, updatedAt = ${stamp}
      WHERE hookKey IN (${itemsOf("-" + APPROVED_LETTER)} UNION ALL ${itemsOf("-r-" + id)})
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
