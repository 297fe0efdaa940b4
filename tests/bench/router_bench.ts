/**
 * The respondent router against a bare Hono 302, measured in the same run: 64 keep-alive
 * connections on loopback, the server in its own process over a FILE database, requests written by
 * a small HTTP/1.1 client of our own (cheap, so it does not cap the baseline). Phases: bare 302,
 * entries (each a new respondent), entry-and-return pairs (a signed complete). Then every counter
 * must equal a recount from the session rows and no request may have failed. Figures are printed,
 * never asserted (design.md 8); the target is entries at 12% or more of the bare 302.
 *
 * Scale-out (issue 15): router entries with two app instances on one sqld primary, the connections
 * spread over both, against one instance on a file in the same rounds (target: 50% or more, p99
 * under 50 ms at 64 connections, 0 counter mismatches). The instances run without embedded replicas,
 * as the README advises for instances that route; the same on a second sqld with a replica each is
 * measured too, its replicas' catch-up after the phase counted in its time (each replica replays
 * every page any instance writes: ROUTER_BENCH_REPLICAS=0 leaves that phase out, =1 measures only it).
 * ROUTER_BENCH_BASELINE=<another checkout> adds that checkout's entries and pairs on a file, and its
 * two instances on their own sqld, in the same rounds (a before/after ratio).
 */
import { createClient } from "@libsql/client";
import type { BenchRow } from "./_kit.ts";
import { testApp } from "../helpers/app.ts";
import { liveProject } from "../helpers/router.ts";
import { projectSecret } from "../../server/domain/router/config.ts";
import { returnSignature } from "../../server/domain/router/links.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { rollupMismatches } from "../../server/domain/router/rollup.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";
import { startServer } from "./_server.ts";
import { processCpuMs } from "../helpers/child.ts";
import { CALLBACK_ENV, CALLBACKS_ON, drainCallbacks, setupCallbackProject } from "./_router_callbacks.ts";

const CONCURRENCY = 64;
const SECONDS = Number(Deno.env.get("ROUTER_BENCH_SECONDS") ?? 3);
const ROUNDS = Number(Deno.env.get("ROUTER_BENCH_ROUNDS") ?? 4);
/**
 * Seconds each kind of phase runs before the rounds, the pairs without callbacks included: its code
 * optimized, its tables and heaps grown (at 1 s the first round's callbacks-on phase was often the
 * lowest; it still is at times: the rounds list every round's ratio).
 */
const WARM_SECONDS = 3;
/** The pause before each phase (ms). */
const PAUSE_MS = Number(Deno.env.get("ROUTER_BENCH_PAUSE_MS") ?? 1_000);
/**
 * Callbacks on and off each run this many times a round (A B B A, then again): the rounds' ratios
 * scattered from 0.70x to 1.09x with two, phases of 3 s on a shared machine catching what it does
 * meanwhile; a round's ratio is of all its phases of each kind.
 */
const PAIR_TURNS = 4;
/** With a CPU profile of the app (./_server.ts), where the pairs phases' windows are written. */
const PROFILE = Deno.env.get("ROUTER_BENCH_PROFILE") ?? "";

/** Seconds since boot (the clock of the profiles' time stamps, to 10 ms). */
const uptime = () => Number(Deno.readTextFileSync("/proc/uptime").split(" ")[0]);

/**
 * Measures a pairs phase's CPU by kind of thread, and with ROUTER_BENCH_PROFILE notes its window
 * (after the phase's pause: the load's own seconds) for tests/bench/profile_phases.ts.
 */
async function measured(
  kind: "off" | "on",
  app: { threadsMs(): Record<string, number> },
  run: () => Promise<Phase>,
): Promise<Phase> {
  const t0 = app.threadsMs(), from = PROFILE ? uptime() + PAUSE_MS / 1000 : 0, load0 = processCpuMs(Deno.pid);
  const p = await run();
  const loadCpuMs = processCpuMs(Deno.pid) - load0;
  if (PROFILE) {
    await Deno.writeTextFile(`${PROFILE}/phases.txt`, `${kind} ${from} ${from + p.seconds} ${p.done}\n`, {
      append: true,
    });
  }
  const t1 = app.threadsMs();
  return {
    ...p,
    loadCpuMs,
    threadsMs: Object.fromEntries(Object.entries(t1).map(([k, v]) => [k, v - (t0[k] ?? 0)])),
  };
}
const UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** One keep-alive HTTP/1.1 connection: GET a path, read status and Location, skip the body. */
class Conn {
  #buf = new Uint8Array(0);
  #chunk = new Uint8Array(64 * 1024);
  constructor(private readonly conn: Deno.TcpConn) {}

