/**
 * Projects External (part 1, 2.6): POST /admin/project/external/offers lists the offers of every
 * configured provider, 20 a page, filtered by provider, country and client (clientdiy), exported as
 * Projects; a provider that fails is named and the others still answer; quotas of any provider; the
 * questions and answers a provider gives as bare ids are named from the library mapping.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import type { BodyIn } from "../../shared/api/contract.ts";
import { makeClient } from "../helpers/fixtures.ts";
import { startSandbox } from "../helpers/providers.ts";
import { parseCsv } from "../helpers/master.ts";
import { ProviderRegistry } from "../../server/providers/index.ts";
import { withTexts } from "../../server/domain/imports/external.ts";
import { PROVIDER_KEYS, type ProviderKey } from "../../shared/schemas/providers.ts";
import * as Prov from "../../shared/api/providers.ts";

type Offer = { provider: ProviderKey; surveyId: string; countryCode: string; imported: unknown };

async function setup(over: (k: ProviderKey) => Record<string, unknown> = () => ({})) {
  const sb = await startSandbox();
  const registry = new ProviderRegistry(PROVIDER_KEYS.map((k) => sb.config(k, over(k))));
  const t = await testApp({}, { providers: registry });
  const token = await t.tokenFor("MANAGER");
  return {
    sb,
    t,
    token,
    list: (body: BodyIn<typeof Prov.listExternalOffers>) => t.api(Prov.listExternalOffers, { token, body }),
    async close() {
      await t.close();
      await sb.close();
    },
  };
}

Deno.test("Projects External: every provider's offers, 20 a page, filtered by provider and country, CSV Projects", async () => {
  const s = await setup();
  try {
    const all = await s.list({});
    assertEquals(all.status, 200, all.text);
    const total = all.json.result.metadata.total as number;
    let expected = 0;
    for (const k of PROVIDER_KEYS) {
      const one = await s.t.api(Prov.PROVIDER_CALLS[k].offers, {
        token: await s.t.tokenFor("APIMANAGER"),
        body: { filter: { countryCode: "" } },
      });
      expected += one.json.result.metadata.total;
    }
    assert(total > 20, "more than a page");
    assertEquals(all.json.result.metadata.limit, 20);
    assertEquals(all.json.result.data.length, 20);
    assertEquals(all.json.result.providers.map((p: { configured: boolean }) => p.configured), [
      true,
      true,
      true,
      true,
      true,
    ]);
    const providers = new Set((await s.list({ limit: 1000 })).json.result.data.map((o: Offer) => o.provider));
    assertEquals([...providers].sort(), [...PROVIDER_KEYS].sort(), "every provider's offers");
    assertEquals(total, expected, "the five tabs' offers together");
    const p2 = await s.list({ pageNo: 2 });
    assertEquals(p2.json.result.metadata.pageNo, 2);
    assert(p2.json.result.data[0].surveyId !== all.json.result.data[0].surveyId);

    const circle = await s.list({ filter: { provider: ["circle"], countryCode: "gb" }, limit: 1000 });
    assertEquals(circle.status, 200, circle.text);
    assert(circle.json.result.data.length > 0);
    assert(circle.json.result.data.every((o: Offer) => o.provider === "circle" && o.countryCode === "GB"));

    const csv = await s.t.api(Prov.listExternalOffers, {
      search: { format: "csv" },
      token: s.token,
      body: { filter: { provider: "logit" } },
    });
    assertEquals(csv.status, 200);
    assertMatch(csv.headers.get("content-disposition") ?? "", /filename="?Projects-/);
    const rows = parseCsv(csv.text);
    assertEquals(rows[0].slice(0, 3), ["Provider", "Title", "ID"]);
    assert(rows.slice(1).every((r) => r[0] === "Logit"));

    const bad = await s.t.api(Prov.listExternalOffers, {
      token: s.token,
      bad: { filter: { provider: "nope" } },
    });
    assertEquals(bad.status, 400);
    assertMatch(bad.text, /Provider must be one of/);
    await expectCallGuarded(s.t, Prov.listExternalOffers, "APIMANAGER");
    await expectCallGuarded(s.t, Prov.externalOfferQuotas, "SUPPLIER", {
      body: {
        provider: "logit",
        surveyId: "1",
      },
    });
  } finally {
    await s.close();
  }
});

Deno.test("Projects External: clientdiy keeps what is free for that client; a failing provider is named", async () => {
  const s = await setup((k) => (k === "mrkt" ? { apiKey: "wrong" } : {}));
  try {
    const a = await makeClient(s.t), b = await makeClient(s.t);
    const src = s.sb.states.precision.offers[0];
    const add = await s.t.api(Prov.addExternalProject, {
      token: s.token,
      body: { provider: "precision", surveyId: src.id, clientId: a._id },
    });
    assertEquals(add.status, 200, add.text);
    const find = (data: Offer[]) => data.find((o) => o.provider === "precision" && o.surveyId === src.id);
    const forA = await s.list({ filter: { clientdiy: a._id, provider: "precision" }, limit: 1000 });
    assert(find(forA.json.result.data)?.imported, "imported for a: shown as imported");
    const forB = await s.list({ filter: { clientdiy: b._id, provider: "precision" }, limit: 1000 });
    assertEquals(find(forB.json.result.data), undefined, "taken by another client");
    assertEquals(
      forB.json.result.metadata.total,
      forA.json.result.metadata.total - 1,
    );
    const all = await s.list({ limit: 1000 });
    assertEquals(all.status, 200);
    const mrkt = all.json.result.providers.find((p: { provider: string }) => p.provider === "mrkt");
    assertMatch(mrkt.error, /UniMrkt/);
    assert(all.json.result.data.every((o: Offer) => o.provider !== "mrkt"));
    assert(all.json.result.data.some((o: Offer) => o.provider === "logit"), "the others still answer");
  } finally {
    await s.close();
  }
});

Deno.test("offer dialogs name questions and answers from the library mapping where the provider gives ids", async () => {
  const s = await setup();
  try {
    const client = await makeClient(s.t);
    // an import records the mapping: Precision's questions with their answers' labels
    const src = s.sb.states.precision.offers.find((o) => o.quotas.length)!;
    const add = await s.t.api(Prov.addExternalProject, {
      token: s.token,
      body: { provider: "precision", surveyId: src.id, clientId: client._id },
    });
    assertEquals(add.status, 200, add.text);
    const offer = (await s.sb.adapter("precision").getOffer(src.id))!;
    const q = offer.qualifications.find((x) => x.answers.some((a, i) => a !== x.answerIds[i]))!;
    assert(q, "the provider named its answers at import");
    // the same offer answered with bare ids (a provider whose labels are not given this time)
    const bare = {
      ...offer,
      qualifications: offer.qualifications.map((x) => ({
        ...x,
        name: x.questionId,
        answers: [...x.answerIds],
      })),
      quotas: offer.quotas.map((x) => ({
        ...x,
        conditions: x.conditions.map((c) => ({
          ...c,
          questionName: c.questionId,
          answers: [...c.answerIds],
        })),
      })),
    };
    const [got] = await withTexts(s.t.deps.db, "precision", [bare]);
    const gq = got.qualifications.find((x) => x.questionId === q.questionId)!;
    assertEquals([gq.name, gq.answers], [q.name, q.answers]);
    const conds = got.quotas.flatMap((x) => x.conditions);
    const wanted = offer.quotas.flatMap((x) => x.conditions);
    assert(conds.length > 0);
    conds.forEach((c, i) => {
      assertEquals([c.questionName, c.answers], [wanted[i].questionName, wanted[i].answers], c.questionId);
    });
    // a question no mapping knows keeps its id rather than inventing a text
    const [unknown] = await withTexts(s.t.deps.db, "logit", [bare]);
    assertEquals(unknown.qualifications[0].name, bare.qualifications[0].name);
  } finally {
    await s.close();
  }
});
