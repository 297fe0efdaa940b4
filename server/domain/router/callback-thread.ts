/**
 * Supplier callbacks sent from a worker (./callback-worker.ts), off the thread that serves
 * respondents: the request is built, signed and sent there, through an outbound client made from
 * the app's (the same policy, limits and kept-alive connections), and only its answer comes back.
 * The app's thread keeps what touches the database (the queue, the claims, the results: one
 * connection, one writer). A router sending a callback per outcome spent most of a callback's cost
 * on its own thread before (the request, the answer, the signature: issue 23, callbacks on must
 * keep 0.9x of the router's throughput).
 *
 * Only a client the worker can rebuild goes there (Outbound.portable: no test resolver or fake
 * transport); otherwise HookSender sends on its own thread, the same way.
 */
import {
  Outbound,
  type OutboundCall,
  OutboundRefused,
  type PortableOutbound,
} from "../common/outbound/client.ts";
import { buildCallback, type CallbackSupplier, parseVars } from "./callback-request.ts";
import { CallbackRing } from "./callback-ring.ts";

/** A callback to send, as the worker gets it. */
export type ThreadSend = {
  id: number;
  supplier: CallbackSupplier;
  /**
   * The queued row's URL, values (its vars column, JSON; or the values themselves when they came
   * as JSON written by this process: SendBatch's varsJson), event and idempotency key.
   */
  hook: { url: string; vars: string | null | Record<string, string>; event: string; key: string };
  /** The signature's time (ms). */
  at: number;
  /**
   * How long it may wait for its turn (ms, counted from when the worker gets it: the worker starts
   * at the app's first callback, and a claim leaves at least a request's time-out to spare): later
   * it is not sent (`skipped`) and its claim lapses for a scan to send it, so a send never outlives
   * the claim it was made under.
   */
  waitMs?: number;
};

/**
 * Callbacks handed to the worker together (CallbackThread.sendBatch): their suppliers' fields once,
 * each callback's supplier by its place in them, one signing time and one wait (they share a claim).
 */
export type SendBatch = {
  suppliers: CallbackSupplier[];
  /**
   * `varsJson`: vars is JSON.stringify's text of the values (HookRow.vars, written by this process):
   * it goes into the packed message as it is, and the worker gets the values parsed with the rest.
   */
  hooks: { s: number; url: string; vars: string | null; event: string; key: string; varsJson?: boolean }[];
  at: number;
  waitMs?: number;
};

/**
 * A batch being made: `add` puts a callback in it, its supplier's fields once (the suppliers are
 * told apart by object: one object per supplier read).
 */
export function batchOf(at: number, waitMs?: number) {
  const batch: SendBatch = { suppliers: [], hooks: [], at, waitMs };
  const place = new Map<CallbackSupplier, number>();
  const add = (supplier: CallbackSupplier, hook: Omit<SendBatch["hooks"][number], "s">) => {
    let s = place.get(supplier);
    if (s === undefined) place.set(supplier, s = batch.suppliers.push(supplier) - 1);
    batch.hooks.push({ s, ...hook });
  };
  return { batch, add };
}

/**
 * How a batch's answers are told (`i`, `j`: places in its hooks): `run` for callbacks i..j answered
 * with the same 2xx status (most: told together, with no object per callback), `one` for any other.
 */
export type BatchAnswers = {
  run(i: number, j: number, status: number): void;
  one(i: number, a: ThreadAnswer): void;
};

/**
 * What the worker is told: its client and the ring it reads callbacks from (./callback-ring.ts)
 * first; callbacks come as messages only when the ring has no room. Either way several go together,
 * packed into one string (packSends).
 */
export type ThreadMessage =
  | ({ type: "init"; ring: SharedArrayBuffer } & PortableOutbound)
  | { type: "send"; packed: string }
  | { type: "wake" };

/** A send's result: the HTTP status (0: none), or the error and, when the policy refused, its rule. */
export type ThreadAnswer = { id: number; status: number; error: string; refused: string; skipped?: boolean };

/** A batch as packed: its first callback's id (the others' follow), at, waitMs, its callbacks. */
type PackedBatch = [number, number, number | null, PackedHook[]];
/**
 * A callback as packed: its supplier's and its URL's places in the message's lists, vars (their text,
 * or the values), event, key.
 */
type PackedHook = [number, number, string | null | Record<string, string>, string, string];
/** An answer as packed: id, status, error, refused, skipped (1). */
type PackedAnswer = [number, number, string, string, 0 | 1];
/** 2xx answers as packed: the first and last ids of a run of them with one status, and the status. */
type PackedRun = [number, number, number];

