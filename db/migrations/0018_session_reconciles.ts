// Frozen: never edit a migration that has shipped; add a new one.
// A session's reconcile state moves out of the sessions row into a narrow table of its own: one
// row per reconciled session (none: not reconciled). An upload of 100,000 identifiers used to
// rewrite 100,000 wide session rows (most pages of the table, tens of megabytes through the
// write-ahead log, each page checkpointed again); now it inserts 100,000 rows of a few dozen bytes.
// Only reconcile reads the state (its counts live on the counters and the rollup).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE TABLE session_reconciles (
    sessionId TEXT NOT NULL PRIMARY KEY, state INTEGER NOT NULL
  ) WITHOUT ROWID`.execute(db);
  await sql`INSERT INTO session_reconciles (sessionId, state)
    SELECT id, reconciled FROM sessions WHERE reconciled != 0`.execute(db);
  await db.schema.alterTable("sessions").dropColumn("reconciled").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("sessions")
    .addColumn("reconciled", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE sessions SET reconciled = (SELECT state FROM session_reconciles r WHERE r.sessionId = sessions.id)
    WHERE id IN (SELECT sessionId FROM session_reconciles)`.execute(db);
  await db.schema.dropTable("session_reconciles").execute();
}
