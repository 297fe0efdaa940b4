/**
 * The rows of supplier callbacks (router_hooks) as the sender (./hooks.ts) handles them, and the
 * recording of its results: one statement per kind of result, while the claims are still its own.
 */
import { sql, type Updateable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";
import type { RouterHooksTable } from "../../db/tables/router.ts";
import { hookKey } from "./outcomes.ts";
import { recordCallbackAttempt } from "../../lib/metrics.ts";
import type { ThreadAnswer } from "./callback-thread.ts";
import { type ClaimRun, type ClaimTally, settleClaims } from "./hook-claims.ts";

export type Due = {
  id: number;
  sessionId: string;
  supplierId: string;
  url: string;
  status: string;
  attempts: number;
  nextAt: string;
  /** The idempotency key (null on a complete's queued before migration 0036: `<uid>-c`). */
  hookKey: string | null;
  event: string;
  /** JSON of the values the URL and body are filled with; null: the URL was filled when queued. */
  vars: string | null;
};
/** The idempotency key a queued hook travels with. */
export const keyOf = (h: Pick<Due, "sessionId" | "hookKey">) => h.hookKey ?? hookKey(h.sessionId, "complete");
export type Claimed = Due & { lease: string; attempts: number };
/**
 * A callback claimed at birth: its row's id as the writer's INSERT gave it, or null (not known) and
 * its row is found by its key; written in a claim (`claim`, hook-claims.ts), its place there.
 */
export type Fresh = Omit<Claimed, "id"> & { id: number | null; hookKey: string; claim?: number };
export type Sendable = Claimed | Fresh;
export type Result = { h: Sendable; set: Updateable<RouterHooksTable> };

/**
 * What a sent callback's row is set to by its answer (null: skipped, not sent: its claim lapses for
 * a scan; its time stamp is the settle's): sent on a 2xx; failed at once when the outbound policy refused its URL (every retry would
 * be refused the same); else queued for its next attempt after its delay, failed after the last.
 */
export function resultOf(
  h: Sendable,
  a: ThreadAnswer,
  o: { retryDelaysMs: number[]; now: number; log: Logger },
): Result | null {
  if (a.skipped) return null;
  const answer = a.error ? a.error.slice(0, 500) : `HTTP ${a.status}`;
  const error = a.error || (a.status < 200 || a.status > 299 ? answer : "");
  const { attempts } = h;
  if (a.refused) {
    recordCallbackAttempt("refused");
    return {
      h,
      set: { status: "failed", attempts, lastAnswer: answer, lastError: error.slice(0, 500) },
    };
  }
  if (!error) {
    recordCallbackAttempt("delivered");
    return { h, set: { status: "sent", attempts, lastAnswer: answer, lastError: "" } };
  }
  const delay = o.retryDelaysMs[attempts - 1];
  recordCallbackAttempt(delay === undefined ? "failed" : "retry");
  o.log.warn("supplier callback failed", { id: h.id, attempts, error });
  return {
    h,
    set: {
      status: delay === undefined ? "failed" : "queued",
      attempts,
      lastAnswer: answer,
      lastError: error.slice(0, 500),
      nextAt: new Date(o.now + (delay ?? 0)).toISOString(),
    },
  };
}

/** Ids in runs of consecutive ones under one lease: `[first, last, lease]` (sorted by id). */
export function idRuns(rows: [number, string][]): [number, number, string][] {
  const runs: [number, number, string][] = [];
  for (const [id, lease] of [...rows].sort((a, b) => a[0] - b[0])) {
    const run = runs.at(-1);
    if (run && run[1] === id - 1 && run[2] === lease) run[1] = id;
    else runs.push([id, id, lease]);
  }
  return runs;
}

/**
 * Delivered callbacks of claims told as runs of their ids (`[first, last, lease]`: slots of one
 * claim, hook-claims.ts), by their answer (`HTTP 200`).
 */
export type DeliveredRuns = Map<string, [number, number, string][]>;

/** The ids of runs, each with its lease. */
const expand = (runs: [number, number, string][]) =>
  runs.flatMap(([a, b, lease]) =>
    Array.from({ length: b - a + 1 }, (_, k): [number, string] => [a + k, lease])
  );

/**
 * Records a round's attempts while the claims are still ours (a send that outlived its lease was
 * taken over): one UPDATE per kind of result, each row matched with its own claim's lease. Rows are
 * found by id, in runs of consecutive ids (a run is one range of the table, where a list would be a
 * look-up per row), or by idempotency key when their id is not known; they travel as one JSON
 * argument, so a settle is one statement whatever the number of callbacks and leases in it.
 * Callbacks written in a claim are moved from it into router_hooks (settleClaims, one INSERT), and
 * `delivered` adds such callbacks already told as runs (the worker's 2xx answers: no object per
 * callback); `tally` says which claims are then done.
 */
export async function settleResults(
  db: Db,
  log: Logger,
  round: { results: Result[]; now: number; delivered?: DeliveredRuns; tally?: ClaimTally },
) {
  const { results, now, delivered = new Map(), tally } = round;
  type Group = { set: Updateable<RouterHooksTable>; byId: [number, string][]; byKey: [string, string][] };
  const groups = new Map<string, Group>();
  const at = new Date(now).toISOString();
  const groupOf = (set: Updateable<RouterHooksTable>) => {
    const key = `${set.status}\0${set.lastAnswer}\0${set.lastError}\0${set.nextAt ?? ""}`;
    let g = groups.get(key);
    if (!g) {
      // the attempt was counted by the claim; the round's time stamps them all
      const { attempts: _, ...rest } = set;
      groups.set(key, g = { set: { ...rest, updatedAt: at }, byId: [], byKey: [] });
    }
    return g;
  };
  const claimed: ClaimRun[] = [];
  for (const { h, set } of results) {
    if ("claim" in h && h.claim !== undefined && h.id !== null) {
      claimed.push({ first: h.id, last: h.id, lease: h.lease, set });
      continue;
    }
    const g = groupOf(set);
    if (h.id === null) g.byKey.push([keyOf(h), h.lease]);
    else g.byId.push([h.id, h.lease]);
  }
  for (const [lastAnswer, runs] of delivered) {
    const set = { status: "sent" as const, attempts: 1, lastAnswer, lastError: "" };
    for (const [first, last, lease] of runs) claimed.push({ first, last, lease, set });
  }
  await db.transaction().execute(async (trx) => {
    await settleClaims(trx, log, { runs: claimed, at, tally });
    for (const g of groups.values()) {
      const runs = idRuns(g.byId);
      const count = runs.reduce((n, [a, b]) => n + b - a + 1, 0);
      for (const [n, by] of [[count, "id"], [g.byKey.length, "hookKey"]] as const) {
        if (!n) continue;
        const mine = by === "id"
          ? sql<number>`(SELECT h.id FROM json_each(${JSON.stringify(runs)}) j JOIN router_hooks h
            ON h.id BETWEEN j.value ->> 0 AND j.value ->> 1 AND h.nextAt = j.value ->> 2)`
          : sql<number>`(SELECT h.id FROM json_each(${JSON.stringify(g.byKey)}) j JOIN router_hooks h
            ON h.hookKey = j.value ->> 0 AND h.nextAt = j.value ->> 1)`;
        const r = await trx.updateTable("router_hooks").set(g.set).where("status", "=", "sending")
          .where("id", "in", mine).executeTakeFirst();
        // the usual case: every claim was still ours (no rows read back to say so)
        if (Number(r.numUpdatedRows ?? 0) === n) continue;
        // some were taken over (their lease ran out): which, for the log
        const rows = by === "id" ? expand(runs) : g.byKey;
        const { rows: left } = await sql<{ ref: string }>`SELECT j.value ->> 0 AS ref
          FROM json_each(${JSON.stringify(rows)}) j WHERE NOT EXISTS (SELECT 1 FROM router_hooks h
          WHERE h.${sql.ref(by)} = j.value ->> 0 AND h.status = ${g.set.status} AND h.updatedAt = ${at})`
          .execute(trx);
        for (const { ref } of left) {
          log.warn("supplier callback outlived its lease; another sender has it", {
            [by === "id" ? "id" : "key"]: by === "id" ? Number(ref) : ref,
          });
        }
      }
    }
  });
}
