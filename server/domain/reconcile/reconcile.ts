/**
 * Reconcile uploads and their undo (spec part 2, sections 2, 4, 7).
 *
 * An upload approves (1) or rejects (2) the sessions its identifiers (respondent uids) name, among
 * the live completes of the project (a group project: its children). It is applied in chunks of
 * short transactions with the event loop given back between them (the router keeps serving), the
 * upload `applying` meanwhile and rolled back from its recorded sessions on a failure or after a
 * crash: all of it or nothing (see reconcileUpload). `reconcile_stage` is no longer written.
 *
 * A session's state is a row of the narrow `session_reconciles` (migration 0018; no row: not
 * reconciled), not a column of the wide session row: an upload writes a few dozen bytes a session
 * instead of rewriting most pages of the sessions table.
 *
 * Only sessions not reconciled yet change, so two uploads racing on one project never count a
 * session twice (the second one finds it already reconciled), and an undo restores exactly the
 * state before its upload: the sessions it changed back to not reconciled, the counters and rollup
 * down by the same amounts, its queued post-backs withdrawn (those already sent are not sent again).
 */
import { sql } from "kysely";
import type { Deps } from "../../deps.ts";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { conflict, invalid } from "../errors.ts";
import {
  MAX_IDENTIFIERS,
  RECONCILE_TYPE,
  type ReconcileType,
  reconcileTypeLabel,
} from "../../../shared/schemas/reconcile.ts";
import type { ReconcileResult, UndoResult } from "../../../shared/api/reconcile.ts";
import { RECONCILE_STATE } from "../../db/tables/reconcile.ts";
import { fillPlaceholders } from "../router/outcomes.ts";
import { assertReconcilable, inList, lastApplied, MODULE, reconcileTarget } from "./scope.ts";
import { dropUnknown, firstUnknown, recordUnknown, wrongProjectCheck } from "./unknown.ts";
import { Pacer } from "./pace.ts";
import { type Group, GROUP_KEYS, moveCounters, TOUCHED, touchedBy } from "./counters.ts";
import type { Identifiers } from "./identifiers.ts";
import { getReconcile } from "./summaries.ts";
export { type Identifiers, identifiersOf, identifiersOfUpload } from "./identifiers.ts";
export { getReconcile, toSummary } from "./summaries.ts";
import { type Clock, isoAt, wallClock } from "../common/clock.ts";

/** The approved post-back's idempotency key and [status] letter: apart from the complete's `<uid>-c`. */
export const APPROVED_LETTER = "a";
export const approvedHookKey = (uid: string) => `${uid}-${APPROVED_LETTER}`;

/** Identifiers applied per chunk: each chunk is one short transaction (a few ms to a few tens). */
const APPLY_CHUNK = 1_000;
/** The nextAt of an approved post-back queued by an upload not done yet: never due until released. */
export const HOOK_HELD = "9999-12-31T23:59:59.999Z";

export type ReconcileOptions = {
  /** The clock (deps.now by default). */
  now?: number;
  /** Identifiers per apply chunk (APPLY_CHUNK by default; tests make it small). */
  chunk?: number;
};

/**
 * Applies an upload to a project, in chunks of a thousand identifiers. Each chunk is one short
 * transaction of a few set-based statements (applyChunk): the chunk's sessions are sorted
 * (unknown, already reconciled, not a complete) in one indexed join, the sessions it changes are
 * recorded in `reconcile_items` and `session_reconciles`, the approved or rejected counters and
 * the daily rollup move by exactly those sessions (counters equal a recount at every commit), and
 * their approved post-backs are queued held (never due until the upload is done). The upload's row
 * is `applying` meanwhile, which no list, figure or undo takes as done; a last transaction makes it
 * `applied` with its figures and logs it, then the held post-backs are released.
 *
 * Between chunks the event loop is given back (pace): the router on other projects keeps most of
 * its pace, and an idle server lets the next chunk go at once.
 *
 * All or nothing: a failure in any chunk rolls back the chunks already applied (from the recorded
 * sessions) before the error is answered, and an upload a crash left `applying` is rolled back the
 * same way by the next upload or undo (or `recoverReconciles` at start). Uploads and undos of one
 * project go in turn. An upload none of whose identifiers belongs to the project is refused before
 * anything is recorded (./unknown.ts). Returns the result summary with the first unknown
 * identifiers; throws notFound, a conflict for a settled project, invalid input.
 */
