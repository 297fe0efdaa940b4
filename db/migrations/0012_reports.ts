// Frozen: never edit a migration that has shipped; add a new one.
// The router's rollup by month: router_daily summed per calendar month (UTC), per project and
// supplier, kept by triggers on router_daily as 0011 keeps the day totals (inside the router's own
// write transaction, no change to its code). Ranges of whole months (This Month, the Monthly and
// Yearly charts, report ranges) read a month's row instead of its thirty day rows; a range's edge
// days still come from router_daily. Plus a covering index on router_daily for the per-project day
// ranges (the Today dialogs' Last 7 Days): the scan never leaves the index.
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
  await sql.raw(
    `CREATE TABLE router_monthly (month TEXT NOT NULL, projectId TEXT NOT NULL, supplierId TEXT NOT NULL,
      clientId TEXT NOT NULL, parentProjectId TEXT, ${typed.join(", ")},
      PRIMARY KEY (month, projectId, supplierId)) WITHOUT ROWID`,
  ).execute(db);
  await sql.raw(`CREATE INDEX router_monthly_supplier ON router_monthly (supplierId, month)`).execute(db);
  await sql.raw(`CREATE INDEX router_monthly_client ON router_monthly (clientId, month)`).execute(db);
  const cols = COLUMNS.map(q).join(", ");
  const add = (sign: "+" | "-", row: "NEW" | "OLD") =>
    `INSERT INTO router_monthly (month, projectId, supplierId, clientId, parentProjectId, ${cols})
     VALUES (substr(${row}.date, 1, 7), ${row}.projectId, ${row}.supplierId, ${row}.clientId,
       ${row}.parentProjectId, ${COLUMNS.map((c) => `${sign === "-" ? "-" : ""}${row}.${q(c)}`).join(", ")})
     ON CONFLICT(month, projectId, supplierId) DO UPDATE SET ${
      COLUMNS.map((c) => `${q(c)} = ${q(c)} + excluded.${q(c)}`).join(", ")
    };`;
  await sql.raw(
    `CREATE TRIGGER router_monthly_insert AFTER INSERT ON router_daily BEGIN ${add("+", "NEW")} END`,
  ).execute(db);
  await sql.raw(
    `CREATE TRIGGER router_monthly_update AFTER UPDATE ON router_daily BEGIN ${add("-", "OLD")} ${
      add("+", "NEW")
    } END`,
  ).execute(db);
  await sql.raw(
    `CREATE TRIGGER router_monthly_delete AFTER DELETE ON router_daily BEGIN ${add("-", "OLD")} END`,
  ).execute(db);
  // what the router counted before this migration
  await sql.raw(
    `INSERT INTO router_monthly (month, projectId, supplierId, clientId, parentProjectId, ${cols})
     SELECT substr(date, 1, 7), projectId, supplierId, max(clientId), max(parentProjectId), ${
      COLUMNS.map((c) => `sum(${q(c)})`).join(", ")
    } FROM router_daily GROUP BY substr(date, 1, 7), projectId, supplierId`,
  ).execute(db);
  await sql.raw(
    `CREATE INDEX router_daily_day_project ON router_daily
      (date, projectId, "complete", "revenue", "clicked", "security")`,
  ).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql.raw(`DROP INDEX router_daily_day_project`).execute(db);
  for (const t of ["insert", "update", "delete"]) {
    await sql.raw(`DROP TRIGGER router_monthly_${t}`).execute(db);
  }
  await sql.raw(`DROP TABLE router_monthly`).execute(db);
}
