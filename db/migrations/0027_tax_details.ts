// Frozen: never edit a migration that has shipped; add a new one.
// Tax details on documents: a client's own tax id (printed under Bill to) and the tax lines an
// issuing company defines (one per line, "GST 18%" or a note), printed under an invoice's subtotal.
import type { Kysely } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("clients").addColumn("taxId", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("issuing_companies")
    .addColumn("taxLines", "text", (c) => c.notNull().defaultTo("")).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("issuing_companies").dropColumn("taxLines").execute();
  await db.schema.alterTable("clients").dropColumn("taxId").execute();
}
