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
  /** The queued row's URL, values (its vars column, JSON), event and idempotency key. */
  hook: { url: string; vars: string | null; event: string; key: string };
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
 * What the worker is told: its client and the ring it reads callbacks from (./callback-ring.ts)
 * first; callbacks come as messages only when the ring has no room. Either way several go together,
 * packed into one string (packSends).
 */
export type ThreadMessage =
  | ({ type: "init"; ring: SharedArrayBuffer } & PortableOutbound)
  | { type: "send"; packed: string };

/** A send's result: the HTTP status (0: none), or the error and, when the policy refused, its rule. */
export type ThreadAnswer = { id: number; status: number; error: string; refused: string; skipped?: boolean };

/** A callback as packed: id, its supplier's place in the message's list, url, vars, event, key, at, waitMs. */
type PackedSend = [number, number, string, string | null, string, string, number, number | null];
/** An answer as packed: id, status, error, refused, skipped (1). */
type PackedAnswer = [number, number, string, string, 0 | 1];

/**
 * Callbacks as one string for the worker: each supplier's fields once, however many of its
 * callbacks go (a structured clone of the objects cost the app's thread more than the rest of the
 * hand-over: a string is copied as it is).
 */
export function packSends(items: ThreadSend[]): string {
  const suppliers: CallbackSupplier[] = [];
  const at = new Map<CallbackSupplier, number>();
  const rows = items.map((m): PackedSend => {
    let i = at.get(m.supplier);
    if (i === undefined) {
      const { hashKey, apiHeader, apiKey, apiBody, variableMapping } = m.supplier;
      at.set(m.supplier, i = suppliers.length);
      suppliers.push({ hashKey, apiHeader, apiKey, apiBody, variableMapping });
    }
    const { url, vars, event, key } = m.hook;
    return [m.id, i, url, vars, event, key, m.at, m.waitMs ?? null];
  });
  return JSON.stringify([suppliers, rows]);
}

/** The callbacks packSends packed (the callbacks of one supplier share its object). */
export function unpackSends(packed: string): ThreadSend[] {
  const [suppliers, rows] = JSON.parse(packed) as [CallbackSupplier[], PackedSend[]];
  return rows.map(([id, i, url, vars, event, key, at, waitMs]) => ({
    id,
    supplier: suppliers[i],
    hook: { url, vars, event, key },
    at,
    ...(waitMs === null ? {} : { waitMs }),
  }));
}

/** Answers as one string for the app's thread. */
export const packAnswers = (as: ThreadAnswer[]): string =>
  JSON.stringify(as.map((a): PackedAnswer => [a.id, a.status, a.error, a.refused, a.skipped ? 1 : 0]));

/** The answers packAnswers packed. */
export function unpackAnswers(packed: string): ThreadAnswer[] {
  return (JSON.parse(packed) as PackedAnswer[]).map(([id, status, error, refused, skipped]) => ({
    id,
    status,
    error,
    refused,
    ...(skipped ? { skipped: true } : {}),
  }));
}

/**
 * How long callbacks gather before they are handed to the worker (written to its ring:
 * ./callback-ring.ts), and answers before they come back (ms); the callbacks of one message go out
 * pipelined together. The worker looks at its ring every POLL_MS: a postMessage would wake it, which
 * cost the app's thread 40 µs idle and 230-530 µs under load (profiled), more than the 50-200
 * callbacks it carried cost to pack.
 */
export const HANDOVER_MS = 20;
export const POLL_MS = 10;
/** Connections on their way at once to one origin (the worker queues the rest). */
export const PER_ORIGIN = 20;
/** Callbacks written together on one connection at most (pipelined: ../common/outbound/http1.ts). */
export const PIPELINE_DEPTH = 16;

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
 * ON_THREAD_PARALLEL at a time), and tells each answer as it comes (`i`: its place in `items`; the
 * items' ids are set here). Never throws: an error is in the answer.
 */
export async function deliverAll(
  via: CallbackThread | Outbound,
  items: ThreadSend[],
  onAnswer: (i: number, a: ThreadAnswer) => void,
): Promise<void> {
  if (via instanceof CallbackThread) return await via.sendMany(items, onAnswer);
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
      const req = buildCallback(m.supplier, { ...m.hook, vars: parseVars(m.hook.vars) }, m.at);
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

export class CallbackThread {
  #worker: Worker | null = null;
  #next = 0;
  readonly #pending = new Map<number, (a: ThreadAnswer) => void>();
  #outbox: ThreadSend[] = [];
  #ring: CallbackRing | null = null;

  constructor(private readonly client: PortableOutbound) {}

  /**
   * Sends callbacks on the worker (started at the first), handed over with the others of the next
   * HANDOVER_MS; resolves once each has answered (`i`: its place in `items`).
   */
  sendMany(items: ThreadSend[], onAnswer: (i: number, a: ThreadAnswer) => void): Promise<void> {
    if (!items.length) return Promise.resolve();
    const worker = this.#worker ??= this.#start();
    if (!this.#outbox.length) {
      setTimeout(() => {
        const items = this.#outbox;
        this.#outbox = [];
        if (!items.length || this.#worker !== worker) return;
        const packed = packSends(items);
        // a ring with no room (a worker that stopped reading) takes nothing: it goes as a message
        if (!this.#ring?.write(packed)) worker.postMessage({ type: "send", packed } satisfies ThreadMessage);
      }, HANDOVER_MS);
    }
    return new Promise((done) => {
      let left = items.length;
      const first = this.#next + 1;
      // one handler for the call's callbacks (their ids follow each other), not one per callback
      const answered = (a: ThreadAnswer) => {
        onAnswer(a.id - first, a);
        if (--left === 0) done();
      };
      for (const m of items) {
        m.id = ++this.#next;
        this.#outbox.push(m);
        this.#pending.set(m.id, answered);
      }
    });
  }

  /** Ends the worker; what it was still sending comes back as failed (retried from the queue). */
  close() {
    this.#fail("the app stopped before the callback's answer came");
  }

  #start(): Worker {
    const worker = new Worker(new URL("./callback-worker.ts", import.meta.url).href, { type: "module" });
    worker.onmessage = (e: MessageEvent<string>) => {
      for (const a of unpackAnswers(e.data)) {
        this.#pending.get(a.id)?.(a);
        this.#pending.delete(a.id);
      }
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
    for (const [id, resolve] of this.#pending) resolve({ id, status: 0, error, refused: "" });
    this.#pending.clear();
  }
}