export async function reconcileUpload(
  deps: Deps,
  actor: Actor,
  projectId: string,
  type: ReconcileType,
  ids: Identifiers,
  opts: ReconcileOptions = {},
): Promise<ReconcileResult> {
  const db = deps.db;
  if (ids.identifiers.length > MAX_IDENTIFIERS) {
    throw invalid(`An upload holds at most ${MAX_IDENTIFIERS} identifiers`);
  }
  assertReconcilable(await reconcileTarget(db, projectId));
  const chunk = Math.max(1, opts.chunk ?? APPLY_CHUNK);
  const queue = deps.services.reconcile;
  const { id, hooks } = await queue.inTurn(db, projectId, async () => {
    await recoverReconciles(db, () => opts.now ?? deps.now(), queue.active);
    // the project as it is now (a status change or another upload may have come first)
    const target = await reconcileTarget(db, projectId);
    assertReconcilable(target);
    await wrongProjectCheck(db, target.childIds, target.projectCode, ids.identifiers, chunk);
    const at = new Date(opts.now ?? deps.now());
    const id = newId(at.getTime());
    await db.insertInto("reconciles").values({
      id,
      projectId: target.id,
      type,
      fileName: (ids.fileName ?? "").slice(0, 255),
      lines: ids.lines,
      identifiers: ids.identifiers.length,
      duplicates: ids.duplicates,
      status: "applying",
      createdBy: actor.userId,
      createdByName: actor.name,
      createdAt: at.toISOString(),
    }).execute();
    queue.active.add(id);
    try {
      const upload: Upload = {
        id,
        type,
        scope: inList(target.childIds),
        at,
        tempChunks: await queue.chunkTable(() => CHUNK_TABLE.execute(db).then(() => true, () => false)),
      };
      const figures = noFigures();
      const pacer = new Pacer(ids.parseMs);
      for (let i = 0; i < ids.identifiers.length; i += chunk) {
        const part = ids.identifiers.slice(i, i + chunk);
        const t0 = performance.now();
        const f = await db.transaction().execute((trx) => applyChunk(trx, upload, part, i));
        for (const k of FIGURES) figures[k] += f[k];
        await pacer.step(performance.now() - t0);
      }
      await db.transaction().execute((trx) => finish(trx, actor, id, figures, at));
      return { id, hooks: figures.hooksQueued };
    } catch (e) {
      await rollBack(db, id, chunk);
      throw e;
    } finally {
      queue.active.delete(id);
    }
  });
  if (hooks) {
    await releaseHooks(db, id, new Date(opts.now ?? deps.now()).toISOString(), chunk);
    deps.services.router.hooks.kick();
  }
  const summary = await getReconcile(db, id);
  return { ...summary, unknownIdentifiers: summary.unknown ? await firstUnknown(db, id) : [] };
}

/**
 * An upload being applied: its row, type, the child projects whose sessions it names, its time,
 * and whether its chunk table is a temporary one.
 */
type Upload = { id: string; type: ReconcileType; scope: string[]; at: Date; tempChunks: boolean };

/** The figures of an upload's summary that its chunks add up. */
const FIGURES = ["matched", "unknown", "alreadyReconciled", "notComplete", "hooksQueued"] as const;
type Figures = Record<(typeof FIGURES)[number], number>;
const noFigures = (): Figures => ({
  matched: 0,
  unknown: 0,
  alreadyReconciled: 0,
  notComplete: 0,
  hooksQueued: 0,
});

/**
 * What a chunk sorts each of its sessions into (`kind` in the chunk table): one it changes, one
 * reconciled already, one that is not a live complete.
 */
const KIND = { CHANGE: 0, ALREADY: 1, NOT_COMPLETE: 2 } as const;

/**
 * The chunk table: the sessions of the project that a chunk's identifiers name, with their kind
 * and what their counters are keyed on, written and emptied inside the chunk's transaction, so
 * the chunk's statements share one lookup of the sessions and nothing of a session row comes back
 * to JavaScript. Kept in the order of its counts (kind, then counter keys), so they are read
 * without a sort. A temporary table (per connection, in memory) where temporary tables work; it
 * shadows the table of the same name that migration 0016 made, which a libSQL server (it refuses
 * temporary tables) uses instead. Same columns in both.
 */
const CHUNK_TABLE = sql`CREATE TEMP TABLE IF NOT EXISTS reconcile_chunk (
  rid INTEGER NOT NULL, id TEXT NOT NULL, kind INTEGER NOT NULL, sid TEXT NOT NULL,
  projectId TEXT NOT NULL, supplierMapId TEXT NOT NULL, supplierId TEXT NOT NULL,
  parentProjectId TEXT, clientId TEXT NOT NULL, day TEXT NOT NULL,
  PRIMARY KEY (kind, projectId, supplierId, supplierMapId, day, rid)
) WITHOUT ROWID`;

/**
 * One chunk of an upload (`part`, the identifiers from the `offset`th), inside its transaction;
 * returns what it adds to the upload's figures.
 */
