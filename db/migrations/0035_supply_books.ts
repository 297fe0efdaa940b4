// Frozen: never edit a migration that has shipped; add a new one.
// The supply API's transactions (issue 23, `GET /supply/v1/transactions`): a supplier's sessions
// in the order they were written, walked by keyset. An index on supplierId alone is, in SQLite, an
// index on (supplierId, rowid): a page is one range seek `supplierId = ? AND rowid > ?` read in
// rowid order, never a sort and never OFFSET. rowid is the order the rows were committed in
// (SQLite has one writer at a time, and a new row takes a rowid above every row already there), so
// a walk by it reaches every row inserted while it goes on. Only inserts touch this index: the
// router's status updates do not.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE INDEX sessions_supplier ON sessions(supplierId)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX sessions_supplier`.execute(db);
}
