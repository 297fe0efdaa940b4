/**
 * The ring that hands callbacks to the worker without waking it (server/domain/router/callback-ring.ts):
 * messages come out in order and whole, across the end of the ring and back to its start; a message
 * with no room is refused (nothing written) until the reader has read; the reader's view over the
 * same memory sees what the writer wrote.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { CallbackRing } from "../../server/domain/router/callback-ring.ts";

Deno.test("callback ring: messages come out in order and whole, across the ring's end, in the reader's own view", () => {
  const writer = new CallbackRing(CallbackRing.memory(128));
  const reader = new CallbackRing(writer.shared);
  assertEquals(reader.readAll(), []);
  const seen: string[] = [];
  const sent: string[] = [];
  // 40 rounds of messages of 1-30 bytes (some of several bytes a character) through 128 bytes (three at most between reads: 105)
  for (let i = 0; i < 40; i++) {
    const m = `${i}:${"é".repeat(i % 7)}${"x".repeat((i * 7) % 17)}`;
    assert(writer.write(m), `message ${i} fits once the reader has read`);
    sent.push(m);
    if (i % 3 === 2) seen.push(...reader.readAll());
  }
  seen.push(...reader.readAll());
  assertEquals(seen, sent);
  assertEquals(reader.readAll(), []);
});

Deno.test("callback ring: a message with no room is refused whole, and fits once the reader has read", () => {
  const writer = new CallbackRing(CallbackRing.memory(32));
  const reader = new CallbackRing(writer.shared);
  assert(writer.write("a".repeat(20)), "4 + 20 of 32 bytes");
  assertEquals(writer.write("b".repeat(5)), false, "4 + 5 more would be 33");
  assert(writer.write("c".repeat(4)), "4 + 4 more is exactly 32");
  assertEquals(writer.write(""), false, "not even an empty one (its length takes 4 bytes)");
  assertEquals(reader.readAll(), ["a".repeat(20), "c".repeat(4)]);
  assert(writer.write("d".repeat(28)), "all 32 bytes free again");
  assertEquals(reader.readAll(), ["d".repeat(28)]);
});
