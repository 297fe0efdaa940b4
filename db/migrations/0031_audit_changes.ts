// Frozen: never edit a migration that has shipped; add a new one.
// What an update changed, as data beside the log's activity text: a JSON list of
// {label, from, to} (the fields that changed, values as shown, secrets masked), so the System Logs
// and a project's Logs can show one change a line. Rows written before this read '[]'.
import type { Kysely } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("system_logs").addColumn("changes", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("system_logs").dropColumn("changes").execute();
}
