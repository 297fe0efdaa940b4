/**
 * Routing on the simulated marketplace (issue 24 item 3; tests/helpers/marketplace.ts): 10 surveys
 * with quotas, targeting and incidence, 500 members of 3 suppliers with profiles from a fixed seeded
 * distribution, the same run with routing off and on. Completes per 100 entries must be clearly
 * higher with routing on; every member still lands at their panel once and counters equal a recount.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { buildMarket, marketFigures, membersOf, runMarket } from "../helpers/marketplace.ts";
import { setMarketRouting } from "../helpers/routing.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { rollupMismatches } from "../../server/domain/router/rollup.ts";

const OPTIONS = { seed: 24, surveys: 10, suppliers: 3, members: 500, perTick: 20 };

async function run(routing: boolean) {
  const t = await testApp();
  try {
    const market = await buildMarket(t, OPTIONS);
    await setMarketRouting(t, market, routing);
    const sim = await runMarket(
      market,
      membersOf(OPTIONS),
      OPTIONS,
      (path, init) => t.app.request(path, init),
    );
    const f = await marketFigures(t.deps.db, market, sim);
    assertEquals(
      Object.values(sim.outcomes).reduce((a, b) => a + b, 0),
      OPTIONS.members,
      "each member home once",
    );
    assertEquals(sim.failed, 0);
    assertEquals(await counterMismatches(t.deps.db, market.projectIds), [], "counters equal a recount");
    assertEquals(await rollupMismatches(t.deps.db), [], "rollups agree");
    const routed = await t.deps.db.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n"))
      .where("hop", ">", 1).executeTakeFirstOrThrow();
    return { ...f, routedSessions: Number(routed.n) };
  } finally {
    await t.close();
  }
}

Deno.test("marketplace: routing lifts completes per 100 entries over single-survey links", async () => {
  const off = await run(false);
  const on = await run(true);
  const line = (f: Awaited<ReturnType<typeof run>>) =>
    `${f.completesPer100.toFixed(1)} completes per 100 entries, ${f.routedSessions} routed sessions, ` +
    `${f.questionsPerEntry.toFixed(2)} questions per entry`;
  console.log(
    `marketplace ${JSON.stringify(OPTIONS)}: routing off ${line(off)}; routing on ${line(on)}; ` +
      `lift ${(on.completesPer100 / off.completesPer100).toFixed(2)}x`,
  );
  assertEquals(off.routedSessions, 0, "routing off routes nobody");
  assert(on.routedSessions > 0);
  assert(
    on.completesPer100 >= 1.3 * off.completesPer100,
    `on ${on.completesPer100} vs off ${off.completesPer100}`,
  );
});
