/** Precision Sample's stand-in: `GET /surveys?country=&page=` and `GET /surveys/:id`, header AppKey. */
import { Hono } from "hono";
import { questionById, type SandboxOffer } from "./data.ts";
import { guard, offersOf, pageOf, type SandboxState } from "./kit.ts";

const answersOf = (questionId: string, ids: string[]) =>
  ids.map((id) => ({
    answer_id: id,
    answer_text: questionById(questionId)?.answers.find((a) => a.id === id)?.text ?? id,
  }));

export function precisionSurvey(o: SandboxOffer) {
  return {
    survey_id: Number(o.id),
    survey_name: o.title,
    cpi: o.cpi,
    loi: o.loi,
    ir: o.ir,
    country: o.country,
    remaining: o.required - o.completes,
    total_completes: o.required,
    completes: o.completes,
    device: [o.desktop && "desktop", o.mobile && "mobile", o.tablet && "tablet"].filter(Boolean).join(","),
    end_date: o.endDate,
    quotas: o.quotas.map((q) => ({
      quota_id: Number(q.id),
      total: q.required,
      completes: q.completes,
      remaining: q.required - q.completes,
      conditions: q.conditions.map((c) => ({
        question_id: Number(c.questionId),
        question_text: questionById(c.questionId)?.name ?? "",
        answers: answersOf(c.questionId, c.answerIds),
      })),
    })),
    qualifications: o.qualifications.map((c) => ({
      question_id: Number(c.questionId),
      question_text: questionById(c.questionId)?.name ?? "",
      answers: answersOf(c.questionId, c.answerIds),
    })),
  };
}

export function precisionSandbox(state: SandboxState) {
  const app = new Hono();
  app.use(
    "*",
    guard(
      state,
      (c) => c.req.header("AppKey"),
      (c) => c.json({ error: { code: "invalid_app_key", message: "Invalid AppKey" } }, 401),
      (c) => c.json({ error: { code: "service_unavailable", message: "Maintenance in progress" } }, 503),
    ),
  );
  app.get("/surveys", (c) => {
    const all = offersOf(state, c.req.query("country"));
    const { items, pages, page } = pageOf(all, Number(c.req.query("page") ?? 1), state.pageSize);
    return c.json({
      surveys: items.map(precisionSurvey),
      page,
      per_page: state.pageSize,
      total_pages: pages,
    });
  });
  app.get("/surveys/:id", (c) => {
    const o = offersOf(state).find((x) => x.id === c.req.param("id"));
    return o
      ? c.json({ survey: precisionSurvey(o) })
      : c.json({ error: { code: "not_found", message: "Survey not found" } }, 404);
  });
  return app;
}