/**
 * Batches of callbacks (their first ids given) as one string for the worker: each supplier's fields
 * and each URL once, however many of its callbacks go (a structured clone of objects cost the app's
 * thread more than the rest of the hand-over: a string is copied as it is).
 */
export function packSends(batches: { first: number; batch: SendBatch }[]): string {
  const suppliers: CallbackSupplier[] = [], urls: string[] = [];
  const supplierAt = new Map<CallbackSupplier, number>(), urlAt = new Map<string, number>();
  // written out (PackedBatch[]), so that JSON vars go in as they are, not quoted as a string
  let packed = "";
  for (const { first, batch } of batches) {
    const places = batch.suppliers.map((s) => {
      let i = supplierAt.get(s);
      if (i === undefined) {
        const { hashKey, apiHeader, apiKey, apiBody, variableMapping } = s;
        supplierAt.set(s, i = suppliers.length);
        suppliers.push({ hashKey, apiHeader, apiKey, apiBody, variableMapping });
      }
      return i;
    });
    packed += `${packed ? "," : ""}[${first},${batch.at},${batch.waitMs ?? null},[`;
    batch.hooks.forEach((h, k) => {
      let u = urlAt.get(h.url);
      if (u === undefined) urlAt.set(h.url, u = urls.push(h.url) - 1);
      const vars = h.varsJson && h.vars ? h.vars : JSON.stringify(h.vars);
      packed += `${k ? "," : ""}[${places[h.s]},${u},${vars},${JSON.stringify(h.event)},${
        JSON.stringify(h.key)
      }]`;
    });
    packed += "]]";
  }
  return `[${JSON.stringify(suppliers)},${JSON.stringify(urls)},[${packed}]]`;
}

/** The callbacks packSends packed, each with its id (the callbacks of one supplier share its object). */
export function unpackSends(packed: string): ThreadSend[] {
  const [suppliers, urls, batches] = JSON.parse(packed) as [CallbackSupplier[], string[], PackedBatch[]];
  const out: ThreadSend[] = [];
  for (const [first, at, waitMs, hooks] of batches) {
    hooks.forEach(([s, u, vars, event, key], i) => {
      const send: ThreadSend = {
        id: first + i,
        supplier: suppliers[s],
        hook: { url: urls[u], vars, event, key },
        at,
      };
      if (waitMs !== null) send.waitMs = waitMs;
      out.push(send);
    });
  }
  return out;
}

const isOk = (a: ThreadAnswer) => !a.error && !a.skipped && !a.refused && a.status >= 200 && a.status <= 299;

/**
 * Answers as one string for the app's thread: the 2xx ones as runs of consecutive ids with one
 * status (a batch's callbacks have ids in turn and are mostly answered alike: the app's thread
 * settles a run without an object per callback), the others each whole.
 */
export function packAnswers(as: ThreadAnswer[]): string {
  const runs: PackedRun[] = [], others: PackedAnswer[] = [];
  for (const a of [...as].sort((x, y) => x.id - y.id)) {
    if (!isOk(a)) {
      others.push([a.id, a.status, a.error, a.refused, a.skipped ? 1 : 0]);
      continue;
    }
    const run = runs.at(-1);
    if (run && run[1] === a.id - 1 && run[2] === a.status) run[1] = a.id;
    else runs.push([a.id, a.id, a.status]);
  }
  return JSON.stringify([runs, others]);
}

/** The answers packAnswers packed: the runs of 2xx ones, and the others. */
export function unpackAnswers(packed: string): { runs: PackedRun[]; others: ThreadAnswer[] } {
  const [runs, others] = JSON.parse(packed) as [PackedRun[], PackedAnswer[]];
  return {
    runs,
    others: others.map(([id, status, error, refused, skipped]) => ({
      id,
      status,
      error,
      refused,
      ...(skipped ? { skipped: true } : {}),
    })),
  };
}

/**
 * How callbacks gather before they are handed to the worker (written to its ring:
 * ./callback-ring.ts), and answers before they come back: until QUIET_MS pass without another (a
 * burst has ended: handed over at once) or HANDOVER_MS after the first (a steady flow goes in full
 * messages, whose callbacks go out pipelined together: at 20 ms a message, the worker's time a
 * callback on a busy 2-core host slowed the router's own thread by about as much again). Under a
 * steady flow the worker looks at its ring every POLL_MS and is never woken: a postMessage would
 * wake it, which cost the app's thread 40 µs idle and 230-530 µs under load (profiled); a hand-over
 * that ends a burst wakes it, once.
 */
export const HANDOVER_MS = 100;
export const QUIET_MS = 15;
export const POLL_MS = 50;

/**
 * Gathers for a hand-over (see HANDOVER_MS): `add` counts one more; `flush(quiet)` is called
 * QUIET_MS after the last add (quiet: a burst ended) or HANDOVER_MS after the first, whichever
 * comes first. One timer at a time, re-armed at most once per QUIET_MS.
 */
