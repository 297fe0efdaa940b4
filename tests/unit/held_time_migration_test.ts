/**
 * Migration 0040: the time sums of the sessions back from the survey as anything but a complete
 * start from the sessions already there (live ones whose length is known; completes, test sessions
 * and sessions still open left out), and the columns go on down.
 */
import { assertEquals } from "../helpers/assert.ts";
import { sql } from "kysely";
import { migratingDb } from "../helpers/migrations.ts";

Deno.test("migration 0040: projects' time sums of other outcomes are backfilled from their sessions", async () => {
  const { handle, to } = await migratingDb();
  try {
    await to("0039_routing");
    const at = "2026-03-04T05:06:07.000Z";
    const p = "a".repeat(24), idle = "b".repeat(24);
    for (const [id, code] of [[p, "C1"], [idle, "C2"]] as const) {
      await sql`INSERT INTO projects (id, projectType, projectCode, projectName, clientId, projectStatus,
          createdAt, updatedAt, statusChangedAt)
        VALUES (${id}, 2, ${code}, 'Survey', ${"c".repeat(24)}, 1, ${at}, ${at}, ${at})`.execute(handle.db);
    }
    const session = (n: number, status: string, seconds: number | null, isTest = 0) =>
      sql`INSERT INTO sessions (id, projectId, clientId, supplierMapId, supplierId, sid, status, isTest, seconds,
          createdAt, updatedAt)
        VALUES (${String(n).padStart(24, "0")}, ${p}, ${"c".repeat(24)}, ${"d".repeat(24)}, ${"e".repeat(24)},
          ${`s${n}`}, ${status}, ${isTest}, ${seconds}, ${at}, ${at})`.execute(handle.db);
    await session(1, "terminate", 60);
    await session(2, "overQuota", 90);
    await session(3, "qualityTerm", 30);
    await session(4, "terminate", null); // no known length
    await session(5, "complete", 600); // a complete: the LOI sums (0034), not these
    await session(6, "terminate", 45, 1); // test traffic
    await session(7, "redirected", null); // still in the survey

    await to("0040_held_time");
    const rows = await sql<{ id: string; otherSeconds: number; otherTimed: number }>`
      SELECT id, otherSeconds, otherTimed FROM projects ORDER BY id`.execute(handle.db);
    assertEquals(rows.rows, [
      { id: p, otherSeconds: 180, otherTimed: 3 },
      { id: idle, otherSeconds: 0, otherTimed: 0 },
    ]);
    await to("0039_routing");
    const cols = await sql<{ name: string }>`SELECT name FROM pragma_table_info('projects')`.execute(
      handle.db,
    );
    assertEquals(cols.rows.filter((c) => c.name.startsWith("other")), []);
  } finally {
    await handle.close();
  }
});
