/**
 * Which callback a session's outcome queues: the outcome's event (by the redirect it sends the
 * respondent to: complete, terminate, over quota, quality), when the supplier has a URL for it. A
 * test session, or an outcome with no callback (the survey closed to them), queues none. The row is
 * one more tuple of the batch's INSERT into router_hooks, in the write transaction of the outcome.
 */
import type { CallbackEvent } from "../../../shared/callbacks.ts";
import type { MapConfig } from "./config.ts";
import { type FinalStatus, redirectKind } from "./outcomes.ts";
import { outcomeCallbackValues } from "./shortcodes.ts";
import type { SessionRow } from "./writer/types.ts";
import type { Statement } from "./rollup.ts";

/**
 * A supplier callback to queue at a session's outcome: its session and supplier, the event's URL (its
 * placeholders filled when sent), the event, the idempotency key and the values (JSON) it is filled with.
 */
export type HookRow = {
  sessionId: string;
  supplierId: string;
  url: string;
  event: string;
  key: string;
  /** JSON.stringify's text of the values (the worker's hand-over takes it as it is: SendBatch). */
  vars: string;
  /**
   * Set when written claimed (WriterOptions.hookLeaseMs): the lease it was written with, the end of
   * the time this instance's sender has it (hooks.ts, HookSender.fresh).
   */
  lease?: string;
  /**
   * Its row's id, once written (hookIds: the INSERT's last rowid); for a callback written in a claim
   * (`claim`), its place there: claim × CLAIM_SLOTS + slot (hook-claims.ts). Unset when not known,
   * and its row is then found by its key.
   */
  id?: number;
  /** The id of the claim it was written in (router_hook_claims), when it was. */
  claim?: number;
};

/** Callbacks a claim holds fewer than (a write batch with more writes them as rows, each claimed). */
export const CLAIM_SLOTS = 1 << 16;

const EVENT_OF: Partial<Record<ReturnType<typeof redirectKind>, [CallbackEvent, FinalStatus]>> = {
  complete: ["complete", "complete"],
  terminate: ["terminate", "terminate"],
  quotaFull: ["overquota", "overQuota"],
  qualityTerm: ["quality", "qualityTerm"],
};

/** The URL a map's supplier set for an outcome event ('' none). */
function urlOf(map: MapConfig, event: CallbackEvent): string {
  if (event === "complete") return map.approvedHook;
  if (event === "terminate" || event === "overquota" || event === "quality") return map.callbacks[event];
  return "";
}

/** The callback a session's (final) outcome queues, or null. */
export function outcomeCallback(
  s: Pick<SessionRow, "id" | "sid" | "status" | "supplierId" | "isTest">,
  projectCode: string,
  map: MapConfig,
): HookRow | null {
  if (s.isTest) return null;
  const hit = EVENT_OF[redirectKind(s.status)];
  if (!hit) return null;
  const [event, status] = hit;
  const url = urlOf(map, event);
  if (!url) return null;
  const vars = outcomeCallbackValues({ sid: s.sid, uid: s.id, projectCode }, status);
  return { sessionId: s.id, supplierId: s.supplierId, url, event, key: vars.key, vars: JSON.stringify(vars) };
}

/**
 * A batch's callbacks as one INSERT. With a lease they are written claimed for it, one attempt
 * counted: this instance sends them as soon as they are committed, with no read and no claim
 * (hooks.ts, HookSender.fresh), and each is stamped with its lease. With `claim` (the writer learns
 * the INSERT's id: a local database) they are one row of router_hook_claims, their JSON as it is
 * (a row and three index entries each cost the router's transaction more than the rest of a
 * callback did), moved into router_hooks when answered (hook-claims.ts); else each is a row of
 * router_hooks, 'sending'. Without a lease they wait, queued, for a sender's scan. The rows go as
 * one JSON argument: one SQL text whatever their number, kept prepared.
 */
export function hookInsert(
  hooks: HookRow[],
  now: number,
  o: { leaseMs?: number; claim?: boolean } = {},
): Statement {
  const at = new Date(now).toISOString();
  const lease = o.leaseMs ? new Date(now + o.leaseMs).toISOString() : undefined;
  for (const h of hooks) h.lease = lease;
  const rows = JSON.stringify(hooks.map((h) => [h.sessionId, h.supplierId, h.url, h.event, h.key, h.vars]));
  if (lease && o.claim && hooks.length < CLAIM_SLOTS) {
    return {
      sql: `INSERT INTO router_hook_claims (lease, rows, createdAt) VALUES (?, ?, ?)`,
      args: [lease, rows, at],
    };
  }
  return {
    sql:
      `INSERT INTO router_hooks (sessionId, supplierId, url, event, hookKey, vars, status, attempts, nextAt,
      createdAt, updatedAt)
      SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, ?, ?, ?, ?, ?
      FROM json_each(?) j`,
    args: [...(lease ? ["sending", 1, lease] : ["queued", 0, at]), at, at, rows],
  };
}

/**
 * Gives a batch's callbacks their rows' ids from the INSERT's result (hookInsert): one statement
 * under one writer, so its rows took the ids up to the last one in turn (router_hooks' id is
 * AUTOINCREMENT); written in a claim (one row: `claimed`), its id and their places in it. Without
 * the last id, or with another number of rows than written, none is given (each is then found by
 * its key).
 */
export function hookIds(hooks: HookRow[], r: { lastId?: unknown; count?: unknown }, claimed = false) {
  const last = Number(r.lastId ?? NaN), n = Number(r.count ?? NaN);
  if (!Number.isSafeInteger(last)) return;
  if (claimed && n === 1 && hooks.length < CLAIM_SLOTS) {
    hooks.forEach((h, i) => {
      h.claim = last;
      h.id = last * CLAIM_SLOTS + i;
    });
  } else if (n === hooks.length) hooks.forEach((h, i) => h.id = last - n + 1 + i);
}
