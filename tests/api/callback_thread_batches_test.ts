/**
 * server/domain/router/callback-thread.ts with its real worker: batches of callbacks are answered
 * by id, runs of 2xx ones told per batch (a run that spans two batches is split between them), any
 * other answer on its own, each callback once; a batch resolves once all of its callbacks have
 * answered, and closing the thread answers those still on their way as failed.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { outboundFor } from "../../server/boot.ts";
import { loadEnv } from "../../server/env.ts";
import { CallbackThread, type SendBatch } from "../../server/domain/router/callback-thread.ts";

const supplier = { hashKey: "batch-secret", apiHeader: "", apiKey: "", apiBody: "", variableMapping: "" };

Deno.test("callback thread: runs are told per batch, other answers on their own, each callback once; closing answers what is left as failed", async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => release = r);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const n = new URL(req.url).searchParams.get("n") ?? "";
    return new Response(n === "bad" ? "no" : "ok", { status: n === "bad" ? 503 : 200 });
  });
  // another panel's server (another origin: its own connections), which holds its answers
  const slow = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await held;
    return new Response("ok");
  });
  const env = { OUTBOUND_ALLOW: "127.0.0.1" };
  const thread = new CallbackThread(outboundFor(loadEnv(env)).with({ timeoutMs: 5_000 }).portable!);
  const url = `http://127.0.0.1:${server.addr.port}/cb?n=[n]`;
  const slowUrl = `http://127.0.0.1:${slow.addr.port}/cb?n=[n]`;
  const batch = (ns: string[]): SendBatch => ({
    suppliers: [supplier],
    hooks: ns.map((n, i) => ({
      s: 0,
      url: n === "hold" ? slowUrl : url,
      vars: JSON.stringify({ n }),
      event: "complete",
      key: `k-${n}-${i}`,
    })),
    at: Date.now(),
  });
  const told = (name: string, log: string[]) => ({
    run: (i: number, j: number, status: number) => log.push(`${name} run ${i}-${j} ${status}`),
    one: (i: number, a: { status: number; error: string }) =>
      log.push(`${name} one ${i} ${a.status}${a.error ? " failed" : ""}`),
  });
  try {
    // two batches handed over together: their ids follow each other, so one run of 2xx answers may
    // cover the end of the first and the start of the second
    const a: string[] = [], b: string[] = [];
    const done = Promise.all([
      thread.sendBatch(batch(["1", "2", "bad", "4"]), told("a", a)),
      thread.sendBatch(batch(["5", "6"]), told("b", b)),
    ]);
    await done;
    const ranges = (log: string[]) =>
      log.filter((l) => l.includes(" run ")).flatMap((l) => {
        const [from, to] = l.split(" ")[2].split("-").map(Number);
        return Array.from({ length: to - from + 1 }, (_, k) => from + k);
      }).sort();
    assertEquals(ranges(a), [0, 1, 3], a.join("; "));
    assertEquals(a.filter((l) => l.includes(" one ")), ["a one 2 503"]);
    assertEquals(ranges(b), [0, 1], b.join("; "));
    assert(b.every((l) => l.includes(" run ")), b.join("; "));

    // a batch whose last callback is held: the others answer, the batch waits; closing the thread
    // answers the held one as failed and resolves the batch
    const c: string[] = [];
    let resolved = false;
    const pending = thread.sendBatch(batch(["7", "hold"]), told("c", c)).then(() => resolved = true);
    for (let i = 0; i < 200 && !c.length; i++) await new Promise((r) => setTimeout(r, 10));
    assertEquals(c, ["c run 0-0 200"]);
    assert(!resolved, "a batch is not done while one of its callbacks is on its way");
    thread.close();
    await pending;
    assertEquals(c, ["c run 0-0 200", "c one 1 0 failed"]);
  } finally {
    release();
    thread.close();
    await server.shutdown();
    await slow.shutdown();
  }
});
