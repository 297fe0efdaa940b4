/**
 * A supplier's API keys (issue 23): what a panel sends in `X-Api-Key` to `/supply/v1`. A key is a
 * random 32-byte secret shown once, when created; the table keeps its SHA-256 (an unguessable key
 * needs no slow hash) and a short prefix to recognise it. Several keys per supplier, each with an
 * optional expiry; a revoked key stops working on the next request (authentication reads the row).
 * Every change writes the system log.
 */
import { createHash } from "node:crypto";
import { type Selectable, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { SupplierApiKeysTable } from "../../db/tables/master.ts";
import { newId } from "../../db/ids.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import type { LogChange } from "../../../shared/audit.ts";
import type {
  ApiKeyCreate,
  ApiKeyRename,
  ApiKeyState,
  CreatedSupplierApiKey,
  SupplierApiKey,
} from "../../../shared/api/supplier-api-keys.ts";

const MODULE = "Suppliers";
/** Every key starts so, which tells a leaked string for a Samplex supply key. */
export const KEY_MARK = "spx_";
/** The characters of a key shown in lists (the mark and 8 of the secret). */
const PREFIX_LENGTH = KEY_MARK.length + 8;
/** lastUsedAt moves at most this often per key: authentication does not write on every call. */
export const LAST_USED_EVERY_MS = 60_000;
/** The most keys a supplier may hold that still work (active), a bound on what a stranger makes. */
export const MAX_ACTIVE_KEYS = 20;
/** No key is longer than this: a longer header is refused without hashing it. */
const MAX_KEY_LENGTH = 200;

type KeyRow = Selectable<SupplierApiKeysTable>;

/** The SHA-256 of a key, hex: what the table keeps. */
export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return KEY_MARK +
    btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function stateOf(row: KeyRow, nowIso: string): ApiKeyState {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt && row.expiresAt <= nowIso) return "expired";
  return "active";
}

function keyRecord(row: KeyRow, nowIso: string): SupplierApiKey {
  return {
    _id: row.id,
    supplierId: row.supplierId,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    state: stateOf(row, nowIso),
  };
}

/** A live (not deleted) supplier's name and code, or 404. */
async function supplierOf(db: Db, supplierId: string) {
  const s = await db.selectFrom("suppliers").select(["id", "supplierName", "supplierShortCode"])
    .where("id", "=", supplierId).where("isDeleted", "=", 0).executeTakeFirst();
  if (!s) throw notFound("Supplier");
  return s;
}

/** One key of this supplier; another supplier's key is not found. */
async function keyOf(db: Db, supplierId: string, keyId: string): Promise<KeyRow> {
  if (!/^[0-9a-f]{24}$/.test(keyId)) throw notFound("API key");
  const row = await db.selectFrom("supplier_api_keys").selectAll().where("id", "=", keyId)
    .where("supplierId", "=", supplierId).executeTakeFirst();
  if (!row) throw notFound("API key");
  return row;
}

/** A supplier's keys, newest first: never the key, never the hash. */
export async function listSupplierApiKeys(
  ctx: Pick<Ctx, "db" | "now">,
  input: { supplierId: string },
): Promise<SupplierApiKey[]> {
  await supplierOf(ctx.db, input.supplierId);
  const nowIso = dateAt(ctx.now).toISOString();
  // newest first; keys made in the same millisecond in the order they were made (rowid)
  const rows = await ctx.db.selectFrom("supplier_api_keys").selectAll()
    .where("supplierId", "=", input.supplierId).orderBy("createdAt", "desc").orderBy(sql`rowid`, "desc")
    .execute();
  return rows.map((r) => keyRecord(r, nowIso));
}

/** The end of a yyyy-MM-dd day (UTC): when a key expiring on that day stops working. */
function endOfDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();
}

