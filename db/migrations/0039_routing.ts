// Frozen: never edit a migration that has shipped; add a new one.
// Routing of the screened-out (issue 24 item 3). projects.allowRouting: the child project routes its
// refused respondents and takes routed ones (off for the projects that exist; the create form and
// API turn it on for new ones). suppliers.allowRouting: the supplier opts in (off by default).
// sessions.chainId/hop: a routed session names the chain's first session (its uid) and its place in
// the chain (the first is hop 1, chainId NULL); the index serves "the chain's hops" reads.
// router_daily and its two rollups keep routed traffic apart: routed entries, completes, revenue.
import type { Kysely } from "kysely";
import { sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

const ROLLUPS = ["router_daily", "router_daily_totals", "router_monthly"];

export async function up(db: AnyDb): Promise<void> {
  await sql`ALTER TABLE projects ADD COLUMN allowRouting INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE suppliers ADD COLUMN allowRouting INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE sessions ADD COLUMN chainId TEXT`.execute(db);
  await sql`ALTER TABLE sessions ADD COLUMN hop INTEGER NOT NULL DEFAULT 1`.execute(db);
  await sql`CREATE INDEX sessions_chain ON sessions (chainId, hop) WHERE chainId IS NOT NULL`.execute(db);
  for (const t of ROLLUPS) {
    await sql`ALTER TABLE ${sql.table(t)} ADD COLUMN routedEntry INTEGER NOT NULL DEFAULT 0`.execute(db);
    await sql`ALTER TABLE ${sql.table(t)} ADD COLUMN routedComplete INTEGER NOT NULL DEFAULT 0`.execute(db);
    await sql`ALTER TABLE ${sql.table(t)} ADD COLUMN routedRevenue REAL NOT NULL DEFAULT 0`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ROLLUPS) {
    for (const c of ["routedEntry", "routedComplete", "routedRevenue"]) {
      await sql`ALTER TABLE ${sql.table(t)} DROP COLUMN ${sql.ref(c)}`.execute(db);
    }
  }
  await sql`DROP INDEX sessions_chain`.execute(db);
  await sql`ALTER TABLE sessions DROP COLUMN hop`.execute(db);
  await sql`ALTER TABLE sessions DROP COLUMN chainId`.execute(db);
  await sql`ALTER TABLE suppliers DROP COLUMN allowRouting`.execute(db);
  await sql`ALTER TABLE projects DROP COLUMN allowRouting`.execute(db);
}
