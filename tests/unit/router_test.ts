import { assert, assertEquals } from "../helpers/assert.ts";
import { fillPlaceholders, parseReturnStatus, redirectKind } from "../../server/domain/router/outcomes.ts";
import { returnSignature, verifyReturnSignature } from "../../server/domain/router/links.ts";
import {
  countryOf,
  defaultRiskChecker,
  deviceOf,
  hostingNetwork,
  rdRefusal,
  requestSecurity,
} from "../../server/domain/router/security.ts";
import { evaluate, quotaCellsFor, visibleOptions } from "../../server/domain/router/prescreen.ts";
import type { PrescreenQuestion, ProjectConfig, QuotaDef } from "../../server/domain/router/config.ts";
import { messagePage, PAGE_LANGUAGES, prescreenPage, textFor } from "../../server/router/pages.tsx";
import { MSG } from "../../shared/messages.ts";

Deno.test("router placeholders: [x], {x}, encoded and ## forms, any case, values URL-encoded", () => {
  assertEquals(
    fillPlaceholders("https://p.example/c?s=[sid]&t={SID}&u=%5Bsid%5D&v=##sid##&p=[pid]", {
      sid: "a b/é",
      pid: "P1-01",
    }),
    "https://p.example/c?s=a%20b%2F%C3%A9&t=a%20b%2F%C3%A9&u=a%20b%2F%C3%A9&v=a%20b%2F%C3%A9&p=P1-01",
  );
  assertEquals(fillPlaceholders("https://p.example/none", { sid: "x" }), "https://p.example/none");
});

Deno.test("router placeholders: a template is cut once and filled alike each time, whatever the values, their order and the encoding", () => {
  const t = "https://p.example/c?s=[sid]&u={uid}&x=[other]&s2=%5BSID%5D";
  const fills = ["a", "b&c", "[uid]", ""].map((sid) => fillPlaceholders(t, { sid, uid: "U1" }));
  assertEquals(fills, [
    "https://p.example/c?s=a&u=U1&x=[other]&s2=a",
    "https://p.example/c?s=b%26c&u=U1&x=[other]&s2=b%26c",
    "https://p.example/c?s=%5Buid%5D&u=U1&x=[other]&s2=%5Buid%5D",
    "https://p.example/c?s=&u=U1&x=[other]&s2=",
  ]);
  // the same template with the names in another order, another set of names, raw values
  assertEquals(fillPlaceholders(t, { uid: "U2", sid: "s" }), "https://p.example/c?s=s&u=U2&x=[other]&s2=s");
  assertEquals(fillPlaceholders(t, { sid: "s" }), "https://p.example/c?s=s&u={uid}&x=[other]&s2=s");
  assertEquals(
    fillPlaceholders(t, { sid: "a b", uid: "{sid}" }, String),
    "https://p.example/c?s=a b&u={sid}&x=[other]&s2=a b",
  );
  // a long template (not kept) is filled the same way
  const long = `https://p.example/${"x".repeat(3_000)}?s=[sid]&t=[sid]`;
  assertEquals(fillPlaceholders(long, { sid: "1" }), `https://p.example/${"x".repeat(3_000)}?s=1&t=1`);
  assertEquals(fillPlaceholders(long, { sid: "2" }), `https://p.example/${"x".repeat(3_000)}?s=2&t=2`);
});

Deno.test("router statuses: c t q qf f, and which supplier redirect each outcome uses", () => {
  assertEquals(["c", "t", "q", "qf", "F", "x", ""].map(parseReturnStatus), [
    "complete",
    "terminate",
    "overQuota",
    "overQuota",
    "qualityTerm",
    null,
    null,
  ]);
  assertEquals(redirectKind("duplicate"), "qualityTerm");
  assertEquals(redirectKind("security"), "qualityTerm");
  assertEquals(redirectKind("preScreenTerminate"), "terminate");
  assertEquals(redirectKind("closed"), "surveyClose");
});

Deno.test("router signatures: hex HMAC-SHA256 of uid + status letter; anything else is refused", () => {
  const uid = "0123456789abcdef01234567";
  const sig = returnSignature("secret", uid, "c");
  assertEquals(sig.length, 64);
  assert(verifyReturnSignature("secret", uid, "complete", "c", sig));
  assert(verifyReturnSignature("secret", uid, "complete", "c", sig.toUpperCase()));
  assert(!verifyReturnSignature("other", uid, "complete", "c", sig));
  assert(!verifyReturnSignature("secret", uid, "terminate", "t", sig));
  assert(!verifyReturnSignature("secret", uid, "complete", "c", sig.slice(0, 63)));
  assert(!verifyReturnSignature("secret", uid, "complete", "c", undefined));
  assert(verifyReturnSignature("secret", uid, "overQuota", "qf", returnSignature("secret", uid, "qf")));
});