export class Gather {
  #first = 0;
  #last = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly flush: (quiet: boolean) => void) {}

  add() {
    this.#last = performance.now();
    if (this.#timer !== undefined) return;
    this.#first = this.#last;
    this.#timer = setTimeout(() => this.#check(), QUIET_MS);
  }

  /** Whether something was added since the last flush (its flush is to come). */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /** Flushes now, as the end of a burst, if anything was added since the last flush. */
  now() {
    if (this.#timer === undefined) return;
    this.cancel();
    this.flush(true);
  }

  /** Drops what was gathered (the caller cleared its items). */
  cancel() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #check() {
    const now = performance.now(), still = now - this.#last, age = now - this.#first;
    // a timer may fire a little early: half a millisecond counts as on time
    if (still >= QUIET_MS - 0.5 || age >= HANDOVER_MS - 0.5) {
      this.#timer = undefined;
      this.flush(still >= QUIET_MS - 0.5);
      return;
    }
    this.#timer = setTimeout(() => this.#check(), Math.min(QUIET_MS - still, HANDOVER_MS - age));
  }
}

/** Connections on their way at once to one origin (the worker queues the rest). */
export const PER_ORIGIN = 20;
/** Callbacks written together on one connection at most (pipelined: ../common/outbound/http1.ts). */
export const PIPELINE_DEPTH = 64;

/** The answer's error (and the policy's rule when it refused). */
function failed(answer: ThreadAnswer, err: unknown): ThreadAnswer {
  answer.error = err instanceof Error ? err.message : String(err);
  if (err instanceof OutboundRefused) answer.refused = err.reason;
  return answer;
}

/** Callbacks on their way at once when sent from the app's own thread (no worker). */
export const ON_THREAD_PARALLEL = 20;

/**
 * Sends callbacks on the worker, or on this thread through `via` (the same steps the worker takes,
 * ON_THREAD_PARALLEL at a time), and tells each answer as it comes (`i`: its place in `items`; on
 * the worker, items with the same signing time and wait go as one batch). Never throws: an error is
 * in the answer.
 */
export async function deliverAll(
  via: CallbackThread | Outbound,
  items: ThreadSend[],
  onAnswer: (i: number, a: ThreadAnswer) => void,
): Promise<void> {
  if (via instanceof CallbackThread) {
    // one batch per signing time and wait (a round's callbacks share both)
    const groups = Map.groupBy(items.keys(), (i) => `${items[i].at} ${items[i].waitMs ?? ""}`);
    await Promise.all([...groups.values()].map((places) => {
      const { batch, add } = batchOf(items[places[0]].at, items[places[0]].waitMs);
      for (const i of places) {
        const { vars, ...hook } = items[i].hook;
        add(items[i].supplier, {
          ...hook,
          vars: vars && typeof vars === "object" ? JSON.stringify(vars) : vars,
        });
      }
      return via.sendBatch(batch, {
        run: (i, j, status) => {
          for (let k = i; k <= j; k++) onAnswer(places[k], { id: 0, status, error: "", refused: "" });
        },
        one: (i, a) => onAnswer(places[i], a),
      });
    }));
    return;
  }
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      const [a] = await deliverCallbacks(via, [items[i]]);
      onAnswer(i, a);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ON_THREAD_PARALLEL, items.length) }, lane));
}

/**
 * Sends callbacks together (Outbound.requestMany: those to one panel's server pipelined on one
 * connection), each built and signed first. Never throws: each answer has its status or its error.
 */
export async function deliverCallbacks(via: Outbound, ms: ThreadSend[]): Promise<ThreadAnswer[]> {
  const out = ms.map((m): ThreadAnswer => ({ id: m.id, status: 0, error: "", refused: "" }));
  const calls: OutboundCall[] = [];
  const of: number[] = [];
  ms.forEach((m, i) => {
    try {
      const { url, vars, event, key } = m.hook;
      const values = typeof vars === "string" || vars === null ? parseVars(vars) : vars;
      const req = buildCallback(m.supplier, { url, vars: values, event, key }, m.at);
      calls.push({ url: req.url, req });
      of.push(i);
    } catch (err) {
      failed(out[i], err);
    }
  });
  const answers = await via.requestMany(calls);
  answers.forEach((a, j) => {
    if (a instanceof Error) failed(out[of[j]], a);
    else out[of[j]].status = a.status;
  });
  return out;
}

/** A batch on its way: its ids (first..first+n-1), which have answered, where its answers go. */
type Pending = {
  first: number;
  n: number;
  left: number;
  answered: Uint8Array;
  on: BatchAnswers;
  done: () => void;
};

