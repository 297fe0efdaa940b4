/**
 * Undo of a project's last applied upload: exactly the state before it (see ./reconcile.ts).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import { conflict } from "../errors.ts";
import { RECONCILE_TYPE, reconcileTypeLabel } from "../../../shared/schemas/reconcile.ts";
import type { UndoResult } from "../../../shared/api/reconcile.ts";
import { RECONCILE_STATE } from "../../db/tables/reconcile.ts";
import { assertReconcilable, lastApplied, MODULE, reconcileTarget } from "./scope.ts";
import { moveCounters, touchedBy } from "./counters.ts";
import { getReconcile } from "./summaries.ts";
import { APPROVED_LETTER, queueUndoCallbacks } from "./post-backs.ts";
import { recoverReconciles } from "./rollback.ts";

/**
 * Undoes the project's last applied upload (a group's: its own or a child's, the Last upload of the
 * reconcile list; see lastApplied), in one transaction: its sessions back to not
 * reconciled, the counters and rollup down by what it added, its queued approved post-backs
 * withdrawn (one already sent is not sent again, and a later approval does not queue it again),
 * and a system log row saying all that.
 */
export async function undoReconcile(
  ctx: WriteCtx & Pick<Ctx, "services">,
  projectId: string,
): Promise<UndoResult> {
  const { db, actor } = ctx;
  const at = new Date(ctx.now());
  await reconcileTarget(db, projectId);
  const queue = ctx.services.reconcile;
  const out = await queue.inTurn(
    db,
    projectId,
    () =>
      recoverReconciles({ db, now: () => at.getTime() }, queue.active).then(() =>
        undoLast(db, actor, projectId, at)
      ),
  );
  if (out.callbacks) ctx.services.router.hooks.kick();
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
    let withdrawn = 0, sent = 0, callbacks = 0;
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
    } else {
      // each session turned back from rejected: one more reconcile callback (its own key)
      callbacks = await queueUndoCallbacks(trx, last.id, at);
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
          : callbacks
          ? `; ${callbacks} reconcile callbacks queued`
          : ""
      }`,
      module: MODULE,
      recordId: target.id,
    }, at);
    return { id: last.id, restored: n, withdrawn, sent, callbacks };
  });
}
