// Frozen: never edit a migration that has shipped; add a new one.
// The reports' rows without adding up every counter of every rollup row: a report row is a row only
// if the range counted something on it, so each report counts its rollup rows (keys only) less the
// rows that counted nothing. These partial indexes hold exactly those rows (every counter zero, a
// rollup row taken back to zero): normally none, so they cost the router's writes next to nothing
// (one expression evaluated per written row) and the reports find the rows in no time. The
// expression is spelled exactly as server/domain/dashboard/ranges.ts's COUNTED spells it, so the
// planner matches the reports' `COUNTED <= 0` to the index (tests/api/reports_test.ts checks it).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

/** The rollup's counters at the time of this migration, in ROLLUP_COUNTERS' order. */
const COUNTERS = [
  "clicked",
  "complete",
  "terminate",
  "overQuota",
  "qualityTerm",
  "drop",
  "security",
  "preScreenTerminate",
  "preScreenDrop",
  "secDuplicate",
  "secIp",
  "secDevice",
  "secGeo",
  "secProxy",
  "secRd",
  "speeder",
] as const;

const COUNTED = `(${COUNTERS.map((c) => `"${c}"`).join(" + ")})`;

export async function up(db: AnyDb): Promise<void> {
  await sql.raw(`CREATE INDEX router_monthly_project ON router_monthly (projectId, month)`).execute(db);
  await sql.raw(`CREATE INDEX router_daily_project ON router_daily (projectId, date)`).execute(db);
  await sql.raw(`CREATE INDEX supplier_maps_project ON supplier_maps (projectId, supplierId)`).execute(db);
  await sql.raw(
    `CREATE INDEX router_monthly_uncounted ON router_monthly (month, projectId, supplierId)
      WHERE ${COUNTED} <= 0`,
  ).execute(db);
  await sql.raw(
    `CREATE INDEX router_daily_uncounted ON router_daily (date, projectId, supplierId)
      WHERE ${COUNTED} <= 0`,
  ).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql.raw(`DROP INDEX router_daily_uncounted`).execute(db);
  await sql.raw(`DROP INDEX router_monthly_uncounted`).execute(db);
  await sql.raw(`DROP INDEX supplier_maps_project`).execute(db);
  await sql.raw(`DROP INDEX router_daily_project`).execute(db);
  await sql.raw(`DROP INDEX router_monthly_project`).execute(db);
}
