/**
 * Reconcile uploads and their undo (spec part 2, sections 2, 4, 7).
 *
 * An upload approves (1) or rejects (2) the sessions its identifiers (respondent uids) name, among
 * the live completes of the project (a group project: its children). It runs in two steps so the
 * router keeps serving while a large file goes in:
 * 1. staging: the file's distinct identifiers are written to `reconcile_stage` in chunks, each its
 *    own short statement, yielding to the event loop between chunks (nothing is applied yet);
 * 2. apply: ONE transaction of set-based statements sorts them (unknown, already reconciled, not a
 *    complete), records the sessions it changes in `reconcile_items`, marks them, moves the approved
 *    or rejected counters of the child projects and supplier maps and the daily rollup, queues the
 *    suppliers' approved post-backs, and logs. All of it or nothing: a failure anywhere rolls the
 *    transaction back and the staged rows are dropped.
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
  isIdentifier,
  MAX_IDENTIFIERS,
  parseIdentifierFile,
  RECONCILE_TYPE,
  type ReconcileType,
  reconcileTypeLabel,
} from "../../../shared/schemas/reconcile.ts";
import type { ReconcileSummary, UndoResult } from "../../../shared/api/reconcile.ts";
import { RECONCILE_STATE } from "../../db/tables/reconcile.ts";
import { fillPlaceholders } from "../router/outcomes.ts";
import { routerFor } from "../router/router.ts";
import { assertReconcilable, inList, MODULE, reconcileTarget } from "./scope.ts";

/** The approved post-back's idempotency key and [status] letter: apart from the complete's `<uid>-c`. */
export const APPROVED_LETTER = "a";
export const approvedHookKey = (uid: string) => `${uid}-${APPROVED_LETTER}`;

/** Identifiers written per staging statement; the event loop runs between two. */
const STAGE_CHUNK = 2_000;
const yieldToLoop = () => new Promise<void>((r) => setTimeout(r, 0));

export type Identifiers = {
  identifiers: string[];
  lines: number;
  duplicates: number;
  fileName?: string;
};

/** The identifiers of an upload's body: the file's text (parsed here) or the spec's `uid` list. */
export function identifiersOf(input: { csv?: string; uid?: string[]; fileName?: string }): Identifiers {
  if (input.csv !== undefined) {
    const r = parseIdentifierFile(input.csv);
    if (!r.ok) throw invalid(r.error.message, [{ path: "csv", message: r.error.message }]);
    if (!r.value.identifiers.length) {
      throw invalid("The file holds no identifiers", [{
        path: "csv",
        message: "The file holds no identifiers",
      }]);
    }
    return { ...r.value, fileName: input.fileName };
  }
  const list = input.uid ?? [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (let i = 0; i < list.length; i++) {
    const id = list[i].trim();
    if (!id) continue;
    if (!isIdentifier(id)) {
      const message = `Identifier ${i + 1}: not a valid identifier`;
      throw invalid(message, [{ path: `uid.${i}`, message }]);
    }
    if (seen.has(id)) duplicates++;
    else seen.add(id);
  }
  if (!seen.size) {
    throw invalid("A parsed identifier file is required", [{
      path: "uid",
      message: "A parsed identifier file is required",
    }]);
  }
  return { identifiers: [...seen], lines: list.length, duplicates, fileName: input.fileName };
}

export type ReconcileOptions = {
  /** The clock (deps.now by default). */
  now?: number;
};

/**
 * Applies an upload to a project: stages its identifiers, then applies them in one transaction.
 * Returns the result summary. Throws notFound, a conflict for a settled project, invalid input.
 */
export async function reconcileUpload(
  deps: Deps,
  actor: Actor,
  projectId: string,
  type: ReconcileType,
  ids: Identifiers,
  opts: ReconcileOptions = {},
): Promise<ReconcileSummary> {
  const db = deps.db;
  if (ids.identifiers.length > MAX_IDENTIFIERS) {
    throw invalid(`An upload holds at most ${MAX_IDENTIFIERS} identifiers`);
  }
  const target = await reconcileTarget(db, projectId);
  assertReconcilable(target);
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
    status: "staging",
    createdBy: actor.userId,
    createdByName: actor.name,
    createdAt: at.toISOString(),
  }).execute();
  let hooks = 0;
  try {
    for (let i = 0; i < ids.identifiers.length; i += STAGE_CHUNK) {
      const chunk = ids.identifiers.slice(i, i + STAGE_CHUNK);
      await sql`INSERT OR IGNORE INTO reconcile_stage (reconcileId, sessionId) VALUES ${
        sql.join(chunk.map((s) => sql`(${id}, ${s})`))
      }`.execute(db);
      await yieldToLoop();
    }
    hooks = await db.transaction().execute((trx) => apply(trx, actor, id, type, at));
  } catch (e) {
    // nothing was applied: the transaction rolled back; the staged identifiers and the row go
    await db.deleteFrom("reconcile_stage").where("reconcileId", "=", id).execute().catch(() => {});
    await db.deleteFrom("reconciles").where("id", "=", id).where("status", "=", "staging").execute()
      .catch(() => {});
    throw e;
  }
  // the staged identifiers are spent: dropped after the commit, so the transaction stays short
  await db.deleteFrom("reconcile_stage").where("reconcileId", "=", id).execute();
  if (hooks) routerFor(deps).hooks.kick();
  return await getReconcile(db, id);
}

