/**
 * The rows of supplier callbacks (router_hooks) as the sender (./hooks.ts) handles them, and the
 * recording of its results: one statement per kind of result, while the claims are still its own.
 */
import { type Expression, sql, type Updateable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";
import type { RouterHooksTable } from "../../db/tables/router.ts";
import { hookKey } from "./outcomes.ts";

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
/** A claimed callback's row is found by its id, or (claimed at birth, id unknown) by its key. */
export type Fresh = Omit<Claimed, "id"> & { id: null; hookKey: string };
export type Sendable = Claimed | Fresh;
export type Result = { h: Sendable; set: Updateable<RouterHooksTable> };

/**
 * Records a round's attempts while the claims are still ours (a send that outlived its lease was
 * taken over): one UPDATE per kind of result (the delivered ones, most, together), each row matched
 * with its own claim's lease (the rows travel as one JSON argument: a settle is one statement
 * whatever the number of callbacks and leases in it).
 */
export async function settleResults(db: Db, log: Logger, results: Result[], now: number) {
  type Group = { set: Updateable<RouterHooksTable>; byId: [number, string][]; byKey: [string, string][] };
  const groups = new Map<string, Group>();
  const at = new Date(now).toISOString();
  for (const r of results) {
    // the attempt was counted by the claim; the round's time stamps them all
    const { h } = r, set = { ...r.set, updatedAt: at };
    delete set.attempts;
    const key = `${set.status}\0${set.lastAnswer}\0${set.lastError}\0${set.nextAt ?? ""}`;
    const g = groups.get(key) ?? { set, byId: [], byKey: [] };
    if (h.id === null) g.byKey.push([h.hookKey, h.lease]);
    else g.byId.push([h.id, h.lease]);
    groups.set(key, g);
  }
  await db.transaction().execute(async (trx) => {
    for (const g of groups.values()) {
      const update = (rows: Expression<number>) =>
        trx.updateTable("router_hooks").set(g.set).where("status", "=", "sending").where("id", "in", rows)
          .returning(["id", "hookKey"]).execute();
      if (g.byId.length) {
        const done = await update(
          sql<number>`(SELECT h.id FROM json_each(${JSON.stringify(g.byId)}) j JOIN router_hooks h
            ON h.id = j.value ->> 0 AND h.nextAt = j.value ->> 1)`,
        );
        const settled = new Set(done.map((r) => Number(r.id)));
        for (const [id] of g.byId.filter(([id]) => !settled.has(id))) {
          log.warn("supplier callback outlived its lease; another sender has it", { id });
        }
      }
      if (g.byKey.length) {
        // claimed at birth: found by the idempotency key (one row per session and event)
        const done = await update(
          sql<number>`(SELECT h.id FROM json_each(${JSON.stringify(g.byKey)}) j JOIN router_hooks h
            ON h.hookKey = j.value ->> 0 AND h.nextAt = j.value ->> 1)`,
        );
        const settled = new Set(done.map((r) => r.hookKey));
        for (const [key] of g.byKey.filter(([key]) => !settled.has(key))) {
          log.warn("supplier callback outlived its lease; another sender has it", { key });
        }
      }
    }
  });
}
