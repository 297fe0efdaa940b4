/**
 * The worker side of ./callback-thread.ts: builds, signs and sends each supplier callback it is
 * given through its outbound client (made once from the app's policy and limits, its connections
 * kept alive), and answers the status or the error. It holds no queue: the app's thread decides
 * what is sent and records every answer.
 */
/// <reference lib="deno.worker" />
import { Outbound } from "../common/outbound/client.ts";
import {
  BATCH_MS,
  deliverCallback,
  PER_ORIGIN,
  type ThreadAnswer,
  type ThreadMessage,
  type ThreadSend,
} from "./callback-thread.ts";

/** The scheme and host of a callback URL (its placeholders are in the path and query, if anywhere). */
const originOf = (url: string) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? "";

function serve() {
  let outbound: Outbound | null = null;
  // answers go back several to a message, those that came within BATCH_MS
  let answers: ThreadAnswer[] = [];
  const answer = (a: ThreadAnswer) => {
    if (!answers.length) {
      setTimeout(() => {
        self.postMessage(answers);
        answers = [];
      }, BATCH_MS);
    }
    answers.push(a);
  };
  // at most PER_ORIGIN on their way to one panel's server; the others wait their turn here
  type Item = ThreadSend & { until: number };
  const origins = new Map<string, { active: number; waiting: Item[] }>();
  const start = (item: Item) => {
    const key = originOf(item.hook.url);
    const o = origins.get(key) ?? { active: 0, waiting: [] };
    origins.set(key, o);
    if (o.active >= PER_ORIGIN) return void o.waiting.push(item);
    if (performance.now() > item.until) {
      answer({ id: item.id, status: 0, error: "", refused: "", skipped: true });
      return void next(key, o);
    }
    o.active++;
    const client = outbound;
    const sent = client
      ? deliverCallback(client, item)
      : Promise.resolve({ id: 0, status: 0, error: "the callback worker has no client", refused: "" });
    sent.then((a) => {
      answer({ ...a, id: item.id });
      o.active--;
      next(key, o);
    });
  };
  const next = (key: string, o: { active: number; waiting: Item[] }) => {
    const item = o.waiting.shift();
    if (item) start(item);
    else if (!o.active) origins.delete(key);
  };
  self.onmessage = (e: MessageEvent<ThreadMessage>) => {
    const m = e.data;
    if (m.type === "init") outbound = new Outbound(m.policy, m.opts).pooled();
    else {
      const now = performance.now();
      for (const item of m.items) start({ ...item, until: now + (item.waitMs ?? Infinity) });
    }
  };
}

serve();
