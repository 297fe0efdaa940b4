// Frozen: never edit a migration that has shipped; add a new one.
// The identifiers of an upload that name no session of its project, kept with the upload so its
// result can list them (the first hundred on screen, all as a streamed CSV, the CLI's file). A row
// per unknown identifier, keyed by the upload and the identifier's place among the upload's
// distinct identifiers (so they read back in the file's order, a page at a time, by the key alone).
// Written by the chunk that found them, in the same transaction; gone with the upload when it is
// rolled back.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE TABLE reconcile_unknown (
    reconcileId TEXT NOT NULL, n INTEGER NOT NULL, identifier TEXT NOT NULL,
    PRIMARY KEY (reconcileId, n)
  ) WITHOUT ROWID`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("reconcile_unknown").execute();
}
