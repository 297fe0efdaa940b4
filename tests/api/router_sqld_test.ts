/**
 * Two app instances on one libSQL server (sqld over HTTP): the database arbitrates quota and
 * duplicate decisions, so completes stop at the sample size and a respondent is let in once, however
 * the traffic is spread over the instances.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { proxySqld, sqldSupported, startSqld } from "../helpers/sqld.ts";
import { back, counts, enter, liveProject, PANEL, uidOf } from "../helpers/router.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";

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
      await a.deps.services.router.idle();
      await b.deps.services.router.idle();
      assertEquals(await counterMismatches(a.deps.db), []);
      assert(a.deps.services.router.writer.flushes + b.deps.services.router.writer.flushes < 620);
    } catch (e) {
      if (e instanceof Error) e.message += `\n--- sqld log tail ---\n${server.log().slice(-1500)}`;
      throw e;
    } finally {
      await b.close();
      await a.close();
    }
  },
});

Deno.test({
  name:
    "router on sqld: a batch costs one write round trip (one atomic batch) and at most one read round trip",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    await using proxy = proxySqld(server.url);
    const a = await testApp({ DATABASE_URL: proxy.url });
    try {
      const s = await liveProject(a, { child: { sampleSize: 0 } });
      const writer = a.deps.services.router.writer;
      await enter(a, s.mapId, "warm-up");
      await writer.idle();
      const [flushes, seen, lean] = [writer.flushes, proxy.bodies.length, writer.leanBatches];
      // 40 respondents in one turn: one batch
      const hits = await Promise.all(Array.from({ length: 40 }, (_, i) => enter(a, s.mapId, `rt-${i}`)));
      assert(hits.every((h) => h.location.startsWith("https://client.example")));
      const batches = writer.flushes - flushes;
      const sent = proxy.bodies.slice(seen);
      const writes = sent.filter((b) => b.includes("INSERT INTO sessions"));
      const reads = sent.filter((b) => b.includes("FROM sessions WHERE isTest = 0"));
      assert(batches >= 1 && batches <= 3, `${batches} batches`);
      assertEquals(writes.length, batches, "one write request per batch");
      // plain entries of a project whose counters the instance knows go without a read at all
      assertEquals(reads.length, batches - (writer.leanBatches - lean), "at most one read request per batch");
      assert(writer.leanBatches > lean, "entries went without a read");
      // the write request carries the whole batch: sessions, counters, the rollups
      for (const w of writes) {
        for (
          const table of [
            "projects",
            "supplier_maps",
            "router_daily",
            "router_daily_totals",
            "router_monthly",
          ]
        ) {
          assert(w.includes(table), `${table} in the write batch`);
        }
      }
      // a respondent back on a batch decided without a read: its guard refuses it, the read finds them
      const stale = writer.staleBatches;
      const again = await enter(a, s.mapId, "rt-3");
      assert(again.location.startsWith(`${PANEL}/quality`), again.location);
      assertEquals(writer.staleBatches, stale + 1);
      const c = await counts(a, "projects", s.child._id);
      assertEquals([c.clicked, c.security], [42, 1]);
      assertEquals(await counterMismatches(a.deps.db), []);
    } finally {
      await a.close();
    }
  },
});

Deno.test({
  name:
    "router on sqld: a batch decided on a count another instance moved is refused by its guard, read again and decided again",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    await using proxy = proxySqld(server.url);
    const a = await testApp({ DATABASE_URL: proxy.url });
    const b = await testApp({ DATABASE_URL: server.url });
    try {
      const s = await liveProject(a, { child: { sampleSize: 1 } });
      const x = uidOf((await enter(a, s.mapId, "x")).location);
      const y = uidOf((await enter(b, s.mapId, "y")).location);
      // A reads (0 completes) and decides x complete; its write waits at the proxy
      proxy.hold = /router_guard/;
      const ax = back(a, x, "c");
      await proxy.held();
      // meanwhile B completes y: the sample is full
      assert((await back(b, y, "c")).location.startsWith(`${PANEL}/complete`));
      proxy.release();
      // A's batch is refused by its guard, read again: x is over quota
      assert((await ax).location.startsWith(`${PANEL}/quotafull`));
      assertEquals(a.deps.services.router.writer.staleBatches, 1);
      const c = await counts(a, "projects", s.child._id);
      assertEquals([c.clicked, c.complete, c.overQuota], [2, 1, 1]);
      assertEquals(await counterMismatches(a.deps.db), []);
      const guards = await a.deps.db.selectFrom("router_guard" as never).selectAll().execute();
      assertEquals(guards.length, 0, "the guard table stays empty");
    } catch (e) {
      if (e instanceof Error) e.message += `\n--- sqld log tail ---\n${server.log().slice(-1500)}`;
      throw e;
    } finally {
      await b.close();
      await a.close();
    }
  },
});

Deno.test({
  name:
    "router on sqld: near a limit entries are decided on a real read, so a sample size raised by staff lets respondents in at once",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    const a = await testApp({ DATABASE_URL: server.url });
    try {
      const s = await liveProject(a, { child: { sampleSize: 1 } });
      const x = uidOf((await enter(a, s.mapId, "x")).location);
      assert((await back(a, x, "c")).location.startsWith(`${PANEL}/complete`));
      assert((await enter(a, s.mapId, "y")).location.startsWith(`${PANEL}/quotafull`), "the sample is full");
      const r = await a.call("PUT", `/admin/project/update/${s.child._id}`, {
        token: await a.tokenFor("SUPERADMIN"),
        body: { sampleSize: 5 },
      });
      assertEquals(r.status, 200, r.text);
      const z = await enter(a, s.mapId, "z");
      assert(z.location.startsWith("https://client.example"), `let in after the raise: ${z.location}`);
      assertEquals(await counterMismatches(a.deps.db), []);
    } finally {
      await a.close();
    }
  },
});

Deno.test({
  name:
    "router on sqld, two batches in flight: a return for a session a batch in flight changes waits for it, others go past",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    await using proxy = proxySqld(server.url);
    const a = await testApp({ DATABASE_URL: proxy.url }, { router: { remoteInFlight: 2 } });
    try {
      const s = await liveProject(a, { child: { sampleSize: 0 } });
      const writer = a.deps.services.router.writer;
      const x = uidOf((await enter(a, s.mapId, "x")).location);
      await enter(a, s.mapId, "warm-up");
      // x's complete is in flight: its batch waits at the proxy
      proxy.hold = new RegExp(x);
      const first = back(a, x, "c");
      await proxy.held();
      // the same session again (the supplier's postback): held in the queue, not decided on a read
      // that misses the complete in flight
      const second = back(a, x, "c");
      // another respondent is not held: its batch is written while x's is in flight
      const z = await enter(a, s.mapId, "z");
      assert(z.location.startsWith("https://client.example"), z.location);
      assertEquals(writer.pipeline.peak, 2);
      await new Promise((r) => setTimeout(r, 50));
      assert(writer.pipeline.held >= 1, "the second return waited for the batch in flight");
      proxy.release();
      assert((await first).location.startsWith(`${PANEL}/complete`));
      assert((await second).location.startsWith(`${PANEL}/complete`));
      assertEquals(writer.staleBatches, 0, "nothing decided on a stale read");
      // the sessions went as one JSON argument (json_each): their values keep their types
      assert(proxy.bodies.some((b) => b.includes("INSERT INTO sessions") && b.includes("json_each")));
      const row = await a.deps.db.selectFrom("sessions").selectAll().where("id", "=", x)
        .executeTakeFirstOrThrow();
      assertEquals([row.status, row.isTest, row.rdScore, typeof row.seconds], [
        "complete",
        0,
        null,
        "number",
      ]);
      const c = await counts(a, "projects", s.child._id);
      assertEquals([c.clicked, c.complete], [3, 1]);
      assertEquals(await counterMismatches(a.deps.db), []);
    } finally {
      proxy.release();
      await a.close();
    }
  },
});

Deno.test({
  name:
    "router on sqld: two instances with two batches in flight each, 300 parallel entries and returns, a quota of 40: exactly 40 completes",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    // small batches, no linger: a turn's events fill two batches, written at once
    const router = { remoteInFlight: 2, remoteLingerMs: 0, maxBatch: 8 };
    const a = await testApp({ DATABASE_URL: server.url }, { router });
    const b = await testApp({ DATABASE_URL: server.url }, { router });
    try {
      const s = await liveProject(a, { child: { sampleSize: 40 } });
      const results = await Promise.all(Array.from({ length: 300 }, async (_, i) => {
        // staggered, so batches overlap
        await new Promise((r) => setTimeout(r, (i % 7) * 4));
        const e = await enter(i % 2 ? a : b, s.mapId, `q-${i % 280}`);
        if (!e.location.startsWith("https://client.example")) return e.location;
        await new Promise((r) => setTimeout(r, (i % 5) * 3));
        return (await back(i % 3 ? a : b, uidOf(e.location), "c")).location;
      }));
      assertEquals(results.filter((l) => l.startsWith(`${PANEL}/complete`)).length, 40);
      const c = await counts(a, "projects", s.child._id);
      assertEquals(c.complete, 40);
      await a.deps.services.router.idle();
      await b.deps.services.router.idle();
      assertEquals(await counterMismatches(a.deps.db), []);
      // a respondent is let in once however their entries were spread over batches in flight
      const sessions = await a.deps.db.selectFrom("sessions").select("sid").where("isTest", "=", 0)
        .where("status", "not in", ["closed", "duplicate"]).execute();
      assertEquals(new Set(sessions.map((r) => r.sid)).size, sessions.length);
      assert(
        Math.max(a.deps.services.router.writer.pipeline.peak, b.deps.services.router.writer.pipeline.peak) ===
          2,
        "batches were in flight together",
      );
    } catch (e) {
      if (e instanceof Error) e.message += `\n--- sqld log tail ---\n${server.log().slice(-1500)}`;
      throw e;
    } finally {
      await b.close();
      await a.close();
    }
  },
});
