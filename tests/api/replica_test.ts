/**
 * Scale-out with embedded replicas: two app instances on one libSQL server (sqld), each reading
 * from its own replica file (DATABASE_REPLICA_PATH, synced every DATABASE_SYNC_INTERVAL seconds)
 * and writing to the primary. Router entries, returns and staff calls served by both at once:
 * counts exact, the quota never exceeded, a respondent let in once, and a project edit made on one
 * instance seen by the other within a second.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";
import { back, enter, liveProject, PANEL, uidOf } from "../helpers/router.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { rollupMismatches } from "../../server/domain/router/rollup.ts";
import { remoteOf } from "../../server/db/connection.ts";
import { EnvError, loadEnv } from "../../server/env.ts";

/** Waits until `check` holds (polling every 10 ms); answers the milliseconds it took. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<number> {
  const t0 = performance.now();
  while (!(await check())) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return performance.now() - t0;
}

const projectName = async (t: TestApp, id: string) => {
  const r = await t.call("GET", `/admin/project/${id}`, { token: await t.tokenFor("SUPERADMIN") });
  assertEquals(r.status, 200, r.text);
  return r.json.result.projectName as string;
};

Deno.test({
  name:
    "replicas: two instances on sqld, each with an embedded replica: router and staff traffic at once, counts exact, an edit on A seen by B within 1 s",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    const dir = await Deno.makeTempDir({ prefix: "samplex-replicas-" });
    const env = (name: string) => ({
      DATABASE_URL: server.url,
      DATABASE_REPLICA_PATH: `${dir}/${name}.db`,
      DATABASE_SYNC_INTERVAL: "0.25",
    });
    const a = await testApp(env("a"));
    const b = await testApp(env("b"));
    try {
      assert(remoteOf(a.deps.db)?.replica && remoteOf(b.deps.db)?.replica, "both read from a replica");
      const s = await liveProject(a, { child: { sampleSize: 40 } });
      await a.tokenFor("SUPERADMIN");
      // B's replica catches up with what A set up (the project, the map, the staff user)
      await until(
        "B sees the map",
        async () =>
          !!(await b.deps.db.selectFrom("supplier_maps").select("id").where("id", "=", s.mapId)
            .executeTakeFirst()),
      );
      await until(
        "B sees the user",
        async () => !!(await b.deps.db.selectFrom("users").select("id").executeTakeFirst()),
      );

      const tokens = [await a.tokenFor("SUPERADMIN"), await b.tokenFor("SUPERADMIN")];
      const [routed, staffCalls] = await Promise.all([
        Promise.all(Array.from({ length: 200 }, async (_, i) => {
          const e = await enter(i % 2 ? a : b, s.mapId, `r-${i}`);
          if (!e.location.startsWith("https://client.example")) return e.location;
          // the return may reach the other instance, whose replica may not have the session yet
          return (await back(i % 3 ? a : b, uidOf(e.location), "c")).location;
        })),
        Promise.all(
          Array.from(
            { length: 40 },
            (_, i) => (i % 2 ? a : b).call("GET", `/admin/project/${s.child._id}`, { token: tokens[i % 2] }),
          ),
        ),
      ]);
      assertEquals(staffCalls.map((r) => r.status), staffCalls.map(() => 200));
      assertEquals(routed.filter((l) => l.startsWith(`${PANEL}/complete`)).length, 40, "the quota, not more");
      assertEquals(routed.filter((l) => l.startsWith(`${PANEL}/quotafull`)).length, 160);

      // the same respondent at both instances at once: let in once
      const twins = await Promise.all(
        Array.from({ length: 6 }, (_, i) => enter(i % 2 ? a : b, s.mapId, "twin")),
      );
      assertEquals(twins.filter((r) => !r.location.startsWith(`${PANEL}/quality`)).length, 1);
      await a.deps.services.router.idle();
      await b.deps.services.router.idle();

      // the primary's counts are exact, and both replicas come to them
      const primary = remoteOf(a.deps.db)!.primaryDb;
      const countsOn = (db: typeof primary) =>
        db.selectFrom("projects").select(["clicked", "complete", "overQuota", "security"])
          .where("id", "=", s.child._id).executeTakeFirstOrThrow();
      const want = await countsOn(primary);
      // 160 refused as over quota, and the twin, let in once after the sample was full
      assertEquals([want.complete, want.overQuota], [40, 161]);
      for (const t of [a, b]) {
        await until("the replica has the counts", async () => {
          const c = await countsOn(t.deps.db);
          return JSON.stringify(c) === JSON.stringify(want);
        });
      }
      assertEquals(await counterMismatches(primary), []);
      assertEquals(await rollupMismatches(primary), []);

      // a staff edit on A, seen on B within a second
      const upd = await a.call("PUT", `/admin/project/update/${s.child._id}`, {
        token: tokens[0],
        body: { projectName: "Renamed on A" },
      });
      assertEquals(upd.status, 200, upd.text);
      assertEquals(await projectName(a, s.child._id), "Renamed on A", "A reads its own write at once");
      const lag = await until(
        "B sees the edit",
        async () => (await projectName(b, s.child._id)) === "Renamed on A",
        3000,
      );
      console.log(`edit on A seen on B after ${Math.round(lag)} ms`);
      assert(lag < 1000, `seen after ${Math.round(lag)} ms`);
    } catch (e) {
      if (e instanceof Error) e.message += `\n--- sqld log tail ---\n${server.log().slice(-1500)}`;
      throw e;
    } finally {
      await b.close();
      await a.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("replicas: DATABASE_REPLICA_PATH and DATABASE_SYNC_INTERVAL are checked at start", () => {
  const ok = loadEnv({ DATABASE_URL: "http://127.0.0.1:8080", DATABASE_REPLICA_PATH: "data/replica.db" });
  assertEquals([ok.DATABASE_REPLICA_PATH, ok.DATABASE_SYNC_INTERVAL], ["data/replica.db", 0.5]);
  assertEquals(
    loadEnv({
      DATABASE_URL: "libsql://db.example",
      DATABASE_REPLICA_PATH: "r.db",
      DATABASE_SYNC_INTERVAL: "2",
    })
      .DATABASE_SYNC_INTERVAL,
    2,
  );
  const problems = (env: Record<string, string>) => {
    try {
      loadEnv(env);
      return "";
    } catch (e) {
      assert(e instanceof EnvError);
      return e.message;
    }
  };
  assert(
    problems({ DATABASE_URL: "file:data/x.db", DATABASE_REPLICA_PATH: "r.db" }).includes(
      "DATABASE_REPLICA_PATH needs a remote DATABASE_URL",
    ),
  );
  assert(
    problems({ DATABASE_REPLICA_PATH: "file:r.db", DATABASE_URL: "http://h" }).includes(
      "must be a file path",
    ),
  );
  for (const bad of ["0", "-1", "soon", "0.01", "9999"]) {
    assert(
      problems({ DATABASE_SYNC_INTERVAL: bad }).includes(
        "DATABASE_SYNC_INTERVAL must be a number of seconds",
      ),
      bad,
    );
  }
});