export class CallbackThread {
  #worker: Worker | null = null;
  #next = 0;
  /** Batches on their way, by their first id (ids only grow: pushed in order). */
  #pending: Pending[] = [];
  #outbox: { first: number; batch: SendBatch }[] = [];
  #ring: CallbackRing | null = null;
  readonly #gather = new Gather((quiet) => this.#handOver(quiet));

  constructor(private readonly client: PortableOutbound) {}

  /**
   * Sends a batch of callbacks on the worker (started at the first), handed over with the others of
   * the next HANDOVER_MS, or at once with those waiting (`handOver`: the caller gathered them,
   * HookSender's fresh callbacks; `quiet`: they end a burst, the worker is woken); resolves once each
   * has answered.
   */
  sendBatch(batch: SendBatch, on: BatchAnswers, handOver?: { quiet: boolean }): Promise<void> {
    const n = batch.hooks.length;
    if (!n) return Promise.resolve();
    this.#worker ??= this.#start();
    const first = this.#next + 1;
    this.#next += n;
    this.#outbox.push({ first, batch });
    const done = new Promise<void>((done) => {
      this.#pending.push({ first, n, left: n, answered: new Uint8Array(n), on, done });
    });
    if (handOver) {
      this.#gather.cancel();
      this.#handOver(handOver.quiet);
    } else this.#gather.add();
    return done;
  }

  /** The gathered batches to the worker (woken when they end a burst). */
  #handOver(quiet: boolean) {
    const batches = this.#outbox, worker = this.#worker;
    this.#outbox = [];
    if (!batches.length || !worker) return;
    const packed = packSends(batches);
    // a ring with no room (a worker that stopped reading) takes nothing: it goes as a message
    if (!this.#ring?.write(packed)) worker.postMessage({ type: "send", packed } satisfies ThreadMessage);
    else if (quiet) worker.postMessage({ type: "wake" } satisfies ThreadMessage);
  }

  /** Ends the worker; what it was still sending comes back as failed (retried from the queue). */
  close() {
    this.#fail("the app stopped before the callback's answer came");
  }

  /** The place in #pending of the batch holding id, or -1. */
  #find(id: number): number {
    let lo = 0, hi = this.#pending.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1, p = this.#pending[mid];
      if (id < p.first) hi = mid - 1;
      else if (id >= p.first + p.n) lo = mid + 1;
      else return mid;
    }
    return -1;
  }

  /** Tells ids a..b's run of answers (status) to their batches, each id once. */
  #run(a: number, b: number, status: number) {
    for (let id = a; id <= b;) {
      const at = this.#find(id);
      if (at < 0) {
        id++;
        continue;
      }
      const p = this.#pending[at], end = Math.min(b, p.first + p.n - 1);
      // as sub-runs of those not answered yet (each is answered once)
      let from = -1;
      for (let k = id - p.first; k <= end - p.first + 1; k++) {
        if (k <= end - p.first && !p.answered[k]) {
          p.answered[k] = 1;
          p.left--;
          if (from < 0) from = k;
        } else if (from >= 0) {
          p.on.run(from, k - 1, status);
          from = -1;
        }
      }
      this.#settled(at);
      id = end + 1;
    }
  }

  #one(a: ThreadAnswer) {
    const at = this.#find(a.id);
    if (at < 0) return;
    const p = this.#pending[at], k = a.id - p.first;
    if (p.answered[k]) return;
    p.answered[k] = 1;
    p.left--;
    p.on.one(k, a);
    this.#settled(at);
  }

  /** A batch every callback of which has answered is done. */
  #settled(at: number) {
    const p = this.#pending[at];
    if (p.left) return;
    this.#pending.splice(at, 1);
    p.done();
  }

  #start(): Worker {
    const worker = new Worker(new URL("./callback-worker.ts", import.meta.url).href, { type: "module" });
    worker.onmessage = (e: MessageEvent<string>) => {
      const { runs, others } = unpackAnswers(e.data);
      for (const [a, b, status] of runs) this.#run(a, b, status);
      for (const a of others) this.#one(a);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      this.#fail(`the callback worker failed: ${e.message}`);
    };
    this.#ring = new CallbackRing();
    worker.postMessage({ type: "init", ring: this.#ring.shared, ...this.client } satisfies ThreadMessage);
    return worker;
  }

  #fail(error: string) {
    this.#worker?.terminate();
    this.#worker = null;
    this.#ring = null;
    this.#outbox = [];
    this.#gather.cancel();
    const pending = this.#pending;
    this.#pending = [];
    for (const p of pending) {
      p.answered.forEach((done, k) =>
        done || p.on.one(k, { id: p.first + k, status: 0, error, refused: "" })
      );
      p.done();
    }
  }
}
