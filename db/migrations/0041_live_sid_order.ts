// Frozen: never edit a migration that has shipped; add a new one.
// The unique index of live arrivals (one per respondent and project, migration 0004) keyed by the
// respondent first: (sid, projectId) instead of (projectId, sid). The same uniqueness, the same
// lookups by pair; and a respondent's live sessions across many projects are one range of it
// (routing reads them for every survey it might offer: 50 seeks became one, bounded by the
// projects, as only live arrivals are in it: a sid repeated in refused arrivals costs nothing).
import type { Kysely } from "kysely";
import { sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`DROP INDEX sessions_live_sid`.execute(db);
  await sql`CREATE UNIQUE INDEX sessions_live_sid ON sessions(sid, projectId)
    WHERE isTest = 0 AND status NOT IN ('closed', 'duplicate')`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX sessions_live_sid`.execute(db);
  await sql`CREATE UNIQUE INDEX sessions_live_sid ON sessions(projectId, sid)
    WHERE isTest = 0 AND status NOT IN ('closed', 'duplicate')`.execute(db);
}
