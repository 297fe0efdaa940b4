/**
 * A supplier's signed callbacks (issue 23, item 3; the queue and sender: ../router/hooks.ts): its
 * delivery log (the rows of router_hooks of the supplier, newest first), the redeliver action, and
 * its callback URLs as its portal edits them. Staff reach any supplier; a SUPPLIER user only its own
 * (the route passes the user's supplier): another supplier's callback is not found.
 */
import { type Selectable, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { RouterHooksTable } from "../../db/tables/router.ts";
import { type AnyQB, listSpecOf } from "../../db/list.ts";
import { conflict, notFound } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import type { LogChange } from "../../../shared/audit.ts";
import {
  CALLBACK_EVENT_LABELS,
  CALLBACK_EVENTS,
  CALLBACK_STATES,
  type CallbackEvent,
  type CallbackSecret,
  type CallbackState,
  type CallbackUrls,
  type SupplierCallbackRow,
  supplierCallbacksList,
} from "../../../shared/api/supplier-callbacks.ts";
import {
  CALLBACK_URL_KEYS,
  CALLBACK_URL_LABELS,
  type CallbackUrlsForm,
} from "../../../shared/schemas/supplier.ts";
import { STATUS_LETTER } from "../router/outcomes.ts";
import { supplierOf } from "./api-keys.ts";
import { randomKey } from "../common/values.ts";
import { maskSecret } from "../../../shared/secrets.ts";

const MODULE = "Suppliers";

type HookRow = Pick<
  Selectable<RouterHooksTable>,
  | "id"
  | "event"
  | "status"
  | "sessionId"
  | "hookKey"
  | "url"
  | "attempts"
  | "lastAnswer"
  | "redeliveries"
  | "createdAt"
  | "updatedAt"
  | "nextAt"
>;

const COLUMNS = [
  "id",
  "event",
  "status",
  "sessionId",
  "hookKey",
  "url",
  "attempts",
  "lastAnswer",
  "redeliveries",
  "createdAt",
  "updatedAt",
  "nextAt",
] as const;

/** One supplier's callbacks, for the list kit. */
export function callbackLogQuery(db: Db, supplierId: string): AnyQB {
  return db.selectFrom("router_hooks").select([...COLUMNS]).where("supplierId", "=", supplierId);
}

const oneOf = <T extends string>(all: readonly T[], v: unknown): T | null =>
  all.includes(String(v) as T) ? String(v) as T : null;

export const callbackLogSpec = listSpecOf(supplierCallbacksList, {
  filters: {
    state: (qb, v) => qb.where("status", "=", oneOf(CALLBACK_STATES, v) ?? "-"),
    event: (qb, v) => qb.where("event", "=", oneOf(CALLBACK_EVENTS, v) ?? "-"),
  },
  sorts: {},
  defaultSort: [["id", "desc"]],
});

/** A log line as the API gives it. */
export function callbackRow(r: HookRow): SupplierCallbackRow {
  return {
    _id: String(r.id),
    event: r.event as CallbackEvent,
    state: r.status as CallbackState,
    sessionId: r.sessionId,
    key: r.hookKey ?? `${r.sessionId}-${STATUS_LETTER.complete}`,
    url: r.url,
    attempts: r.attempts,
    lastAnswer: r.lastAnswer,
    redeliveries: r.redeliveries,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    nextAt: r.nextAt,
  };
}

/** Checks the supplier before its log is listed (404 for none or a deleted one). */
export async function assertCallbackSupplier(db: Db, supplierId: string): Promise<void> {
  await supplierOf(db, supplierId);
}

/**
 * Queues a delivered or failed callback again, due now, its attempts counted afresh (the same
 * idempotency key: the supplier may deduplicate); one still queued or being sent is refused (409).
 * Written to the system log; the sender is woken.
 */
export async function redeliverCallback(
  ctx: WriteCtx & Pick<Ctx, "services">,
  args: { supplierId: string; callbackId: string },
): Promise<SupplierCallbackRow> {
  const { db, actor } = ctx;
  const at = dateAt(ctx.now);
  const now = at.toISOString();
  const id = /^\d{1,15}$/.test(args.callbackId) ? Number(args.callbackId) : -1;
  const row = await db.transaction().execute(async (trx) => {
    const s = await supplierOf(trx, args.supplierId);
    const h = await trx.selectFrom("router_hooks").select([...COLUMNS]).where("id", "=", id)
      .where("supplierId", "=", s.id).executeTakeFirst();
    if (!h) throw notFound("Callback");
    if (h.status !== "sent" && h.status !== "failed") {
      throw conflict("This callback is still queued: it will be sent, there is nothing to redeliver");
    }
    const r = await trx.updateTable("router_hooks").set({
      status: "queued",
      attempts: 0,
      nextAt: now,
      updatedAt: now,
      redeliveries: sql`redeliveries + 1`,
    }).where("id", "=", h.id).where("status", "in", ["sent", "failed"]).executeTakeFirst();
    if (Number(r.numUpdatedRows ?? 0) !== 1) {
      throw conflict("This callback changed meanwhile: reload and try again");
    }
    const label = CALLBACK_EVENT_LABELS[h.event as CallbackEvent] ?? h.event;
    await writeLog(trx, actor, {
      activity: `Redelivered the ${label.toLowerCase()} callback ${
        callbackRow(h).key
      } (${h.status}) of supplier ${s.supplierName} (${s.supplierShortCode})`,
      module: MODULE,
      recordId: s.id,
    }, at);
    return await trx.selectFrom("router_hooks").select([...COLUMNS]).where("id", "=", h.id)
      .executeTakeFirstOrThrow();
  });
  ctx.services.router.hooks.kick();
  return callbackRow(row);
}

/** The supplier's callback URLs (its signing secret masked). */
export async function getCallbackUrls(db: Db, supplierId: string): Promise<CallbackUrls> {
  const s = await db.selectFrom("suppliers").select([...CALLBACK_URL_KEYS, "approvedHookRefusal", "hashKey"])
    .where("id", "=", supplierId).where("isDeleted", "=", 0).executeTakeFirst();
  if (!s) throw notFound("Supplier");
  return { ...s, hashKey: maskSecret(s.hashKey) };
}

/**
 * The supplier's signing secret, whole, for its own portal user; `rotate` replaces it with a new
 * random one first (callbacks sent from then on are signed with the new one). Both are logged.
 */
export async function callbackSecret(
  ctx: WriteCtx & Pick<Ctx, "services">,
  args: { supplierId: string; rotate: boolean },
): Promise<CallbackSecret> {
  const { db, actor } = ctx;
  const at = dateAt(ctx.now);
  const out = await db.transaction().execute(async (trx) => {
    const s = await supplierOf(trx, args.supplierId);
    if (args.rotate) {
      await trx.updateTable("suppliers").set({ hashKey: randomKey(32), updatedAt: at.toISOString() })
        .where("id", "=", s.id).execute();
    }
    const row = await trx.selectFrom("suppliers").select("hashKey").where("id", "=", s.id)
      .executeTakeFirstOrThrow();
    await writeLog(trx, actor, {
      activity: `${
        args.rotate ? "Rotated" : "Revealed"
      } the callback signing secret (hash key) of supplier ${s.supplierName} (${s.supplierShortCode})`,
      module: MODULE,
      recordId: s.id,
    }, at);
    return { hashKey: row.hashKey };
  });
  // the callback sender drops the supplier's cached signing fields: the next callback has the new key
  if (args.rotate) ctx.services.changes.supplier(args.supplierId);
  return out;
}

/**
 * Saves the supplier's callback URLs (its portal): the changes in the system log; a new complete URL
 * clears the old one's refusal. The router's cached map configs of the supplier are dropped.
 */
export async function updateCallbackUrls(
  ctx: WriteCtx & Pick<Ctx, "services">,
  args: { supplierId: string } & CallbackUrlsForm,
): Promise<CallbackUrls> {
  const { db, actor } = ctx;
  const { supplierId, ...form } = args;
  const at = dateAt(ctx.now);
  await db.transaction().execute(async (trx) => {
    const s = await supplierOf(trx, supplierId);
    const before = await getCallbackUrls(trx, supplierId);
    const changes: LogChange[] = CALLBACK_URL_KEYS.filter((k) => before[k] !== form[k])
      .map((k) => ({ label: CALLBACK_URL_LABELS[k], from: before[k], to: form[k] }));
    if (!changes.length) return;
    const newHook = before.supplierApprovedHook !== form.supplierApprovedHook;
    await trx.updateTable("suppliers").set({
      ...form,
      ...(newHook ? { approvedHookRefusal: "", approvedHookRefusedAt: null } : {}),
      updatedAt: at.toISOString(),
    }).where("id", "=", supplierId).execute();
    await writeLog(trx, actor, {
      activity: `Updated the callback URLs of supplier ${s.supplierName} (${s.supplierShortCode}): ${
        changes.map((c) => c.label).join(", ")
      }`,
      module: MODULE,
      recordId: supplierId,
      changes,
    }, at);
  });
  ctx.services.changes.supplier(supplierId);
  return await getCallbackUrls(db, supplierId);
}
