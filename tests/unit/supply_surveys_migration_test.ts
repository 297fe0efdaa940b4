/**
 * Migration 0034: the measured LOI's sums start from the completes already there (live completes
 * whose length is known; test sessions and other outcomes left out), and the columns go on down.
 */
import { assertEquals } from "../helpers/assert.ts";
import { sql } from "kysely";
import { migratingDb } from "../helpers/migrations.ts";

Deno.test("migration 0034: projects' LOI sums are backfilled from their live completes", async () => {
  const { handle, to } = await migratingDb();
  try {
    await to("0033_member_profiles");
    const at = "2026-03-04T05:06:07.000Z";
    const p = "a".repeat(24), idle = "b".repeat(24);
    for (const [id, code, complete] of [[p, "C1", 3], [idle, "C2", 0]] as const) {
      await sql`INSERT INTO projects (id, projectType, projectCode, projectName, clientId, projectStatus, complete,
          createdAt, updatedAt, statusChangedAt)
        VALUES (${id}, 2, ${code}, 'Survey', ${"c".repeat(24)}, 1, ${complete}, ${at}, ${at}, ${at})`.execute(
        handle.db,
      );
    }
    const session = (n: number, status: string, seconds: number | null, isTest = 0) =>
      sql`INSERT INTO sessions (id, projectId, clientId, supplierMapId, supplierId, sid, status, isTest, seconds,
          createdAt, updatedAt)
        VALUES (${String(n).padStart(24, "0")}, ${p}, ${"c".repeat(24)}, ${"d".repeat(24)}, ${"e".repeat(24)},
          ${`s${n}`}, ${status}, ${isTest}, ${seconds}, ${at}, ${at})`.execute(handle.db);
    await session(1, "complete", 300);
    await session(2, "complete", 420);
    await session(3, "complete", null); // a complete without a known length
    await session(4, "terminate", 60);
    await session(5, "complete", 999, 1); // test traffic

    await to("0034_supply_surveys");
    const rows = await sql<
      { id: string; loiSeconds: number; loiCompletes: number; countersAt: string | null }
    >`
      SELECT id, loiSeconds, loiCompletes, countersAt FROM projects ORDER BY id`.execute(handle.db);
    assertEquals(rows.rows, [
      { id: p, loiSeconds: 720, loiCompletes: 2, countersAt: null },
      { id: idle, loiSeconds: 0, loiCompletes: 0, countersAt: null },
    ]);
    await to("0033_member_profiles");
    const cols = await sql<{ name: string }>`SELECT name FROM pragma_table_info('projects')`.execute(
      handle.db,
    );
    assertEquals(cols.rows.filter((c) => c.name.startsWith("loi") || c.name === "countersAt"), []);
  } finally {
    await handle.close();
  }
});