Deno.test("router devices: phones, tablets and everything else from the user agent", () => {
  assertEquals(
    deviceOf("Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36").deviceType,
    "mobile",
  );
  assertEquals(deviceOf("Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) Mobile/15E148").deviceType, "tablet");
  assertEquals(deviceOf("Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0").deviceType, "desktop");
  assertEquals(deviceOf("").deviceType, "desktop");
});

const project = (over: Partial<ProjectConfig> = {}) =>
  ({
    isMobile: true,
    isDesktop: true,
    isTablet: true,
    isGeoLocation: false,
    countryId: "US",
    isProxyVpn: false,
    isRDLow: false,
    isRDMedium: false,
    isRDHigh: false,
    ...over,
  }) as ProjectConfig;
const T = { low: 30, medium: 60, high: 85 };

Deno.test("router security: device, geo (unknown country is not held against anyone), proxy, RD levels", () => {
  const ok = { deviceType: "desktop" as const, country: "US", risk: null };
  assertEquals(requestSecurity(project(), ok, T), null);
  assertEquals(requestSecurity(project({ isDesktop: false }), ok, T)?.reason, "device");
  assertEquals(requestSecurity(project({ isGeoLocation: true }), { ...ok, country: "CA" }, T)?.reason, "geo");
  assertEquals(requestSecurity(project({ isGeoLocation: true }), { ...ok, country: "" }, T), null);
  assertEquals(
    requestSecurity(project({ isProxyVpn: true }), { ...ok, risk: { proxy: true, detail: "AS1 x" } }, T)
      ?.reason,
    "proxy",
  );
  assertEquals(requestSecurity(project(), { ...ok, risk: { proxy: true } }, T), null, "only when isProxyVpn");
  assertEquals(rdRefusal(project({ isRDHigh: true }), 84, T), null);
  assert(rdRefusal(project({ isRDHigh: true }), 85, T));
  assert(rdRefusal(project({ isRDMedium: true }), 60, T));
  assert(rdRefusal(project({ isRDLow: true }), 30, T));
  assertEquals(rdRefusal(project({ isRDLow: true }), null, T), null);
});

Deno.test("router geo and datacenter data work offline: trusted header first, then the embedded databases", async () => {
  assertEquals(await countryOf(new Headers({ "cf-ipcountry": "de" }), "8.8.8.8", ["cf-ipcountry"]), "DE");
  assertEquals(await countryOf(new Headers({ "cf-ipcountry": "XX" }), "81.2.69.160", ["cf-ipcountry"]), "GB");
  assertEquals(
    await countryOf(new Headers({ "cf-ipcountry": "DE" }), "81.2.69.160", []),
    "GB",
    "untrusted header",
  );
  assertEquals(await countryOf(new Headers(), "192.168.1.20", []), "");
  // DigitalOcean and AWS ranges are datacenters; a home broadband address is not
  assert(hostingNetwork("167.99.241.66")?.startsWith("AS14061"));
  assert(hostingNetwork("52.95.110.1")?.includes("Amazon"));
  assertEquals(hostingNetwork("81.2.69.160"), null);
  assertEquals(hostingNetwork("not an ip"), null);
  const checker = defaultRiskChecker({ rdHeader: "x-rd-score" });
  const v = await checker.check({
    ip: "167.99.241.66",
    userAgent: "",
    headers: new Headers({ "x-rd-score": "72" }),
    sid: "s",
  });
  assertEquals([v.proxy, v.rdScore], [true, 72]);
});

const q = (over: Partial<PrescreenQuestion>): PrescreenQuestion => ({
  id: "q1",
  type: "RADIO",
  title: { en: "Gender", fr: "Genre" },
  languageId: "en",
  options: [
    { _id: "o1", title: "Female", enable: true, formvalidate: true, diy: true, local: true },
    { _id: "o2", title: "Male", enable: true, formvalidate: true, diy: true, local: false },
    { _id: "o3", title: "Robot", enable: true, formvalidate: false, diy: true, local: true },
    { _id: "o4", title: "Hidden", enable: false, formvalidate: true, diy: true, local: true },
  ],
  ...over,
});

