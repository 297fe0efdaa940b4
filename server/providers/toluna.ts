/**
 * Toluna, after its published External Sample documents (Toluna-IP/tolunaintegratedpaneldocs:
 * getquotas.md, QuotaDetails.md, samplingrules.md): `GET
 * /IPExternalSamplingService/ExternalSample/{PanelGUID}/Quotas?includeRoutables=true` with header
 * `API_AUTH_KEY` answers `{ CountryID, CacheExpires, Surveys: [...] }`; questions' reference data
 * from `POST /IPUtilityService/ReferenceData/QuestionsAndAnswersData` with header `PARTNER_AUTH_KEY`.
 * Errors come as `{ Result, ResultCode }`. A panel is one country: CountryID is mapped below.
 *
 * Each sub-quota becomes one offer quota (its QuotaID kept as parentQuotaId), and a quota of several
 * sub-quotas one more for the quota's own limit (see quotasOf); the offer's qualifications are the
 * distinct questions of its sub-quotas.
 */
import type {
  OfferCondition,
  OfferQualification,
  OfferQuota,
  TolunaQuestion,
} from "../../shared/api/providers.ts";
import {
  arr,
  int,
  isObj,
  isoDay,
  type Json,
  matches,
  money,
  objs,
  providerJson,
  str,
  unexpectedShape,
} from "./http.ts";
import type { Offer, ProviderAdapter, ProviderConfig } from "./types.ts";
import { upstream } from "../domain/errors.ts";

/** Toluna's CountryID (Reference Data API) as ISO codes: the panels we know of. */
export const TOLUNA_COUNTRIES: Record<number, string> = {
  1: "US",
  2: "GB",
  3: "CA",
  4: "FR",
  5: "DE",
  8: "AU",
  12: "IN",
};
const DEVICE_NAMES: Record<number, string> = { 1: "Desktop", 2: "Mobile", 3: "Tablet" };

const errorOf = (j: unknown) =>
  isObj(j) && typeof j.Result === "string" && j.Result !== "SUCCESS" && j.Result !== ""
    ? `${j.Result} (ResultCode ${str(j.ResultCode)})`
    : null;

function conditionsOf(sub: Json, labels: Map<string, TolunaQuestion>): OfferCondition[] {
  return objs(sub.QuestionsAndAnswers).map((qa) => {
    const questionId = str(qa.QuestionID);
    const ref = labels.get(questionId);
    const values = arr(qa.AnswerValues).map(str).filter(Boolean);
    const answerIds = [...arr(qa.AnswerIDs).map(str), ...values];
    return {
      questionId,
      questionName: ref?.QuestionText || ref?.InternalName || questionId,
      answerIds,
      answers: answerIds.map((a) => ref?.TranslatedAnswers.find((t) => t.AnswerID === a)?.Translation || a),
    };
  });
}

/**
 * A Toluna quota as offer quotas. Its sub-quotas are cells of their own (MaxTargetCompletes each),
 * but the quota's CompletesRequired bounds them together: a member matching ALL layers and ONE
 * sub-quota of each counts once for the quota (samplingrules.md). So a sub-quota never takes more
 * than the quota has left, and a quota of several sub-quotas is also an offer quota of its own
 * (its QuotaID, no parent) over what its sub-quotas together name: per layer the answers of its
 * sub-quotas (OR), layers AND. Where a layer's sub-quotas cannot be said as one condition per
 * question (they differ on more than one question), the layer's sub-quotas share the quota's
 * remaining completes in proportion instead, so their sum never passes it.
 */
function quotasOf(q: Json, labels: Map<string, TolunaQuestion>): OfferQuota[] {
  const quotaId = str(q.QuotaID);
  // the quota's completes left: its estimate, else what it requires; neither: it sets no limit of its own
  const required = int(q.CompletesRequired);
  const left = q.EstimatedCompletesRemaining != null
    ? Math.max(0, int(q.EstimatedCompletesRemaining))
    : q.CompletesRequired != null
    ? required
    : Infinity;
  const layers = objs(q.Layers).map((layer) =>
    objs(layer.SubQuotas).map((sub): OfferQuota => {
      const required = int(sub.MaxTargetCompletes), completes = int(sub.CurrentCompletes);
      return {
        quotaId: str(sub.SubQuotaID),
        parentQuotaId: quotaId,
        required,
        remaining: Math.min(left, Math.max(0, required - completes)),
        completes,
        conditions: conditionsOf(sub, labels),
      };
    })
  ).filter((subs) => subs.length);
  const subs = layers.flat();
  if (subs.length < 2 || left === Infinity) return subs;
  const union = layers.map(layerCondition);
  if (union.some((c) => !c)) {
    for (const layer of layers) {
      const sum = layer.reduce((n, x) => n + x.remaining, 0);
      if (sum > left) layer.forEach((x) => x.remaining = Math.floor((x.remaining * left) / sum));
    }
    return subs;
  }
  const conditions = intersect(union as OfferCondition[][]);
  if (!conditions) return subs;
  return [...subs, {
    quotaId,
    parentQuotaId: null,
    required,
    remaining: left,
    completes: Math.max(0, required - left),
    conditions,
  }];
}

