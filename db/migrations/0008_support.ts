// Frozen: never edit a migration that has shipped; add a new one.
// Support tools:
// - Identifier search looks respondents up by the supplier's identifier (sid) across every project.
//   The router's unique (projectId, sid) index cannot serve a search without the project, and the
//   router dropped its own sid index for write speed; this one costs each entry one more b-tree
//   insert (measured with `deno task bench router`, see README). User identifiers (uid) are the
//   sessions' primary key already.
// - Scheduled jobs: a job watches one project every `interval` minutes. `nextRunAt` is both the due
//   time and, while a run is under way, the end of that run's lease: a scheduler claims a due job
//   with one conditional UPDATE on it, so instances sharing the database run each tick once, and a
//   run whose instance died is due again when its lease runs out (as the approved hooks are).
// - E-mail attachments (the progress report image of the Soft jobs): JSON in the outbox row.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex("sessions_sid").on("sessions").column("sid").execute();

  await db.schema.createTable("scheduled_jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("projectId", "text", (c) => c.notNull())
    // minutes between runs, at least 2
    .addColumn("interval", "integer", (c) => c.notNull())
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    // Soft: changes nothing, only e-mails the progress report to the project's manager
    .addColumn("isSoft", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isActive", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("isDeleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdBy", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    // due time, or the lease end while a run is under way
    .addColumn("nextRunAt", "text", (c) => c.notNull())
    .addColumn("lastRunAt", "text")
    // ok | error
    .addColumn("lastStatus", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("lastOutcome", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("runs", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE INDEX scheduled_jobs_due ON scheduled_jobs(nextRunAt) WHERE isActive = 1 AND isDeleted = 0`
    .execute(db);
  await db.schema.createIndex("scheduled_jobs_list").on("scheduled_jobs").columns(["isDeleted", "createdAt"])
    .execute();

  await db.schema.alterTable("email_outbox").addColumn(
    "attachments",
    "text",
    (c) => c.notNull().defaultTo("[]"),
  )
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("email_outbox").dropColumn("attachments").execute();
  await db.schema.dropTable("scheduled_jobs").execute();
  await db.schema.dropIndex("sessions_sid").execute();
}
