/** The supply API's token bucket per key (server/domain/supply/rate-limit.ts): refill, Retry-After, bounds. */
import { assertEquals } from "../helpers/assert.ts";
import { SupplyRateLimiter } from "../../server/domain/supply/rate-limit.ts";

Deno.test("supply rate: a burst, then one call per refill interval; Retry-After rounds up to whole seconds", () => {
  let now = 1_000_000;
  const r = new SupplyRateLimiter({ perMinute: 600, burst: 120 }, () => now);
  for (let i = 0; i < 120; i++) assertEquals(r.take("k").ok, true, `call ${i}`);
  // 600 a minute: a token every 100 ms, told as 1 second (Retry-After takes whole seconds)
  assertEquals(r.take("k"), { ok: false, retryAfterSeconds: 1 });
  now += 100;
  assertEquals(r.take("k").ok, true);
  assertEquals(r.take("k").ok, false);
  const slow = new SupplyRateLimiter({ perMinute: 4, burst: 1 }, () => now);
  assertEquals(slow.take("k").ok, true);
  assertEquals(slow.take("k"), { ok: false, retryAfterSeconds: 15 });
  now += 14_000;
  assertEquals(slow.take("k"), { ok: false, retryAfterSeconds: 1 });
});

Deno.test("supply rate: a clock moved back refills nothing; a long pause refills to the burst, never past it", () => {
  let now = 5_000_000;
  const r = new SupplyRateLimiter({ perMinute: 60, burst: 2 }, () => now);
  assertEquals([r.take("k").ok, r.take("k").ok, r.take("k").ok], [true, true, false]);
  now -= 60_000;
  assertEquals(r.take("k").ok, false);
  now += 60_000 + 3_600_000;
  assertEquals([r.take("k").ok, r.take("k").ok, r.take("k").ok], [true, true, false]);
});

Deno.test("supply rate: memory is bounded by maxKeys (the oldest bucket goes first)", () => {
  const r = new SupplyRateLimiter({ perMinute: 60, burst: 1, maxKeys: 3 }, () => 0);
  for (let i = 0; i < 1000; i++) r.take(`key-${i}`);
  assertEquals(r.size, 3);
  // a dropped key starts full again; a kept one is still empty
  assertEquals(r.take("key-0").ok, true);
  assertEquals(r.take("key-999").ok, false);
});
