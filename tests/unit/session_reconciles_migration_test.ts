/**
 * Migration 0018: the reconcile state of sessions moves from the sessions row to session_reconciles
 * and back on the way down, row for row.
 */
import { assertEquals } from "../helpers/assert.ts";
import { sql } from "kysely";
import { migratingDb } from "../helpers/migrations.ts";

Deno.test("migration 0018: reconciled sessions move to session_reconciles (and back down), the others get no row", async () => {
  const { handle, to } = await migratingDb();
  try {
    await to("0017_interlocked_quotas");
    const at = "2026-11-20T10:00:00.000Z";
    for (const [id, reconciled] of [["s-none", 0], ["s-approved", 1], ["s-rejected", 2]] as const) {
      await sql`INSERT INTO sessions (id, projectId, clientId, supplierMapId, supplierId, sid, status, createdAt, updatedAt, reconciled)
        VALUES (${id}, 'p', 'c', 'm', 'sup', ${id}, 'complete', ${at}, ${at}, ${reconciled})`.execute(
        handle.db,
      );
    }
    await to("0018_session_reconciles");
    const moved = await sql<{ sessionId: string; state: number }>`
      SELECT sessionId, state FROM session_reconciles ORDER BY sessionId`.execute(handle.db);
    assertEquals(moved.rows, [{ sessionId: "s-approved", state: 1 }, { sessionId: "s-rejected", state: 2 }]);
    const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info('sessions')`.execute(
      handle.db,
    );
    assertEquals(
      columns.rows.some((c) => c.name === "reconciled"),
      false,
      "the sessions row no longer holds it",
    );

    await to("0017_interlocked_quotas");
    const back = await sql<
      { id: string; reconciled: number }
    >`SELECT id, reconciled FROM sessions ORDER BY id`
      .execute(handle.db);
    assertEquals(back.rows, [
      { id: "s-approved", reconciled: 1 },
      { id: "s-none", reconciled: 0 },
      { id: "s-rejected", reconciled: 2 },
    ]);
  } finally {
    await handle.close();
  }
});
