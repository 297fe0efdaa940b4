/**
 * The question library as the supply API shows it (`GET /supply/v1/questions`): each active library
 * question with its enabled answers, by the ids a panel maps its own profile data to once.
 */
import type { Ctx } from "../ctx.ts";
import { listQuestions, TEMP } from "../library/questions.ts";
import type { SupplyQuestion } from "../../../shared/api/supply.ts";

export async function supplyQuestions(ctx: Pick<Ctx, "db">): Promise<SupplyQuestion[]> {
  const questions = await listQuestions(ctx.db, TEMP);
  return questions.filter((q) => q.isActive).map((q) => ({
    id: q._id,
    text: q.title,
    texts: q.questionTitle,
    languageId: q.languageId,
    type: q.questionType,
    answers: q.questionType === "TEXT"
      ? []
      : q.questionOption.filter((o) => o.enable).map((o) => ({ id: o._id, text: o.title })),
  }));
}
