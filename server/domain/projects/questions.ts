/** A child project's pre-screen questions: which project a question belongs to. */
import type { Db } from "../../db/connection.ts";
import { notFound } from "../errors.ts";
import type { QuestionScope } from "../library/questions.ts";

/**
 * The project scope of a live pre-screen question, for the question update call. A library
 * (temporary) question, a deleted one or an unknown id is a 404 naming the question.
 */
export async function projectQuestionScope(db: Db, questionId: string): Promise<QuestionScope> {
  const row = await db.selectFrom("questions").select("projectId").where("id", "=", questionId)
    .where("isDeleted", "=", 0).executeTakeFirst();
  if (!row?.projectId) throw notFound("Question");
  return { kind: "project", projectId: row.projectId };
}