async function applyChunk(trx: Db, up: Upload, part: string[], offset: number): Promise<Figures> {
  // (again in the transaction: a connection the pool opened since has none)
  if (up.tempChunks) await CHUNK_TABLE.execute(trx);
  // the one lookup of the chunk's sessions (the identifiers go as one JSON parameter: binding a
  // thousand values costs more than the work; IN, not a join, so an identifier named twice counts once)
  const json = JSON.stringify(part);
  await sql`INSERT INTO reconcile_chunk
    SELECT rowid, id, CASE WHEN EXISTS (SELECT 1 FROM session_reconciles r WHERE r.sessionId = sessions.id)
          THEN ${KIND.ALREADY}
        WHEN status = 'complete' AND isTest = 0 THEN ${KIND.CHANGE} ELSE ${KIND.NOT_COMPLETE} END,
      sid, ${TOUCHED}
    FROM sessions WHERE id IN (SELECT value FROM json_each(${json}))
      AND projectId IN (${sql.join(up.scope)})`.execute(trx);
  // the counts, and the counter keys of the sessions it changes (a few rows: one per key and kind)
  const groups = (await sql<Group & { kind: number }>`SELECT kind, ${GROUP_KEYS}, count(*) AS n
    FROM reconcile_chunk GROUP BY kind, projectId, supplierId, supplierMapId, day`.execute(trx)).rows;
  const f = noFigures();
  const changed: Group[] = [];
  let named = 0;
  for (const g of groups) {
    const n = Number(g.n);
    named += n;
    if (g.kind === KIND.CHANGE) {
      f.matched += n;
      changed.push(g);
    } else if (g.kind === KIND.ALREADY) f.alreadyReconciled += n;
    else f.notComplete += n;
  }
  f.unknown = part.length - named;
  // the identifiers the lookup did not find (only when there are some: none of this when all match)
  if (f.unknown) await recordUnknown(trx, up.id, json, offset);
  if (f.matched) {
    const state = up.type === RECONCILE_TYPE.APPROVED ? RECONCILE_STATE.APPROVED : RECONCILE_STATE.REJECTED;
    await sql`INSERT INTO reconcile_items (reconcileId, sessionId) ${sql`SELECT ${up.id}, id FROM reconcile_chunk WHERE kind = ${KIND.CHANGE}`}`
      .execute(trx);
    await sql`INSERT INTO session_reconciles (sessionId, state) ${sql`SELECT id, ${state} FROM reconcile_chunk WHERE kind = ${KIND.CHANGE}`}`
      .execute(trx);
    await moveCounters(trx, changed, up.type, 1);
    if (up.type === RECONCILE_TYPE.APPROVED) f.hooksQueued = await queueApprovedHooks(trx, up);
  }
  await sql`DELETE FROM reconcile_chunk`.execute(trx);
  return f;
}

/**
 * The last step of an upload: the project still takes it, the row becomes `applied` with its
 * figures, the log.
 */
async function finish(trx: Db, actor: Actor, id: string, figures: Figures, at: Date) {
  await trx.updateTable("reconciles").set({ ...figures, status: "applied" }).where("id", "=", id).execute();
  const row = await trx.selectFrom("reconciles").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const target = await reconcileTarget(trx, row.projectId);
  // settled while the chunks went in: the whole upload is rolled back
  assertReconcilable(target);
  const label = reconcileTypeLabel(row.type);
  await writeLog(trx, actor, {
    activity: `Reconciled ${target.projectCode}${
      row.fileName ? ` from ${row.fileName}` : ""
    }: ${row.matched} ${label.toLowerCase()} of ${row.identifiers} identifiers (${row.unknown} unknown, ${row.duplicates} duplicate, ${row.alreadyReconciled} already reconciled, ${row.notComplete} not a complete)${
      row.hooksQueued ? `; ${row.hooksQueued} approved post-backs queued` : ""
    }`,
    module: MODULE,
    recordId: target.id,
  }, at);
}

/**
 * Makes an upload's held post-backs due, `size` of its recorded sessions at a time in key order,
 * the loop given back between slices as between chunks. A slice goes by its bounds: no id comes
 * back to JavaScript.
 */
