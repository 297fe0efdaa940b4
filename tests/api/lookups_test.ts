import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import * as Lookups from "../../shared/api/lookups.ts";
import type { AnyContract } from "../../shared/api/contract.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const t = await testApp();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

Deno.test("lookups: every lookup needs a token (401), staff may read them, a SUPPLIER may not (403)", () =>
  withApp(async (t) => {
    const supplier = await t.tokenFor("SUPPLIER");
    const staff = await t.tokenFor("SUBSCRIBER");
    const calls: [AnyContract, unknown][] = [
      [Lookups.countriesCall, undefined],
      [Lookups.languagesCall, undefined],
      [Lookups.currenciesCall, undefined],
      [Lookups.regionsCall, { countryId: "US" }],
      [Lookups.citiesCall, { regionId: "US-CA" }],
    ];
    for (const [call, body] of calls) {
      const none = await t.api(call, { bad: body });
      assertEquals(none.status, 401, `${call.key} without token`);
      const refused = await t.api(call, { bad: body, token: supplier });
      assertEquals(refused.status, 403, `${call.key} as SUPPLIER: only /supplier/* calls`);
      const ok = await t.api(call, { bad: body, token: staff });
      assertEquals(ok.status, 200, `${call.key} as SUBSCRIBER: ${ok.text.slice(0, 200)}`);
      assert(
        Array.isArray(ok.json.result) && ok.json.result.length > 0,
        `${call.path} gives a non-empty list`,
      );
    }
  }));

Deno.test("countries: ISO codes as ids, with label, flag and dialling code, sorted by name", () =>
  withApp(async (t) => {
    const r = await t.api(Lookups.countriesCall, { as: "ADMIN" });
    assertEquals(r.status, 200);
    const list = r.json.result as { _id: string; label: string }[];
    assert(list.length > 200, `about 250 countries, got ${list.length}`);
    assertEquals(list.find((c) => c._id === "US"), {
      _id: "US",
      label: "United States",
      value: "US",
      code: "US",
      flag: "🇺🇸",
      phonecode: "1",
    });
    const labels = list.map((c) => c.label);
    assertEquals(labels, [...labels].sort((a, b) => a.localeCompare(b)));
    assertEquals(new Set(list.map((c) => c._id)).size, list.length, "ids are unique");
  }));

Deno.test("languages: ISO 639-1 codes with English and native names; 'en' is there", () =>
  withApp(async (t) => {
    const r = await t.api(Lookups.languagesCall, { as: "MANAGER" });
    assertEquals(r.status, 200);
    const list = r.json.result as { _id: string; label: string; nativeName: string }[];
    assert(list.length > 150);
    assertEquals(list.find((l) => l._id === "en"), {
      _id: "en",
      label: "English",
      value: "en",
      nativeName: "English",
    });
    assertEquals(list.find((l) => l._id === "de")?.nativeName, "Deutsch");
    assert(list.every((l) => /^[a-z]{2}$/.test(l._id)));
  }));

Deno.test("currencies: ISO 4217 'CODE - Name' labels with symbols; no test or metal codes", () =>
  withApp(async (t) => {
    const r = await t.api(Lookups.currenciesCall, { as: "ACCOUNTANT" });
    assertEquals(r.status, 200);
    const list = r.json.result as { _id: string; label: string; value: string; symbol?: string }[];
    const usd = list.find((c) => c._id === "USD");
    assertEquals(usd?.label, "USD - US Dollar");
    assertEquals(usd?.value, "USD");
    assertEquals(usd?.symbol, "$");
    assertEquals(list.find((c) => c._id === "EUR")?.symbol, "€");
    assertEquals(list.find((c) => c._id === "INR")?.label, "INR - Indian Rupee");
    for (const code of ["XTS", "XXX", "XAU", "XDR", "USN"]) {
      assert(!list.some((c) => c._id === code), `${code} is not offered`);
    }
    assert(list.length > 140);
  }));

Deno.test("regions: one or several countries, case-insensitive codes, ids like US-CA", () =>
  withApp(async (t) => {
    const token = await t.tokenFor("ADMIN");
    const us = await t.api(Lookups.regionsCall, { token, body: { countryId: "US" } });
    assertEquals(us.status, 200);
    assertEquals(us.json.result.find((r: { _id: string }) => r._id === "US-CA"), {
      _id: "US-CA",
      label: "California",
      value: "US-CA",
      code: "CA",
      countryCode: "US",
    });
    assert(us.json.result.every((r: { countryCode: string }) => r.countryCode === "US"));

    const two = await t.api(Lookups.regionsCall, { token, body: { countryIds: ["us", "IN"] } });
    assertEquals(two.status, 200);
    const codes = new Set(two.json.result.map((r: { countryCode: string }) => r.countryCode));
    assertEquals([...codes], ["US", "IN"]);
    assert(two.json.result.some((r: { _id: string }) => r._id === "IN-MH"));

    const none = await t.api(Lookups.regionsCall, { token, body: { countryId: "AX" } });
    assertEquals(none.status, 200);
    assertEquals(none.json.result, [], "a country without regions answers an empty list");
  }));

