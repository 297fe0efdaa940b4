/**
 * Two app instances on one libSQL server (sqld over HTTP): the database arbitrates quota and
 * duplicate decisions, so completes stop at the sample size and a respondent is let in once, however
 * the traffic is spread over the instances.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";
import { back, counts, enter, liveProject, PANEL, uidOf } from "../helpers/router.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { routerFor } from "../../server/domain/router/router.ts";

Deno.test({
  name:
    "router on sqld: two app instances, 300 parallel entries and returns, a quota of 50: exactly 50 completes",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    const a = await testApp({ DATABASE_URL: server.url });
    const b = await testApp({ DATABASE_URL: server.url });
    try {
      const s = await liveProject(a, { child: { sampleSize: 50 } });
      const results = await Promise.all(Array.from({ length: 300 }, async (_, i) => {
        const app = i % 2 ? a : b;
        const e = await enter(app, s.mapId, `m-${i}`);
        if (!e.location.startsWith("https://client.example")) return e.location;
        // the return may reach the other instance
        return (await back(i % 3 ? a : b, uidOf(e.location), "c")).location;
      }));
      assertEquals(results.filter((l) => l.startsWith(`${PANEL}/complete`)).length, 50);
      assertEquals(results.filter((l) => l.startsWith(`${PANEL}/quotafull`)).length, 250);
      const c = await counts(a, "projects", s.child._id);
      assertEquals([c.clicked, c.complete, c.overQuota], [300, 50, 250]);

      // the same respondent at both instances at once: one entry, the rest duplicates
      const same = await Promise.all(
        Array.from({ length: 10 }, (_, i) => enter(i % 2 ? a : b, s.mapId, "twin")),
      );
      const let_in = same.filter((r) => !r.location.startsWith(`${PANEL}/quality`));
      assertEquals(let_in.length, 1);
      await routerFor(a.deps).idle();
      await routerFor(b.deps).idle();
      assertEquals(await counterMismatches(a.deps.db), []);
      assert(routerFor(a.deps).writer.flushes + routerFor(b.deps).writer.flushes < 620);
    } catch (e) {
      if (e instanceof Error) e.message += `\n--- sqld log tail ---\n${server.log().slice(-1500)}`;
      throw e;
    } finally {
      await b.close();
      await a.close();
    }
  },
});