/** The apply step, inside its transaction; returns how many post-backs it queued. */
async function apply(trx: Db, actor: Actor, id: string, type: ReconcileType, at: Date): Promise<number> {
  const row = await trx.selectFrom("reconciles").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  // the project as it is now (a status change or another upload may have come first)
  const target = await reconcileTarget(trx, row.projectId);
  assertReconcilable(target);
  const scope = inList(target.childIds);
  const counts = await sql<{ inScope: number; already: number; notComplete: number }>`
    SELECT count(*) AS inScope,
      coalesce(sum(s.reconciled != 0), 0) AS already,
      coalesce(sum(s.reconciled = 0 AND NOT (s.status = 'complete' AND s.isTest = 0)), 0) AS notComplete
    FROM reconcile_stage st JOIN sessions s ON s.id = st.sessionId
    WHERE st.reconcileId = ${id} AND s.projectId IN (${sql.join(scope)})`.execute(trx);
  const c = counts.rows[0];
  const inserted = await sql`INSERT INTO reconcile_items (reconcileId, sessionId)
    SELECT ${id}, s.id FROM reconcile_stage st JOIN sessions s ON s.id = st.sessionId
    WHERE st.reconcileId = ${id} AND s.projectId IN (${sql.join(scope)})
      AND s.reconciled = 0 AND s.status = 'complete' AND s.isTest = 0`.execute(trx);
  const matched = Number(inserted.numAffectedRows ?? 0);
  const state = type === RECONCILE_TYPE.APPROVED ? RECONCILE_STATE.APPROVED : RECONCILE_STATE.REJECTED;
  if (matched) {
    await sql`UPDATE sessions SET reconciled = ${state}
      WHERE id IN (SELECT sessionId FROM reconcile_items WHERE reconcileId = ${id})`.execute(trx);
    await moveCounters(trx, id, type, 1);
  }
  const hooks = type === RECONCILE_TYPE.APPROVED && matched
    ? await queueApprovedHooks(trx, id, at, scope)
    : 0;
  await trx.updateTable("reconciles").set({
    status: "applied",
    matched,
    alreadyReconciled: Number(c.already),
    notComplete: Number(c.notComplete),
    unknown: row.identifiers - Number(c.inScope),
    hooksQueued: hooks,
  }).where("id", "=", id).execute();
  const label = reconcileTypeLabel(type);
  await writeLog(trx, actor, {
    activity: `Reconciled ${target.projectCode}${
      row.fileName ? ` from ${row.fileName}` : ""
    }: ${matched} ${label.toLowerCase()} of ${row.identifiers} identifiers (${
      row.identifiers - Number(c.inScope)
    } unknown, ${row.duplicates} duplicate, ${Number(c.already)} already reconciled, ${
      Number(c.notComplete)
    } not a complete)${hooks ? `; ${hooks} approved post-backs queued` : ""}`,
    module: MODULE,
    recordId: target.id,
  }, at);
  return hooks;
}

/**
 * Adds (`sign` 1) or takes back (-1) an upload's sessions on the approved or rejected counters of
 * their child projects and supplier maps and on the daily rollup (the day of the complete).
 */
async function moveCounters(trx: Db, id: string, type: number, sign: 1 | -1) {
  const col = type === RECONCILE_TYPE.APPROVED ? "approved" : "rejected";
  const groups = await sql<{
    projectId: string;
    supplierMapId: string;
    supplierId: string;
    parentProjectId: string | null;
    clientId: string;
    day: string;
    n: number;
  }>`SELECT s.projectId, s.supplierMapId, s.supplierId, s.parentProjectId, s.clientId,
      substr(coalesce(s.endedAt, s.createdAt), 1, 10) AS day, count(*) AS n
    FROM reconcile_items i JOIN sessions s ON s.id = i.sessionId
    WHERE i.reconcileId = ${id}
    GROUP BY s.projectId, s.supplierMapId, s.supplierId, day`.execute(trx);
  const projects = new Map<string, number>(), maps = new Map<string, number>();
  for (const g of groups.rows) {
    const n = Number(g.n) * sign;
    projects.set(g.projectId, (projects.get(g.projectId) ?? 0) + n);
    maps.set(g.supplierMapId, (maps.get(g.supplierMapId) ?? 0) + n);
    await sql`INSERT INTO router_daily (date, projectId, supplierId, supplierMapId, parentProjectId, clientId, ${
      sql.ref(col)
    })
      VALUES (${g.day}, ${g.projectId}, ${g.supplierId}, ${g.supplierMapId}, ${g.parentProjectId}, ${g.clientId}, ${n})
      ON CONFLICT (date, projectId, supplierId) DO UPDATE SET ${sql.ref(col)} = ${sql.ref(col)} + excluded.${
      sql.ref(col)
    }`.execute(trx);
  }
  for (const [table, m] of [["projects", projects], ["supplier_maps", maps]] as const) {
    for (const [rowId, n] of m) {
      if (!n) continue;
      await sql`UPDATE ${sql.table(table)} SET ${sql.ref(col)} = ${sql.ref(col)} + ${n} WHERE id = ${rowId}`
        .execute(trx);
    }
  }
}

