// Frozen: never edit a migration that has shipped; add a new one.
// Leases of the single-run tasks (drop sweep, scheduled backups, scheduled-jobs tick, planner
// statistics, offer refresh): app instances sharing a database each run the timers, and only the
// holder of a task's lease runs it; a lease runs out at expiresAt, so a crashed holder's task is
// taken over by another instance.
import type { Kysely } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("task_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("takenAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("task_leases").execute();
}
