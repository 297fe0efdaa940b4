/**
 * Logit's stand-in, on a marketplace offerwall shape: `GET /offerwall?CountryCode=&Page=` and
 * `GET /surveys/:SurveyNumber/quotas`, header `x-api-key`.
 */
import { Hono } from "hono";
import { questionById, type SandboxOffer } from "./data.ts";
import { guard, offersOf, pageOf, type SandboxState } from "./kit.ts";

const options = (questionId: string, ids: string[]) =>
  ids.map((id) => ({
    PreCode: id,
    Text: questionById(questionId)?.answers.find((a) => a.id === id)?.text ?? id,
  }));

export function logitSurvey(o: SandboxOffer) {
  return {
    SurveyNumber: Number(o.id),
    SurveyName: o.title,
    CountryCode: o.country,
    CPI: o.cpi,
    LengthOfInterview: o.loi,
    BidIncidence: o.ir,
    TotalCompletes: o.required,
    CompletesSoFar: o.completes,
    TotalRemaining: o.required - o.completes,
    FieldEndDate: `${o.endDate}T23:59:59`,
    DeviceTypes: [o.desktop && "Desktop", o.mobile && "Mobile", o.tablet && "Tablet"].filter(Boolean),
    AccountID: Number(o.buyerId),
    Qualifications: o.qualifications.map((q) => ({
      QuestionID: Number(q.questionId),
      QuestionText: questionById(q.questionId)?.name ?? "",
      LogicalOperator: "OR",
      PreCodes: q.answerIds,
      Options: options(q.questionId, q.answerIds),
    })),
  };
}

export function logitSandbox(state: SandboxState) {
  const app = new Hono();
  app.use(
    "*",
    guard(
      state,
      (c) => c.req.header("x-api-key"),
      (c) => c.json({ ApiResult: 1, ApiResultCode: 401, ApiAnswerMessage: "Invalid API key" }, 401),
      (c) => c.text("Service Unavailable", 503),
    ),
  );
  app.get("/offerwall", (c) => {
    const all = offersOf(state, c.req.query("CountryCode"));
    const { items, pages, page } = pageOf(all, Number(c.req.query("Page") ?? 1), state.pageSize);
    return c.json({
      ApiResult: 0,
      ResultCount: all.length,
      PageNumber: page,
      TotalPages: pages,
      Surveys: items.map(logitSurvey),
    });
  });
  app.get("/surveys/:id/quotas", (c) => {
    const o = offersOf(state).find((x) => x.id === c.req.param("id"));
    if (!o) return c.json({ ApiResult: 1, ApiResultCode: 404, ApiAnswerMessage: "Survey not found" }, 404);
    return c.json({
      ApiResult: 0,
      SurveyNumber: Number(o.id),
      SurveyQuotas: o.quotas.map((q) => ({
        SurveyQuotaID: Number(q.id),
        NumberOfRespondents: q.required - q.completes,
        Completes: q.completes,
        QuotaCPI: o.cpi,
        Questions: q.conditions.map((x) => ({
          QuestionID: Number(x.questionId),
          QuestionText: questionById(x.questionId)?.name ?? "",
          LogicalOperator: x.excluded ? "NOT" : "OR",
          PreCodes: x.answerIds,
          Options: options(x.questionId, x.answerIds),
        })),
      })),
    });
  });
  return app;
}