/** Stores a key, hashed (the caller's transaction and log line). */
async function insertKey(
  db: Db,
  k: { supplierId: string; name: string; key: string; at: Date; createdBy: string; expiresAt: string | null },
): Promise<KeyRow> {
  const row: KeyRow = {
    id: newId(k.at.getTime()),
    supplierId: k.supplierId,
    name: k.name,
    keyHash: hashApiKey(k.key),
    prefix: k.key.slice(0, PREFIX_LENGTH),
    createdAt: k.at.toISOString(),
    createdBy: k.createdBy,
    lastUsedAt: null,
    expiresAt: k.expiresAt,
    revokedAt: null,
  };
  await db.insertInto("supplier_api_keys").values(row).execute();
  return row;
}

/** The name of the key a new supplier's record key (`supplierApiKey`) is stored as. */
export const INITIAL_KEY_NAME = "Initial key";

/**
 * A new supplier's record key (`supplierApiKey`, read-only on the record, revealed to staff) as its
 * first API key, so it works on the supply API like any key made later (and like the keys migration
 * 0032 made of existing suppliers' ones): listed, revocable, its last use shown. Inside the creating
 * transaction.
 */
export async function storeInitialKey(
  db: Db,
  k: { supplierId: string; key: string; at: Date; createdBy: string },
): Promise<void> {
  await insertKey(db, { ...k, name: INITIAL_KEY_NAME, expiresAt: null });
}

/** Creates a key; the answer is the only place the key is ever shown. */
export async function createSupplierApiKey(
  ctx: WriteCtx,
  input: { supplierId: string } & ApiKeyCreate,
): Promise<CreatedSupplierApiKey> {
  const { db, actor } = ctx;
  const at = dateAt(ctx.now), nowIso = at.toISOString();
  const expiresAt = input.expiresOn ? endOfDay(input.expiresOn) : null;
  if (expiresAt && expiresAt <= nowIso) {
    throw invalid("Expiry date must be today or later", [{
      path: "expiresOn",
      message: "Expiry date must be today or later",
    }]);
  }
  return await db.transaction().execute(async (trx) => {
    const s = await supplierOf(trx, input.supplierId);
    const active = await trx.selectFrom("supplier_api_keys").select((e) => e.fn.countAll<number>().as("n"))
      .where("supplierId", "=", s.id).where("revokedAt", "is", null)
      .where((e) => e.or([e("expiresAt", "is", null), e("expiresAt", ">", nowIso)]))
      .executeTakeFirstOrThrow();
    if (Number(active.n) >= MAX_ACTIVE_KEYS) {
      throw conflict(`A supplier may hold at most ${MAX_ACTIVE_KEYS} active keys: revoke one first`);
    }
    const key = newKey();
    const row = await insertKey(trx, {
      supplierId: s.id,
      name: input.name,
      key,
      at,
      createdBy: actor.name,
      expiresAt,
    });
    await writeLog(trx, actor, {
      activity:
        `Created API key "${row.name}" (${row.prefix}…) for supplier ${s.supplierName} (${s.supplierShortCode})` +
        (expiresAt ? `, expires ${input.expiresOn}` : ""),
      module: MODULE,
      recordId: s.id,
    }, at);
    return { ...keyRecord(row, nowIso), key };
  });
}

/** What one change to a key sets, and its log line; null when the key already is so (nothing written). */
type KeyChange = (
  row: KeyRow,
  supplier: { supplierName: string; supplierShortCode: string },
  nowIso: string,
) => { set: Partial<KeyRow>; activity: string; changes?: LogChange[] } | null;

/** One change to one key of a supplier (another supplier's key is not found), logged, in a transaction. */
async function changeKey(
  ctx: WriteCtx,
  input: { supplierId: string; keyId: string },
  change: KeyChange,
): Promise<SupplierApiKey> {
  const at = dateAt(ctx.now), nowIso = at.toISOString();
  return await ctx.db.transaction().execute(async (trx) => {
    const s = await supplierOf(trx, input.supplierId);
    const row = await keyOf(trx, s.id, input.keyId);
    const c = change(row, s, nowIso);
    if (!c) return keyRecord(row, nowIso);
    await trx.updateTable("supplier_api_keys").set(c.set).where("id", "=", row.id).execute();
    await writeLog(trx, ctx.actor, {
      activity: c.activity,
      module: MODULE,
      recordId: s.id,
      changes: c.changes,
    }, at);
    return keyRecord({ ...row, ...c.set }, nowIso);
  });
}

