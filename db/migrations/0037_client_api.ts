// Frozen: never edit a migration that has shipped; add a new one.
// API-integrated clients (issue 23 item 5): sessions.clientRef is the identifier the client's
// platform knows the respondent by (from its API's answer, or the Samplex variable its identifier
// mapping names), so the client's return and a reconcile upload carrying it find the session. Most
// sessions have none: the index holds only those that do. The second index holds only the sessions
// that ended because the client's API gave no link (reason 'client-api'), so a project's count of
// link failures and its last error are read without scanning its sessions.
import type { Kysely } from "kysely";
import { sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("clientRef", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await sql`CREATE INDEX sessions_client_ref ON sessions(clientRef) WHERE clientRef != ''`.execute(db);
  await sql`CREATE INDEX sessions_client_api_failed ON sessions(projectId, updatedAt)
    WHERE reason = 'client-api'`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX sessions_client_api_failed`.execute(db);
  await sql`DROP INDEX sessions_client_ref`.execute(db);
  await db.schema.alterTable("sessions").dropColumn("clientRef").execute();
}