  static async open(port: number) {
    const c = await Deno.connect({ hostname: "127.0.0.1", port });
    c.setNoDelay(true);
    return new Conn(c);
  }

  async #more() {
    const n = await this.conn.read(this.#chunk);
    if (n === null) throw new Error("connection closed");
    const next = new Uint8Array(this.#buf.length + n);
    next.set(this.#buf);
    next.set(this.#chunk.subarray(0, n), this.#buf.length);
    this.#buf = next;
  }

  async get(path: string): Promise<{ status: number; location: string }> {
    await this.conn.write(enc.encode(`GET ${path} HTTP/1.1\r\nHost: bench\r\nUser-Agent: ${UA}\r\n\r\n`));
    let end: number;
    for (;;) {
      end = indexOfCrlf2(this.#buf);
      if (end >= 0) break;
      await this.#more();
    }
    const head = dec.decode(this.#buf.subarray(0, end));
    this.#buf = this.#buf.subarray(end + 4);
    const status = Number(head.slice(9, 12));
    const location = /\r\nlocation: *([^\r\n]*)/i.exec(head)?.[1] ?? "";
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? "NaN");
    if (Number.isFinite(length)) {
      while (this.#buf.length < length) await this.#more();
      this.#buf = this.#buf.subarray(length);
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      for (;;) {
        let i = indexOfCrlf(this.#buf);
        while (i < 0) {
          await this.#more();
          i = indexOfCrlf(this.#buf);
        }
        const size = parseInt(dec.decode(this.#buf.subarray(0, i)), 16);
        while (this.#buf.length < i + 2 + size + 2) await this.#more();
        this.#buf = this.#buf.subarray(i + 2 + size + 2);
        if (size === 0) break;
      }
    }
    return { status, location };
  }

  close() {
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }
}

function indexOfCrlf2(b: Uint8Array) {
  for (let i = 0; i + 3 < b.length; i++) {
    if (b[i] === 13 && b[i + 1] === 10 && b[i + 2] === 13 && b[i + 3] === 10) return i;
  }
  return -1;
}
function indexOfCrlf(b: Uint8Array) {
  for (let i = 0; i + 1 < b.length; i++) if (b[i] === 13 && b[i + 1] === 10) return i;
  return -1;
}

type Phase = {
  done: number;
  failed: number;
  latencies: number[];
  seconds: number;
  cpuMs?: number;
  /** The app's CPU ms in the phase by kind of thread (tests/helpers/child.ts, threadCpuMs). */
  threadsMs?: Record<string, number>;
  /** CPU ms of the callbacks' receiver (the panel's stand-in) in the phase. */
  receiverCpuMs?: number;
  /** CPU ms of this process (the load generator, and the wait for the callbacks' delivery) in the phase. */
  loadCpuMs?: number;
  /** Seconds after the load until the callbacks it queued were all delivered, counted in `seconds`. */
  drain?: number;
  /** Seconds the instances kept working after the phase (replicas catching up), counted in `seconds`. */
  catchUp?: number;
};

/**
 * Seconds until the servers are idle again (under 5% of a core together over 300 ms; 30 s at most):
 * what they still had to do after the load stopped.
 */
async function settled(servers: { cpuMs(): number }[]): Promise<number> {
  const started = performance.now();
  const cpu = () => servers.reduce((ms, s) => ms + s.cpuMs(), 0);
  let last = cpu(), at = started;
  while (performance.now() - started < 30_000) {
    await new Promise((r) => setTimeout(r, 300));
    const now = cpu(), t = performance.now();
    if (now - last < 0.05 * (t - at)) return (at - started) / 1000;
    [last, at] = [now, t];
  }
  return 30;
}

/**
 * `CONCURRENCY` loops, each on its own connection, repeating `step` for `seconds`; with several
 * ports (instances), the connections are spread over them evenly.
 */
async function phase(
  port: number | number[],
  seconds: number,
  step: (c: Conn, n: number) => Promise<boolean>,
  /** Servers whose work after the load (a replica catching up, sqld's log) counts in the phase's time. */
  after: { cpuMs(): number }[] = [],
): Promise<Phase> {
  // what the previous phase left running (a replica's sync, sqld's and the checkpoint's catching up)
  // settles first: it would weigh on this phase, not on its own
  await new Promise((r) => setTimeout(r, PAUSE_MS));
  const ports = Array.isArray(port) ? port : [port];
  const conns = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => Conn.open(ports[i % ports.length])),
  );
  let n = 0, done = 0, failed = 0;
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(conns.map(async (c) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      let ok = false;
      try {
        ok = await step(c, n++);
      } catch {
        ok = false;
      }
      latencies.push(performance.now() - t0);
      if (ok) done++;
      else failed++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  conns.forEach((c) => c.close());
  const catchUp = after.length ? await settled(after) : 0;
  return { done, failed, latencies, seconds: elapsed + catchUp, catchUp };
}

function pct(xs: number[], q: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
}

/**
 * A Live child project with a mapped supplier (returns signed), made through the API of the
 * checkout at `root` (another checkout: in a subprocess, with its own code and migrations).
 */
async function setupProject(
  dbUrl: string,
  root = "",
): Promise<{ mapId: string; childId: string; secret: string }> {
  if (!root) {
    const t = await testApp({ DATABASE_URL: dbUrl });
    const setup = await liveProject(t, { child: { sampleSize: 0 }, project: { isDynamicThanksUrl: true } });
    const secret = await projectSecret(t.deps.db, setup.child._id);
    await t.close();
    return { mapId: setup.mapId, childId: setup.child._id, secret };
  }
  const code = `
    import { testApp } from "./tests/helpers/app.ts";
    import { liveProject } from "./tests/helpers/router.ts";
    import { projectSecret } from "./server/domain/router/config.ts";
    const t = await testApp({ DATABASE_URL: ${JSON.stringify(dbUrl)} });
    const s = await liveProject(t, { child: { sampleSize: 0 }, project: { isDynamicThanksUrl: true } });
    const secret = await projectSecret(t.deps.db, s.child._id);
    await t.close();
    console.log("setup " + JSON.stringify({ mapId: s.mapId, childId: s.child._id, secret }));`;
  const out = await new Deno.Command(Deno.execPath(), { args: ["eval", code], cwd: root, stdout: "piped" })
    .output();
  const m = /setup (\{.*\})/.exec(new TextDecoder().decode(out.stdout));
  if (!m) throw new Error(`could not set up the baseline project in ${root}`);
  return JSON.parse(m[1]);
}

/** Steps of one project: an entry (a new respondent), and an entry with its signed complete. */
function steps(setup: { mapId: string; secret: string }, tag: string) {
  const path = `/survey/start/${setup.mapId}?sid=`;
  let sid = 0;
  const entry = async (c: Conn) => {
    const r = await c.get(`${path}${tag}b${sid++}`);
    return r.status === 302 && r.location.startsWith("https://client.example/");
  };
  const pair = async (c: Conn) => {
    const e = await c.get(`${path}${tag}c${sid++}`);
    if (e.status !== 302) return false;
    const uid = new URL(e.location).searchParams.get("uid")!;
    const r = await c.get(`/survey/end?status=c&uid=${uid}&sig=${returnSignature(setup.secret, uid, "c")}`);
    return r.status === 302 && r.location.includes("/complete");
  };
  return { entry, pair };
}

export async function bench(): Promise<BenchRow[]> {
  const dir = new URL("../.tmp/", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  const stamp = Date.now();
  const dbPath = `${dir}router-bench-${stamp}.db`;
  // another checkout (e.g. an export of main) measured in the same run, for a before/after ratio
  const baselineRoot = Deno.env.get("ROUTER_BENCH_BASELINE") ?? "";
  const baseDbPath = `${dir}router-bench-base-${stamp}.db`;

  const setup = await setupProject(`file:${dbPath}`);
  const baseSetup = baselineRoot ? await setupProject(`file:${baseDbPath}`, baselineRoot) : null;

  // two instances on one sqld (without replicas, unless ROUTER_BENCH_REPLICAS=1), and two with an
  // embedded replica each on another sqld (unless ROUTER_BENCH_REPLICAS=0)
  const replicasMode = Deno.env.get("ROUTER_BENCH_REPLICAS") ?? "both";
  const replicas = replicasMode === "1";
  const sqldOk = sqldSupported && Deno.env.get("ROUTER_BENCH_SQLD") !== "0";
  const sqld = sqldOk ? await startSqld() : null;
  const sqldSetup = sqld ? await setupProject(sqld.url) : null;
  const sqldR = sqldOk && replicasMode === "both" ? await startSqld() : null;
  const sqldRSetup = sqldR ? await setupProject(sqldR.url) : null;

  const rows: BenchRow[] = [];
  // the app instances may call the callbacks-on project's receiver on loopback (they inherit this)
  if (CALLBACKS_ON) { for (const [k, v] of Object.entries(CALLBACK_ENV)) Deno.env.set(k, v); }
  const bare = await startServer("bare");
  // the panel's server, which in life is on another machine: a stand-in that reads requests straight
  // off its connections (_router_server.ts, panel), so the cost of receiving on this machine's two
  // cores is as small as it can be (it is reported: receiver CPU per callback)
  const receiver = CALLBACKS_ON ? await startServer("panel") : null;
  const cbSetup = receiver
    ? await setupCallbackProject(`file:${dbPath}`, `http://127.0.0.1:${receiver.port}`)
    : null;
  const app = await startServer("app", dbPath);
  const base = baseSetup ? await startServer("app", baseDbPath, "", baselineRoot) : null;
  // the baseline checkout on its own sqld too (a before/after ratio of scale-out in the same run)
  const baseSqld = sqld && baselineRoot ? await startSqld() : null;
  const baseSqldSetup = baseSqld ? await setupProject(baseSqld.url, baselineRoot) : null;
  const baseEdges = baseSqld
    ? [
      await startServer("app", baseSqld.url, replicas ? `${dir}replica-c-${stamp}.db` : "", baselineRoot),
      await startServer("app", baseSqld.url, replicas ? `${dir}replica-d-${stamp}.db` : "", baselineRoot),
    ]
    : [];
  const edges = sqld
    ? [
      await startServer("app", sqld.url, replicas ? `${dir}replica-a-${stamp}.db` : ""),
      await startServer("app", sqld.url, replicas ? `${dir}replica-b-${stamp}.db` : ""),
    ]
    : [];
  const replicaEdges = sqldR
    ? [
      await startServer("app", sqldR.url, `${dir}replica-e-${stamp}.db`),
      await startServer("app", sqldR.url, `${dir}replica-f-${stamp}.db`),
    ]
    : [];
  const bareStep = async (c: Conn) => (await c.get("/r")).status === 302;
  const mine = steps(setup, "f");
  const theirs = baseSetup ? steps(baseSetup, "m") : null;
  const withCallbacks = cbSetup ? steps(cbSetup, "k") : null;
  const onSqld = sqldSetup ? steps(sqldSetup, "s") : null;
  const theirsOnSqld = baseSqldSetup ? steps(baseSqldSetup, "t") : null;
  const withReplicas = sqldRSetup ? steps(sqldRSetup, "r") : null;
  // warm every server, then alternate the phases so a busy machine weighs on each alike
  await phase(bare.port, WARM_SECONDS, bareStep);
  await phase(app.port, WARM_SECONDS, mine.entry);
  await phase(app.port, WARM_SECONDS, mine.pair);
  if (withCallbacks) {
    await phase(app.port, WARM_SECONDS, withCallbacks.pair);
    await drainCallbacks(dbPath);
  }
  if (base && theirs) await phase(base.port, WARM_SECONDS, theirs.entry);
  if (onSqld) await phase(edges.map((e) => e.port), WARM_SECONDS, onSqld.entry);
  if (theirsOnSqld) await phase(baseEdges.map((e) => e.port), WARM_SECONDS, theirsOnSqld.entry);
  if (withReplicas) await phase(replicaEdges.map((e) => e.port), WARM_SECONDS, withReplicas.entry);
  type Round =
    & Record<"bare" | "entry" | "pairs", Phase>
    & Partial<
      Record<"baseEntry" | "basePairs" | "sqld" | "baseSqld" | "sqldReplicas" | "pairsCallbacks", Phase>
    >;
  const runs: Round[] = [];
  // the phases compared with each other (callbacks on and off, this checkout and the baseline, sqld
  // and the baseline's sqld) run in one order in even rounds and the other in odd ones: an A/A run
  // (the same code both sides) found the one measured first 8-17% ahead
  const inTurn = async (round: number, a: (() => Promise<void>) | null, b: (() => Promise<void>) | null) => {
    for (const f of round % 2 ? [b, a] : [a, b]) await f?.();
  };
  for (let round = 0; round < ROUNDS; round++) {
    const r = { bare: await phase(bare.port, SECONDS, bareStep) } as Round;
    // a pairs phase's figures added to what the round has of its kind (each kind runs PAIR_TURNS times)
    const add = (key: "pairs" | "pairsCallbacks", p: Phase) => {
      const was = r[key];
      r[key] = !was ? p : {
        ...p,
        done: was.done + p.done,
        failed: was.failed + p.failed,
        latencies: was.latencies.concat(p.latencies),
        seconds: was.seconds + p.seconds,
        cpuMs: (was.cpuMs ?? 0) + (p.cpuMs ?? 0),
        threadsMs: Object.fromEntries(
          Object.entries(p.threadsMs ?? {}).map(([k, v]) => [k, v + (was.threadsMs?.[k] ?? 0)]),
        ),
        receiverCpuMs: (was.receiverCpuMs ?? 0) + (p.receiverCpuMs ?? 0),
        loadCpuMs: (was.loadCpuMs ?? 0) + (p.loadCpuMs ?? 0),
        drain: (was.drain ?? 0) + (p.drain ?? 0),
      };
    };
    const myPairs = async () => {
      const cpu0 = app.cpuMs();
      const pairs = await measured("off", app, () => phase(app.port, SECONDS, mine.pair));
      add("pairs", { ...pairs, cpuMs: app.cpuMs() - cpu0 });
    };
    // the callbacks queued in the phase are delivered after it too: their time counts in this phase
    // (and no later phase runs beside the backlog)
    const callbackPairs = withCallbacks
      ? async () => {
        const cpu1 = app.cpuMs(), panelCpu = receiver!.cpuMs();
        const k = await measured("on", app, async () => {
          const k = await phase(app.port, SECONDS, withCallbacks.pair);
          const drained = performance.now();
          await drainCallbacks(dbPath);
          const drain = (performance.now() - drained) / 1000;
          return { ...k, seconds: k.seconds + drain, drain };
        });
        add("pairsCallbacks", {
          ...k,
          cpuMs: app.cpuMs() - cpu1,
          receiverCpuMs: receiver!.cpuMs() - panelCpu,
        });
      }
      : null;
    // callbacks on and off in A B B A order, twice (B A A B in odd rounds): a drift over the round (the
    // machine, the database growing) weighs on both alike; a round's ratio is of its phases of each kind
    const pairsInTurn = async () => {
      if (!callbackPairs) return await myPairs();
      for (let turn = 0; turn < PAIR_TURNS / 2; turn++) {
        await inTurn(round, myPairs, callbackPairs);
        await inTurn(round, callbackPairs, myPairs);
      }
    };
    const mineAll = async () => {
      r.entry = await phase(app.port, SECONDS, mine.entry, [app]);
      await pairsInTurn();
    };
    const baseAll = base && theirs
      ? async () => {
        r.baseEntry = await phase(base.port, SECONDS, theirs.entry);
        r.basePairs = await phase(base.port, SECONDS, theirs.pair);
      }
      : null;
    // the replicas' catch-up after the phase counts in its time, as the callbacks' delivery does
    const replicaEntries = withReplicas
      ? async () => {
        const port = replicaEdges.map((e) => e.port);
        r.sqldReplicas = await phase(port, SECONDS, withReplicas.entry, [...replicaEdges, sqldR!]);
      }
      : null;
    const sqldAll = async () => {
      await inTurn(
        round,
        onSqld
          ? async () =>
            void (r.sqld = await phase(edges.map((e) => e.port), SECONDS, onSqld.entry, [...edges, sqld!]))
          : null,
        theirsOnSqld
          ? async () =>
            void (r.baseSqld = await phase(baseEdges.map((e) => e.port), SECONDS, theirsOnSqld.entry))
          : null,
      );
      await replicaEntries?.();
    };
    // the file phases and the sqld phases in turn too (the sqld ratio is of this checkout's file entries)
    await inTurn(round, () => inTurn(round, mineAll, baseAll), sqldAll);
    runs.push(r);
    if (Deno.env.get("ROUTER_BENCH_ROUNDS_LOG")) {
      const each = Object.entries(r).map(([k, p]) => `${k} ${Math.round(p.done / p.seconds)}/s`).join(", ");
      console.error(`round ${round + 1}: ${each}`);
    }
  }
  await bare.stop();
  const panel = await receiver?.stop() as
    | { received?: number; distinct?: number; refused?: number }
    | undefined;
  const stats = await app.stop();
  await base?.stop();
  const edgeStats = await Promise.all(edges.map((e) => e.stop()));
  const replicaEdgeStats = await Promise.all(replicaEdges.map((e) => e.stop()));
  const baseEdgeStats = await Promise.all(baseEdges.map((e) => e.stop()));

  const rps = (p: Phase) => p.done / p.seconds;
  // of an even number, the mean of the middle two (the upper one alone flattered every ratio)
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b), m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const pick = (key: keyof Round, against: keyof Round = "bare") => {
    const all = runs.map((r) => r[key]!);
    const lat = all.flatMap((p) => p.latencies);
    return {
      rps: median(all.map(rps)),
      p50: Math.round(pct(lat, 0.5) * 100) / 100,
      p99: Math.round(pct(lat, 0.99) * 100) / 100,
      failed: all.reduce((n, p) => n + p.failed, 0),
      ratio: median(runs.map((r) => rps(r[key]!) / rps(r[against]!))),
    };
  };
  /** Each round's ratio, in the order run: the scatter behind a median of a few. */
  const roundsOf = (key: keyof Round, against: keyof Round) =>
    runs.map((r) => `${(rps(r[key]!) / rps(r[against]!)).toFixed(2)}x`).join(", ");
  const b = pick("bare"), e = pick("entry"), p = pick("pairs");
  rows.push({
    measure: "bare Hono 302",
    value: Math.round(b.rps),
    median: b.p50,
    p95: b.p99,
    unit: "req/s",
    ratio: 1,
    note:
      `${CONCURRENCY} connections, ${ROUNDS} rounds of ${SECONDS} s (medians); median/p95 columns are p50/p99 ms`,
  });
  rows.push({
    measure: "router entry",
    value: Math.round(e.rps),
    median: e.p50,
    p95: e.p99,
    unit: "req/s",
    ratio: e.ratio,
    summary: "router entries/s, 1 instance on a file (x bare 302)",
    note: `a new respondent per request; target >= 0.12x the bare 302 (${
      e.ratio >= 0.12 ? "met" : "NOT met"
    }); each round's: ${runs.map((r) => Math.round(rps(r.entry))).join(", ")}/s, the last at ${
      (rps(runs.at(-1)!.entry) / rps(runs[0].entry)).toFixed(2)
    }x the first (the sessions grow by ${
      Math.round(median(runs.map((r) => r.entry.done + r.pairs.done + (r.pairsCallbacks?.done ?? 0))))
    } a round)`,
  });
  rows.push({
    measure: "router entry + signed return",
    value: Math.round(p.rps * 2),
    median: p.p50,
    p95: p.p99,
    unit: "req/s",
    ratio: p.ratio * 2,
    summary: "router entry+return, 1 instance on a file (x bare 302)",
    note: `${Math.round(p.rps)} pairs/s (${
      (p.ratio * 100).toFixed(1)
    }% of the bare 302 in pairs); p50/p99 per pair`,
  });
  let failed = b.failed + e.failed + p.failed;
  if (withCallbacks) {
    const k = pick("pairsCallbacks", "pairs");
    rows.push({
      measure: "router entry + signed return, callbacks on",
      value: Math.round(k.rps * 2),
      median: k.p50,
      p95: k.p99,
      unit: "req/s",
      ratio: k.ratio,
      summary: "router entry+return with callbacks on (x callbacks off)",
      note:
        `each complete queues a signed callback, delivered to a local receiver meanwhile; ratio vs the pairs without callbacks in the same rounds (each ${PAIR_TURNS} times a round, ${
          "A B B A ".repeat(PAIR_TURNS / 2).trim()
        }); target >= 0.9 (${k.ratio >= 0.9 ? "met" : "NOT met"}); each round's: ${
          roundsOf("pairsCallbacks", "pairs")
        }; delivering what a phase queued took ${
          Math.round(median(runs.map((r) => r.pairsCallbacks!.drain! / PAIR_TURNS)) * 1000)
        } ms after it (median, counted in its time)`,
    });
    failed += k.failed;
    // the app process's own CPU per pair: the receiver and the load generator share the two cores
    const cpuPerPair = (key: "pairs" | "pairsCallbacks") =>
      median(runs.map((r) => r[key]!.cpuMs! / r[key]!.done));
    const on = cpuPerPair("pairsCallbacks"), off = cpuPerPair("pairs");
    rows.push({
      measure: "app CPU per pair, callbacks on",
      value: Math.round(on * 1000) / 1000,
      unit: "ms",
      ratio: on ? off / on : undefined,
      summary: "router pairs per app CPU second, callbacks on (x off)",
      note: `callbacks off: ${
        (Math.round(off * 1000) / 1000).toFixed(3)
      } ms; ratio: pairs per CPU second of the app process, on / off (the receiver's CPU left out: ${
        (median(runs.map((r) => r.pairsCallbacks!.receiverCpuMs! / r.pairsCallbacks!.done)) * 1000).toFixed(1)
      } µs per callback); µs a pair, on / off, by thread: ${
        (["main", "workers", "v8", "other"] as const).map((t) => {
          const us = (key: "pairs" | "pairsCallbacks") =>
            Math.round(median(runs.map((r) => (r[key]!.threadsMs?.[t] ?? 0) / r[key]!.done)) * 1000);
          return `${t === "main" ? "router's thread" : t === "v8" ? "V8 helpers" : t} ${
            us("pairsCallbacks")
          } / ${us("pairs")}`;
        }).join(", ")
      }; the load generator (this process) ${
        (["pairsCallbacks", "pairs"] as const).map((key) =>
          Math.round(median(runs.map((r) => (r[key]!.loadCpuMs ?? 0) / r[key]!.done)) * 1000)
        ).join(" / ")
      } µs a pair`,
    });
    // every callback written was delivered, once (the receiver counts them by idempotency key)
    const db = createClient({ url: `file:${dbPath}` });
    const q = await db.execute(
      "SELECT count(*) AS n, coalesce(sum(status = 'sent'), 0) AS sent FROM router_hooks",
    );
    db.close();
    const written = Number(q.rows[0].n), sent = Number(q.rows[0].sent);
    const missed = written - sent + Math.abs(written - (panel?.distinct ?? 0)) + (panel?.refused ?? 0);
    rows.push({
      measure: "callbacks not delivered exactly",
      value: missed,
      unit: "count",
      note:
        `${written} written, ${sent} sent; the receiver got ${panel?.received} requests, ${panel?.distinct} distinct keys${
          (panel?.received ?? 0) > (panel?.distinct ?? 0) ? " (the rest sent again: at least once)" : ""
        }`,
    });
  }
  if (baseSetup) {
    const be = pick("baseEntry"), bp = pick("basePairs");
    const vsBase = (k: "entry" | "pairs", bk: "baseEntry" | "basePairs") =>
      median(runs.map((r) => rps(r[k]) / rps(r[bk]!)));
    rows.push({
      measure: "router entry, baseline checkout",
      value: Math.round(be.rps),
      median: be.p50,
      p95: be.p99,
      unit: "req/s",
      ratio: be.ratio,
      note: `${baselineRoot} (x bare 302); this checkout's entries are ${
        vsBase("entry", "baseEntry").toFixed(2)
      }x it`,
    });
    rows.push({
      measure: "router entry + signed return, baseline checkout",
      value: Math.round(bp.rps * 2),
      median: bp.p50,
      p95: bp.p99,
      unit: "req/s",
      ratio: bp.ratio * 2,
      note: `${Math.round(bp.rps)} pairs/s; this checkout's pairs are ${
        vsBase("pairs", "basePairs").toFixed(2)
      }x it`,
    });
    failed += be.failed + bp.failed;
  }
  const sqldMismatches: string[] = [];
  if (sqld && sqldSetup) {
    const q = pick("sqld", "entry");
    rows.push({
      measure: `router entry, 2 instances on sqld${replicas ? " (+replicas)" : ""}`,
      value: Math.round(q.rps),
      median: q.p50,
      p95: q.p99,
      unit: "req/s",
      ratio: q.ratio,
      summary: "router entries, 2 instances on sqld vs 1 on a file",
      note:
        `ratio vs 1 instance on a file in the same rounds, each phase's time until its servers were idle again (median ${
          median(runs.map((r) => r.sqld!.catchUp ?? 0)).toFixed(1)
        } s on sqld, ${
          median(runs.map((r) => r.entry.catchUp ?? 0)).toFixed(1)
        } s on the file) counted in it; target >= 0.5 (${q.ratio >= 0.5 ? "met" : "NOT met"}; each round's: ${
          roundsOf("sqld", "entry")
        }), p99 ${q.p99} ms at ${CONCURRENCY} connections (target < 50 ms: ${
          q.p99 < 50 ? "met" : "NOT met"
        }); ${
          edgeStats.map((s) =>
            `${s.writeBatches} batches (read ${
              Math.round(Number(s.readMs) / Number(s.writeBatches))
            } ms, write ${
              Math.round(Number(s.writeMs) / Number(s.writeBatches))
            } ms each; ${s.leanBatches} without a read), ${s.staleBatches} refused by a guard`
          ).join(" / ")
        }`,
    });
    rows.push({
      measure: "router entry p99, 2 instances on sqld",
      value: q.p99,
      unit: "ms",
      summary: "router p99 at 64 connections, 2 instances on sqld (ms)",
      note: `p50 ${q.p50} ms; 1 instance on a file: p99 ${e.p99} ms`,
    });
    failed += q.failed;
    if (sqldR) {
      const qr = pick("sqldReplicas", "entry");
      const catchUp = median(runs.map((r) => r.sqldReplicas!.catchUp ?? 0));
      rows.push({
        measure: "router entry, 2 instances on sqld + embedded replicas",
        value: Math.round(qr.rps),
        median: qr.p50,
        p95: qr.p99,
        unit: "req/s",
        ratio: qr.ratio,
        note:
          `a replica each, on a sqld of its own; ratio vs 1 instance on a file in the same rounds; the replicas went on ${
            catchUp.toFixed(1)
          } s after each ${SECONDS} s phase (median), counted in its time; this is ${
            median(runs.map((r) => rps(r.sqldReplicas!) / rps(r.sqld!))).toFixed(2)
          }x the instances without replicas; ${
            replicaEdgeStats.map((s) => `${s.writeBatches} batches`).join(" / ")
          }`,
      });
      failed += qr.failed;
      const remoteR = await testApp({ DATABASE_URL: sqldR.url });
      sqldMismatches.push(...await counterMismatches(remoteR.deps.db));
      sqldMismatches.push(...await rollupMismatches(remoteR.deps.db));
      await remoteR.close();
      await sqldR.stop();
    }
    if (baseSqld) {
      const bq = pick("baseSqld", "entry");
      rows.push({
        measure: "router entry, 2 instances on sqld, baseline checkout",
        value: Math.round(bq.rps),
        median: bq.p50,
        p95: bq.p99,
        unit: "req/s",
        ratio: bq.ratio,
        note: `${baselineRoot}, ratio vs 1 instance on a file in the same rounds; p99 ${bq.p99} ms; ${
          baseEdgeStats.map((s) => `${s.writeBatches} batches`).join(" / ")
        }; this checkout's are ${median(runs.map((r) => rps(r.sqld!) / rps(r.baseSqld!))).toFixed(2)}x it`,
      });
      failed += bq.failed;
      await baseSqld.stop();
    }
    const remote = await testApp({ DATABASE_URL: sqld.url });
    sqldMismatches.push(...await counterMismatches(remote.deps.db));
    sqldMismatches.push(...await rollupMismatches(remote.deps.db));
    await remote.close();
    await sqld.stop();
  }
  // exactness: counters, sessions and rollups agree; nothing failed
  const check = await testApp({ DATABASE_URL: `file:${dbPath}` });
  const mismatches = await counterMismatches(check.deps.db);
  mismatches.push(...await rollupMismatches(check.deps.db));
  const sessions = await check.deps.db.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const counters = await check.deps.db.selectFrom("projects").select(["clicked", "complete"])
    .where("id", "=", setup.childId).executeTakeFirstOrThrow();
  await check.close();
  rows.push({
    measure: "failed requests",
    value: failed,
    unit: "count",
    note: failed ? "SOME REQUESTS FAILED" : "none",
  });
  rows.push({
    measure: "counter mismatches vs recount",
    value: mismatches.length + sqldMismatches.length,
    unit: "count",
    summary: "router counter mismatches (file + sqld)",
    note: mismatches.length + sqldMismatches.length
      ? [...mismatches, ...sqldMismatches].slice(0, 3).join("; ")
      : `file: ${
        Number(sessions.n)
      } sessions; clicked ${counters.clicked}, complete ${counters.complete} match; rollups match${
        sqld ? "; sqld: counters and rollups match" : ""
      }`,
  });
  const events = Number(counters.clicked) + Number(counters.complete);
  rows.push({
    measure: "events per write transaction",
    value: stats.flushes ? Math.round((events / Number(stats.flushes)) * 10) / 10 : undefined,
    unit: "events",
    note: `${stats.flushes ?? "?"} transactions`,
  });
  for (
    const path of [dbPath, baseDbPath, ...["a", "b", "c", "d"].map((x) => `${dir}replica-${x}-${stamp}.db`)]
  ) {
    for (const suffix of ["", "-wal", "-shm", "-info", "-client_wal_index"]) {
      await Deno.remove(path + suffix, { recursive: true }).catch(() => {});
    }
  }
  return rows;
}

if (import.meta.main) {
  for (const r of await bench()) console.log(JSON.stringify(r));
}
