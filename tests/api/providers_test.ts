/**
 * The providers' adapters against their stand-ins (each answering in its provider's own shape): every
 * field of the common offer mapped, pagination followed, and each failure a clear message naming the
 * provider: a bad key, the provider down, slow past the time-out, malformed JSON, an empty list.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { startSandbox } from "../helpers/providers.ts";
import { PROVIDER_KEYS, PROVIDER_NAMES } from "../../shared/schemas/providers.ts";
import { DomainError } from "../../server/domain/errors.ts";
import { providerConfigs } from "../../server/providers/index.ts";
import { loadEnv } from "../../server/env.ts";
import type { OfferQuota } from "../../shared/api/providers.ts";

Deno.test("each adapter maps every field of its provider's offers, keeping the raw ids", async () => {
  const sb = await startSandbox();
  try {
    for (const key of PROVIDER_KEYS) {
      const a = sb.adapter(key);
      const offers = await a.listOffers(key === "toluna" ? {} : { countryCode: "US" });
      const src = sb.states[key].offers.filter((o) => o.country === "US");
      assertEquals(offers.length, src.length, `${key}: every US offer, over all pages`);
      const o = await a.getOffer(src[0].id);
      assert(o, `${key}: offer found by id`);
      const s = src[0];
      assertEquals(o.provider, key);
      assertEquals(o.surveyId, s.id);
      assertEquals(o._id, `${key}:${s.id}`);
      assertEquals(o.title, s.title);
      assertEquals(o.countryCode, "US");
      assertEquals(o.totalCompletes, s.required, `${key} total`);
      assertEquals(o.remaining, s.required - s.completes, `${key} remaining`);
      assertEquals(o.currentCompletes, s.completes, `${key} completes`);
      assertEquals(o.ir, s.ir);
      assertEquals(o.loi, s.loi);
      assertEquals(o.cpi, s.cpi);
      assertEquals(o.endDate, s.endDate);
      assertMatch(o.device, /Desktop/);
      assertEquals(o.sandbox, false);
      assert(Object.values(o.rawIds).includes(s.id), `${key} raw id kept`);
      // quotas: every sandbox quota, with its conditions and sizes
      // (Toluna: its sub-quotas; a quota of several is also a quota of its own, its limit over them)
      const subs = key === "toluna" ? o.quotas.filter((q) => q.parentQuotaId) : o.quotas;
      assertEquals(subs.length, s.quotas.length, `${key} quotas`);
      if (key === "toluna") {
        const nesting = [...new Set(s.quotas.map((q) => q.parentId))]
          .filter((p) => s.quotas.filter((q) => q.parentId === p).length > 1);
        const own = o.quotas.filter((q) => !q.parentQuotaId);
        assertEquals(own.map((q) => q.quotaId), nesting);
        const gender = s.quotas.filter((q) => q.parentId === nesting[0]);
        assertEquals(own[0].remaining, gender.reduce((n, q) => n + q.required - q.completes, 0));
        assertEquals(own[0].conditions[0].answers, ["Male", "Female"], "either sub-quota's answer");
      }
      for (const [i, q] of s.quotas.entries()) {
        const m: OfferQuota = subs[i];
        assertEquals(m.remaining, q.required - q.completes, `${key} quota remaining`);
        assertEquals(m.completes, q.completes, `${key} quota completes`);
        assertEquals(m.conditions[0].questionId, q.conditions[0].questionId);
        assertEquals(m.conditions[0].answerIds, q.conditions[0].answerIds);
      }
      // labels: the gender quota's answers read Male / Female where the provider gives labels
      if (s.quotas.length) assertEquals(o.quotas[0].conditions[0].answers, ["Male"], `${key} answer label`);
      const age = o.qualifications.find((q) => q.questionId === "1001538");
      assert(age, `${key}: the age qualification`);
      assertEquals(age.answerIds.slice(0, 2), ["2000300", "2000301"]);
    }
  } finally {
    await sb.close();
  }
});

Deno.test("pagination: every page of a paged provider is read", async () => {
  const sb = await startSandbox({ pageSize: 3 });
  try {
    for (const key of ["precision", "logit", "circle"] as const) {
      const before = sb.states[key].hits;
      const offers = await sb.adapter(key).listOffers({});
      assertEquals(offers.length, sb.states[key].offers.length, key);
      assertEquals(
        sb.states[key].hits - before,
        Math.ceil(offers.length / 3),
        `${key}: one request per page`,
      );
      assertEquals(new Set(offers.map((o) => o.surveyId)).size, offers.length, `${key}: no offer twice`);
    }
  } finally {
    await sb.close();
  }
});

Deno.test("filters: country and search narrow the offers", async () => {
  const sb = await startSandbox();
  try {
    const gb = await sb.adapter("precision").listOffers({ countryCode: "GB" });
    assert(gb.length > 0 && gb.every((o) => o.countryCode === "GB"));
    const one = sb.states.circle.offers[4];
    const found = await sb.adapter("circle").listOffers({ search: one.id });
    assertEquals(found.map((o) => o.surveyId), [one.id]);
  } finally {
    await sb.close();
  }
});

async function refused(p: Promise<unknown>, pattern: RegExp) {
  let e: unknown = null;
  try {
    await p;
  } catch (err) {
    e = err;
  }
  assert(e instanceof DomainError, `a business error, not ${e}`);
  assertEquals((e as DomainError).kind, "upstream");
  assertMatch(e.message, pattern);
  return e;
}

Deno.test("a bad key is refused with a message naming the provider and its variable", async () => {
  const sb = await startSandbox();
  try {
    for (const key of PROVIDER_KEYS) {
      const before = sb.states[key].hits;
      await refused(
        sb.adapter(key, { apiKey: "wrong" }).listOffers({}),
        new RegExp(
          `^${PROVIDER_NAMES[key]} refused the API key \\(HTTP 40[13].*PROVIDER_${key.toUpperCase()}_KEY`,
        ),
      );
      assertEquals(sb.states[key].hits - before, 1, `${key}: a refused key is not retried`);
    }
    // Toluna's own error shape reaches the message
    await refused(
      sb.adapter("toluna", { apiKey: "wrong" }).listOffers({}),
      /INVALID_API_AUTH_KEY \(ResultCode 1\)/,
    );
    await refused(
      sb.adapter("toluna", { panel: "nope" }).listOffers({}),
      /PANEL_DOES_NOT_EXIST \(ResultCode 3\)/,
    );
  } finally {
    await sb.close();
  }
});

Deno.test("a provider down is retried, then reported as unavailable; an unreachable one too", async () => {
  const sb = await startSandbox({ mode: "down" });
  try {
    for (const key of PROVIDER_KEYS) {
      const before = sb.states[key].hits;
      await refused(
        sb.adapter(key, { attempts: 3 }).listOffers({}),
        new RegExp(`^${PROVIDER_NAMES[key]} is unavailable \\(HTTP 5\\d\\d.*\\(after 3 attempts\\)$`),
      );
      assertEquals(sb.states[key].hits - before, 3, `${key}: three attempts`);
    }
    // back up on the second attempt: the read succeeds
    const state = sb.states.precision;
    let n = 0;
    const flaky: typeof fetch = (
      input,
      init,
    ) => (n++ === 0 ? Promise.reject(new TypeError("connection reset")) : fetch(input, init));
    state.mode = "ok";
    const offers = await sb.adapter("precision", { fetch: flaky }).listOffers({ countryCode: "US" });
    assert(offers.length > 0);
  } finally {
    await sb.close();
  }
  // nothing listening
  await refused(
    (await startSandbox()).adapter("logit", { url: "http://127.0.0.1:9", attempts: 1 }).listOffers({}),
    /^Logit cannot be reached/,
  );
});

Deno.test("a provider slower than the time-out is cut off with a clear message", async () => {
  const sb = await startSandbox({ mode: "slow", delayMs: 1_500 });
  try {
    const t0 = performance.now();
    await refused(
      sb.adapter("mrkt", { timeoutMs: 200, attempts: 2, backoffMs: 10 }).listOffers({}),
      /^UniMrkt did not answer within 0\.2 seconds \(after 2 attempts\)$/,
    );
    assert(performance.now() - t0 < 1_400, "did not wait for the slow answer");
  } finally {
    await sb.close();
  }
});

Deno.test("malformed JSON and an empty list", async () => {
  const sb = await startSandbox({ mode: "malformed" });
  try {
    for (const key of PROVIDER_KEYS) {
      await refused(
        sb.adapter(key).listOffers({}),
        new RegExp(`^${PROVIDER_NAMES[key]} answered with malformed JSON$`),
      );
    }
    for (const key of PROVIDER_KEYS) sb.states[key].mode = "empty";
    for (const key of PROVIDER_KEYS) assertEquals(await sb.adapter(key).listOffers({}), [], key);
    assertEquals(await sb.adapter("precision").getOffer("1"), null, "a vanished offer is null");
  } finally {
    await sb.close();
  }
});

Deno.test("Toluna's quota details and question reference data, on demand", async () => {
  const sb = await startSandbox();
  try {
    const a = sb.adapter("toluna");
    const offer = sb.states.toluna.offers.find((o) => o.country === "US" && o.quotas.length)!;
    const q = offer.quotas[0];
    const d = await a.quotaDetails!(q.parentId);
    assertEquals(d.surveyId, offer.id);
    assertEquals(
      d.completesRequired,
      offer.quotas.filter((x) => x.parentId === q.parentId).reduce((s, x) => s + x.required, 0),
    );
    assertEquals(d.layers[0].subQuotas[0].quotaId, q.id);
    const qs = await a.questions!(["1001007"]);
    assertEquals(qs.length, 1);
    assertEquals(qs[0].QuestionID, "1001007");
    assertEquals(qs[0].InternalName, "GENDER");
    assertEquals(qs[0].TranslatedAnswers.map((t) => t.Translation), ["Male", "Female"]);
    await refused(
      sb.adapter("toluna", { partnerKey: undefined }).questions!(["1"]),
      /PROVIDER_TOLUNA_PARTNER_KEY/,
    );
  } finally {
    await sb.close();
  }
});

Deno.test("configuration: URL and key from the environment, the sandbox only where no URL is set", () => {
  const env = loadEnv({
    DATABASE_URL: ":memory:",
    PROVIDER_LOGIT_URL: "https://api.logit.example/v1/",
    PROVIDER_LOGIT_KEY: "k1",
    PROVIDER_CIRCLE_URL: "https://circle.example",
  });
  const none = providerConfigs(env);
  assertEquals(none.map((c) => c.key), ["logit"]);
  assertEquals(none[0].url, "https://api.logit.example/v1");
  const demo = providerConfigs(env, { sandboxBase: "http://localhost:8000/sandbox" });
  assertEquals(demo.map((c) => [c.key, c.sandbox]), [
    ["precision", true],
    ["logit", false],
    ["toluna", true],
    ["mrkt", true],
  ], "circle has a URL without a key: not configured, not the sandbox");
  assertEquals(demo[0].url, "http://localhost:8000/sandbox/precision");
});
