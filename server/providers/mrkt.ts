/**
 * UniMrkt (shape inferred, not official): header `x-access-key`; `GET {base}?country=CC` -> `{ surveys: [ {
 * surveyId, languageId, isPII, ir, loi, cpi, remaining, completes, entryLink, mobile, tablet, deskTop,
 * surveyGroup, buyerId, endDate } ] }`; `GET {base}/{id}/quotas` -> `[ { quotaId, remaining, completes,
 * conditions: [ { questionId, typeId, options[] } ] } ]`; `GET {base}/{id}/questions` -> `[ {
 * questionId, questionText, typeId, options[] } ]` (an option is an id or `{ id, text }`). Errors
 * `{ success: false, message }`. Quotas and questions load per survey, on demand.
 */
import type { OfferQualification, OfferQuota } from "../../shared/api/providers.ts";
import {
  arr,
  devices,
  int,
  isGone,
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

const errorOf = (j: unknown) => (isObj(j) && j.success === false ? str(j.message) || "error" : null);
const optionId = (o: unknown) => (isObj(o) ? str(o.id) : str(o));
const optionText = (o: unknown) => (isObj(o) ? str(o.text) || str(o.id) : str(o));

export function mrktOffer(
  cfg: ProviderConfig,
  s: Json,
  quotas: OfferQuota[] = [],
  qualifications: OfferQualification[] = [],
): Offer {
  const surveyId = str(s.surveyId);
  const remaining = int(s.remaining), completes = int(s.completes);
  return {
    _id: `mrkt:${surveyId}`,
    provider: "mrkt",
    surveyId,
    title: str(s.surveyGroup) || `Survey ${surveyId}`,
    countryCode: (str(s.languageId).split(/[-_]/)[1] ?? "").toUpperCase(),
    totalCompletes: remaining + completes,
    remaining,
    currentCompletes: completes,
    ir: int(s.ir),
    loi: int(s.loi),
    device: devices({ desktop: s.deskTop === true, mobile: s.mobile === true, tablet: s.tablet === true }),
    cpi: money(s.cpi),
    currency: "USD",
    endDate: isoDay(s.endDate),
    quotas,
    qualifications,
    rawIds: { surveyId, ...(s.buyerId !== undefined ? { buyerId: str(s.buyerId) } : {}) },
    sandbox: cfg.sandbox,
  };
}

export function mrktAdapter(cfg: ProviderConfig): ProviderAdapter {
  const headers = { "x-access-key": cfg.apiKey };
  const list = async (country?: string) => {
    const j = await providerJson(cfg, {
      path: country ? `?country=${encodeURIComponent(country)}` : "",
      headers,
      errorOf,
    });
    if (!isObj(j) || !Array.isArray(j.surveys)) throw unexpectedShape(cfg, "no surveys list");
    return objs(j.surveys);
  };
  const perSurvey = async (surveyId: string, what: "quotas" | "questions") => {
    try {
      const j = await providerJson(cfg, {
        path: `/${encodeURIComponent(surveyId)}/${what}`,
        headers,
        errorOf,
      });
      if (!Array.isArray(j)) throw unexpectedShape(cfg, `no ${what} list`);
      return objs(j);
    } catch (e) {
      if (isGone(e)) return [];
      throw e;
    }
  };
  const adapter: ProviderAdapter = {
    key: "mrkt",
    name: "UniMrkt",
    config: cfg,
    async listOffers(f) {
      return (await list(f.countryCode)).map((s) => mrktOffer(cfg, s)).filter((o) => matches(o, f));
    },
    async getOffer(surveyId) {
      const s = (await list()).find((x) => str(x.surveyId) === surveyId);
      if (!s) return null;
      const quals = await adapter.qualificationsOf!(surveyId);
      return mrktOffer(cfg, s, await adapter.quotasOf!(surveyId), quals);
    },
    async qualificationsOf(surveyId) {
      return (await perSurvey(surveyId, "questions")).map((q) => ({
        questionId: str(q.questionId),
        name: str(q.questionText) || str(q.questionId),
        answerIds: arr(q.options).map(optionId),
        answers: arr(q.options).map(optionText),
        isRoutable: true,
      }));
    },
    async quotasOf(surveyId) {
      const [rows, quals] = await Promise.all([
        perSurvey(surveyId, "quotas"),
        adapter.qualificationsOf!(surveyId),
      ]);
      const byId = new Map(quals.map((q) => [q.questionId, q]));
      return rows.map((q) => {
        const remaining = int(q.remaining), completes = int(q.completes);
        return {
          quotaId: str(q.quotaId),
          parentQuotaId: null,
          required: remaining + completes,
          remaining,
          completes,
          conditions: objs(q.conditions).map((c) => {
            const questionId = str(c.questionId);
            const known = byId.get(questionId);
            const answerIds = arr(c.options).map(optionId);
            return {
              questionId,
              questionName: known?.name ?? questionId,
              answerIds,
              answers: answerIds.map((a) => known?.answers[known.answerIds.indexOf(a)] || a),
            };
          }),
        };
      });
    },
  };
  return adapter;
}
