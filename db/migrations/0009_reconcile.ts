// Frozen: never edit a migration that has shipped; add a new one.
// Reconcile (spec part 2): a client's files of approved or rejected respondent identifiers applied
// to a project's sessions. Each session keeps its reconcile state (0 none, 1 approved, 2 rejected);
// each upload is a row of `reconciles` with its summary, and `reconcile_items` keeps the sessions it
// changed so an undo restores exactly the state before it. `reconcile_stage` holds an upload's
// identifiers while they are written in small chunks (the event loop keeps serving the router), so
// the one transaction that applies them is short and set-based. The daily rollup gets approved and
// rejected counts (on the day of the complete), and approved post-backs carry their own
// idempotency key (`<uid>-a`), apart from the complete's (`<uid>-c`).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("sessions")
    .addColumn("reconciled", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("router_daily")
    .addColumn("approved", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("router_daily")
    .addColumn("rejected", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("router_hooks").addColumn("hookKey", "text").execute();
  await sql`CREATE INDEX router_hooks_key ON router_hooks(hookKey) WHERE hookKey IS NOT NULL`.execute(db);

  await db.schema.createTable("reconciles")
    .addColumn("id", "text", (c) => c.primaryKey())
    // the project reconciled: a group project (its children's sessions) or one child
    .addColumn("projectId", "text", (c) => c.notNull())
    .addColumn("type", "integer", (c) => c.notNull()) // 1 approved, 2 rejected
    .addColumn("fileName", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("lines", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("identifiers", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("matched", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("unknown", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("duplicates", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("alreadyReconciled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notComplete", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hooksQueued", "integer", (c) => c.notNull().defaultTo(0))
    // staging (identifiers being written), applied, undone, failed
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("createdBy", "text")
    .addColumn("createdByName", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("undoneAt", "text")
    .addColumn("undoneByName", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("reconciles_project").on("reconciles").columns(["projectId", "createdAt"])
    .execute();

  await sql`CREATE TABLE reconcile_items (
    reconcileId TEXT NOT NULL, sessionId TEXT NOT NULL, PRIMARY KEY (reconcileId, sessionId)
  ) WITHOUT ROWID`.execute(db);
  await sql`CREATE TABLE reconcile_stage (
    reconcileId TEXT NOT NULL, sessionId TEXT NOT NULL, PRIMARY KEY (reconcileId, sessionId)
  ) WITHOUT ROWID`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("reconcile_stage").execute();
  await db.schema.dropTable("reconcile_items").execute();
  await db.schema.dropTable("reconciles").execute();
  await sql`DROP INDEX router_hooks_key`.execute(db);
  await db.schema.alterTable("router_hooks").dropColumn("hookKey").execute();
  await db.schema.alterTable("router_daily").dropColumn("rejected").execute();
  await db.schema.alterTable("router_daily").dropColumn("approved").execute();
  await db.schema.alterTable("sessions").dropColumn("reconciled").execute();
}