async function releaseHooks(db: Db, id: string, stamp: string, size: number) {
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
 * Takes back the chunks of an upload not done (failed, or left `applying` by a crash), a chunk at
 * a time, each its own transaction that keeps counters equal to a recount: its sessions back to
 * not reconciled, the counters and rollup down, its held post-backs deleted, its records dropped.
 * Then the upload's row goes: an upload that did not finish left nothing behind. Idempotent.
 */
async function rollBack(db: Db, id: string, size: number) {
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
      if (row.type === RECONCILE_TYPE.APPROVED) {
        await sql`DELETE FROM router_hooks WHERE hookKey IN (SELECT value FROM json_each(${
          JSON.stringify(page.map(approvedHookKey))
        }))
          AND status = 'queued' AND nextAt = ${HOOK_HELD}`.execute(trx);
      }
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
  db: Db,
  now: Clock = wallClock,
  /** The uploads this app is applying (deps.services.reconcile.active): not crashes. */
  active: ReadonlySet<string> = new Set(),
): Promise<number> {
  const left = await db.selectFrom("reconciles").select("id").where("status", "in", ["applying", "staging"])
    .execute();
  let n = 0;
  for (const r of left) {
    if (active.has(r.id)) continue;
    await rollBack(db, r.id, APPLY_CHUNK);
    n++;
  }
  const held = await db.selectFrom("router_hooks").select(["id", "sessionId"]).where("status", "=", "queued")
    .where("nextAt", "=", HOOK_HELD).execute();
  if (held.length) {
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
  return n;
}

/**
 * Queues the approved post-back of each session the chunk approves (the chunk table's) whose
 * supplier has a hook, the same way the router queues a complete's (a row of router_hooks the
 * sender claims with a lease), held until the upload is done. A session whose approval was queued
 * before (and sent, or being sent) gets none again.
 */
async function queueApprovedHooks(trx: Db, up: Upload): Promise<number> {
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
 * Undoes the project's last applied upload (a group's: its own or a child's, the Last upload of the
 * reconcile list; see lastApplied), in one transaction: its sessions back to not
 * reconciled, the counters and rollup down by what it added, its queued approved post-backs
 * withdrawn (one already sent is not sent again, and a later approval does not queue it again),
 * and a system log row saying all that.
 */
export async function undoReconcile(
  deps: Deps,
  actor: Actor,
  projectId: string,
  opts: ReconcileOptions = {},
): Promise<UndoResult> {
  const db = deps.db;
  const at = new Date(opts.now ?? deps.now());
  await reconcileTarget(db, projectId);
  const queue = deps.services.reconcile;
  const out = await queue.inTurn(
    db,
    projectId,
    () =>
      recoverReconciles(db, () => at.getTime(), queue.active).then(() => undoLast(db, actor, projectId, at)),
  );
  return {
    reconcile: await getReconcile(db, out.id),
    restored: out.restored,
    hooksWithdrawn: out.withdrawn,
    hooksAlreadySent: out.sent,
  };
}

/** The undo of the project's last applied upload, in one transaction. */
function undoLast(db: Db, actor: Actor, projectId: string, at: Date) {
  return db.transaction().execute(async (trx) => {
    const target = await reconcileTarget(trx, projectId);
    assertReconcilable(target);
    // the upload the reconcile list shows as the project's last (a group's: its own or a child's)
    const last = (await lastApplied(trx, [target.id])).get(target.id);
    if (!last) throw conflict(`${target.projectCode} has no reconcile to undo`);
    await moveCounters(
      trx,
      await touchedBy(trx, sql`SELECT sessionId FROM reconcile_items WHERE reconcileId = ${last.id}`),
      last.type,
      -1,
    );
    const state = last.type === RECONCILE_TYPE.APPROVED ? RECONCILE_STATE.APPROVED : RECONCILE_STATE.REJECTED;
    const restored = await sql`DELETE FROM session_reconciles
      WHERE sessionId IN (SELECT sessionId FROM reconcile_items WHERE reconcileId = ${last.id}) AND state = ${state}`
      .execute(trx);
    let withdrawn = 0, sent = 0;
    if (last.type === RECONCILE_TYPE.APPROVED) {
      const keys = sql`SELECT sessionId || ${
        "-" + APPROVED_LETTER
      } FROM reconcile_items WHERE reconcileId = ${last.id}`;
      const w = await sql`DELETE FROM router_hooks WHERE hookKey IN (${keys}) AND status = 'queued'`.execute(
        trx,
      );
      withdrawn = Number(w.numAffectedRows ?? 0);
      const s = await sql<{ n: number }>`SELECT count(*) AS n FROM router_hooks WHERE hookKey IN (${keys})`
        .execute(trx);
      sent = Number(s.rows[0].n);
    }
    await trx.updateTable("reconciles").set({
      status: "undone",
      undoneAt: at.toISOString(),
      undoneByName: actor.name,
    }).where("id", "=", last.id).execute();
    const n = Number(restored.numAffectedRows ?? 0);
    await writeLog(trx, actor, {
      activity: `Undid the ${reconcileTypeLabel(last.type).toLowerCase()} reconcile of ${target.projectCode}${
        last.fileName ? ` (${last.fileName})` : ""
      }: ${n} sessions back to not reconciled${
        last.type === RECONCILE_TYPE.APPROVED
          ? `; ${withdrawn} queued approved post-backs withdrawn, ${sent} already sent are not sent again`
          : ""
      }`,
      module: MODULE,
      recordId: target.id,
    }, at);
    return { id: last.id, restored: n, withdrawn, sent };
  });
}