/** Answers of a condition list per question (the same question twice is OR). */
function byQuestion(conditions: OfferCondition[]): Map<string, OfferCondition> {
  const out = new Map<string, OfferCondition>();
  for (const c of conditions) {
    const known = out.get(c.questionId);
    out.set(c.questionId, known ? merge(known, c) : { ...c });
  }
  return out;
}

/** The answers of both conditions on one question (OR). */
function merge(a: OfferCondition, b: OfferCondition): OfferCondition {
  const out = { ...a, answerIds: [...a.answerIds], answers: [...a.answers] };
  b.answerIds.forEach((id, i) => {
    if (!out.answerIds.includes(id)) {
      out.answerIds.push(id);
      out.answers.push(b.answers[i]);
    }
  });
  return out;
}

const sameAnswers = (a: OfferCondition, b: OfferCondition) =>
  a.answerIds.length === b.answerIds.length && a.answerIds.every((x) => b.answerIds.includes(x));

/**
 * What any sub-quota of a layer takes, as one condition per question, or null when that cannot be
 * said: sub-quotas on the same questions that differ on at most one of them.
 */
function layerCondition(subs: OfferQuota[]): OfferCondition[] | null {
  const maps = subs.map((x) => byQuestion(x.conditions));
  const questions = [...maps[0].keys()];
  if (maps.some((m) => m.size !== questions.length || questions.some((id) => !m.has(id)))) return null;
  const differing = questions.filter((id) => maps.some((m) => !sameAnswers(m.get(id)!, maps[0].get(id)!)));
  if (differing.length > 1) return null;
  return questions.map((id) => maps.map((m) => m.get(id)!).reduce(merge));
}

/** Layers AND: per question, the answers every layer naming it allows; null when none is left. */
function intersect(layers: OfferCondition[][]): OfferCondition[] | null {
  const out = new Map<string, OfferCondition>();
  for (const c of layers.flat()) {
    const known = out.get(c.questionId);
    if (!known) {
      out.set(c.questionId, { ...c });
      continue;
    }
    const keep = known.answerIds.map((id, i) => [id, known.answers[i]] as const)
      .filter(([id]) => c.answerIds.includes(id));
    if (!keep.length) return null;
    out.set(c.questionId, { ...known, answerIds: keep.map((k) => k[0]), answers: keep.map((k) => k[1]) });
  }
  return [...out.values()];
}

export function tolunaOffer(
  cfg: ProviderConfig,
  s: Json,
  countryId: number,
  labels = new Map<string, TolunaQuestion>(),
): Offer {
  const surveyId = str(s.SurveyID);
  const quotas = objs(s.Quotas).flatMap((q) => quotasOf(q, labels));
  const quals = new Map<string, OfferQualification>();
  for (const q of quotas) {
    for (const c of q.conditions) {
      const known = quals.get(c.questionId) ??
        { questionId: c.questionId, name: c.questionName, answerIds: [], answers: [], isRoutable: true };
      c.answerIds.forEach((a, i) => {
        if (!known.answerIds.includes(a)) {
          known.answerIds.push(a);
          known.answers.push(c.answers[i]);
        }
      });
      quals.set(c.questionId, known);
    }
  }
  const price = isObj(s.Price) ? s.Price : {};
  return {
    _id: `toluna:${surveyId}`,
    provider: "toluna",
    surveyId,
    title: str(s.SurveyName) || `Survey ${surveyId}`,
    countryCode: TOLUNA_COUNTRIES[countryId] ?? String(countryId),
    totalCompletes: int(s.CompletesRequired),
    remaining: int(s.EstimatedCompletesRemaining),
    currentCompletes: Math.max(0, int(s.CompletesRequired) - int(s.EstimatedCompletesRemaining)),
    ir: int(s.IR),
    loi: int(s.LOI),
    device: arr(s.DeviceTypeIDs).map((d) => DEVICE_NAMES[int(d)] ?? str(d)).join(", ") || "All",
    cpi: money(price.Amount),
    currency: int(price.CurrencyID) === 1 || !price.CurrencyID ? "USD" : str(price.CurrencyID),
    endDate: isoDay(s.ScheduledCompletionDate),
    quotas,
    qualifications: [...quals.values()],
    rawIds: { SurveyID: surveyId, WaveID: str(s.WaveID), CountryID: String(countryId) },
    sandbox: cfg.sandbox,
  };
}

