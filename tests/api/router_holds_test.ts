/**
 * In-progress holds (issue 24 item 2; server/domain/router/writer/holds.ts): limits count the
 * sessions in the client survey weighted by the measured conversion, a complete past a limit under
 * a hold stays a complete (counted in pastLimit), and ROUTER_HOLDS=off keeps the router before holds.
 * The marketplace simulation here is the small, fast one: a quota cell of 10, 30 respondents, a
 * client survey completing 60% of them after a delay, run with holds off and on.
 */
import { addGenderQuota } from "../helpers/fixtures.ts";
import { assert, assertAlmostEquals, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import {
  addQuestion,
  back,
  enter,
  liveProject,
  PANEL,
  router,
  sessionsOf,
  uidOf,
} from "../helpers/router.ts";
import { counterMismatches, repairCounters } from "../../server/domain/router/recount.ts";
import {
  conversion,
  heldConversion,
  heldRefusal,
  lengthRatio,
  MARGIN_SD,
  meanConversion,
} from "../../server/domain/router/writer/holds.ts";
import * as P from "../../shared/api/projects.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import { type ServerProcess, startServer, TEST_JWT_SECRET, until } from "../helpers/process.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";
import {
  buildMarket,
  type MarketFigures,
  marketFigures,
  membersOf,
  runMarket,
} from "../helpers/marketplace.ts";

const HOLDS_ON = { ROUTER_HOLDS: "on" };
const CLIENT = "https://client.example";

async function consistent(t: TestApp) {
  await router(t).idle();
  assertEquals(await counterMismatches(t.deps.db), [], "counters, holds, sessions and rollup agree");
}

async function holdsOf(t: TestApp, table: "projects" | "supplier_maps", id: string) {
  return await t.deps.db.selectFrom(table).select(["held", "sent", "pastLimit", "complete", "overQuota"])
    .where("id", "=", id).executeTakeFirstOrThrow();
}

/** A pre-screened project with one quota (Gender) whose Female cell holds `size` completes. */
async function cellProject(t: TestApp, size: number, child: Record<string, unknown> = {}) {
  const s = await liveProject(t, { child, project: { isPreScreen: true }, map: { isPreScreen: true } });
  const { quotaId, female } = await addGenderQuota(t.deps.db, s.child._id, { female: size, male: 0 });
  const q = await addQuestion(t, s.child._id, {
    type: "RADIO",
    title: { en: "Gender" },
    options: [{ title: "Female" }, { title: "Male" }],
  });
  /** Enters and answers "Female": where the respondent is sent. */
  const female1 = async (sid: string) => {
    const page = await enter(t, s.mapId, sid);
    const r = await t.app.request(page.location, {
      method: "POST",
      body: new URLSearchParams({ [`q_${q.id}`]: q.options[0]._id }),
    });
    await r.body?.cancel();
    return r.headers.get("location")!;
  };
  const cellHeld = async () =>
    (await t.deps.db.selectFrom("quota_cell_holds").select("held").where("quotaId", "=", quotaId)
      .where("quotaOptionId", "=", female).executeTakeFirst())?.held ?? 0;
  const cellCompletes = async () => {
    const row = await t.deps.db.selectFrom("project_quotas").select("quotaValue").where("id", "=", quotaId)
      .executeTakeFirstOrThrow();
    return (JSON.parse(row.quotaValue) as { completes: number }[])[0].completes;
  };
  return { ...s, quotaId, female, female1, cellHeld, cellCompletes };
}

type Figures = {
  sent: number;
  refused: number;
  completes: number;
  turnedOverQuota: number;
  pastLimit: number;
  cellCompletes: number;
};

/**
 * The simulation: 30 respondents answer "Female" one after another into a cell of 10; the client
 * survey completes 60% of those it gets (respondents 0, 1, 2 of every 5) and terminates the rest,
 * each returning after 8 later arrivals (returns due before an arrival come first), then the rest.
 */
async function simulate(t: TestApp): Promise<Figures> {
  const s = await cellProject(t, 10, { ir: 60 });
  const DELAY = 8, N = 30;
  const due = new Map<number, { uid: string; letter: string }[]>();
  let sent = 0, refused = 0;
  for (let step = 0; step <= N + DELAY; step++) {
    for (const r of due.get(step) ?? []) await back(t, r.uid, r.letter);
    if (step >= N) continue;
    const to = await s.female1(`sim-${step}`);
    if (to.startsWith(CLIENT)) {
      sent++;
      const letter = step % 5 < 3 ? "c" : "t";
      due.set(step + DELAY, [...(due.get(step + DELAY) ?? []), { uid: uidOf(to), letter }]);
    } else {
      assertEquals(to, `${PANEL}/quotafull?sid=sim-${step}`);
      refused++;
    }
  }
  await consistent(t);
  const rows = await sessionsOf(t, s.child._id);
  const p = await holdsOf(t, "projects", s.child._id);
  assertEquals([p.held, await s.cellHeld()], [0, 0], "every hold released once all are back");
  assertEquals(p.sent, sent);
  return {
    sent,
    refused,
    completes: p.complete,
    turnedOverQuota:
      rows.filter((r) => r.status === "overQuota" && r.detail.startsWith("complete after")).length,
    pastLimit: p.pastLimit,
    cellCompletes: await s.cellCompletes(),
  };
}

Deno.test("router holds: the simulated survey (cell of 10, 30 respondents, 60% completing after a delay), holds off vs on", async () => {
  const off = await testApp({ ROUTER_HOLDS: "off" });
  const on = await testApp(HOLDS_ON);
  try {
    const before = await simulate(off);
    const after = await simulate(on);
    console.log(`holds off: ${JSON.stringify(before)}\nholds on:  ${JSON.stringify(after)}`);
    // before: the last places go to whoever clicks first; 5 finish the survey to be told "over quota"
    assertEquals(before, {
      sent: 23,
      refused: 7,
      completes: 10,
      turnedOverQuota: 5,
      pastLimit: 0,
      cellCompletes: 10,
    });
    // after: no complete turned over quota, the cell still fills, one complete past its limit
    assertEquals(after.turnedOverQuota, 0);
    assert(after.completes >= 10, `the cell fills: ${after.completes}`);
    assertEquals(after.pastLimit, after.completes - 10, "every complete past the limit is counted");
    assert(after.pastLimit <= 1, `overshoot small: ${after.pastLimit}`);
    assertEquals(after.cellCompletes, after.completes);
    assert(after.sent < before.sent, "fewer sent into a survey likely full");
  } finally {
    await off.close();
    await on.close();
  }
});

Deno.test("router holds: a full hold refuses as over quota with a 'held' detail; a terminate and a drop release it", async () => {
  let clock = Date.parse("2026-11-03T08:00:00Z");
  const t = await testApp(HOLDS_ON, { now: () => clock });
  try {
    // a stated IR of 100%: each respondent in the survey holds a whole place of the 2
    const s = await liveProject(t, { child: { sampleSize: 2, ir: 100, averageLOI: 10 } });
    const a = await enter(t, s.mapId, "a"), b = await enter(t, s.mapId, "b");
    assert(a.location.startsWith(CLIENT) && b.location.startsWith(CLIENT));
    assertEquals((await enter(t, s.mapId, "c")).location, `${PANEL}/quotafull?sid=c`);
    const refused = (await sessionsOf(t, s.child._id)).find((r) => r.sid === "c")!;
    assertEquals([refused.status, refused.reason], ["overQuota", "sample-size-full"]);
    assertMatch(refused.detail, /^0 of 2 completes, 2 in progress held at 100% conversion$/);
    assertEquals((await holdsOf(t, "projects", s.child._id)).held, 2);
    await consistent(t);

    // a terminate releases its hold: the next respondent is let in, the one after is held out
    await back(t, uidOf(a.location), "t");
    const d = await enter(t, s.mapId, "d");
    assert(d.location.startsWith(CLIENT), d.location);
    assertEquals((await enter(t, s.mapId, "e")).location, `${PANEL}/quotafull?sid=e`);

    // drops (no return in twice the LOI) release their holds too
    clock += 21 * 60_000;
    assertEquals(await router(t).sweep(), 2);
    assertEquals((await holdsOf(t, "projects", s.child._id)).held, 0);
    assertEquals((await holdsOf(t, "supplier_maps", s.mapId)).held, 0);
    const g = await enter(t, s.mapId, "g");
    assert(g.location.startsWith(CLIENT), g.location);

    // the supplier map's quota holds the same way, with its own reason
    const m = await liveProject(t, { child: { sampleSize: 50, ir: 100 }, map: { supplierQuota: 1 } });
    assert((await enter(t, m.mapId, "m1")).location.startsWith(CLIENT));
    assertEquals((await enter(t, m.mapId, "m2")).location, `${PANEL}/quotafull?sid=m2`);
    const onMap = (await sessionsOf(t, m.child._id)).find((r) => r.sid === "m2")!;
    assertEquals([onMap.reason, onMap.detail], [
      "supplier-quota-full",
      "0 of 1 completes, 1 in progress held at 100% conversion",
    ]);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router holds: a complete past the limit under a hold counts as a complete, shown in pastLimit; off turns it over quota", async () => {
  for (const holds of ["on", "off"]) {
    const t = await testApp({ ROUTER_HOLDS: holds });
    try {
      // an IR of 1%: one in the survey holds 0.69 of the one place (p and its margin), so a second is let in
      const s = await liveProject(t, { child: { sampleSize: 1, ir: 1 } });
      const u1 = uidOf((await enter(t, s.mapId, "p1")).location);
      const u2 = uidOf((await enter(t, s.mapId, "p2")).location);
      assert((await back(t, u1, "c")).location.startsWith(`${PANEL}/complete`));
      const second = await back(t, u2, "c");
      const row = (await sessionsOf(t, s.child._id)).find((r) => r.id === u2)!;
      const p = await holdsOf(t, "projects", s.child._id);
      const m = await holdsOf(t, "supplier_maps", s.mapId);
      if (holds === "on") {
        assert(second.location.startsWith(`${PANEL}/complete`), second.location);
        assertEquals([row.status, row.reason], ["complete", "past-limit"]);
        assertEquals(row.detail, "accepted complete after 1 of 1 completes (held)");
        assertEquals([p.complete, p.pastLimit, p.overQuota, m.pastLimit], [2, 1, 0, 1]);
        // staff see it on the project's row (grids, project page)
        const view = await t.ok(P.getProjectCall, { params: { id: s.child._id }, as: "SUPERADMIN" });
        assertEquals([view.complete, view.pastLimit, view.held], [2, 1, 0]);
      } else {
        assertEquals(second.location, `${PANEL}/quotafull?sid=p2`);
        assertEquals([row.status, row.reason], ["overQuota", "sample-size-full"]);
        assertEquals([p.complete, p.pastLimit, p.overQuota], [1, 0, 1]);
      }
      await consistent(t);
    } finally {
      await t.close();
    }
  }
});

Deno.test("router holds: counters equal a recount; a broken hold count is reported and repaired", async () => {
  const t = await testApp(HOLDS_ON);
  try {
    const s = await cellProject(t, 5, { ir: 50 });
    const to = await s.female1("r1");
    assert(to.startsWith(CLIENT), to);
    const to2 = await s.female1("r2");
    assertEquals([await s.cellHeld(), (await holdsOf(t, "projects", s.child._id)).held], [2, 2]);
    // staff see each cell's respondents in the survey on the Quota tab
    const [quota] = await t.ok(Parts.listQuotasCall, {
      params: { projectId: s.child._id },
      as: "SUPERADMIN",
    });
    assertEquals(quota.options.map((o) => [o.text, o.completes, o.held]), [["Female", 0, 2], ["Male", 0, 0]]);
    await consistent(t);
    await t.deps.db.updateTable("quota_cell_holds").set({ held: 7 }).execute();
    await t.deps.db.updateTable("projects").set({ held: 9, pastLimit: 3 }).where("id", "=", s.child._id)
      .execute();
    const broken = await counterMismatches(t.deps.db, [s.child._id]);
    assertEquals(broken, [
      `project ${s.child._id} held: stored 9, sessions 2`,
      `project ${s.child._id} pastLimit: stored 3, sessions 0`,
      `quota cell ${s.quotaId} ${s.female} held: stored 7, sessions 2`,
    ]);
    await repairCounters(t.deps.db);
    await consistent(t);
    await back(t, uidOf(to), "c");
    assertEquals(await s.cellHeld(), 1);
    await consistent(t);
    // the time in the survey of a terminate is summed apart from the completes' (the holds' weighting)
    await back(t, uidOf(to2), "t");
    const time = await t.deps.db.selectFrom("projects").select(["loiCompletes", "otherTimed", "otherSeconds"])
      .where("id", "=", s.child._id).executeTakeFirstOrThrow();
    assertEquals([time.loiCompletes, time.otherTimed], [1, 1]);
    await consistent(t);
    await t.deps.db.updateTable("projects").set({ otherSeconds: 999, otherTimed: 5 }).where(
      "id",
      "=",
      s.child._id,
    )
      .execute();
    assertEquals(await counterMismatches(t.deps.db, [s.child._id]), [
      `project ${s.child._id} otherSeconds: stored 999, sessions ${time.otherSeconds}`,
      `project ${s.child._id} otherTimed: stored 5, sessions 1`,
    ]);
    await repairCounters(t.deps.db);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router holds: the measured conversion starts at the stated IR and moves to the measured rate", () => {
  assertEquals(meanConversion({ complete: 0, sent: 0, held: 0, ir: 40 }), { mean: 0.4, n: 20 });
  assertEquals(
    conversion({ complete: 0, sent: 0, held: 0, ir: 0 }),
    1,
    "no IR stated: every one held counts whole",
  );
  // 60 completes of 100 finished (20 still held): (60 + 8) / (100 + 20)
  assertEquals(meanConversion({ complete: 60, sent: 120, held: 20, ir: 40 }), { mean: 68 / 120, n: 120 });
  // counted MARGIN_SD of the posterior above its mean: wide with no data, narrower as sessions come back
  const sd = (m: number, n: number) => Math.sqrt((m * (1 - m)) / (n + 1));
  const upper = (m: number, n: number) => m + MARGIN_SD * sd(m, n);
  assertEquals(MARGIN_SD, 2);
  assertEquals(conversion({ complete: 0, sent: 0, held: 0, ir: 40 }), upper(0.4, 20));
  assertEquals(conversion({ complete: 60, sent: 120, held: 20, ir: 40 }), upper(68 / 120, 120));
  assertEquals(conversion({ complete: 20, sent: 20, held: 0, ir: 100 }), 1, "at most 1");
  // weighted by time in the survey: 60 completes of 20 min each, 40 terminates of 4 min each. Each mean
  // drawn toward the common one (816 s) by 20 sessions: completes 1,104 s, terminates 432 s
  assertAlmostEquals(
    lengthRatio({ loiSeconds: 60 * 1200, loiCompletes: 60, otherSeconds: 40 * 240, otherTimed: 40 }),
    (72_000 + 20 * 816) / 80 / ((9_600 + 20 * 816) / 60),
  );
  assertEquals(lengthRatio({}), 1, "nothing back yet: as long as each other");
  assertEquals(lengthRatio({ loiSeconds: 600, loiCompletes: 1 }), 1, "one outcome known alone: no ratio yet");
  // of those in the survey now, completes are q r / (q r + 1 - q): terminates came back sooner
  const time = { loiSeconds: 60 * 1200, loiCompletes: 60, otherSeconds: 40 * 240, otherTimed: 40 };
  const q = upper(68 / 120, 120), r = lengthRatio(time);
  assertAlmostEquals(
    conversion({ complete: 60, sent: 120, held: 20, ir: 40, ...time }),
    (q * r) / (q * r + 1 - q),
  );
  assert(
    conversion({ complete: 60, sent: 120, held: 20, ir: 40, ...time }) > q + 0.15,
    "higher than the rate back",
  );
  assertEquals(heldRefusal(9, 2, 10, 0.5), "9 of 10 completes, 2 in progress held at 50% conversion");
  assertEquals(heldRefusal(9, 1, 10, 0.5), null, "9.5 < 10: room");
  assertEquals(heldRefusal(10, 3, 10, 0.5), null, "full on completes: today's detail, not a hold's");
  assertEquals(heldRefusal(0, 5, 0, 1), null, "no limit");
});

Deno.test("router holds: SIGKILL under entry and return traffic with holds on: hold counters equal a recount before and after a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-holds-" });
  const dbPath = `${dir}/holds.db`;
  const setup = await testApp({ DATABASE_URL: `file:${dbPath}`, JWT_SECRET: TEST_JWT_SECRET });
  const s = await liveProject(setup, { child: { sampleSize: 80, ir: 50 } });
  await setup.close();
  const watch = await openDatabase(`file:${dbPath}`);
  let server: ServerProcess | undefined;
  try {
    server = await startServer(dbPath, HOLDS_ON);
    const srv = server;
    let stop = false, n = 0;
    const inSurvey: string[] = [];
    const one = async (i: number) => {
      const res = await srv.fetch(`/survey/start/${s.mapId}?sid=k-${i}`);
      await res.body?.cancel();
      const to = res.headers.get("location") ?? "";
      if (!to.startsWith(CLIENT)) return;
      const uid = uidOf(to);
      if (i % 4 === 3) return void inSurvey.push(uid); // still in the survey at the kill
      const end = await srv.fetch(`/survey/end?status=${i % 2 ? "t" : "c"}&uid=${uid}`);
      await end.body?.cancel();
    };
    const workers = Array.from({ length: 16 }, async () => {
      while (!stop) await one(n++).catch(() => void (stop = true));
    });
    await until("traffic under way", async () => {
      const p = await watch.db.selectFrom("projects").select(["complete", "held"]).where(
        "id",
        "=",
        s.child._id,
      )
        .executeTakeFirstOrThrow();
      return p.complete >= 15 && p.held >= 3;
    }, { everyMs: 2 });
    await server.kill();
    stop = true;
    await Promise.all(workers);
    assertEquals(await counterMismatches(watch.db, [s.child._id]), [], "at the kill");
    const atKill = await watch.db.selectFrom("projects").select(["held", "sent"]).where(
      "id",
      "=",
      s.child._id,
    )
      .executeTakeFirstOrThrow();
    assert(atKill.held >= 3 && atKill.sent > atKill.held, JSON.stringify(atKill));

    server = await startServer(dbPath, HOLDS_ON);
    const srv2 = server;
    for (const uid of inSurvey) {
      const r = await srv2.fetch(`/survey/end?status=c&uid=${uid}`);
      await r.body?.cancel();
    }
    assertEquals(await counterMismatches(watch.db, [s.child._id]), [], "after the restart and the returns");
    const left = await watch.db.selectFrom("sessions").select(({ fn }) => fn.countAll<number>().as("n"))
      .where("projectId", "=", s.child._id).where("status", "=", "redirected").executeTakeFirstOrThrow();
    const p = await watch.db.selectFrom("projects").select("held").where("id", "=", s.child._id)
      .executeTakeFirstOrThrow();
    assertEquals(p.held, Number(left.n), "held is the sessions still in the survey");
  } finally {
    await server?.kill();
    await watch.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test({
  name:
    "router holds on sqld: two instances, 200 parallel entries: the holds stop at exactly the places they allow, counters equal a recount",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    const a = await testApp({ DATABASE_URL: server.url, ...HOLDS_ON });
    const b = await testApp({ DATABASE_URL: server.url, ...HOLDS_ON });
    try {
      // an IR of 50% and no data yet: p = 0.72, raised by the held sessions' margin near the limit,
      // so 20 places hold 22 in the survey, not one more, over both instances
      const s = await liveProject(a, { child: { sampleSize: 20, ir: 50 } });
      const rate = conversion({ complete: 0, sent: 0, held: 0, ir: 50 });
      let allowed = 0;
      while (heldConversion(rate, allowed) * allowed < 20) allowed++;
      assertEquals(allowed, 22);
      const entries = await Promise.all(
        Array.from({ length: 200 }, (_, i) => enter(i % 2 ? a : b, s.mapId, `h-${i}`)),
      );
      const inSurvey = entries.filter((e) => e.location.startsWith(CLIENT));
      assertEquals(inSurvey.length, allowed, "the other instance's holds are counted too");
      assertEquals((await holdsOf(a, "projects", s.child._id)).held, allowed);
      // the first 20 complete: the sample fills exactly, nobody is turned over quota or past it
      const letters = await Promise.all(inSurvey.map(async (e, i) => {
        const r = await back(i % 2 ? a : b, uidOf(e.location), i < 20 ? "c" : "t");
        return new URL(r.location).pathname;
      }));
      assertEquals(letters.filter((l) => l === "/complete").length, 20);
      const p = await holdsOf(a, "projects", s.child._id);
      assertEquals([p.complete, p.pastLimit, p.held, p.sent], [20, 0, 0, allowed]);
      await router(a).idle();
      await router(b).idle();
      assertEquals(await counterMismatches(a.deps.db), []);
    } catch (e) {
      if (e instanceof Error) e.message += `\n--- sqld log tail ---\n${server.log().slice(-1500)}`;
      throw e;
    } finally {
      await b.close();
      await a.close();
    }
  },
});

Deno.test("router holds: the marketplace simulation (8 surveys, 3 suppliers, 300 members), holds off vs on", async () => {
  const options = { seed: 11, surveys: 8, suppliers: 3, members: 300, perTick: 12 };
  const figures: (MarketFigures & { holds: string; pastLimitCounted: number; clientCompletes: number })[] =
    [];
  for (const holds of ["off", "on"]) {
    const t = await testApp({ ROUTER_HOLDS: holds });
    try {
      const market = await buildMarket(t, options);
      const run = await runMarket(
        market,
        membersOf(options),
        options,
        (path, init) => t.app.request(path, init),
      );
      assertEquals(run.failed, 0);
      await router(t).idle();
      assertEquals(await counterMismatches(t.deps.db, market.projectIds), []);
      const f = await marketFigures(t.deps.db, market, run);
      const held = await t.deps.db.selectFrom("projects").select(({ fn }) =>
        fn.sum<number>("pastLimit").as("n")
      )
        .where("id", "in", market.projectIds).executeTakeFirstOrThrow();
      figures.push({ holds, ...f, pastLimitCounted: Number(held.n), clientCompletes: run.clientCompletes });
    } finally {
      await t.close();
    }
  }
  console.log(figures.map((f) => JSON.stringify(f)).join("\n"));
  const [off, on] = figures;
  assert(off.turnedOverQuota > 0, "before: completes the client had are turned over quota");
  assertEquals(on.turnedOverQuota, 0, "after: none");
  // holds turn away some who would have completed when the places they hold then open again after the
  // last arrivals; routing (not here) sends those on. Completes stay within a tenth of the exact-stop run.
  assert(on.completes >= 0.9 * off.completes, `completes ${off.completes} -> ${on.completes}`);
  assert(on.overshootShare < off.overshootShare, `overshoot ${off.overshootShare} -> ${on.overshootShare}`);
  assert(on.pastLimitCounted <= on.pastLimit, "staff see each one past a limit");
});
