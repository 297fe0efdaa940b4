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

  api.handle(P.addProjectQuestion, async ({ deps, db, body: raw, actor }) => {
    // from the library: copy a temporary question into the project
    if (raw.questionId && !raw.questionTitle) {
      const { projectId, questionId } = parseWith(ProjectQuestionCopy, raw);
      const scope = await projectScope(db, projectId);
      const source = await getQuestion(db, TEMP, questionId);
      const record = await createQuestion(deps, actor(), scope, parseWith(QuestionForm, source), deps.now);
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
      await createQuestion(deps, actor(), scope, parseWith(QuestionForm, raw), deps.now),
      "Question added successfully",
    );
  });

  api.handle(P.reorderProjectQuestions, async ({ deps, db, params, body, actor }) =>
    answer(
      await reorderQuestions(deps, actor(), await projectScope(db, params.id), body.ids, deps.now),
      "Question order saved",
    ));

  api.handle(P.updateProjectQuestion, async ({ deps, db, params, body: raw, actor }) => {
    const questionId = params.questionId;
    const scope = await projectQuestionScope(db, questionId);
    const { projectId: _ignored, ...rest } = raw;
    const { record, deleted } = await updateQuestion(
      deps,
      actor(),
      scope,
      questionId,
      parseWith(QuestionUpdate, rest),
      deps.now,
    );
    return answer(record, deleted ? "Question deleted successfully" : "Question updated successfully");
  });

  // ---- quotas
  api.handle(P.listQuotasCall, ({ db, params }) => listQuotas(db, params.projectId));

  api.handle(
    P.addQuotaCall,
    async ({ deps, params, body, actor }) =>
      answer(
        await addQuota(deps, actor(), params.projectId, body.quotaId, deps.now),
        "Quota added successfully",
      ),
  );

  api.handle(P.updateQuotaCall, async ({ deps, params, body, actor }) => {
    const result = await updateQuota(deps, actor(), params.quotaId, params.projectId, body, deps.now);
    return answer(result, "isDeleted" in body ? "Quota removed" : "Quota updated successfully");
  });

  api.handle(P.updateQuotaSizesCall, async ({ deps, params, body, actor }) =>
    answer(
      await updateQuotaSizes(deps, actor(), params.quotaId, params.projectId, body.quotaValue, deps.now),
      "Quota sizes saved",
    ));

  // ---- exclusions
  api.handle(P.listExclusionsCall, async ({ db, params, body }) => {
    await getProject(db, params.id);
    return listExclusions(db, params.id, body.search);
  });

  api.handle(P.addExclusionCall, async ({ db, deps, body, actor }) => {
    await addExclusion(deps, actor(), body, deps.now);
    return answer(await listExclusions(db, body.projectId), "Exclusion added successfully");
  });

  api.handle(P.updateExclusionCall, async ({ deps, params, body, actor }) => {
    await updateExclusion(deps, actor(), params.id, body, deps.now);
    return answer(null, "isDeleted" in body ? "Exclusion removed" : "Exclusion updated successfully");
  });
}
