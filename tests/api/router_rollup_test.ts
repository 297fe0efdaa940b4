/**
 * The rollups of router_daily (router_daily_totals by day, router_monthly by month, project and
 * supplier) are written by the router's writer in its own batch (migration 0014 dropped the
 * triggers that kept them): after mixed traffic across a month's end, drops, a late complete and a
 * reconcile-style write, they equal a recount from router_daily, and the counters a recount from
 * the sessions.
 */
import { assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { back, enter, liveProject, mixedTraffic, router, uidOf } from "../helpers/router.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { addToRouterDaily, ROLLED_COLUMNS, rollupMismatches } from "../../server/domain/router/rollup.ts";
import { sql } from "kysely";

Deno.test("router rollups: day totals and monthly rollup equal a recount from router_daily after mixed traffic over a month's end", async () => {
  let clock = Date.parse("2026-10-31T23:30:00Z");
  const t = await testApp({}, { now: () => clock });
  try {
    const triggers = await sql<{ name: string }>`SELECT name FROM sqlite_master
      WHERE type = 'trigger' AND tbl_name = 'router_daily'`.execute(t.deps.db);
    assertEquals(triggers.rows, [], "no trigger left on router_daily");

    const a = await liveProject(t, { child: { averageLOI: 10, sampleSize: 25 } });
    const b = await liveProject(t, { child: { sampleSize: 0 } });
    await mixedTraffic([t], a.mapId, 45, "a");
    await mixedTraffic([t], b.mapId, 30, "b");
    // left unanswered: they drop after 20 (a) and 30 (b) minutes, in November
    const late = uidOf((await enter(t, a.mapId, "late")).location);
    await enter(t, b.mapId, "gone");
    clock += 45 * 60_000;
    await router(t).sweep();
    // a late complete takes back the drop (October 31st) and counts on November 1st
    await back(t, late, "c");
    await mixedTraffic([t], b.mapId, 30, "nov");
    await router(t).writer.idle();

    // a writer outside the router (reconcile's approved counts) goes through the same function
    const row = await t.deps.db.selectFrom("router_daily").selectAll().where("projectId", "=", b.child._id)
      .orderBy("date").executeTakeFirstOrThrow();
    await addToRouterDaily(t.deps.db, [{ ...row, ...zeroCounts(), approved: 2 }]);
    await addToRouterDaily(t.deps.db, [{ ...row, ...zeroCounts(), clicked: 1, revenue: 0.1 }, {
      ...row,
      ...zeroCounts(),
      clicked: -1,
      revenue: -0.1,
    }]);

    const totals = await t.deps.db.selectFrom("router_daily_totals").select([
      "date",
      "clicked",
      "complete",
      "drop",
    ])
      .orderBy("date").execute();
    assertEquals(totals.map((r) => r.date), ["2026-10-31", "2026-11-01"]);
    assertEquals(totals.reduce((n, r) => n + r.drop, 0) > 0, true, "drops were counted");
    const months = (await sql<{ month: string }>`SELECT DISTINCT month FROM router_monthly ORDER BY month`
      .execute(t.deps.db)).rows;
    assertEquals(months.map((r) => r.month), ["2026-10", "2026-11"]);
    assertEquals(await rollupMismatches(t.deps.db), []);
    assertEquals(await counterMismatches(t.deps.db), []);
  } finally {
    await t.close();
  }
});

/** Every counted column of router_daily at zero (the router's rollups, approved and rejected). */
function zeroCounts() {
  return Object.fromEntries([...ROLLED_COLUMNS, "approved", "rejected"].map((c) => [c, 0]));
}
