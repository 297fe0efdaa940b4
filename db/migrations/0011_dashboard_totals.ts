// Frozen: never edit a migration that has shipped; add a new one.
// The dashboard's day totals: router_daily summed over every project and supplier, one row per day,
// kept by triggers on router_daily (so inside the router's own write transaction, with no change to
// its code). The dashboard's unfiltered figures and series read at most a few hundred of these rows
// instead of summing tens of thousands of rollup rows (design.md 5a); filtered ones use
// router_daily's client and supplier indexes.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

/** The rollup's counters and money columns at the time of this migration. */
const COLUMNS = [
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
  "revenue",
  "cost",
] as const;

export async function up(db: AnyDb): Promise<void> {
  const q = (c: string) => `"${c}"`;
  const typed = COLUMNS.map((c) =>
    `${q(c)} ${c === "revenue" || c === "cost" ? "REAL" : "INTEGER"} NOT NULL DEFAULT 0`
  );
  await sql.raw(`CREATE TABLE router_daily_totals (date TEXT PRIMARY KEY, ${typed.join(", ")}) WITHOUT ROWID`)
    .execute(db);
  const cols = COLUMNS.map(q).join(", ");
  const add = (sign: "+" | "-", row: "NEW" | "OLD") =>
    `INSERT INTO router_daily_totals (date, ${cols}) VALUES (${row}.date, ${
      COLUMNS.map((c) => `${sign === "-" ? "-" : ""}${row}.${q(c)}`).join(", ")
    }) ON CONFLICT(date) DO UPDATE SET ${
      COLUMNS.map((c) => `${q(c)} = ${q(c)} + excluded.${q(c)}`).join(", ")
    };`;
  await sql.raw(
    `CREATE TRIGGER router_daily_totals_insert AFTER INSERT ON router_daily BEGIN ${add("+", "NEW")} END`,
  ).execute(db);
  await sql.raw(
    `CREATE TRIGGER router_daily_totals_update AFTER UPDATE ON router_daily BEGIN ${add("-", "OLD")} ${
      add("+", "NEW")
    } END`,
  ).execute(db);
  await sql.raw(
    `CREATE TRIGGER router_daily_totals_delete AFTER DELETE ON router_daily BEGIN ${add("-", "OLD")} END`,
  ).execute(db);
  // what the router counted before this migration
  await sql.raw(
    `INSERT INTO router_daily_totals (date, ${cols}) SELECT date, ${
      COLUMNS.map((c) => `sum(${q(c)})`).join(", ")
    } FROM router_daily GROUP BY date`,
  ).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ["insert", "update", "delete"]) {
    await sql.raw(`DROP TRIGGER router_daily_totals_${t}`).execute(db);
  }
  await db.schema.dropTable("router_daily_totals").execute();
}
