/**
 * The marketplace simulation (issue 24): about 50 live surveys with quotas, targeting, incidence
 * and LOI answered by a simulated client survey, 10,000 members of 5 suppliers with profiles from a
 * known distribution (tests/helpers/marketplace.ts), through the real router in a server process
 * of its own over a file database. The same market and members run twice in one bench, the
 * router's routing and holds off, then on; in each run the server is killed (kill -9) when half
 * the members have arrived and started again on the same file, and afterwards every counter must
 * equal a recount from the sessions. Figures, never asserted: completes per 100 entries (target on
 * vs off at least 1.5x), overshoot (completes turned over quota or counted past a limit, target at
 * most 1% of completes), pre-screen questions asked per entry, router answers per second (target on
 * vs off at least 0.8x). MARKET_MEMBERS and MARKET_SURVEYS scale it down for a quick look.
 *
 * The two modes run in turn, MARKET_ROUNDS times (2 by default: off, on, off, on), and each figure
 * is their mean: on a shared machine one pair of runs drifted enough to move the answers/s ratio by a
 * tenth either way (0.72x to 0.86x for the same code).
 */
import type { BenchRow } from "./_kit.ts";
import { testApp } from "../helpers/app.ts";
import {
  buildMarket,
  type Market,
  type MarketFigures,
  marketFigures,
  type MarketOptions,
  membersOf,
  runMarket,
} from "../helpers/marketplace.ts";
import { setMarketRouting } from "../helpers/routing.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { rollupMismatches } from "../../server/domain/router/rollup.ts";
import { startServer } from "./_server.ts";

const ROUNDS = Math.max(1, Number(Deno.env.get("MARKET_ROUNDS") ?? 2));

const OPTIONS: MarketOptions = {
  seed: 2026,
  surveys: Number(Deno.env.get("MARKET_SURVEYS") ?? 50),
  suppliers: 5,
  members: Number(Deno.env.get("MARKET_MEMBERS") ?? 10_000),
  perTick: 100,
  concurrency: 32,
  // realistic sample sizes: the market has more places than its members fill, so what limits the
  // completes is who qualifies where (what routing is for), not the places
  sampleSizes: [50, 300],
};

export type MarketMode = "off" | "on";

/** Turns the router's routing and holds on or off for the market (what each run compares). */
export async function applyMode(t: Awaited<ReturnType<typeof testApp>>, m: Market, mode: MarketMode) {
  // routing: allowRouting on the market's suppliers and surveys (holds: ROUTER_HOLDS, passed to the server)
  await setMarketRouting(t, m, mode === "on");
}

async function runOnce(mode: MarketMode, dir: string, round: number) {
  const dbPath = `${dir}/market-${mode}-${round}.db`;
  const t = await testApp({ DATABASE_URL: `file:${dbPath}`, ROUTER_HOLDS: mode });
  const market = await buildMarket(t, OPTIONS);
  await applyMode(t, market, mode);
  await t.close();

  const env = { ROUTER_HOLDS: mode };
  let server = await startServer("app", dbPath, "", "", env);
  let killed = false;
  /** The server processes' CPU time over the run (both lives, before the kill and after). */
  let cpuMs = 0;
  let restarted: Promise<void> = Promise.resolve();
  /** Set from the kill until the server listens again. */
  let down: Promise<void> | null = null;
  const run = await runMarket(
    market,
    membersOf(OPTIONS),
    OPTIONS,
    // a member arriving while the server is down waits for it (a respondent reloads the page)
    async (path, init) => {
      if (down) await down;
      return await fetch(`http://127.0.0.1:${server.port}${path}`, init);
    },
    (_tick, membersIn) => {
      if (killed || membersIn < OPTIONS.members / 2) return Promise.resolve();
      killed = true;
      // kill -9 while this tick's requests are in flight (those members are lost), then start again
      restarted = (async () => {
        await new Promise((r) => setTimeout(r, 40));
        let up = () => {};
        down = new Promise((r) => (up = r));
        cpuMs += server.cpuMs();
        await server.kill();
        server = await startServer("app", dbPath, "", "", env);
        down = null;
        up();
      })();
      return Promise.resolve();
    },
  );
  await restarted;
  cpuMs += server.cpuMs();
  await server.stop();

  const after = await testApp({ DATABASE_URL: `file:${dbPath}` });
  try {
    const figures = await marketFigures(after.deps.db, market, run);
    // every session the router decided (a routed hop is a session of its own), per second of the run
    const made = await after.deps.db.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n"))
      .where("projectId", "in", market.projectIds).executeTakeFirstOrThrow();
    const sessionsPerSecond = run.ms ? (1000 * Number(made.n)) / run.ms : 0;
    const mismatches = [
      ...await counterMismatches(after.deps.db, market.projectIds),
      ...await rollupMismatches(after.deps.db),
    ];
    return {
      figures,
      mismatches,
      failed: run.failed,
      sessionsPerSecond,
      cpuPerAnswer: run.requests ? cpuMs / run.requests : 0,
    };
  } finally {
    await after.close();
  }
}

