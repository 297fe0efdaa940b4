/**
 * Migration 0038: the hold counters start from the sessions as they stand (so a recount equals them
 * at once), and the way down drops them.
 */
import { assertEquals } from "../helpers/assert.ts";
import { sql } from "kysely";
import { migratingDb } from "../helpers/migrations.ts";

Deno.test("migration 0038: held, sent and the cells' holds are counted from the sessions; down drops them", async () => {
  const { handle, to } = await migratingDb();
  try {
    await to("0033_member_profiles");
    const at = "2026-11-20T10:00:00.000Z";
    await sql`INSERT INTO projects (id, projectType, projectCode, projectName, clientId, projectStatus, createdAt,
      updatedAt, statusChangedAt) VALUES ('p', 2, 'P1', 'P', 'c', 1, ${at}, ${at}, ${at})`.execute(handle.db);
    await sql`INSERT INTO supplier_maps (id, projectId, supplierId, createdAt, updatedAt)
      VALUES ('m', 'p', 'sup', ${at}, ${at})`.execute(handle.db);
    const cells = JSON.stringify([{ quotaId: "q", quotaOptionId: "f" }, {
      quotaId: "q2",
      quotaOptionId: "x",
    }]);
    const rows: [string, string, string | null, number, string][] = [
      ["in-1", "redirected", at, 0, cells],
      ["in-2", "redirected", at, 0, JSON.stringify([{ quotaId: "q", quotaOptionId: "f" }])],
      ["in-test", "redirected", at, 1, cells],
      ["done", "complete", at, 0, cells],
      ["dropped", "drop", at, 0, "[]"],
      ["refused", "overQuota", null, 0, "[]"],
      ["broken", "redirected", at, 0, "not json"],
    ];
    for (const [id, status, redirectedAt, isTest, quotaCells] of rows) {
      await sql`INSERT INTO sessions (id, projectId, clientId, supplierMapId, supplierId, sid, status, isTest,
        redirectedAt, quotaCells, createdAt, updatedAt)
        VALUES (${id}, 'p', 'c', 'm', 'sup', ${id}, ${status}, ${isTest}, ${redirectedAt}, ${quotaCells}, ${at}, ${at})`
        .execute(handle.db);
    }
    await to("0038_router_holds");
    for (const table of ["projects", "supplier_maps"]) {
      const r = await sql<{ held: number; sent: number; pastLimit: number }>`
        SELECT held, sent, pastLimit FROM ${sql.table(table)}`.execute(handle.db);
      // in the survey: in-1, in-2, broken (test sessions hold nothing); ever sent: those and done, dropped
      assertEquals(r.rows, [{ held: 3, sent: 5, pastLimit: 0 }], table);
    }
    const cellRows = await sql<{ quotaId: string; quotaOptionId: string; held: number }>`
      SELECT quotaId, quotaOptionId, held FROM quota_cell_holds ORDER BY quotaId`.execute(handle.db);
    assertEquals(cellRows.rows, [
      { quotaId: "q", quotaOptionId: "f", held: 2 },
      { quotaId: "q2", quotaOptionId: "x", held: 1 },
    ]);

    await to("0033_member_profiles");
    const cols = await sql<{ name: string }>`SELECT name FROM pragma_table_info('projects')`.execute(
      handle.db,
    );
    assertEquals(cols.rows.some((c) => c.name === "held"), false);
    const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name = 'quota_cell_holds'`
      .execute(handle.db);
    assertEquals(tables.rows, []);
  } finally {
    await handle.close();
  }
});
