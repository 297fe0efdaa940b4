/** Child project tabs: pre-screen questions, quotas, exclusions (handlers of shared/api/project-parts.ts). */
import * as v from "valibot";
import { answer, type Api } from "../http/api.ts";
import { parseWith } from "../http/validate.ts";
import type { Db } from "../db/connection.ts";
import * as P from "../../shared/api/project-parts.ts";
import { groupQuestionsCall } from "../../shared/api/project-reports.ts";
import { ProjectQuestionCopy } from "../../shared/schemas/project.ts";
import { QuestionForm, QuestionUpdate } from "../../shared/schemas/library.ts";
import {
  createQuestion,
  getQuestion,
  listQuestions,
  type QuestionScope,
  reorderQuestions,
  TEMP,
  updateQuestion,
} from "../domain/library/questions.ts";
import { addQuota, listQuotas, updateQuota, updateQuotaSizes } from "../domain/projects/quotas.ts";
import { addExclusion, listExclusions, updateExclusion } from "../domain/projects/exclusions.ts";
import { getProject } from "../domain/projects/projects.ts";
import { projectQuestionScope } from "../domain/projects/questions.ts";
import { groupQuestions } from "../domain/projects/prescreen-report.ts";

const projectScope = async (db: Db, projectId: string): Promise<QuestionScope> => {
  await getProject(db, projectId);
  return { kind: "project", projectId };
};

export function projectPartRoutes(api: Api) {
  // ---- pre-screen questions
  // the question choices of the Prescreen Data dialog (their values are the report's questionIndex)
  api.handle(groupQuestionsCall, async ({ db, params }) => {
    const list = await groupQuestions(db, params.projectId);
    return list.map(({ value, label, projectId, projectCode, questionId }) => ({
      value,
      label,
      projectId,
      projectCode,
      questionId,
    }));
  });

  api.handle(
    P.listProjectQuestions,
    async ({ db, params }) => listQuestions(db, await projectScope(db, params.projectId)),
  );

  api.handle(P.addProjectQuestion, async ({ ctx, db, body: raw }) => {
    // from the library: copy a temporary question into the project
    if (raw.questionId && !raw.questionTitle) {
      const { projectId, questionId } = parseWith(ProjectQuestionCopy, raw);
      const scope = await projectScope(db, projectId);
      const source = await getQuestion(db, TEMP, questionId);
      const record = await createQuestion(ctx, {
        ...parseWith(QuestionForm, source),
        scope,
        libraryQuestionId: source._id,
      });
      return answer(record, "Question added successfully");
    }
    const projectId = parseWith(
      v.object({
        projectId: v.pipe(v.optional(v.string(), ""), v.regex(/^[0-9a-f]{24}$/, "Project is required")),
      }),
      raw,
    ).projectId;
    const scope = await projectScope(db, projectId);
    return answer(
      await createQuestion(ctx, { ...parseWith(QuestionForm, raw), scope }),
      "Question added successfully",
    );
  });

  api.handle(P.reorderProjectQuestions, async ({ ctx, db, params, body }) =>
    answer(
      await reorderQuestions(ctx, { scope: await projectScope(db, params.id), ids: body.ids }),
      "Question order saved",
    ));

  api.handle(P.updateProjectQuestion, async ({ ctx, db, params, body: raw }) => {
    const questionId = params.questionId;
    const scope = await projectQuestionScope(db, questionId);
    const { projectId: _ignored, ...rest } = raw;
    const { record, deleted } = await updateQuestion(ctx, {
      ...parseWith(QuestionUpdate, rest),
      scope,
      id: questionId,
    });
    return answer(record, deleted ? "Question deleted successfully" : "Question updated successfully");
  });

  // ---- quotas
  api.handle(P.listQuotasCall, ({ db, params }) => listQuotas(db, params.projectId));

  api.handle(
    P.addQuotaCall,
    async ({ ctx, params, body }) =>
      answer(
        await addQuota(ctx, { projectId: params.projectId, qualificationId: body.quotaId }),
        "Quota added successfully",
      ),
  );

  api.handle(P.updateQuotaCall, async ({ ctx, params, body }) => {
    const result = await updateQuota(ctx, { ...body, quotaId: params.quotaId, projectId: params.projectId });
    return answer(result, "isDeleted" in body ? "Quota removed" : "Quota updated successfully");
  });

  api.handle(P.updateQuotaSizesCall, async ({ ctx, params, body }) =>
    answer(
      await updateQuotaSizes(ctx, {
        quotaId: params.quotaId,
        projectId: params.projectId,
        values: body.quotaValue,
      }),
      "Quota sizes saved",
    ));

  // ---- exclusions
  api.handle(P.listExclusionsCall, async ({ db, params, body }) => {
    await getProject(db, params.id);
    return listExclusions(db, params.id, body.search);
  });

  api.handle(P.addExclusionCall, async ({ ctx, db, body }) => {
    await addExclusion(ctx, body);
    return answer(await listExclusions(db, body.projectId), "Exclusion added successfully");
  });

  api.handle(P.updateExclusionCall, async ({ ctx, params, body }) => {
    await updateExclusion(ctx, { ...body, id: params.id });
    return answer(null, "isDeleted" in body ? "Exclusion removed" : "Exclusion updated successfully");
  });
}
