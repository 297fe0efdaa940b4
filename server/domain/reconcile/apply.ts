/**
 * The apply of a reconcile upload (see ./reconcile.ts): its row, its chunks, each one short
 * transaction, and its last step; a failure rolls it back (./rollback.ts).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import type { Ctx } from "../ctx.ts";
import { invalid } from "../errors.ts";
import { RECONCILE_TYPE, type ReconcileType, reconcileTypeLabel } from "../../../shared/schemas/reconcile.ts";
import { MAX_IDENTIFIERS } from "../../../shared/reconcile-file.ts";
import type { ReconcileResult } from "../../../shared/api/reconcile.ts";
import { RECONCILE_STATE } from "../../db/tables/reconcile.ts";
import { assertReconcilable, inList, MODULE, reconcileTarget } from "./scope.ts";
import { firstUnknown, recordUnknown, wrongProjectCheck } from "./unknown.ts";
import { Pacer } from "./pace.ts";
import { type Group, GROUP_KEYS, moveCounters, TOUCHED } from "./counters.ts";
import type { Identifiers } from "./identifiers.ts";
import { getReconcile } from "./summaries.ts";
import {
  APPLY_CHUNK,
  CHUNK_TABLE,
  FIGURES,
  type Figures,
  KIND,
  namedBy,
  noFigures,
  type Upload,
} from "./chunk.ts";
import { queueApprovedHooks, releaseHooks } from "./post-backs.ts";
import { recoverReconciles, rollBack } from "./rollback.ts";

/** An upload: the project, approved or rejected, its identifiers. */
export type ReconcileUploadInput = {
  projectId: string;
  type: ReconcileType;
  ids: Identifiers;
  /** When it is made (ms; the app's clock by default): the seed back-dates the demo's uploads. */
  at?: number;
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
export async function reconcileUpload(ctx: Ctx, input: ReconcileUploadInput): Promise<ReconcileResult> {
  const { db, actor } = ctx, { projectId, type, ids } = input;
  // the upload's clock: the app's, or the time the seed back-dates it to
  const now = () => input.at ?? ctx.now();
  if (ids.identifiers.length > MAX_IDENTIFIERS) {
    throw invalid(`An upload holds at most ${MAX_IDENTIFIERS} identifiers`);
  }
  assertReconcilable(await reconcileTarget(db, projectId));
  const chunk = Math.max(1, input.chunk ?? APPLY_CHUNK);
  const queue = ctx.services.reconcile;
  const { id, hooks } = await queue.inTurn(db, projectId, async () => {
    await recoverReconciles({ db, now }, queue.active);
    // the project as it is now (a status change or another upload may have come first)
    const target = await reconcileTarget(db, projectId);
    assertReconcilable(target);
    await wrongProjectCheck(db, {
      scope: target.childIds,
      projectCode: target.projectCode,
      identifiers: ids.identifiers,
      size: chunk,
    });
    const at = new Date(now());
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
    await releaseHooks(db, id, new Date(now()).toISOString(), chunk);
    ctx.services.router.hooks.kick();
  }
  const summary = await getReconcile(db, id);
  return { ...summary, unknownIdentifiers: summary.unknown ? await firstUnknown(db, id) : [] };
}

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
    FROM sessions WHERE ${namedBy(json)}
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
