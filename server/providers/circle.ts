/**
 * Circle (no public documents found), on a supplier-v2 shape: `GET /v2/surveys?country=CC&page=N`
 * (header `Authorization: Bearer <key>`) -> `{ surveys: [ { survey_id, survey_name,
 * country_language, cpi, field_end_date, devices[], supplier_completes { needed, achieved, remaining },
 * survey_performance { overall { ir, loi } }, quotas[ { quota_id, quantities { currently_open,
 * remaining, achieved }, criteria[ { qualification_code, condition_codes[] } ] } ],
 * qualifications[ { qualification_code, name, condition_codes[], conditions[ { code, text } ] } ] } ],
 * pagination { next_page } }`; errors `{ errors: [ { code, detail } ] }`.
 */
import type { OfferQualification, OfferQuota } from "../../shared/api/providers.ts";
import {
  allPages,
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

const errorOf = (j: unknown) => {
  const e = isObj(j) ? objs(j.errors)[0] : undefined;
  return e ? `${str(e.detail) || str(e.code)}` : null;
};

export function circleOffer(cfg: ProviderConfig, s: Json): Offer {
  const surveyId = str(s.survey_id);
  const labels = new Map<string, { name: string; texts: Map<string, string> }>();
  const qualifications: OfferQualification[] = objs(s.qualifications).map((q) => {
    const code = str(q.qualification_code);
    const texts = new Map(objs(q.conditions).map((c) => [str(c.code), str(c.text)]));
    labels.set(code, { name: str(q.name) || code, texts });
    const answerIds = arr(q.condition_codes).map(str);
    return {
      questionId: code,
      name: str(q.name) || code,
      answerIds,
      answers: answerIds.map((a) => texts.get(a) || a),
      isRoutable: true,
    };
  });
  const quotas: OfferQuota[] = objs(s.quotas).map((q) => {
    const n = isObj(q.quantities) ? q.quantities : {};
    const remaining = int(n.remaining), completes = int(n.achieved);
    return {
      quotaId: str(q.quota_id),
      parentQuotaId: null,
      required: remaining + completes,
      remaining,
      completes,
      conditions: objs(q.criteria).map((c) => {
        const code = str(c.qualification_code);
        const answerIds = arr(c.condition_codes).map(str);
        const l = labels.get(code);
        return {
          questionId: code,
          questionName: l?.name ?? code,
          answerIds,
          answers: answerIds.map((a) => l?.texts.get(a) || a),
        };
      }),
    };
  });
  const sc = isObj(s.supplier_completes) ? s.supplier_completes : {};
  const perf = isObj(s.survey_performance) && isObj(s.survey_performance.overall)
    ? s.survey_performance.overall
    : {};
  const country = (str(s.country_language).split(/[-_]/)[1] ?? "").toUpperCase();
  return {
    _id: `circle:${surveyId}`,
    provider: "circle",
    surveyId,
    title: str(s.survey_name) || `Survey ${surveyId}`,
    countryCode: country,
    totalCompletes: int(sc.needed),
    remaining: int(sc.remaining),
    currentCompletes: int(sc.achieved),
    ir: int(perf.ir),
    loi: int(perf.loi),
    device: arr(s.devices).map((d) => str(d)).map((d) => d && d[0].toUpperCase() + d.slice(1)).join(", ") ||
      "All",
    cpi: money(s.cpi),
    currency: "USD",
    endDate: isoDay(s.field_end_date),
    quotas,
    qualifications,
    rawIds: { survey_id: surveyId, ...(s.buyer_id !== undefined ? { buyer_id: str(s.buyer_id) } : {}) },
    sandbox: cfg.sandbox,
  };
}

export function circleAdapter(cfg: ProviderConfig): ProviderAdapter {
  const headers = { authorization: `Bearer ${cfg.apiKey}` };
  const list = async (country?: string) =>
    await allPages(async (page) => {
      const q = new URLSearchParams({ page: String(page) });
      if (country) q.set("country", country);
      const j = await providerJson(cfg, { path: `/v2/surveys?${q}`, headers, errorOf });
      if (!isObj(j) || !Array.isArray(j.surveys)) throw unexpectedShape(cfg, "no surveys list");
      const next = isObj(j.pagination) ? j.pagination.next_page : null;
      return { items: objs(j.surveys), more: next !== null && next !== undefined };
    });
  return {
    key: "circle",
    name: "Circle",
    config: cfg,
    async listOffers(f) {
      return (await list(f.countryCode)).map((s) => circleOffer(cfg, s)).filter((o) => matches(o, f));
    },
    async getOffer(surveyId) {
      const s = (await list()).find((x) => str(x.survey_id) === surveyId);
      return s ? circleOffer(cfg, s) : null;
    },
  };
}
