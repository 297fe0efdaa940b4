// Frozen: never edit a migration that has shipped; add a new one.
// A supplier's approved hook the outbound client refused (an internal address, a port it does not
// call...): the reason and when, shown on the supplier's form until a send succeeds or the hook is
// changed. Written only when the reason changes, so a refusal is logged once, not per complete.
import type { Kysely } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("suppliers")
    .addColumn("approvedHookRefusal", "text", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("suppliers").addColumn("approvedHookRefusedAt", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("suppliers").dropColumn("approvedHookRefusedAt").execute();
  await db.schema.alterTable("suppliers").dropColumn("approvedHookRefusal").execute();
}