const ofSupplier = (s: { supplierName: string; supplierShortCode: string }) =>
  `of supplier ${s.supplierName} (${s.supplierShortCode})`;

/** Renames a key (a revoked one too: the name is only a label). */
export function renameSupplierApiKey(
  ctx: WriteCtx,
  input: { supplierId: string; keyId: string } & ApiKeyRename,
): Promise<SupplierApiKey> {
  return changeKey(ctx, input, (row, s) =>
    row.name === input.name ? null : {
      set: { name: input.name },
      activity: `Renamed API key ${row.prefix}… ${ofSupplier(s)}`,
      changes: [{ label: "Key name", from: row.name, to: input.name }],
    });
}

/** Revokes a key: it stops working on the next request. Revoking a revoked key changes nothing. */
export function revokeSupplierApiKey(
  ctx: WriteCtx,
  input: { supplierId: string; keyId: string },
): Promise<SupplierApiKey> {
  return changeKey(ctx, input, (row, s, nowIso) =>
    row.revokedAt ? null : {
      set: { revokedAt: nowIso },
      activity: `Revoked API key "${row.name}" (${row.prefix}…) ${ofSupplier(s)}`,
    });
}

/** A key that works: the supplier it speaks for. */
export type KeySupplier = {
  supplierId: string;
  supplierName: string;
  supplierShortCode: string;
  keyId: string;
};
export type KeyRefusal = "missing" | "unknown" | "revoked" | "expired" | "supplierInactive";
export type KeyCheck = { ok: true; supplier: KeySupplier } | { ok: false; refusal: KeyRefusal };

/**
 * Who a raw key speaks for, or why it is refused (unknown, revoked, expired, supplier inactive or
 * deleted). Moves the key's lastUsedAt at most once a minute (LAST_USED_EVERY_MS): the row read for
 * the check says whether it is due, so most calls write nothing.
 */
export async function authenticateSupplierKey(
  ctx: Pick<Ctx, "db" | "now">,
  rawKey: string | null | undefined,
): Promise<KeyCheck> {
  const key = (rawKey ?? "").trim();
  if (!key) return { ok: false, refusal: "missing" };
  if (key.length > MAX_KEY_LENGTH) return { ok: false, refusal: "unknown" };
  const row = await ctx.db.selectFrom("supplier_api_keys as k")
    .innerJoin("suppliers as s", "s.id", "k.supplierId")
    .select([
      "k.id",
      "k.supplierId",
      "k.lastUsedAt",
      "k.expiresAt",
      "k.revokedAt",
      "s.supplierName",
      "s.supplierShortCode",
      "s.isActive",
      "s.isDeleted",
    ])
    .where("k.keyHash", "=", hashApiKey(key)).executeTakeFirst();
  if (!row) return { ok: false, refusal: "unknown" };
  const now = ctx.now(), nowIso = new Date(now).toISOString();
  if (row.revokedAt) return { ok: false, refusal: "revoked" };
  if (row.expiresAt && row.expiresAt <= nowIso) return { ok: false, refusal: "expired" };
  if (row.isDeleted || !row.isActive) return { ok: false, refusal: "supplierInactive" };
  if (!row.lastUsedAt || Date.parse(row.lastUsedAt) <= now - LAST_USED_EVERY_MS) {
    await ctx.db.updateTable("supplier_api_keys").set({ lastUsedAt: nowIso }).where("id", "=", row.id)
      .execute();
  }
  return {
    ok: true,
    supplier: {
      supplierId: row.supplierId,
      supplierName: row.supplierName,
      supplierShortCode: row.supplierShortCode,
      keyId: row.id,
    },
  };
}

/** A live supplier's id by its short code, in any case (the CLI names suppliers so), or 404. */
export async function supplierIdByCode(db: Db, shortCode: string): Promise<string> {
  const s = await db.selectFrom("suppliers").select("id")
    .where(sql<boolean>`supplierShortCode = ${shortCode} COLLATE NOCASE`)
    .where("isDeleted", "=", 0).executeTakeFirst();
  if (!s) throw notFound("Supplier");
  return s.id;
}
