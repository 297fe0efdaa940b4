/**
 * UniMrkt's stand-in (its inferred shape): `GET /` -> `{ surveys }`, `GET /:id/quotas`,
 * `GET /:id/questions`, header `x-access-key`; errors `{ success: false, message }`.
 */
import { Hono } from "hono";
import { questionById, type SandboxOffer } from "./data.ts";
import { guard, offersOf, type SandboxState } from "./kit.ts";

export function mrktSurvey(o: SandboxOffer) {
  return {
    surveyId: Number(o.id),
    languageId: `en-${o.country}`,
    isPII: false,
    ir: o.ir,
    loi: o.loi,
    cpi: o.cpi,
    remaining: o.required - o.completes,
    completes: o.completes,
    entryLink: `https://survey.unimrkt.example/entry/${o.id}?pid=[pid]`,
    mobile: o.mobile,
    tablet: o.tablet,
    deskTop: o.desktop,
    surveyGroup: o.title,
    buyerId: Number(o.buyerId),
    endDate: o.endDate,
  };
}

export function mrktSandbox(state: SandboxState) {
  const app = new Hono();
  app.use(
    "*",
    guard(
      state,
      (c) => c.req.header("x-access-key"),
      (c) => c.json({ success: false, message: "Invalid access key" }, 401),
      (c) => c.json({ success: false, message: "Server busy" }, 503),
    ),
  );
  const find = (id: string) => offersOf(state).find((x) => x.id === id);
  app.get("/", (c) => c.json({ surveys: offersOf(state, c.req.query("country")).map(mrktSurvey) }));
  app.get("/:id/quotas", (c) => {
    const o = find(c.req.param("id"));
    if (!o) return c.json({ success: false, message: "Survey not found" }, 404);
    return c.json(o.quotas.map((q) => ({
      quotaId: Number(q.id),
      remaining: q.required - q.completes,
      completes: q.completes,
      conditions: q.conditions.map((x) => ({
        questionId: Number(x.questionId),
        typeId: 1,
        options: x.answerIds,
      })),
    })));
  });
  app.get("/:id/questions", (c) => {
    const o = find(c.req.param("id"));
    if (!o) return c.json({ success: false, message: "Survey not found" }, 404);
    const ids = new Set(
      [...o.qualifications, ...o.quotas.flatMap((q) => q.conditions)].map((x) => x.questionId),
    );
    return c.json([...ids].map((id) => {
      const q = questionById(id)!;
      const wanted = o.qualifications.find((x) => x.questionId === id)?.answerIds;
      return {
        questionId: Number(id),
        questionText: q.name,
        typeId: 1,
        options: q.answers.filter((a) => !wanted || wanted.includes(a.id)).map((a) => ({
          id: a.id,
          text: a.text,
        })),
      };
    }));
  });
  return app;
}
