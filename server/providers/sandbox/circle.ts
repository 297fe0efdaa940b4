/** Circle's stand-in, on a supplier-v2 shape: `GET /v2/surveys?country=&page=`, header `Authorization: Bearer <key>`. */
import { Hono } from "hono";
import { questionById, type SandboxOffer } from "./data.ts";
import { guard, offersOf, pageOf, type SandboxState } from "./kit.ts";

export function circleSurvey(o: SandboxOffer) {
  return {
    survey_id: o.id,
    survey_name: o.title,
    country_language: `en-${o.country}`,
    cpi: o.cpi.toFixed(2),
    field_end_date: `${o.endDate}T00:00:00Z`,
    devices: [o.desktop && "desktop", o.mobile && "mobile", o.tablet && "tablet"].filter(Boolean),
    buyer_id: o.buyerId,
    supplier_completes: { needed: o.required, achieved: o.completes, remaining: o.required - o.completes },
    survey_performance: { overall: { ir: o.ir, loi: o.loi } },
    quotas: o.quotas.map((q) => ({
      quota_id: `q-${q.id}`,
      quantities: {
        currently_open: q.required - q.completes,
        remaining: q.required - q.completes,
        achieved: q.completes,
      },
      criteria: q.conditions.map((c) => ({ qualification_code: c.questionId, condition_codes: c.answerIds })),
    })),
    // every question the survey targets or sets quotas on, with its codes' labels
    qualifications: [
      ...o.qualifications,
      ...o.quotas.flatMap((q) => q.conditions).filter((c, i, all) =>
        !o.qualifications.some((t) => t.questionId === c.questionId) &&
        all.findIndex((x) => x.questionId === c.questionId) === i
      ).map((c) => ({
        questionId: c.questionId,
        answerIds: (questionById(c.questionId)?.answers ?? []).map((a) => a.id),
      })),
    ].map((c) => ({
      qualification_code: c.questionId,
      name: questionById(c.questionId)?.name ?? c.questionId,
      condition_codes: c.answerIds,
      conditions: (questionById(c.questionId)?.answers ?? []).map((a) => ({ code: a.id, text: a.text })),
    })),
  };
}

export function circleSandbox(state: SandboxState) {
  const app = new Hono();
  app.use(
    "*",
    guard(
      state,
      (c) => /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1],
      (c) => c.json({ errors: [{ code: "unauthorized", detail: "The access token is invalid" }] }, 401),
      (c) => c.json({ errors: [{ code: "unavailable", detail: "Upstream maintenance" }] }, 502),
    ),
  );
  app.get("/v2/surveys", (c) => {
    const all = offersOf(state, c.req.query("country"));
    const { items, pages, page } = pageOf(all, Number(c.req.query("page") ?? 1), state.pageSize);
    return c.json({
      surveys: items.map(circleSurvey),
      pagination: { page, next_page: page < pages ? page + 1 : null },
    });
  });
  return app;
}
