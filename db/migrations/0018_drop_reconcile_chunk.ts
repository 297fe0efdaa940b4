// Frozen: never edit a migration that has shipped; add a new one.
// A reconcile chunk is now read in one statement whose few rows come back (server/domain/reconcile/
// classify.ts), on the app's connection or on a worker's: the chunk table of 0016 is no longer
// written, on a libSQL server or anywhere.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`DROP TABLE IF EXISTS reconcile_chunk`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`CREATE TABLE reconcile_chunk (
    rid INTEGER NOT NULL, id TEXT NOT NULL, kind INTEGER NOT NULL, sid TEXT NOT NULL,
    projectId TEXT NOT NULL, supplierMapId TEXT NOT NULL, supplierId TEXT NOT NULL,
    parentProjectId TEXT, clientId TEXT NOT NULL, day TEXT NOT NULL,
    PRIMARY KEY (kind, projectId, supplierId, supplierMapId, day, rid)
  ) WITHOUT ROWID`.execute(db);
}