/**
 * Queues the approved post-back of each newly approved session whose supplier has a hook, the same
 * way the router queues a complete's: a row of router_hooks the sender claims with a lease. A
 * session whose approval was queued before (and sent, or being sent) gets none again.
 */
async function queueApprovedHooks(trx: Db, id: string, at: Date, scope: string[]): Promise<number> {
  // most suppliers have no hook: then there is nothing to join
  const hooked = await sql<{ n: number }>`SELECT count(*) AS n FROM supplier_maps m
    JOIN suppliers sup ON sup.id = m.supplierId
    WHERE m.projectId IN (${sql.join(scope)}) AND trim(sup.supplierApprovedHook) != ''`.execute(trx);
  if (!Number(hooked.rows[0].n)) return 0;
  const rows = await sql<{ uid: string; sid: string; supplierId: string; hook: string; projectCode: string }>`
    SELECT s.id AS uid, s.sid, s.supplierId, sup.supplierApprovedHook AS hook, p.projectCode
    FROM reconcile_items i
      JOIN sessions s ON s.id = i.sessionId
      JOIN suppliers sup ON sup.id = s.supplierId
      JOIN projects p ON p.id = s.projectId
    WHERE i.reconcileId = ${id} AND trim(sup.supplierApprovedHook) != ''
      AND NOT EXISTS (SELECT 1 FROM router_hooks h WHERE h.hookKey = s.id || ${"-" + APPROVED_LETTER})`
    .execute(trx);
  const stamp = at.toISOString();
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
      nextAt: stamp,
      createdAt: stamp,
      updatedAt: stamp,
    }))).execute();
  }
  return rows.rows.length;
}

/**
 * Undoes the project's last applied upload, in one transaction: its sessions back to not
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
  const out = await db.transaction().execute(async (trx) => {
    const target = await reconcileTarget(trx, projectId);
    assertReconcilable(target);
    const last = await trx.selectFrom("reconciles").selectAll().where("projectId", "=", target.id)
      .where("status", "=", "applied").orderBy("createdAt", "desc").orderBy("id", "desc").executeTakeFirst();
    if (!last) throw conflict(`${target.projectCode} has no reconcile to undo`);
    await moveCounters(trx, last.id, last.type, -1);
    const state = last.type === RECONCILE_TYPE.APPROVED ? RECONCILE_STATE.APPROVED : RECONCILE_STATE.REJECTED;
    const restored = await sql`UPDATE sessions SET reconciled = ${RECONCILE_STATE.NONE}
      WHERE id IN (SELECT sessionId FROM reconcile_items WHERE reconcileId = ${last.id}) AND reconciled = ${state}`
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
  return {
    reconcile: await getReconcile(db, out.id),
    restored: out.restored,
    hooksWithdrawn: out.withdrawn,
    hooksAlreadySent: out.sent,
  };
}

/** One upload as its summary. */
export async function getReconcile(db: Db, id: string): Promise<ReconcileSummary> {
  const r = await db.selectFrom("reconciles").innerJoin("projects", "projects.id", "reconciles.projectId")
    .selectAll("reconciles").select("projects.projectCode").where("reconciles.id", "=", id)
    .executeTakeFirstOrThrow();
  return toSummary(r);
}

type Row = {
  id: string;
  projectId: string;
  projectCode: string;
  type: number;
  fileName: string;
  lines: number;
  identifiers: number;
  matched: number;
  unknown: number;
  duplicates: number;
  alreadyReconciled: number;
  notComplete: number;
  hooksQueued: number;
  status: ReconcileSummary["status"];
  createdByName: string;
  createdAt: string;
  undoneAt: string | null;
  undoneByName: string;
};

export const toSummary = (r: Row): ReconcileSummary => ({
  _id: r.id,
  projectId: r.projectId,
  projectCode: r.projectCode,
  type: r.type,
  typeLabel: reconcileTypeLabel(r.type),
  fileName: r.fileName,
  lines: r.lines,
  identifiers: r.identifiers,
  matched: r.matched,
  unknown: r.unknown,
  duplicates: r.duplicates,
  alreadyReconciled: r.alreadyReconciled,
  notComplete: r.notComplete,
  hooksQueued: r.hooksQueued,
  status: r.status,
  createdByName: r.createdByName,
  createdAt: r.createdAt,
  undoneAt: r.undoneAt,
  undoneByName: r.undoneByName,
});
