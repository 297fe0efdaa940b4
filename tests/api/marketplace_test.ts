/**
 * The marketplace simulation, small and fast (issue 24's checks; the full one is in `deno task
 * bench marketplace`): surveys with quotas, targeting, incidence and LOI answered by a simulated
 * client survey, members of several suppliers with profiles from a known distribution, all through
 * the real router over HTTP. Counters equal a recount afterwards.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { buildMarket, marketFigures, membersOf, runMarket } from "../helpers/marketplace.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";

const OPTIONS = { seed: 11, surveys: 8, suppliers: 3, members: 300, perTick: 12 };

Deno.test("marketplace: members flow through the router to an outcome; completes stay within the limits; counters equal a recount", async () => {
  const t = await testApp();
  try {
    const market = await buildMarket(t, OPTIONS);
    const run = await runMarket(
      market,
      membersOf(OPTIONS),
      OPTIONS,
      (path, init) => t.app.request(path, init),
    );
    const f = await marketFigures(t.deps.db, market, run);
    console.log(JSON.stringify({ ...f, outcomes: run.outcomes }));
    assertEquals(f.entries, OPTIONS.members);
    // every member lands back at its panel exactly once
    assertEquals(Object.values(run.outcomes).reduce((a, b) => a + b, 0), OPTIONS.members);
    assert(f.completes > 0 && f.completes <= run.clientCompletes);
    assert(f.questionsPerEntry > 0);
    assertEquals(run.failed, 0);
    assertEquals(await counterMismatches(t.deps.db, market.projectIds), []);
  } finally {
    await t.close();
  }
});
