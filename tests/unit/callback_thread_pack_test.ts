/**
 * The hand-over to the callback worker (server/domain/router/callback-thread.ts): callbacks go as one
 * string with each supplier's fields once, answers come back as one string.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  packAnswers,
  packSends,
  type ThreadAnswer,
  type ThreadSend,
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

Deno.test("callback thread: callbacks go to the worker as one string, each supplier's fields once, and come back the same", () => {
  const a = { ...supplier("secret-a"), approvedHookRefusal: "" }, b = supplier("secret-b");
  const items: ThreadSend[] = [1, 2, 3].map((n) => ({
    id: n,
    supplier: n === 2 ? b : a,
    hook: {
      url: `https://panel.example/cb?n=${n}`,
      vars: n === 3 ? null : `{"sid":"m${n}"}`,
      event: "complete",
      key: `u${n}-c`,
    },
    at: 1_790_000_000_000 + n,
    ...(n === 1 ? {} : { waitMs: 1000 * n }),
  }));
  const packed = packSends(items);
  assertEquals(packed.split("secret-a").length - 1, 1, "a supplier's fields are packed once");
  assert(!packed.includes("approvedHookRefusal"), "only the fields a callback is built from go");
  const back = unpackSends(packed);
  assertEquals(back, items.map((m) => ({ ...m, supplier: m.supplier === a ? supplier("secret-a") : b })));
  assert(back[0].supplier === back[2].supplier, "the callbacks of one supplier share its fields");
});

Deno.test("callback thread: answers come back with their status, error, refusal and skip", () => {
  const answers: ThreadAnswer[] = [
    { id: 1, status: 200, error: "", refused: "" },
    { id: 2, status: 0, error: "refused: private address", refused: "private" },
    { id: 3, status: 0, error: "", refused: "", skipped: true },
  ];
  assertEquals(unpackAnswers(packAnswers(answers)), answers);
});
