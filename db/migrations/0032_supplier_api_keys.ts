// Frozen: never edit a migration that has shipped; add a new one.
// A supplier's API keys (issue 23): several per supplier, each stored as the SHA-256 of the key
// (never the key), with a short visible prefix to recognise it, a last-used time, an optional expiry
// and a revocation time. Each supplier's existing `supplierApiKey` becomes its first key, named
// "Migrated key", so a panel that already holds it keeps working.
import { type Kysely, sql } from "kysely";
import { createHash } from "node:crypto";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

/** The visible part of a key: its first 8 characters (of a migrated key too). */
const PREFIX_LENGTH = 8;

function idAt(ms: number): string {
  const secs = Math.floor(ms / 1000).toString(16).padStart(8, "0");
  const rnd = crypto.getRandomValues(new Uint8Array(8));
  return secs + Array.from(rnd, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("supplier_api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("supplierId", "text", (c) => c.notNull().references("suppliers.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("keyHash", "text", (c) => c.notNull())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("createdBy", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("lastUsedAt", "text")
    .addColumn("expiresAt", "text")
    .addColumn("revokedAt", "text")
    .execute();
  await db.schema.createIndex("supplier_api_keys_hash").unique().on("supplier_api_keys").column("keyHash")
    .execute();
  await db.schema.createIndex("supplier_api_keys_supplier").on("supplier_api_keys").columns([
    "supplierId",
    "createdAt",
  ]).execute();

  const suppliers = await sql<{ id: string; supplierApiKey: string; createdAt: string }>`
    SELECT id, supplierApiKey, createdAt FROM suppliers WHERE supplierApiKey <> ''`.execute(db);
  for (const s of suppliers.rows) {
    const keyHash = createHash("sha256").update(s.supplierApiKey).digest("hex");
    await db.insertInto("supplier_api_keys").values({
      id: idAt(Date.parse(s.createdAt) || Date.now()),
      supplierId: s.id,
      name: "Migrated key",
      keyHash,
      prefix: s.supplierApiKey.slice(0, PREFIX_LENGTH),
      createdAt: s.createdAt,
      createdBy: "Migration",
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    }).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("supplier_api_keys").execute();
}