export async function bench(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "market-bench" });
  try {
    const runs: Record<MarketMode, Run[]> = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.off.push(await runOnce("off", dir, round));
      runs.on.push(await runOnce("on", dir, round));
    }
    const off = meanOf(runs.off), on = meanOf(runs.on);
    const perRound = runs.on.map((r, i) =>
      `${(r.figures.requestsPerSecond / (runs.off[i].figures.requestsPerSecond || 1)).toFixed(2)}x`
    ).join(", ");
    const note = (r: { mismatches: string[]; failed: number }) =>
      `${r.mismatches.length} counter mismatches after a kill -9, ${r.failed} members lost to it (${ROUNDS} runs)`;
    const row = (
      measure: string,
      pick: (f: MarketFigures) => number,
      unit: string,
      summary?: string,
    ): BenchRow[] => [
      { measure: `${measure}, routing and holds off`, value: pick(off.figures), unit, note: note(off) },
      {
        measure: `${measure}, routing and holds on`,
        value: pick(on.figures),
        unit,
        ratio: pick(off.figures) ? pick(on.figures) / pick(off.figures) : undefined,
        note: `${note(on)}; ratio: on / off in this run`,
        summary,
      },
    ];
    return [
      ...row(
        "completes per 100 entries",
        (f) => f.completesPer100,
        "completes",
        "marketplace completes per entry",
      ),
      ...row("overshoot (turned over quota + past a limit)", (f) => 100 * f.overshootShare, "% of completes"),
      ...row("pre-screen questions asked per entry", (f) => f.questionsPerEntry, "questions"),
      ...row(
        "router answers per second",
        (f) => f.requestsPerSecond,
        "req/s",
        "marketplace router throughput",
      ).map((r, i) => i ? { ...r, note: `${r.note}; each round's ratio: ${perRound}` } : r),
      {
        measure: "sessions decided per second, routing and holds off",
        value: off.sessionsPerSecond,
        unit: "sessions/s",
        note: "entries and routed hops (each hop a session of its own)",
      },
      {
        measure: "sessions decided per second, routing and holds on",
        value: on.sessionsPerSecond,
        unit: "sessions/s",
        ratio: off.sessionsPerSecond ? on.sessionsPerSecond / off.sessionsPerSecond : undefined,
        note: "ratio: on / off in this run; a routed hop is an entry made inside the answer that routes it",
      },
      {
        measure: "server CPU per router answer, routing and holds off",
        value: off.cpuPerAnswer,
        unit: "ms",
        note: "the server process's CPU time (both lives) over its answers",
      },
      {
        measure: "server CPU per router answer, routing and holds on",
        value: on.cpuPerAnswer,
        unit: "ms",
        ratio: off.cpuPerAnswer ? on.cpuPerAnswer / off.cpuPerAnswer : undefined,
        note: "ratio: on / off in this run (lower is cheaper); the load generator shares the cores",
      },
      {
        measure: "members, surveys, suppliers",
        value: OPTIONS.members,
        unit: "members",
        note:
          `${OPTIONS.surveys} surveys, ${OPTIONS.suppliers} suppliers, ${off.figures.entries} + ${on.figures.entries} entries a run; figures are the means of ${ROUNDS} runs of each mode, in turn`,
      },
    ];
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

type Run = Awaited<ReturnType<typeof runOnce>>;

/** The mean of a mode's runs: every figure averaged, the mismatches and lost members of all of them. */
function meanOf(runs: Run[]): Run {
  const mean = (pick: (r: Run) => number) => runs.reduce((n, r) => n + pick(r), 0) / runs.length;
  const figures = Object.fromEntries(
    Object.keys(runs[0].figures).map((k) => [k, mean((r) => r.figures[k as keyof MarketFigures])]),
  ) as MarketFigures;
  return {
    figures,
    mismatches: runs.flatMap((r) => r.mismatches),
    failed: runs.reduce((n, r) => n + r.failed, 0),
    sessionsPerSecond: mean((r) => r.sessionsPerSecond),
    cpuPerAnswer: mean((r) => r.cpuPerAnswer),
  };
}
