/**
 * The rows of supplier callbacks (router_hooks) as the sender (./hooks.ts) handles them, and the
 * recording of its results: one statement per kind of result, while the claims are still its own.
 */
import type { Updateable } from "kysely";
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
 * taken over): one statement per kind of result, the delivered ones (most) together.
 */
export async function settleResults(db: Db, log: Logger, results: Result[], now: number) {
  type Group = { set: Updateable<RouterHooksTable>; lease: string; ids: number[]; keys: string[] };
  const groups = new Map<string, Group>();
  const at = new Date(now).toISOString();
  for (const r of results) {
    // the attempt was counted by the claim; the round's time stamps them all
    const { h } = r, set = { ...r.set, updatedAt: at };
    delete set.attempts;
    const key = JSON.stringify([set, h.lease]);
    const g = groups.get(key) ?? { set, lease: h.lease, ids: [], keys: [] };
    if (h.id === null) g.keys.push(h.hookKey);
    else g.ids.push(h.id);
    groups.set(key, g);
  }
  await db.transaction().execute(async (trx) => {
    for (const g of groups.values()) {
      const mine = () =>
        trx.updateTable("router_hooks").set(g.set).where("status", "=", "sending").where(
          "nextAt",
          "=",
          g.lease,
        );
      if (g.ids.length) {
        const done = await mine().where("id", "in", g.ids).returning("id").execute();
        const settled = new Set(done.map((r) => Number(r.id)));
        for (const id of g.ids.filter((id) => !settled.has(id))) {
          log.warn("supplier callback outlived its lease; another sender has it", { id });
        }
      }
      if (g.keys.length) {
        // claimed at birth: found by the idempotency key (one row per session and event)
        const done = await mine().where("hookKey", "is not", null).where("hookKey", "in", g.keys)
          .returning("hookKey").execute();
        const settled = new Set(done.map((r) => r.hookKey));
        for (const key of g.keys.filter((k) => !settled.has(k))) {
          log.warn("supplier callback outlived its lease; another sender has it", { key });
        }
      }
    }
  });
}
