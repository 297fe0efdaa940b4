/** Child project tabs: pre-screen questions, quotas, exclusions (part 1 section 7, part 2 project-level calls). */
import * as v from "valibot";
import { searchTerm } from "../../shared/list.ts";
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body, idParam, parseWith } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import type { Ctx } from "../http/context.ts";
import {
  ExclusionForm,
  ExclusionUpdate,
  ProjectQuestionCopy,
  QuotaAdd,
  QuotaSizes,
  QuotaUpdate,
} from "../../shared/schemas/project.ts";
import { QuestionForm, QuestionReorder, QuestionUpdate } from "../../shared/schemas/library.ts";
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

const projectScope = async (c: Ctx, projectId: string): Promise<QuestionScope> => {
  await getProject(c.get("deps").db, projectId);
  return { kind: "project", projectId };
};

export function projectPartRoutes(api: Api) {
  // ---- pre-screen questions
  // the question choices of the Prescreen Data dialog (their values are the report's questionIndex)
  api.get("/admin/project/questions/group/:projectId", async (c) => {
    const list = await groupQuestions(c.get("deps").db, idParam(c, "Project", "projectId"));
    return ok(
      c,
      list.map(({ value, label, projectId, projectCode, questionId }) => ({
        value,
        label,
        projectId,
        projectCode,
        questionId,
      })),
    );
  });

  api.get("/admin/project/questions/:projectId", async (c) => {
    const projectId = idParam(c, "Project", "projectId");
    return ok(c, await listQuestions(c.get("deps").db, await projectScope(c, projectId)));
  });

  api.post("/admin/project/question/add", async (c) => {
    const raw = await body(c, v.record(v.string(), v.unknown()));
    const db = c.get("deps").db;
    // from the library: copy a temporary question into the project
    if (raw.questionId && !raw.questionTitle) {
      const { projectId, questionId } = parseWith(ProjectQuestionCopy, raw);
      const scope = await projectScope(c, projectId);
      const source = await getQuestion(db, TEMP, questionId);
      const record = await createQuestion(db, actorOf(c), scope, parseWith(QuestionForm, source));
      return ok(c, record, "Question added successfully");
    }
    const projectId = parseWith(
      v.object({
        projectId: v.pipe(v.optional(v.string(), ""), v.regex(/^[0-9a-f]{24}$/, "Project is required")),
      }),
      raw,
    ).projectId;
    const scope = await projectScope(c, projectId);
    return ok(
      c,
      await createQuestion(db, actorOf(c), scope, parseWith(QuestionForm, raw)),
      "Question added successfully",
    );
  });

  api.put("/admin/survey/question/update/all/:id", async (c) => {
    const projectId = idParam(c, "Project");
    const { ids } = await body(c, QuestionReorder);
    return ok(
      c,
      await reorderQuestions(c.get("deps").db, actorOf(c), await projectScope(c, projectId), ids),
      "Question order saved",
    );
  });

  api.put("/admin/survey/question/update/:questionId", async (c) => {
    const db = c.get("deps").db;
    const questionId = idParam(c, "Question", "questionId");
    const scope = await projectQuestionScope(db, questionId);
    const raw = await body(c, v.record(v.string(), v.unknown()));
    const { projectId: _ignored, ...rest } = raw;
    const { record, deleted } = await updateQuestion(
      db,
      actorOf(c),
      scope,
      questionId,
      parseWith(QuestionUpdate, rest),
    );
    return ok(c, record, deleted ? "Question deleted successfully" : "Question updated successfully");
  });

  // ---- quotas
  api.get(
    "/admin/quotas/all/:projectId",
    async (c) => ok(c, await listQuotas(c.get("deps").db, idParam(c, "Project", "projectId"))),
  );

  api.post("/admin/quota/add/:projectId", async (c) => {
    const projectId = idParam(c, "Project", "projectId");
    const { quotaId } = await body(c, QuotaAdd);
    return ok(
      c,
      await addQuota(c.get("deps").db, actorOf(c), projectId, quotaId, c.get("deps").now),
      "Quota added successfully",
    );
  });

  api.put("/admin/quota/update/:quotaId/:projectId", async (c) => {
    const quotaId = idParam(c, "Quota", "quotaId");
    const projectId = idParam(c, "Project", "projectId");
    const patch = await body(c, QuotaUpdate);
    const { db, now } = c.get("deps");
    const result = await updateQuota(db, actorOf(c), quotaId, projectId, patch, now);
    return ok(c, result, "isDeleted" in patch ? "Quota removed" : "Quota updated successfully");
  });

  api.put("/admin/quota/sample/update/:quotaId/:projectId", async (c) => {
    const quotaId = idParam(c, "Quota", "quotaId");
    const projectId = idParam(c, "Project", "projectId");
    const { quotaValue } = await body(c, QuotaSizes);
    return ok(
      c,
      await updateQuotaSizes(c.get("deps").db, actorOf(c), quotaId, projectId, quotaValue, c.get("deps").now),
      "Quota sizes saved",
    );
  });

  // ---- exclusions
  api.post("/admin/project/excluded/:id", async (c) => {
    const projectId = idParam(c, "Project");
    const { search } = await body(c, v.object({ search: searchTerm }));
    await getProject(c.get("deps").db, projectId);
    return ok(c, await listExclusions(c.get("deps").db, projectId, search));
  });

  api.post("/admin/project/exclude/add", async (c) => {
    const input = await body(c, ExclusionForm);
    await addExclusion(c.get("deps").db, actorOf(c), input, c.get("deps").now);
    return ok(c, await listExclusions(c.get("deps").db, input.projectId), "Exclusion added successfully");
  });

  api.put("/admin/project/exclude/update/:id", async (c) => {
    const patch = await body(c, ExclusionUpdate);
    await updateExclusion(c.get("deps").db, actorOf(c), idParam(c, "Exclusion"), patch, c.get("deps").now);
    return ok(c, null, "isDeleted" in patch ? "Exclusion removed" : "Exclusion updated successfully");
  });
}
