/**
 * Migration 0041: the unique index of live arrivals is keyed (sid, projectId). The same rule (one
 * live arrival per respondent and project; refused and test arrivals stay out), and a respondent's
 * live sessions are one range of it: routing's read of them (LIVE_OF_SID) uses it, so a sid
 * repeated in any number of refused arrivals costs that read nothing. Down restores (projectId, sid).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { sql } from "kysely";
import { migratingDb } from "../helpers/migrations.ts";
import { LIVE_OF_SID, liveOfSid } from "../../server/domain/router/routing.ts";

Deno.test("migration 0041: live arrivals are indexed sid first, unique as before; routing reads a respondent's by that range", async () => {
  const { handle, to } = await migratingDb();
  const columns = async () =>
    (await sql<{ name: string }>`SELECT name FROM pragma_index_info('sessions_live_sid') ORDER BY seqno`
      .execute(handle.db)).rows.map((r) => r.name);
  try {
    await to("0040_held_time");
    assertEquals(await columns(), ["projectId", "sid"]);
    const at = "2026-03-04T05:06:07.000Z";
    let n = 0;
    const session = (projectId: string, sid: string, status: string, isTest = 0) =>
      sql`INSERT INTO sessions (id, projectId, clientId, supplierMapId, supplierId, sid, status, isTest,
          createdAt, updatedAt)
        VALUES (${String(++n).padStart(24, "0")}, ${projectId}, 'c', 'm', 's', ${sid}, ${status}, ${isTest},
          ${at}, ${at})`.execute(handle.db);
    await session("p1", "m1", "complete");
    await session("p2", "m1", "redirected");
    await to("0041_live_sid_order");
    assertEquals(await columns(), ["sid", "projectId"]);

    // still one live arrival per respondent and project; refused and test ones are not counted
    const again = await session("p1", "m1", "redirected").then(() => null, (e) => e);
    assert(
      again && /UNIQUE constraint failed/.test(String(again)),
      `a second live arrival is refused: ${again}`,
    );
    for (let i = 0; i < 50; i++) await session("p1", "m1", i % 2 ? "duplicate" : "closed");
    await session("p1", "m1", "redirected", 1);
    await session("p3", "m1", "terminate");
    await session("p3", "m2", "complete");

    // routing's read: the live arrivals' range of the sid, nothing else
    const plan = await handle.client.execute({ sql: `EXPLAIN QUERY PLAN ${LIVE_OF_SID}`, args: ["m1"] });
    assertEquals(plan.rows.map((r) => r.detail), ["SEARCH sessions USING INDEX sessions_live_sid (sid=?)"]);
    const live = await handle.client.execute({ sql: LIVE_OF_SID, args: ["m1"] });
    assertEquals(liveOfSid(live.rows).map((r) => [r.projectId, r.status]).sort(), [
      ["p1", "complete"],
      ["p2", "redirected"],
      ["p3", "terminate"],
    ]);
  } finally {
    await handle.close();
  }
  // down (on a database of its own: a read's cursor lives until the GC, and an index is not
  // dropped under one)
  const down = await migratingDb();
  try {
    await down.to("0041_live_sid_order");
    await down.to("0040_held_time");
    const cols = await sql<
      { name: string }
    >`SELECT name FROM pragma_index_info('sessions_live_sid') ORDER BY seqno`
      .execute(down.db);
    assertEquals(cols.rows.map((r) => r.name), ["projectId", "sid"]);
  } finally {
    await down.handle.close();
  }
});
