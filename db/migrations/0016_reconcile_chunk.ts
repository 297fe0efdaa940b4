// Frozen: never edit a migration that has shipped; add a new one.
// The chunk table of a reconcile upload: the sessions one chunk's identifiers name, written and
// emptied inside that chunk's transaction (so it is always empty between transactions). The app
// makes it a temporary table of the same name where it can (an embedded SQLite file: in memory,
// nothing written to the database file); a libSQL server refuses temporary tables, and there this
// one is used.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE TABLE reconcile_chunk (
    rid INTEGER NOT NULL, id TEXT NOT NULL, kind INTEGER NOT NULL, sid TEXT NOT NULL,
    projectId TEXT NOT NULL, supplierMapId TEXT NOT NULL, supplierId TEXT NOT NULL,
    parentProjectId TEXT, clientId TEXT NOT NULL, day TEXT NOT NULL,
    PRIMARY KEY (kind, projectId, supplierId, supplierMapId, day, rid)
  ) WITHOUT ROWID`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("reconcile_chunk").execute();
}
