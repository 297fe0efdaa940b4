/**
 * The worker side of ./callback-thread.ts: builds, signs and sends each supplier callback it is
 * given through its outbound client (made once from the app's policy and limits, its connections
 * kept alive), and answers the status or the error. It holds no queue: the app's thread decides
 * what is sent and records every answer.
 */
/// <reference lib="deno.worker" />
import { setPriority } from "node:os";
import { Outbound } from "../common/outbound/client.ts";
import { CallbackRing } from "./callback-ring.ts";
import {
  deliverCallbacks,
  Gather,
  packAnswers,
  PER_ORIGIN,
  PIPELINE_DEPTH,
  POLL_MS,
  type ThreadAnswer,
  type ThreadMessage,
  type ThreadSend,
  unpackSends,
} from "./callback-thread.ts";

/**
 * The worker's thread gives way to the router's (its nice value): on a busy host the scheduler runs
 * a respondent's request first, and a callback a moment later (it is queued, and retried if it must).
 * On a host of two cores the worker's bursts took the router's core from it; with the router's thread
 * alone on a core, callbacks on kept 0.92-0.94x of the pairs without (stop 40's trial).
 */
const NICE = 10;

/** Lowers this thread's priority (Linux: a thread has its own; elsewhere it stays the app's). */
function giveWay() {
  try {
    const tid = Number(Deno.readLinkSync("/proc/thread-self").split("/").at(-1));
    // never the app's main thread (its id is the process's)
    if (Number.isSafeInteger(tid) && tid !== Deno.pid) setPriority(tid, NICE);
  } catch {
    // no /proc (not Linux), or not allowed: the worker runs at the app's priority
  }
}

/** The scheme and host of a callback URL (its placeholders are in the path and query, if anywhere). */
const originOf = (url: string) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? "";

function serve() {
  let outbound: Outbound | null = null;
  let ring: CallbackRing | null = null;
  // answers go back several to a message, gathered as the callbacks came (Gather)
  let answers: ThreadAnswer[] = [];
  const gather = new Gather(() => {
    self.postMessage(packAnswers(answers));
    answers = [];
  });
  const answer = (a: ThreadAnswer) => {
    answers.push(a);
    gather.add();
  };
  // at most PER_ORIGIN connections on their way to one panel's server, each with up to
  // PIPELINE_DEPTH callbacks written together; the others wait their turn here
  type Item = ThreadSend & { until: number };
  type Origin = { active: number; waiting: Item[] };
  const origins = new Map<string, Origin>();
  const pump = (key: string, o: Origin) => {
    while (o.active < PER_ORIGIN && o.waiting.length) {
      const now = performance.now();
      const batch: Item[] = [];
      for (const item of o.waiting.splice(0, PIPELINE_DEPTH)) {
        if (now > item.until) answer({ id: item.id, status: 0, error: "", refused: "", skipped: true });
        else batch.push(item);
      }
      if (!batch.length) continue;
      o.active++;
      const client = outbound;
      const sent = client ? deliverCallbacks(client, batch) : Promise.resolve(batch.map((item) => ({
        id: item.id,
        status: 0,
        error: "the callback worker has no client",
        refused: "",
      })));
      sent.then((as) => {
        as.forEach(answer);
        o.active--;
        pump(key, o);
        // nothing left on its way or waiting: the answers go back at once
        if (!origins.size) gather.now();
      });
    }
    if (!o.active && !o.waiting.length) origins.delete(key);
  };
  const take = (packed: string) => {
    const now = performance.now();
    const touched = new Set<string>();
    for (const item of unpackSends(packed)) {
      const key = originOf(item.hook.url);
      const o = origins.get(key) ?? { active: 0, waiting: [] };
      origins.set(key, o);
      const waiting = item as Item;
      waiting.until = now + (item.waitMs ?? Infinity);
      o.waiting.push(waiting);
      touched.add(key);
    }
    for (const key of touched) pump(key, origins.get(key)!);
  };
  self.onmessage = (e: MessageEvent<ThreadMessage>) => {
    const m = e.data;
    if (m.type === "send") return take(m.packed);
    if (m.type === "wake") return ring?.readAll().forEach(take);
    giveWay();
    outbound = new Outbound(m.policy, m.opts).pooled();
    // under a steady flow the app's thread writes callbacks to the ring without waking this one: it
    // looks every POLL_MS (a hand-over that ends a burst wakes it)
    const r = ring = new CallbackRing(m.ring);
    setInterval(() => r.readAll().forEach(take), POLL_MS);
  };
}

serve();
