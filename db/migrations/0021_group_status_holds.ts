// Frozen: never edit a migration that has shipped; add a new one.
// A group project's Paused or Closed stops its children: this table remembers which children the
// group stopped and the status each had before, so that reopening the group brings back exactly
// those (a child paused on its own stays paused). One row per child held by its group; the row goes
// when the group reopens it or when the child's own status is changed.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE TABLE group_status_holds (
    projectId TEXT NOT NULL PRIMARY KEY,
    groupId TEXT NOT NULL,
    statusBefore INTEGER NOT NULL,
    createdAt TEXT NOT NULL
  ) WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX group_status_holds_group ON group_status_holds (groupId)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("group_status_holds").execute();
}