Deno.test("router pre-screen: visible options per supplier type; missing, failing and passing answers; quota cells by text", () => {
  assertEquals(visibleOptions(q({}), 1).map((o) => o._id), ["o1", "o2", "o3"]);
  assertEquals(visibleOptions(q({}), 2).map((o) => o._id), ["o1", "o3"]);
  const quotas: QuotaDef[] = [{
    id: "Q",
    qualificationId: "G",
    cells: [{ id: "F1", groups: [new Set(["female"])], size: 0 }],
  }];
  const form = (values: Record<string, string[]>) => (name: string) => values[name] ?? [];
  const text = q({ id: "q2", type: "TEXT", options: [] });
  assertEquals(evaluate([q({}), text], 1, quotas, form({ q_q1: ["o1"] }), "en"), {
    complete: false,
    missing: ["q2"],
  });
  assertEquals(evaluate([q({})], 1, quotas, form({ q_q1: ["o4"] }), "en"), {
    complete: false,
    missing: ["q1"],
  });
  assertEquals(evaluate([q({})], 1, quotas, form({ q_q1: ["o1", "o2"] }), "en"), {
    complete: false,
    missing: ["q1"],
  });
  const fail = evaluate([q({})], 1, quotas, form({ q_q1: ["o3"] }), "fr");
  assert(fail.complete && !fail.passed && fail.detail === "Genre: Robot");
  const pass = evaluate([q({}), text], 1, quotas, form({ q_q1: ["o1"], q_q2: [" 90210 "] }), "en");
  assert(pass.complete && pass.passed);
  assertEquals(pass.quotaCells, [{ quotaId: "Q", quotaOptionId: "F1" }]);
  assertEquals(pass.rows.map((r) => r.answerText), ["Female", "90210"]);
  assertEquals(quotaCellsFor(quotas, ["  FEMALE "]), [{ quotaId: "Q", quotaOptionId: "F1" }]);
  // a cell over a set of answers of one question takes any of them; an interlocked one needs each group
  const sets: QuotaDef[] = [
    {
      id: "A",
      qualificationId: "AGE",
      cells: [{ id: "a|b", groups: [new Set(["18-24", "25-34"])], size: 0 }],
    },
    {
      id: "GA",
      qualificationId: "G",
      cells: [{ id: "f+a|b", groups: [new Set(["female"]), new Set(["18-24", "25-34"])], size: 0 }],
    },
  ];
  assertEquals(quotaCellsFor(sets, ["25-34"]), [{ quotaId: "A", quotaOptionId: "a|b" }]);
  assertEquals(quotaCellsFor(sets, ["Female", "18-24"]), [
    { quotaId: "A", quotaOptionId: "a|b" },
    { quotaId: "GA", quotaOptionId: "f+a|b" },
  ]);
  assertEquals(quotaCellsFor(sets, ["35-44"]), []);
});

Deno.test("router pages: escaped, mobile friendly, English fallback for unknown languages", () => {
  const page = prescreenPage({
    uid: "0123456789abcdef01234567",
    lang: "xx",
    supplierType: 1,
    questions: [q({ title: { en: "<b>Gender</b>" } })],
    missing: ["q1"],
  });
  assert(page.startsWith("<!doctype html>"));
  assert(page.includes("&lt;b&gt;Gender&lt;/b&gt;"));
  assert(page.includes('name="viewport"'));
  assert(page.includes("Please answer this question."));
  assert(page.includes('action="/survey/prescreen/0123456789abcdef01234567"'));
  assert(messagePage("closed", "de").includes("Diese Umfrage ist geschlossen"));
  assert(
    messagePage("forged", "de").includes("konnte nicht geprüft werden"),
    "every message in the project's language",
  );
});

Deno.test("respondent pages: every language has every text of its own; the not-found page keeps the spec's words", () => {
  const en = textFor("en");
  assert(PAGE_LANGUAGES.length >= 6, "en, es, fr, de, pt, it");
  for (const lang of PAGE_LANGUAGES.filter((l) => l !== "en")) {
    const t = textFor(lang);
    for (const [key, value] of Object.entries(t)) {
      if (key === "notFound") {
        assertEquals(value, [MSG.notFoundTitle, MSG.notFoundText]);
        continue;
      }
      const words = Array.isArray(value) ? value.join(" ") : value;
      assert(words.trim().length > 0, `${lang}.${key} is empty`);
      const english = en[key as keyof typeof en];
      assert(JSON.stringify(value) !== JSON.stringify(english), `${lang}.${key} is still English`);
    }
  }
  assertEquals(textFor("pt-BR").terminate[0], "Obrigado pelo seu tempo", "regional codes use their language");
  assertEquals(textFor("ja").heading, en.heading, "languages without texts fall back to English");
});
