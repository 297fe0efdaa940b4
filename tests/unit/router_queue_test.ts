/** The router writer's queue: batches in flight, events held behind what they depend on, linger. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { BatchQueue, type EventKeys } from "../../server/domain/router/writer/queue.ts";
import { createLogger } from "../../server/logger.ts";

type Ev = { id: string; key: string; exclusive?: boolean };
const keysOf = (e: Ev): EventKeys => ({ keys: [e.key], exclusive: e.exclusive });

/** A flush whose batches stay in flight until released, recording what each carried. */
function gatedFlush() {
  const batches: string[][] = [];
  const gates: (() => void)[] = [];
  let inFlight = 0, peak = 0;
  const flush = async (events: Ev[]) => {
    batches.push(events.map((e) => e.id));
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise<void>((r) => gates.push(r));
    inFlight--;
    return events.map((e) => e.id);
  };
  const turn = () => new Promise((r) => setTimeout(r, 5));
  return { flush, batches, release: () => gates.shift()?.(), peak: () => peak, turn };
}

Deno.test("router queue: two batches in flight; an event on a key in flight waits for that batch", async () => {
  const g = gatedFlush();
  const q = new BatchQueue<Ev, string>(g.flush, 100, createLogger("silent"), { inFlight: 2, keysOf });
  const a = q.submit({ id: "a", key: "uid-1" });
  await g.turn();
  // a's batch is in flight: b depends on it, c does not, d waits behind b (same key)
  const b = q.submit({ id: "b", key: "uid-1" });
  const c = q.submit({ id: "c", key: "uid-2" });
  await g.turn();
  assertEquals(g.batches, [["a"], ["c"]]);
  assertEquals(g.peak(), 2);
  assertEquals(q.held, 1);
  g.release(); // a done: b goes
  assertEquals(await a, "a");
  await g.turn();
  assertEquals(g.batches, [["a"], ["c"], ["b"]]);
  g.release();
  g.release();
  assertEquals([await b, await c], ["b", "c"]);
  await q.idle();
});

Deno.test("router queue: an exclusive event (the sweep) goes alone, with nothing else in flight", async () => {
  const g = gatedFlush();
  const q = new BatchQueue<Ev, string>(g.flush, 100, createLogger("silent"), { inFlight: 2, keysOf });
  const a = q.submit({ id: "a", key: "k1" });
  await g.turn();
  const s = q.submit({ id: "sweep", key: "", exclusive: true });
  const b = q.submit({ id: "b", key: "k2" });
  await g.turn();
  // the sweep waits for a; b, queued after it, waits for the sweep
  assertEquals(g.batches, [["a"]]);
  g.release();
  await a;
  await g.turn();
  assertEquals(g.batches, [["a"], ["sweep"]]);
  g.release();
  await s;
  await g.turn();
  assertEquals(g.batches, [["a"], ["sweep"], ["b"]]);
  g.release();
  await b;
  await q.idle();
});

Deno.test("router queue: with a linger, requests coming back just after a batch share the next one", async () => {
  for (const linger of [0, 60]) {
    const sizes: number[] = [];
    const q = new BatchQueue<Ev, string>(
      async (events) => {
        sizes.push(events.length);
        await new Promise((r) => setTimeout(r, 1));
        return events.map((e) => e.id);
      },
      100,
      createLogger("silent"),
      { linger },
    );
    // four clients in a closed loop, each sending its next request a few ms after its answer
    await Promise.all([0, 1, 2, 3].map(async (c) => {
      for (let i = 0; i < 3; i++) {
        await q.submit({ id: `${c}-${i}`, key: "" });
        await new Promise((r) => setTimeout(r, 2 + c * 3));
      }
    }));
    await q.idle();
    if (linger) assertEquals(sizes, [4, 4, 4], "each round in one batch");
    else assert(sizes.length > 3, `without a linger the rounds split: ${sizes}`);
  }
});
