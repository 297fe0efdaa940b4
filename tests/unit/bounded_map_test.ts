/**
 * server/lib/memo.ts' BoundedMap (and boundedCache, made of it): the oldest entry goes when full,
 * a touched or re-set-with-touch key becomes the newest, a deleted key's stale place in the queue
 * never evicts it once it is back, and the queue stays bounded however often keys are touched. A
 * random run is checked against a plain Map doing the same the slow way (keys().next(), whose walk
 * over deleted entries made the router three times slower past 200,000 sessions).
 */
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import { boundedCache, BoundedMap } from "../../server/lib/memo.ts";

const keysOf = (m: BoundedMap<string, number>, all: string[]) => all.filter((k) => m.has(k));

Deno.test("a full bounded map drops its oldest entry; setting a key it holds keeps its place", () => {
  const m = new BoundedMap<string, number>(3);
  m.set("a", 1);
  m.set("b", 2);
  m.set("c", 3);
  assertEquals(m.set("a", 10), 10); // updated, still the oldest
  m.set("d", 4);
  assertEquals(keysOf(m, ["a", "b", "c", "d"]), ["b", "c", "d"]);
  assertEquals(m.get("a"), undefined);
  assertEquals(m.size, 3);
  assertEquals([m.get("b"), m.get("d")], [2, 4]);
});

Deno.test("touch and set(k, v, true) make a key the newest", () => {
  const m = new BoundedMap<string, number>(3);
  for (const [k, v] of [["a", 1], ["b", 2], ["c", 3]] as const) m.set(k, v);
  assert(m.touch("a"));
  assert(!m.touch("zz"), "a key it does not hold is not touched");
  m.set("d", 4); // b goes, not a
  assertEquals(keysOf(m, ["a", "b", "c", "d"]), ["a", "c", "d"]);
  m.set("c", 30, true);
  m.set("e", 5); // a goes: c was made newer
  assertEquals(keysOf(m, ["a", "c", "d", "e"]), ["c", "d", "e"]);
  assertEquals(m.get("c"), 30);
});

Deno.test("a deleted key set again is new: its old place in the queue evicts nothing", () => {
  const m = new BoundedMap<string, number>(2);
  m.set("a", 1);
  m.set("b", 2);
  assert(m.delete("a"));
  assert(!m.delete("a"));
  m.set("a", 3); // newest now; its first stamp is stale
  m.set("c", 4); // b is the oldest live entry
  assertEquals(keysOf(m, ["a", "b", "c"]), ["a", "c"]);
  m.set("d", 5);
  assertEquals(keysOf(m, ["a", "c", "d"]), ["c", "d"]);
  m.clear();
  assertEquals([m.size, m.queued, m.get("c")], [0, 0, undefined]);
  m.set("x", 1);
  assertEquals(m.get("x"), 1);
});

Deno.test("the queue stays bounded whatever the touches and deletes", () => {
  const m = new BoundedMap<number, number>(100);
  for (let i = 0; i < 100; i++) m.set(i, i);
  for (let i = 0; i < 100_000; i++) {
    m.touch(i % 7);
    if (i % 3 === 0) {
      m.delete(100 + i);
      m.set(100 + (i % 500), i);
    }
    assert(m.queued <= 2 * m.size + 65, `queued ${m.queued} for ${m.size} entries`);
  }
  assertEquals(m.size, 100);
});

Deno.test("a random run matches a plain Map keeping insertion order the slow way", () => {
  let seed = 42;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const max = 50;
  const m = new BoundedMap<number, number>(max);
  const model = new Map<number, number>();
  for (let i = 0; i < 20_000; i++) {
    const k = rand(120), op = rand(10);
    if (op < 5) {
      if (!model.has(k) && model.size >= max) model.delete(model.keys().next().value!);
      model.set(k, i);
      m.set(k, i);
    } else if (op < 7) {
      const had = model.has(k);
      if (had) {
        model.delete(k);
        model.set(k, i);
      } else {
        if (model.size >= max) model.delete(model.keys().next().value!);
        model.set(k, i);
      }
      m.set(k, i, true);
    } else if (op < 8) {
      assertEquals(m.delete(k), model.delete(k));
    } else if (op < 9) {
      const v = model.get(k);
      if (v !== undefined) {
        model.delete(k);
        model.set(k, v);
      }
      assertEquals(m.touch(k), v !== undefined);
    } else {
      assertEquals(m.get(k), model.get(k));
    }
    assertEquals(m.size, model.size);
  }
  for (const [k, v] of model) assertEquals(m.get(k), v);
});

Deno.test("boundedCache is a bounded map; a bound under one is refused", () => {
  const c = boundedCache<string, string>(2);
  c.set("a", "1");
  c.set("b", "2");
  c.set("c", "3");
  assertEquals([c.get("a"), c.get("b"), c.get("c"), c.size], [undefined, "2", "3", 2]);
  assertThrows(() => new BoundedMap(0), Error, "at least one entry");
});