Deno.test("regions: unknown country, missing country and malformed bodies are clear 400s", () =>
  withApp(async (t) => {
    const token = await t.tokenFor("ADMIN");
    const unknown = await t.api(Lookups.regionsCall, { token, body: { countryIds: ["US", "ZZ"] } });
    assertEquals(unknown.status, 400);
    assertEquals(unknown.json.message, "Unknown country: ZZ");
    assertEquals(unknown.json.errors, [{ path: "countryId", message: "Unknown country: ZZ" }]);

    const missing = await t.api(Lookups.regionsCall, { token, body: {} });
    assertEquals(missing.status, 400);
    assertEquals(missing.json.message, "Country is required");

    const empty = await t.api(Lookups.regionsCall, { token, body: { countryIds: [] } });
    assertEquals(empty.status, 400);

    const shape = await t.api(Lookups.regionsCall, { token, body: { countryId: "United States" } });
    assertEquals(shape.status, 400);
    assertEquals(shape.json.message, "Country must be an ISO code such as US");

    for (const raw of ["{oops", '["US"]', "null", "42"]) {
      const r = await t.api(Lookups.regionsCall, { token, raw });
      assertEquals(r.status, 400, `body ${raw}`);
    }
    const typed = await t.api(Lookups.regionsCall, { token, bad: { countryId: 7 } });
    assertEquals(typed.status, 400);
  }));

Deno.test("cities: of a region, searchable ignoring case and accents, stable ids", () =>
  withApp(async (t) => {
    const token = await t.tokenFor("MANAGER");
    const la = await t.api(Lookups.citiesCall, {
      token,
      body: { regionId: "US-CA", search: "los ang" },
    });
    assertEquals(la.status, 200);
    assertEquals(la.json.result[0], {
      _id: "US-CA:Los Angeles",
      label: "Los Angeles",
      value: "US-CA:Los Angeles",
      regionId: "US-CA",
      countryCode: "US",
    });

    const sp = await t.api(Lookups.citiesCall, {
      token,
      body: { regionIds: ["BR-SP"], search: "SAO" },
    });
    assertEquals(sp.status, 200);
    const labels: string[] = sp.json.result.map((c: { label: string }) => c.label);
    assert(labels.includes("São Paulo"), "accents ignored");
    assert(labels.every((l) => /s[aã]o/i.test(l)));
    // names starting with the text come before names merely containing it
    const firstContains = labels.findIndex((l) => !/^s[aã]o/i.test(l));
    if (firstContains >= 0) assert(labels.slice(firstContains).every((l) => !/^s[aã]o/i.test(l)));

    const two = await t.api(Lookups.citiesCall, {
      token,
      body: { regionIds: ["US-CA", "US-NY"], countryId: "US", search: "new" },
    });
    assertEquals(two.status, 200);
    const regions = new Set(two.json.result.map((c: { regionId: string }) => c.regionId));
    assert(regions.has("US-NY") && regions.has("US-CA"), "both regions searched");
  }));

Deno.test("cities: big regions are capped and say so; limit narrows; a country alone works", () =>
  withApp(async (t) => {
    const token = await t.tokenFor("ADMIN");
    const eng = await t.api(Lookups.citiesCall, { token, body: { regionId: "GB-ENG" } });
    assertEquals(eng.status, 200);
    assertEquals(eng.json.result.length, 500);
    assertMatch(eng.json.message, /^Showing 500 of \d{4,} cities: search to narrow the list$/);

    const ten = await t.api(Lookups.citiesCall, { token, body: { regionId: "GB-ENG", limit: 10 } });
    assertEquals(ten.json.result.length, 10);

    const small = await t.api(Lookups.citiesCall, {
      token,
      body: { regionId: "US-CA", search: "los ang" },
    });
    assertEquals(small.json.message, "Success");

    const lu = await t.api(Lookups.citiesCall, { token, body: { countryId: "LU" } });
    assertEquals(lu.status, 200);
    assert(lu.json.result.length > 0);
    assert(lu.json.result.every((c: { countryCode: string }) => c.countryCode === "LU"));
  }));

Deno.test("cities: unknown region, region outside the country, bad limits and empty bodies are 400s", () =>
  withApp(async (t) => {
    const token = await t.tokenFor("ADMIN");
    const cases: [unknown, number, string | RegExp][] = [
      [{}, 400, "Region or country is required"],
      [{ regionId: "US-ZZ" }, 400, "Unknown region: US-ZZ"],
      [{ regionId: "GB-ENG", countryId: "US" }, 400, "Region GB-ENG is not in US"],
      [{ countryId: "QQ" }, 400, "Unknown country: QQ"],
      [{ regionId: "California" }, 400, "Region must be an id such as US-CA"],
      [{ regionId: "US-CA", limit: 0 }, 400, "limit must be at least 1"],
      [{ regionId: "US-CA", limit: 5000 }, 400, "limit must be at most 500"],
      [{ regionId: "US-CA", limit: "ten" }, 400, "limit must be a number"],
      [{ regionId: "US-CA", search: 12 }, 400, "search must be text"],
    ];
    for (const [body, status, message] of cases) {
      const r = await t.api(Lookups.citiesCall, { token, bad: body });
      assertEquals(r.status, status, JSON.stringify(body));
      if (typeof message === "string") assertEquals(r.json.message, message, JSON.stringify(body));
    }
    const junk = await t.api(Lookups.citiesCall, { token, raw: "not json" });
    assertEquals(junk.status, 400);
  }));
