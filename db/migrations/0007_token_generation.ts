// Frozen: never edit a migration that has shipped; add a new one.
// Tokens carry their user's token generation (`gen`); a password change or a deactivation bumps it,
// so every token issued before stops working at once (also after a reactivation). `keptTokenJti` is
// the one session that changed its own user's password and stays signed in.
import type { Kysely } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("users")
    .addColumn("tokenGeneration", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("users").addColumn("keptTokenJti", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("users").dropColumn("keptTokenJti").execute();
  await db.schema.alterTable("users").dropColumn("tokenGeneration").execute();
}
