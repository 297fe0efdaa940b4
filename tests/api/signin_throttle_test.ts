/**
 * Sign-in limits that slow guessers without locking people out (issue 26, item 4): an address past
 * its limit still lets an account that has not failed from it sign in with its right password; an
 * account guessed at from many addresses is slowed by a doubling wait that its owner's own address
 * skips; a proxy whose hops are not trusted is warned about once.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { TEST_PASSWORD, testApp } from "../helpers/app.ts";
import { loginFrom } from "../helpers/signin.ts";
import { accountDelayMs, THROTTLE } from "../../server/domain/auth/throttle.ts";
import { MSG } from "../../shared/messages.ts";
import type { Logger } from "../../server/logger.ts";
import * as Sess from "../../shared/api/session.ts";

Deno.test("an address past its limit: a right password of an account that has not failed there passes; guesses get 429", async () => {
  const t = await testApp({ TRUST_PROXY_HOPS: "1" });
  try {
    const office = "198.51.100.77";
    const { email } = await t.userWith("MANAGER");
    const colleague = await t.userWith("ACCOUNTANT");
    const limit = THROTTLE.max * THROTTLE.ipFactor;
    for (let i = 0; i < limit; i++) {
      assertEquals(await loginFrom(t, office, `guess${i}@test.local`, "wrong-pass"), 401, `try ${i}`);
    }
    // the address is past its limit: a guess is refused with the spec's message, whoever it names
    const guess = await t.api(Sess.loginCall, {
      body: { email: "guess-more@test.local", password: "wrong-pass" },
      headers: { "x-forwarded-for": office },
    });
    assertEquals(guess.status, 429);
    assertEquals(guess.json.message, MSG.tooManyAttempts);
    // everyone else in the office still signs in with the right password, again and again
    for (let i = 0; i < 3; i++) assertEquals(await loginFrom(t, office, email, TEST_PASSWORD), 200);
    // a colleague who fails from the limited address is refused there, even with the right password
    assertEquals(await loginFrom(t, office, colleague.email, "wrong-pass"), 429);
    assertEquals(await loginFrom(t, office, colleague.email, TEST_PASSWORD), 429);
    // ... and signs in from another address
    assertEquals(await loginFrom(t, "198.51.100.78", colleague.email, TEST_PASSWORD), 200);
    // right passwords do not use up an address
    for (let i = 0; i < limit + 5; i++) {
      assertEquals(await loginFrom(t, "198.51.100.79", email, TEST_PASSWORD), 200);
    }
  } finally {
    await t.close();
  }
});

Deno.test("one account guessed from many addresses: a doubling wait, which the owner's own address skips", async () => {
  let now = Date.parse("2026-05-04T09:00:00Z");
  const t = await testApp({ TRUST_PROXY_HOPS: "1" }, { now: () => now });
  try {
    const { email } = await t.userWith("ADMIN");
    const home = "203.0.113.5";
    assertEquals(await loginFrom(t, home, email, TEST_PASSWORD), 200, "the owner signs in as usual");
    let n = 0;
    const fresh = () => `192.0.2.${++n}`; // every guess from a new address: no pair or address limit
    for (let i = 0; i < THROTTLE.accountFree; i++) {
      assertEquals(await loginFrom(t, fresh(), email, "wrong-pass"), 401, `free guess ${i}`);
    }
    // past the free guesses every attempt waits for its slot: 1 s, then 2 s, then 4 s ...
    assertEquals(await loginFrom(t, fresh(), email, "wrong-pass"), 401);
    assertEquals(await loginFrom(t, fresh(), email, "wrong-pass"), 429);
    assertEquals(await loginFrom(t, fresh(), email, TEST_PASSWORD), 429, "unknown address waits too");
    now += accountDelayMs(THROTTLE.accountFree + 1);
    assertEquals(await loginFrom(t, fresh(), email, "wrong-pass"), 401);
    assertEquals(accountDelayMs(THROTTLE.accountFree + 2), 2 * accountDelayMs(THROTTLE.accountFree + 1));
    now += accountDelayMs(THROTTLE.accountFree + 2) - 1;
    assertEquals(
      await loginFrom(t, fresh(), email, "wrong-pass"),
      429,
      "refused attempts do not push the slot",
    );
    now += 1;
    assertEquals(await loginFrom(t, fresh(), email, "wrong-pass"), 401);
    // the owner from the address it signed in from before is never kept waiting
    for (let i = 0; i < 3; i++) assertEquals(await loginFrom(t, home, email, TEST_PASSWORD), 200);
    // the wait is bounded, and the window lapses
    assertEquals(accountDelayMs(THROTTLE.accountFree + 40), THROTTLE.accountDelayMaxMs);
    now += THROTTLE.windowMs + THROTTLE.accountDelayMaxMs;
    assertEquals(await loginFrom(t, fresh(), email, TEST_PASSWORD), 200);
  } finally {
    await t.close();
  }
});

function capture(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const none = () => {};
  return { warnings, log: { debug: none, info: none, error: none, warn: (msg) => warnings.push(msg) } };
}

Deno.test("X-Forwarded-For with TRUST_PROXY_HOPS=0 is warned about once; trusted hops are not", async () => {
  const untrusted = capture();
  const t = await testApp({}, { log: untrusted.log });
  try {
    await t.api(Sess.loginCall, { body: { email: "a@test.local", password: "x" } });
    assertEquals(untrusted.warnings.length, 0, "no forwarding header, nothing to say");
    for (let i = 0; i < 3; i++) {
      await t.api(Sess.loginCall, {
        body: { email: "a@test.local", password: "wrong-pass" },
        headers: { "x-forwarded-for": `198.51.100.${i}` },
      });
    }
    assertEquals(untrusted.warnings.length, 1, untrusted.warnings.join("\n"));
    assert(untrusted.warnings[0].includes("TRUST_PROXY_HOPS"), untrusted.warnings[0]);
  } finally {
    await t.close();
  }
  const trusted = capture();
  const t2 = await testApp({ TRUST_PROXY_HOPS: "1" }, { log: trusted.log });
  try {
    await t2.api(Sess.loginCall, {
      body: { email: "a@test.local", password: "wrong-pass" },
      headers: { "x-forwarded-for": "198.51.100.9" },
    });
    assertEquals(trusted.warnings.length, 0);
  } finally {
    await t2.close();
  }
});
