// Frozen: never edit a migration that has shipped; add a new one.
// In-progress holds (issue 24 item 2). Counters the router's writer keeps, never a scan:
// - projects / supplier_maps.held: live sessions in the client survey now (status 'redirected');
// - projects / supplier_maps.sent: live sessions ever sent to the client survey (redirectedAt set),
//   so sent - held is the sessions that came back or timed out, the base of the measured conversion;
// - projects / supplier_maps.pastLimit: completes accepted past a limit under a hold (reason
//   'past-limit');
// - quota_cell_holds: per quota cell (quotaId, quotaOptionId), the sessions in the client survey
//   that fill it (a session's quotaCells). Kept apart from project_quotas.quotaValue, which staff
//   screens and imports rewrite.
// Each is set here from the sessions as they stand, so a recount equals the counters at once.
import type { Kysely } from "kysely";
import { sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

const COLUMNS = ["held", "sent", "pastLimit"];

export async function up(db: AnyDb): Promise<void> {
  for (const table of ["projects", "supplier_maps"]) {
    for (const c of COLUMNS) {
      await db.schema.alterTable(table).addColumn(c, "integer", (col) => col.notNull().defaultTo(0))
        .execute();
    }
  }
  await sql`CREATE TABLE quota_cell_holds (
    quotaId TEXT NOT NULL,
    quotaOptionId TEXT NOT NULL,
    held INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (quotaId, quotaOptionId)
  ) WITHOUT ROWID`.execute(db);
  await sql`UPDATE projects SET
    held = (SELECT count(*) FROM sessions s WHERE s.projectId = projects.id AND s.isTest = 0
      AND s.status = 'redirected'),
    sent = (SELECT count(*) FROM sessions s WHERE s.projectId = projects.id AND s.isTest = 0
      AND s.redirectedAt IS NOT NULL)`.execute(db);
  await sql`UPDATE supplier_maps SET
    held = (SELECT count(*) FROM sessions s WHERE s.supplierMapId = supplier_maps.id AND s.isTest = 0
      AND s.status = 'redirected'),
    sent = (SELECT count(*) FROM sessions s WHERE s.supplierMapId = supplier_maps.id AND s.isTest = 0
      AND s.redirectedAt IS NOT NULL)`.execute(db);
  await sql`INSERT INTO quota_cell_holds (quotaId, quotaOptionId, held)
    SELECT json_extract(j.value, '$.quotaId'), json_extract(j.value, '$.quotaOptionId'), count(*)
    FROM sessions s, json_each(CASE WHEN json_valid(s.quotaCells) THEN s.quotaCells ELSE '[]' END) j
    WHERE s.isTest = 0 AND s.status = 'redirected'
      AND json_extract(j.value, '$.quotaId') IS NOT NULL AND json_extract(j.value, '$.quotaOptionId') IS NOT NULL
    GROUP BY 1, 2`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("quota_cell_holds").execute();
  for (const table of ["projects", "supplier_maps"]) {
    for (const c of COLUMNS) await db.schema.alterTable(table).dropColumn(c).execute();
  }
}
