/**
 * Logit (no public documents found), modelled on a marketplace offerwall: `GET /offerwall?CountryCode=CC&Page=N`
 * -> `{ ApiResult, TotalPages, PageNumber, Surveys: [ { SurveyNumber, SurveyName, CountryCode, CPI,
 * LengthOfInterview, BidIncidence, TotalCompletes, CompletesSoFar, TotalRemaining, FieldEndDate,
 * DeviceTypes[], Qualifications[ { QuestionID, QuestionText, PreCodes[], Options[{PreCode, Text}] } ] } ] }`;
 * quotas per survey `GET /surveys/{SurveyNumber}/quotas` -> `{ SurveyQuotas: [ { SurveyQuotaID,
 * NumberOfRespondents, Completes, Questions[ { QuestionID, LogicalOperator, PreCodes[] } ] } ] }`
 * (LogicalOperator OR: any of the PreCodes; NOT: any answer but them).
 * Header `x-api-key`; errors `{ ApiResult: 1, ApiAnswerMessage }`. The offer list carries no quotas:
 * they load on demand (the quota dialog, and the import).
 */
import type { OfferQualification, OfferQuota } from "../../shared/api/providers.ts";
import {
  allPages,
  arr,
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
import type { Offer, OfferFilters, ProviderAdapter, ProviderConfig } from "./types.ts";

const errorOf = (j: unknown) =>
  isObj(j) && int(j.ApiResult) !== 0 ? str(j.ApiAnswerMessage) || `result ${str(j.ApiResultCode)}` : null;

function answersOf(q: Json) {
  const codes = arr(q.PreCodes).map(str);
  const texts = new Map(objs(q.Options).map((o) => [str(o.PreCode), str(o.Text)]));
  return { answerIds: codes, answers: codes.map((c) => texts.get(c) || c) };
}

export function logitOffer(cfg: ProviderConfig, s: Json, quotas: OfferQuota[] = []): Offer {
  const surveyId = str(s.SurveyNumber);
  const qualifications: OfferQualification[] = objs(s.Qualifications).map((q) => ({
    questionId: str(q.QuestionID),
    name: str(q.QuestionText) || str(q.QuestionID),
    ...answersOf(q),
    isRoutable: true,
  }));
  return {
    _id: `logit:${surveyId}`,
    provider: "logit",
    surveyId,
    title: str(s.SurveyName) || `Survey ${surveyId}`,
    countryCode: str(s.CountryCode).toUpperCase(),
    totalCompletes: int(s.TotalCompletes),
    remaining: int(s.TotalRemaining),
    currentCompletes: int(s.CompletesSoFar),
    ir: int(s.BidIncidence),
    loi: int(s.LengthOfInterview),
    device: arr(s.DeviceTypes).map(str).join(", ") || "All",
    cpi: money(s.CPI),
    currency: "USD",
    endDate: isoDay(s.FieldEndDate),
    quotas,
    qualifications,
    rawIds: { SurveyNumber: surveyId, ...(s.AccountID !== undefined ? { AccountID: str(s.AccountID) } : {}) },
    sandbox: cfg.sandbox,
  };
}

export function logitAdapter(cfg: ProviderConfig): ProviderAdapter {
  const headers = { "x-api-key": cfg.apiKey };
  const list = async (f: OfferFilters) =>
    await allPages(async (page) => {
      const q = new URLSearchParams({ Page: String(page) });
      if (f.countryCode) q.set("CountryCode", f.countryCode);
      const j = await providerJson(cfg, { path: `/offerwall?${q}`, headers, errorOf });
      if (!isObj(j) || !Array.isArray(j.Surveys)) throw unexpectedShape(cfg, "no Surveys list");
      return { items: objs(j.Surveys), more: int(j.PageNumber) < int(j.TotalPages) };
    });
  const adapter: ProviderAdapter = {
    key: "logit",
    name: "Logit",
    config: cfg,
    async listOffers(f) {
      return (await list(f)).map((s) => logitOffer(cfg, s)).filter((o) => matches(o, f));
    },
    async getOffer(surveyId) {
      const s = (await list({})).find((x) => str(x.SurveyNumber) === surveyId);
      return s ? logitOffer(cfg, s, await adapter.quotasOf!(surveyId)) : null;
    },
    async quotasOf(surveyId) {
      let j: unknown;
      try {
        j = await providerJson(cfg, {
          path: `/surveys/${encodeURIComponent(surveyId)}/quotas`,
          headers,
          errorOf,
        });
      } catch (e) {
        if (isGone(e)) return [];
        throw e;
      }
      if (!isObj(j) || !Array.isArray(j.SurveyQuotas)) throw unexpectedShape(cfg, "no SurveyQuotas list");
      return objs(j.SurveyQuotas).map((q) => {
        const remaining = int(q.NumberOfRespondents), completes = int(q.Completes);
        return {
          quotaId: str(q.SurveyQuotaID),
          parentQuotaId: null,
          required: remaining + completes,
          remaining,
          completes,
          conditions: objs(q.Questions).map((x) => ({
            questionId: str(x.QuestionID),
            questionName: str(x.QuestionText) || str(x.QuestionID),
            ...answersOf(x),
            // NOT: the quota is on every answer but these (OR, the default: any of these)
            ...(str(x.LogicalOperator).trim().toUpperCase() === "NOT" ? { excluded: true } : {}),
          })),
        };
      });
    },
  };
  return adapter;
}
