/**
 * Toluna's own example quotas (Toluna-IP/tolunaintegratedpaneldocs, externalsample/api/responses:
 * singlelayersingleqid.json, singlelayermultipleqid.json, quotamultiplelayer.json), read by the
 * adapter and planned into cells: whatever the router may accept over a quota's cells never passes
 * the quota's completes left.
 */
import { assertEquals } from "../helpers/assert.ts";
import { tolunaOffer } from "../../server/providers/toluna.ts";
import { type OfferData, planOf, type QuestionLink } from "../../server/domain/imports/plan.ts";
import type { ProviderConfig } from "../../server/providers/types.ts";

const cfg: ProviderConfig = { key: "toluna", url: "http://toluna.invalid", apiKey: "k", sandbox: false };
const qa = (QuestionID: number, AnswerIDs: number[], AnswerValues: string[] = []) => ({
  QuestionID,
  AnswerIDs,
  AnswerValues,
  IsRoutable: false,
});
const sub = (SubQuotaID: number, CurrentCompletes: number, MaxTargetCompletes: number, q: unknown[]) => ({
  QuestionsAndAnswers: q,
  SubQuotaID,
  CurrentCompletes,
  MaxTargetCompletes,
});

/** singlelayersingleqid.json: one sub-quota of 2490 on Female or Male, in a quota of 1247 (1245 left). */
const singleQid = {
  QuotaID: 242098,
  CompletesRequired: 1247,
  EstimatedCompletesRemaining: 1245,
  Layers: [{ LayerID: 613047, SubQuotas: [sub(2160875, 0, 2490, [qa(1001007, [2000247, 2000246])])] }],
};
/** singlelayermultipleqid.json: Male 500 or Female 500 (1 complete), in a quota of 1000 (999 left). */
const twoSubs = {
  QuotaID: 243065,
  CompletesRequired: 1000,
  EstimatedCompletesRemaining: 999,
  Layers: [{
    LayerID: 614204,
    SubQuotas: [
      sub(2165400, 0, 500, [qa(1001007, [2000246])]),
      sub(2165401, 1, 500, [qa(1001007, [2000247])]),
    ],
  }],
};
/** quotamultiplelayer.json: age 18-100 (a value) AND Male or Female, 50 each, in a quota of 50. */
const layers = {
  QuotaID: 242586,
  CompletesRequired: 50,
  EstimatedCompletesRemaining: 50,
  Layers: [
    { LayerID: 613571, SubQuotas: [sub(2162737, 0, 50, [qa(1001538, [], ["18-100"])])] },
    { LayerID: 613572, SubQuotas: [sub(2162739, 0, 50, [qa(1001007, [2000246, 2000247])])] },
  ],
};

/** Each answer linked to an option of the same id, on a qualification per question. */
function plan(quota: unknown) {
  const offer = tolunaOffer(cfg, { SurveyID: 1, CompletesRequired: 2000, Quotas: [quota] }, 1);
  const links = new Map<string, QuestionLink>();
  for (const q of offer.qualifications) {
    links.set(q.questionId, {
      qualificationId: `Q${q.questionId}`,
      options: new Map(q.answerIds.map((a) => [a, { optionId: a, text: a }])),
    });
  }
  const data: OfferData = {
    questions: [],
    quotas: offer.quotas.map((q) => ({
      quotaId: q.quotaId,
      remaining: q.remaining,
      conditions: q.conditions,
    })),
  };
  const p = planOf(data, links);
  return p.quotas.map((q) => ({
    key: q.key,
    cells: q.cells.map((
      c,
    ) => [c.options?.map((g) => g.join("|")).join(" x ") ?? c.quotaOptionId, c.quotaSize]),
  }));
}

Deno.test("Toluna's examples: a sub-quota on Female or Male is one cell, bounded by its quota's 1245 left", () => {
  // before: a cell of 2490 on Female and another on Male, 4980 in all for a quota of 1247
  assertEquals(plan(singleQid), [{ key: "Q1001007", cells: [["2000246|2000247", 1245]] }]);
});

Deno.test("Toluna's examples: Male 500 or Female 500 (1 done), and the quota's own 999 over both", () => {
  assertEquals(plan(twoSubs), [{
    key: "Q1001007",
    cells: [["2000246", 500], ["2000247", 499], ["2000246|2000247", 999]],
  }]);
});

Deno.test("Toluna's examples: layers AND: age 18-100 and Male or Female, and 50 over the combination", () => {
  assertEquals(plan(layers), [
    { key: "Q1001538", cells: [["18-100", 50]] },
    { key: "Q1001007", cells: [["2000246|2000247", 50]] },
    { key: "Q1001538+Q1001007", cells: [["18-100 x 2000246|2000247", 50]] },
  ]);
});