export function tolunaAdapter(cfg: ProviderConfig): ProviderAdapter {
  const panel = cfg.panel ?? "";
  const fetchAll = async () => {
    if (!panel) throw upstream("Toluna is not configured: set PROVIDER_TOLUNA_PANEL (the panel GUID)");
    const j = await providerJson(cfg, {
      path: `/IPExternalSamplingService/ExternalSample/${
        encodeURIComponent(panel)
      }/Quotas?includeRoutables=true`,
      headers: { API_AUTH_KEY: cfg.apiKey },
      errorOf,
    });
    if (!isObj(j) || !Array.isArray(j.Surveys)) throw unexpectedShape(cfg, "no Surveys list");
    return { countryId: int(j.CountryID), surveys: objs(j.Surveys) };
  };
  const adapter: ProviderAdapter = {
    key: "toluna",
    name: "Toluna",
    config: cfg,
    async listOffers(f) {
      const { countryId, surveys } = await fetchAll();
      return surveys.map((s) => tolunaOffer(cfg, s, countryId)).filter((o) => matches(o, f));
    },
    async getOffer(surveyId) {
      const { countryId, surveys } = await fetchAll();
      const s = surveys.find((x) => str(x.SurveyID) === surveyId);
      if (!s) return null;
      const bare = tolunaOffer(cfg, s, countryId);
      // the answers' labels, when the partner key is there; ids otherwise
      if (!cfg.partnerKey || !bare.qualifications.length) return bare;
      const refs = await adapter.questions!(bare.qualifications.map((q) => q.questionId));
      return tolunaOffer(cfg, s, countryId, new Map(refs.map((r) => [r.QuestionID, r])));
    },
    async quotaDetails(quotaId) {
      const { surveys } = await fetchAll();
      for (const s of surveys) {
        const q = objs(s.Quotas).find((x) => str(x.QuotaID) === quotaId);
        if (!q) continue;
        const offer = tolunaOffer(cfg, { ...s, Quotas: [q] }, 0);
        return {
          quotaId,
          surveyId: str(s.SurveyID),
          completesRequired: int(q.CompletesRequired),
          completesRemaining: int(q.EstimatedCompletesRemaining),
          layers: objs(q.Layers).map((l) => ({
            layerId: str(l.LayerID),
            subQuotas: offer.quotas.filter((x) =>
              objs(l.SubQuotas).some((s2) => str(s2.SubQuotaID) === x.quotaId)
            ),
          })),
        };
      }
      throw upstream(`Toluna has no quota ${quotaId} open`);
    },
    async questions(ids) {
      if (!cfg.partnerKey) {
        throw upstream("Toluna's question details need PROVIDER_TOLUNA_PARTNER_KEY (its reference data key)");
      }
      const j = await providerJson(cfg, {
        method: "POST",
        path: "/IPUtilityService/ReferenceData/QuestionsAndAnswersData",
        headers: { PARTNER_AUTH_KEY: cfg.partnerKey },
        body: { QuestionIDs: ids.map(Number).filter(Number.isFinite) },
        idempotent: true,
        errorOf,
      });
      if (!Array.isArray(j)) throw unexpectedShape(cfg, "no question list");
      return objs(j).map((q) => {
        const tq = isObj(q.TranslatedQuestion) ? q.TranslatedQuestion : {};
        const answers = objs(q.TranslatedAnswers).map((a) => ({
          AnswerID: str(a.AnswerID),
          Translation: str(a.Translation),
          AnswerInternalName: str(a.AnswerInternalName),
        }));
        return {
          QuestionID: str(tq.QuestionID),
          AnswerIDs: answers.map((a) => a.AnswerID),
          IsRoutable: q.IsRoutable === true,
          InternalName: str(q.InternalName),
          QuestionText: str(tq.DisplayNameTranslation),
          AnswerType: str(q.AnswerType),
          TranslatedAnswers: answers,
        };
      });
    },
  };
  return adapter;
}
