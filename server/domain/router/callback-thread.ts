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
 * What the worker is told: its client first, then the callbacks to send, several to a message (a
 * message costs about as much as a callback's request: they go together within a turn of the loop).
 */
export type ThreadMessage = ({ type: "init" } & PortableOutbound) | { type: "send"; items: ThreadSend[] };

/** A send's result: the HTTP status (0: none), or the error and, when the policy refused, its rule. */
export type ThreadAnswer = { id: number; status: number; error: string; refused: string; skipped?: boolean };

type Send = Omit<ThreadSend, "id">;

/**
 * How long a callback waits for others to go with it to the worker, and its answer back (ms): each
 * message wakes the other thread, and the callbacks of one message go out pipelined together.
 */
export const BATCH_MS = 5;
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

/**
 * Sends one callback: on the worker, or on this thread through `via` (the same steps the worker
 * takes). Never throws: an error is in the answer.
 */
export async function deliverCallback(via: CallbackThread | Outbound, m: Send): Promise<ThreadAnswer> {
  if (via instanceof CallbackThread) return await via.send(m);
  const [answer] = await deliverCallbacks(via, [{ id: 0, ...m }]);
  return answer;
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

  constructor(private readonly client: PortableOutbound) {}

  /** Sends one callback on the worker (started at the first). */
  send(m: Send): Promise<ThreadAnswer> {
    const worker = this.#worker ??= this.#start();
    const id = ++this.#next;
    if (!this.#outbox.length) {
      setTimeout(() => {
        const items = this.#outbox;
        this.#outbox = [];
        if (items.length && this.#worker === worker) {
          worker.postMessage({ type: "send", items } satisfies ThreadMessage);
        }
      }, BATCH_MS);
    }
    this.#outbox.push({ id, ...m });
    return new Promise((resolve) => this.#pending.set(id, resolve));
  }

  /** Ends the worker; what it was still sending comes back as failed (retried from the queue). */
  close() {
    this.#fail("the app stopped before the callback's answer came");
  }

  #start(): Worker {
    const worker = new Worker(new URL("./callback-worker.ts", import.meta.url).href, { type: "module" });
    worker.onmessage = (e: MessageEvent<ThreadAnswer[]>) => {
      for (const a of e.data) {
        this.#pending.get(a.id)?.(a);
        this.#pending.delete(a.id);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      this.#fail(`the callback worker failed: ${e.message}`);
    };
    worker.postMessage({ type: "init", ...this.client } satisfies ThreadMessage);
    return worker;
  }

  #fail(error: string) {
    this.#worker?.terminate();
    this.#worker = null;
    this.#outbox = [];
    for (const [id, resolve] of this.#pending) resolve({ id, status: 0, error, refused: "" });
    this.#pending.clear();
  }
}
