/**
 * The hand-over to the callback worker (server/domain/router/callback-thread.ts): batches of
 * callbacks go as one string with each supplier's fields and each URL once, their ids following the
 * batch's first; answers come back as one string, the 2xx ones as runs of ids; both are gathered
 * until a burst ends or a steady flow has gathered HANDOVER_MS.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  Gather,
  HANDOVER_MS,
  packAnswers,
  packSends,
  QUIET_MS,
  type SendBatch,
  type ThreadAnswer,
  unpackAnswers,
  unpackSends,
} from "../../server/domain/router/callback-thread.ts";

const supplier = (hashKey: string) => ({
  hashKey,
  apiHeader: "X-Panel-Key",
  apiKey: "k-123",
  apiBody: '{"id":"[sid]"}',
  variableMapping: "uid=rid",
});

Deno.test("callback thread: batches go to the worker as one string, each supplier's fields and URL once, and come back as callbacks with their ids", () => {
  const a = { ...supplier("secret-a"), approvedHookRefusal: "" }, b = supplier("secret-b");
  const url = "https://panel.example/cb?uid=[uid]";
  const first: SendBatch = {
    suppliers: [a, b],
    hooks: [
      // the writer's JSON (HookRow.vars) goes in as it is, and comes back as the values
      { s: 0, url, vars: '{"sid":"m1","quote":"a\\"b"}', event: "complete", key: "u1-c", varsJson: true },
      { s: 1, url: `${url}&b=1`, vars: null, event: "terminate", key: "u2-t" },
    ],
    at: 1_790_000_000_000,
    waitMs: 5_000,
  };
  const second: SendBatch = {
    suppliers: [a],
    hooks: [{ s: 0, url, vars: '{"sid":"m3"}', event: "complete", key: "u3-c" }],
    at: 1_790_000_000_001,
  };
  const packed = packSends([{ first: 7, batch: first }, { first: 20, batch: second }]);
  assertEquals(packed.split("secret-a").length - 1, 1, "a supplier's fields are packed once across batches");
  assertEquals(packed.split('panel.example/cb?uid=[uid]"').length - 1, 1, "a URL is packed once");
  assert(!packed.includes("approvedHookRefusal"), "only the fields a callback is built from go");
  assert(packed.includes(',{"sid":"m1","quote":"a\\"b"},'), "JSON vars are not quoted again");
  assert(packed.includes(',"{\\"sid\\":\\"m3\\"}",'), "other vars go as their text");
  const back = unpackSends(packed);
  const plainA = supplier("secret-a");
  assertEquals(back, [
    {
      id: 7,
      supplier: plainA,
      hook: { url, vars: { sid: "m1", quote: 'a"b' }, event: "complete", key: "u1-c" },
      at: first.at,
      waitMs: 5_000,
    },
    {
      id: 8,
      supplier: b,
      hook: { url: `${url}&b=1`, vars: null, event: "terminate", key: "u2-t" },
      at: first.at,
      waitMs: 5_000,
    },
    {
      id: 20,
      supplier: plainA,
      hook: { url, vars: '{"sid":"m3"}', event: "complete", key: "u3-c" },
      at: second.at,
    },
  ]);
  assert(back[0].supplier === back[2].supplier, "the callbacks of one supplier share its fields");
});

Deno.test("callback thread: 2xx answers come back as runs of consecutive ids with one status; any other whole, with its error, refusal and skip", () => {
  const ok = (id: number, status = 200): ThreadAnswer => ({ id, status, error: "", refused: "" });
  const others: ThreadAnswer[] = [
    { id: 4, status: 0, error: "refused: private address", refused: "private" },
    { id: 9, status: 0, error: "", refused: "", skipped: true },
    { id: 10, status: 500, error: "", refused: "" },
  ];
  // answered out of order, as connections finish
  const answers = [
    ok(3),
    ok(2),
    others[0],
    ok(5),
    ok(6, 204),
    ok(7, 204),
    ok(8),
    others[1],
    others[2],
    ok(1),
  ];
  const { runs, others: back } = unpackAnswers(packAnswers(answers));
  assertEquals(runs, [[1, 3, 200], [5, 5, 200], [6, 7, 204], [8, 8, 200]]);
  assertEquals(back, others);
});

Deno.test("callback hand-over: a lone add goes QUIET_MS later as the end of a burst; a steady flow goes once, HANDOVER_MS after its first", async () => {
  const flushes: { quiet: boolean; after: number }[] = [];
  let since = 0;
  const gather = new Gather((quiet) => flushes.push({ quiet, after: performance.now() - since }));
  const flushed = async (n: number) => {
    for (let i = 0; i < 500 && flushes.length < n; i++) await new Promise((r) => setTimeout(r, 5));
  };

  since = performance.now();
  gather.add();
  await flushed(1);
  assertEquals(flushes.map((f) => f.quiet), [true]);
  assert(flushes[0].after >= QUIET_MS - 0.5, `flushed after ${flushes[0].after} ms`);

  // adds without a pause for longer than HANDOVER_MS (no timer runs meanwhile): flushed once, for
  // the whole of them, not once per QUIET_MS
  since = performance.now();
  while (performance.now() - since < HANDOVER_MS + 10) gather.add();
  await flushed(2);
  await new Promise((r) => setTimeout(r, QUIET_MS * 3));
  assertEquals(flushes.length, 2);
  assert(flushes[1].after >= HANDOVER_MS, `flushed after ${flushes[1].after} ms`);

  // cancelled: nothing is flushed
  gather.add();
  gather.cancel();
  await new Promise((r) => setTimeout(r, QUIET_MS * 3));
  assertEquals(flushes.length, 2);

  // now(): what was added goes at once (the worker with nothing left on its way), once; with nothing
  // added, nothing goes
  gather.now();
  assertEquals(flushes.length, 2);
  gather.add();
  gather.now();
  assertEquals(flushes.length, 3, "flushed before now() returned");
  assertEquals(flushes[2].quiet, true);
  await new Promise((r) => setTimeout(r, QUIET_MS * 3));
  assertEquals(flushes.length, 3);
});
