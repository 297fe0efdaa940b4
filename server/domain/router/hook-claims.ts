/**
 * Outcome callbacks claimed at birth in a claim (router_hook_claims, migration 0042): a write batch's
 * callbacks as one row under its sender's lease (callback-events.ts, hookInsert), each at its slot
 * (HookRow.id = claim × CLAIM_SLOTS + slot). Once answered they are moved into router_hooks, the
 * delivery log, as what their answer made them (sent, queued for a retry, failed), or queued again
 * when their sender closes before sending them (settleClaims, in the settle's transaction); a claim
 * is deleted once all of its callbacks are. A claim whose lease has passed (its sender died, or
 * never got to some of its callbacks) is moved there queued, those not there already, by any
 * sender's scan (recoverClaims): late, never lost; sent again at worst (the same idempotency key).
 */
import { sql, type Updateable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";
import type { RouterHooksTable } from "../../db/tables/router.ts";
import { CLAIM_SLOTS } from "./callback-events.ts";

/** What a run of a claim's slots is moved into router_hooks as. */
export type ClaimSet = Pick<
  Updateable<RouterHooksTable>,
  "status" | "attempts" | "lastAnswer" | "lastError" | "nextAt"
>;

/** Slots `from`..`to` (their HookRow ids) of one claim under `lease`, and what they become. */
export type ClaimRun = { first: number; last: number; lease: string; set: ClaimSet };

/** A claimed callback's claim and slot, from its id. */
export const slotOf = (id: number): [number, number] => [Math.floor(id / CLAIM_SLOTS), id % CLAIM_SLOTS];

/**
 * The claims this sender wrote and how many of their callbacks are not yet moved: a claim is deleted
 * in the settle that moves its last one. One whose lease has passed is forgotten (a scan moves what
 * it still holds).
 */
export class ClaimTally {
  readonly #left = new Map<number, { left: number; end: number }>();

  /** A claim of `n` callbacks, whose lease ends at `end` (ms). */
  open(claim: number, n: number, end: number) {
    if (!this.#left.has(claim)) this.#left.set(claim, { left: n, end });
  }

  /** `n` of its callbacks moved: whether that was its last (the claim is then forgotten). */
  moved(claim: number, n: number): boolean {
    const c = this.#left.get(claim);
    if (!c) return false;
    c.left -= n;
    if (c.left > 0) return false;
    this.#left.delete(claim);
    return true;
  }

  /** Forgets the claims whose lease ended before `now` (ms). */
  forget(now: number) {
    for (const [id, c] of this.#left) if (c.end < now) this.#left.delete(id);
  }
}

/**
 * Moves runs of claimed callbacks into router_hooks, in the open transaction, each run only while
 * its claim is still held under its lease (one a scan took over is gone: logged, not moved twice),
 * and deletes the claims `tally` says are done. One INSERT whatever the number of runs (one JSON
 * argument), ids in the order of the claims and their slots.
 */
export async function settleClaims(
  trx: Db,
  log: Logger,
  round: { runs: ClaimRun[]; at: string; tally?: ClaimTally },
) {
  const { runs, at, tally } = round;
  if (!runs.length) return;
  const rows = runs.map(({ first, last, lease, set }) => {
    const [claim, from] = slotOf(first);
    const to = slotOf(last)[1];
    return [
      claim,
      lease,
      from,
      to,
      set.status,
      set.attempts ?? 1,
      set.lastAnswer ?? "",
      set.lastError ?? "",
      set.nextAt ?? null,
    ];
  });
  const r = await sql`INSERT INTO router_hooks (sessionId, supplierId, url, event, hookKey, vars, status,
      attempts, lastAnswer, lastError, nextAt, createdAt, updatedAt)
    SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5,
      r.value ->> 4, r.value ->> 5, r.value ->> 6, r.value ->> 7, coalesce(r.value ->> 8, c.lease), c.createdAt, ${at}
    FROM json_each(${JSON.stringify(rows)}) r
    JOIN router_hook_claims c ON c.id = r.value ->> 0 AND c.lease = r.value ->> 1
    JOIN json_each(c.rows) j ON j.key BETWEEN r.value ->> 2 AND r.value ->> 3
    ORDER BY c.id, j.key`.execute(trx);
  const moved = Number(r.numAffectedRows ?? 0);
  const expected = rows.reduce((n, row) => n + (row[3] as number) - (row[2] as number) + 1, 0);
  if (moved !== expected) {
    // some claims were taken over (their lease ran out): which, for the log
    const { rows: gone } = await sql<{ claim: number }>`SELECT DISTINCT j.value ->> 0 AS claim
      FROM json_each(${JSON.stringify(rows)}) j WHERE NOT EXISTS (SELECT 1 FROM router_hook_claims c
      WHERE c.id = j.value ->> 0 AND c.lease = j.value ->> 1)`.execute(trx);
    for (const { claim } of gone) {
      log.warn("supplier callbacks outlived their claim's lease; another sender has them", { claim });
    }
  }
  if (!tally) return;
  const done = new Map<number, string>();
  for (const row of rows) {
    const claim = row[0] as number;
    if (tally.moved(claim, (row[3] as number) - (row[2] as number) + 1)) done.set(claim, row[1] as string);
  }
  if (!done.size) return;
  await sql`DELETE FROM router_hook_claims WHERE id IN (SELECT c.id FROM json_each(${
    JSON.stringify([...done])
  }) j JOIN router_hook_claims c ON c.id = j.value ->> 0 AND c.lease = j.value ->> 1)`.execute(trx);
}

/**
 * Moves the callbacks of claims whose lease has passed into router_hooks, queued and due now (their
 * attempt counted: it may have gone out), those not there already, and deletes the claims: one
 * transaction. Returns how many were moved.
 */
export async function recoverClaims(db: Db, log: Logger, now: number): Promise<number> {
  const at = new Date(now).toISOString();
  const lapsed = sql`FROM router_hook_claims c JOIN json_each(c.rows) j
    WHERE c.lease <= ${at} AND NOT EXISTS (SELECT 1 FROM router_hooks h WHERE h.hookKey = j.value ->> 4)`;
  // read first (the usual answer is none: no write for it), then moved in one transaction; some of
  // their keys for the log (no RETURNING: the driver runs a statement returning rows as a reader)
  const any = await db.selectFrom("router_hook_claims").select("id").where("lease", "<=", at).limit(1)
    .executeTakeFirst();
  if (!any) return 0;
  const { rows: some } = await sql<{ hookKey: string }>`SELECT j.value ->> 4 AS hookKey ${lapsed} LIMIT 20`
    .execute(db);
  const moved = await db.transaction().execute(async (trx) => {
    // (none when every callback of the lapsed claims is moved already: they are only deleted)
    const r = await sql`INSERT INTO router_hooks (sessionId, supplierId, url, event, hookKey, vars, status,
        attempts, nextAt, createdAt, updatedAt)
      SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, 'queued',
        1, ${at}, c.createdAt, ${at} ${lapsed}
      ORDER BY c.id, j.key`.execute(trx);
    await sql`DELETE FROM router_hook_claims WHERE lease <= ${at}`.execute(trx);
    return Number(r.numAffectedRows ?? 0);
  });
  const keys = some.map((x) => x.hookKey);
  if (moved) {
    // their sender died mid-send, or never sent them: the supplier may have some, and deduplicates on the key
    log.warn("supplier callbacks queued again after their claim's lease ran out; they may be sent twice", {
      count: moved,
      keys,
    });
  }
  return moved;
}

/** When the first lease of a claim ends (ms), or Infinity. */
export async function firstClaimEnd(db: Db): Promise<number> {
  const r = await db.selectFrom("router_hook_claims").select("lease").orderBy("lease").limit(1)
    .executeTakeFirst();
  return r ? Date.parse(r.lease) : Infinity;
}
