// Frozen: never edit a migration that has shipped; add a new one.
// The router's rollups leave the triggers: router_daily_totals (0011) and router_monthly (0012) were
// kept by triggers on router_daily, one trigger run (two upserts) per router_daily row written, on
// the router's hot path. From here on every writer of router_daily adds to the two rollups itself,
// aggregated per batch, in the same transaction (server/domain/router/rollup.ts), so the triggers go.
// Plus router_guard: the router's write batch on a remote primary (one round trip, no interactive
// transaction) starts with guard rows `INSERT INTO router_guard (ok) SELECT <the state it decided
// on still holds>`; a stale decision inserts ok = 0, the CHECK fails and the whole batch rolls back.
// The batch deletes its guard rows before it ends, so the table stays empty.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

const TRIGGERS = [
  "router_daily_totals_insert",
  "router_daily_totals_update",
  "router_daily_totals_delete",
  "router_monthly_insert",
  "router_monthly_update",
  "router_monthly_delete",
];

/** The rollups' columns at the time of this migration (as 0011 and 0012 spell them). */
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
  for (const t of TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(db);
  await sql.raw(
    `CREATE TABLE router_guard (ok INTEGER NOT NULL CONSTRAINT router_guard_stale CHECK (ok = 1))`,
  )
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql.raw(`DROP TABLE router_guard`).execute(db);
  // the triggers as 0011 and 0012 made them
  const q = (c: string) => `"${c}"`;
  const cols = COLUMNS.map(q).join(", ");
  const set = COLUMNS.map((c) => `${q(c)} = ${q(c)} + excluded.${q(c)}`).join(", ");
  const vals = (sign: string, row: string) => COLUMNS.map((c) => `${sign}${row}.${q(c)}`).join(", ");
  const totals = (sign: string, row: string) =>
    `INSERT INTO router_daily_totals (date, ${cols}) VALUES (${row}.date, ${
      vals(sign, row)
    }) ON CONFLICT(date) DO UPDATE SET ${set};`;
  const monthly = (sign: string, row: string) =>
    `INSERT INTO router_monthly (month, projectId, supplierId, clientId, parentProjectId, ${cols})
     VALUES (substr(${row}.date, 1, 7), ${row}.projectId, ${row}.supplierId, ${row}.clientId,
       ${row}.parentProjectId, ${
      vals(sign, row)
    }) ON CONFLICT(month, projectId, supplierId) DO UPDATE SET ${set};`;
  for (const [name, add] of [["router_daily_totals", totals], ["router_monthly", monthly]] as const) {
    await sql.raw(`CREATE TRIGGER ${name}_insert AFTER INSERT ON router_daily BEGIN ${add("", "NEW")} END`)
      .execute(db);
    await sql.raw(
      `CREATE TRIGGER ${name}_update AFTER UPDATE ON router_daily BEGIN ${add("-", "OLD")} ${
        add("", "NEW")
      } END`,
    ).execute(db);
    await sql.raw(`CREATE TRIGGER ${name}_delete AFTER DELETE ON router_daily BEGIN ${add("-", "OLD")} END`)
      .execute(db);
  }
}
