/**
 * Toluna's stand-in, after its published External Sample documents: `GET
 * /IPExternalSamplingService/ExternalSample/:panel/Quotas?includeRoutables=true` (header
 * API_AUTH_KEY) and `POST /IPUtilityService/ReferenceData/QuestionsAndAnswersData` (header
 * PARTNER_AUTH_KEY); errors `{ Result, ResultCode }`. A panel is one country (CountryID 1, US).
 */
import { Hono } from "hono";
import { questionById, SANDBOX_QUESTIONS, type SandboxOffer, type SandboxQuota } from "./data.ts";
import { guard, offersOf, type SandboxState } from "./kit.ts";

export const SANDBOX_TOLUNA_PANEL = "5e1f3c0a-0000-4000-8000-000000005a4d";

export function tolunaSurvey(o: SandboxOffer) {
  const byQuota = new Map<string, typeof o.quotas>();
  for (const q of o.quotas) byQuota.set(q.parentId, [...(byQuota.get(q.parentId) ?? []), q]);
  return {
    SurveyID: Number(o.id),
    SurveyName: o.title,
    WaveID: Number(o.waveId),
    LOI: o.loi,
    IR: o.ir,
    StudyTypeID: 1,
    ScheduledCompletionDate: `${o.endDate}T00:00:00`,
    DeviceTypeIDs: [o.desktop && 1, o.mobile && 2, o.tablet && 3].filter(Boolean),
    IsSurveyRecontact: false,
    CompletesRequired: o.required,
    EstimatedCompletesRemaining: o.required - o.completes,
    Price: { Amount: o.cpi, CurrencyID: 1 },
    SurveyWaveExclusions: [],
    Quotas: [...byQuota.entries()].map(([quotaId, subs]) => {
      // sub-quotas of one layer are OR, layers AND: each layer adds up to the quota
      const layers = [...new Set(subs.map((q) => q.layerId))].map((id) =>
        subs.filter((q) => q.layerId === id)
      );
      const sum = (f: (q: SandboxQuota) => number) =>
        Math.max(...layers.map((l) => l.reduce((n, q) => n + f(q), 0)));
      const total = o.quotaTotals?.[quotaId] ??
        { required: sum((q) => q.required), completes: sum((q) => q.completes) };
      return {
        QuotaID: Number(quotaId),
        CompletesRequired: total.required,
        EstimatedCompletesRemaining: total.required - total.completes,
        Layers: layers.map((layer) => ({
          LayerID: Number(layer[0].layerId),
          SubQuotas: layer.map((q) => ({
            SubQuotaID: Number(q.id),
            CurrentCompletes: q.completes,
            MaxTargetCompletes: q.required,
            QuestionsAndAnswers: [
              ...q.conditions.map((c) => answersOf(c.questionId, c.answerIds)),
              // the survey's targeting travels with every sub-quota, as Toluna sends it
              ...o.qualifications.filter((t) => !q.conditions.some((c) => c.questionId === t.questionId))
                .map((t) => answersOf(t.questionId, t.answerIds)),
            ],
          })),
        })),
      };
    }),
  };
}

/** A sub-quota's answers: by AnswerIDs, or (postal codes, ranges) by AnswerValues. */
function answersOf(questionId: string, ids: string[]) {
  const byValue = questionById(questionId)?.byValue === true;
  return {
    QuestionID: Number(questionId),
    AnswerIDs: byValue ? [] : ids.map(Number),
    AnswerValues: byValue ? ids : [],
    IsRoutable: true,
  };
}

export function tolunaSandbox(state: SandboxState, partnerKey = state.key) {
  const app = new Hono();
  const refuse = (c: { json: (b: unknown, s: 403) => Response }) =>
    c.json({ Result: "INVALID_API_AUTH_KEY", ResultCode: 1 }, 403);
  const down = (c: { json: (b: unknown, s: 500) => Response }) =>
    c.json({ Result: "INTERNAL_ERROR", ResultCode: 99 }, 500);
  app.use(
    "/IPExternalSamplingService/*",
    guard(state, (c) => c.req.header("API_AUTH_KEY"), refuse, down),
  );
  app.use(
    "/IPUtilityService/*",
    guard(
      state,
      (c) => (c.req.header("PARTNER_AUTH_KEY") === partnerKey ? state.key : undefined),
      refuse,
      down,
    ),
  );
  app.get("/IPExternalSamplingService/ExternalSample/:panel/Quotas", (c) => {
    if (c.req.param("panel") !== SANDBOX_TOLUNA_PANEL) {
      return c.json({ Result: "PANEL_DOES_NOT_EXIST", ResultCode: 3 }, 400);
    }
    return c.json({
      CountryID: 1,
      CacheExpires: new Date(Date.now() + 300_000).toISOString(),
      Surveys: offersOf(state, "US").map(tolunaSurvey),
    });
  });
  app.post("/IPUtilityService/ReferenceData/QuestionsAndAnswersData", async (c) => {
    const body = await c.req.json().catch(() => ({}));
    const ids = new Set(((body?.QuestionIDs ?? []) as unknown[]).map(String));
    return c.json(
      SANDBOX_QUESTIONS.filter((q) => !ids.size || ids.has(q.id)).map((q) => ({
        IsRoutable: true,
        InternalName: q.name.toUpperCase().replace(/\W+/g, "_"),
        TranslatedQuestion: { QuestionID: Number(q.id), CultureID: 1, DisplayNameTranslation: q.name },
        TranslatedAnswers: q.answers.map((a) => ({
          AnswerID: Number(a.id),
          Translation: a.text,
          AnswerInternalName: a.text.toUpperCase().replace(/\W+/g, "_"),
        })),
        AnswerType: "SingleSelect",
      })),
    );
  });
  return app;
}
