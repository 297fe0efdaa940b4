/**
 * Precision Sample. Its public documents describe the member flow only (header `AppKey`); the offer
 * list is modelled as `GET /surveys?country=CC&page=N` -> `{ surveys: [ { survey_id, survey_name,
 * cpi, loi, ir, country, remaining, total_completes, completes, device, end_date, quotas[],
 * qualifications[] } ], page, total_pages }` and `GET /surveys/{id}` -> `{ survey }` (404 when gone).
 * That assumption lives in this file only.
 */
import type { OfferCondition, OfferQualification, OfferQuota } from "../../shared/api/providers.ts";
import {
  allPages,
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

const errorOf = (j: unknown) => {
  const e = isObj(j) && isObj(j.error) ? j.error : null;
  return e ? `${str(e.message) || "error"}${e.code ? ` (${str(e.code)})` : ""}` : null;
};

function answers(x: Json) {
  const list = objs(x.answers);
  return {
    answerIds: list.map((a) => str(a.answer_id)),
    answers: list.map((a) => str(a.answer_text) || str(a.answer_id)),
  };
}

function condition(c: Json): OfferCondition {
  const a = answers(c);
  return { questionId: str(c.question_id), questionName: str(c.question_text) || str(c.question_id), ...a };
}

export function precisionOffer(cfg: ProviderConfig, s: Json): Offer {
  const surveyId = str(s.survey_id);
  const quotas: OfferQuota[] = objs(s.quotas).map((q) => ({
    quotaId: str(q.quota_id),
    parentQuotaId: null,
    required: int(q.total),
    remaining: int(q.remaining),
    completes: int(q.completes),
    conditions: objs(q.conditions).map(condition),
  }));
  const qualifications: OfferQualification[] = objs(s.qualifications).map((q) => ({
    questionId: str(q.question_id),
    name: str(q.question_text) || str(q.question_id),
    ...answers(q),
    isRoutable: true,
  }));
  const device = str(s.device).split(",").map((d) => d.trim()).filter(Boolean)
    .map((d) => d[0].toUpperCase() + d.slice(1)).join(", ") || "All";
  return {
    _id: `precision:${surveyId}`,
    provider: "precision",
    surveyId,
    title: str(s.survey_name) || `Survey ${surveyId}`,
    countryCode: str(s.country).toUpperCase(),
    totalCompletes: int(s.total_completes),
    remaining: int(s.remaining),
    currentCompletes: int(s.completes),
    ir: int(s.ir),
    loi: int(s.loi),
    device,
    cpi: money(s.cpi),
    currency: "USD",
    endDate: isoDay(s.end_date),
    quotas,
    qualifications,
    rawIds: { survey_id: surveyId },
    sandbox: cfg.sandbox,
  };
}

export function precisionAdapter(cfg: ProviderConfig): ProviderAdapter {
  const headers = { AppKey: cfg.apiKey };
  return {
    key: "precision",
    name: "Precision",
    config: cfg,
    async listOffers(f: OfferFilters) {
      const all = await allPages(async (page) => {
        const q = new URLSearchParams({ page: String(page) });
        if (f.countryCode) q.set("country", f.countryCode);
        const j = await providerJson(cfg, { path: `/surveys?${q}`, headers, errorOf });
        if (!isObj(j) || !Array.isArray(j.surveys)) throw unexpectedShape(cfg, "no surveys list");
        return { items: objs(j.surveys), more: int(j.page) < int(j.total_pages) };
      });
      return all.map((s) => precisionOffer(cfg, s)).filter((o) => matches(o, f));
    },
    async getOffer(surveyId: string) {
      try {
        const j = await providerJson(cfg, {
          path: `/surveys/${encodeURIComponent(surveyId)}`,
          headers,
          errorOf,
        });
        if (!isObj(j) || !isObj(j.survey)) throw unexpectedShape(cfg, "no survey");
        return precisionOffer(cfg, j.survey);
      } catch (e) {
        if (isGone(e)) return null;
        throw e;
      }
    },
  };
}
