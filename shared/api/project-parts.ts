/**
 * The child project's tabs (part 1 section 7, part 2 project-level calls): its pre-screen
 * questions, quotas and exclusions; the calls and what they answer.
 */
import * as v from "valibot";
import { defineCall, type Deleted, returns } from "./contract.ts";
import { searchTerm } from "../list.ts";
import { ExclusionForm, ExclusionUpdate, QuotaAdd, QuotaSizes, QuotaUpdate } from "../schemas/project.ts";
import { type QuestionOption, QuestionReorder, type QuestionType } from "../schemas/library.ts";

// ---------------------------------------------------------------- pre-screen questions

/** A question option as stored (its id is what answers and quotas refer to). */
export type StoredOption = QuestionOption & { _id: string };

/** A pre-screen question of a project (or of the library's temporary questions). */
export type QuestionRecord = {
  _id: string;
  projectId: string | null;
  isTempQuestion: boolean;
  languageId: string;
  questionTitle: Record<string, string>;
  /** The title in the question's language (for lists and pickers). */
  title: string;
  questionType: QuestionType;
  questionOption: StoredOption[];
  sortOrder: number;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

export const listProjectQuestions = defineCall({
  method: "GET",
  path: "/admin/project/questions/:projectId",
  ids: { projectId: "Project" },
  result: returns<QuestionRecord[]>(),
});
/**
 * Adds a question to a project: a whole question form with its `projectId`, or `{ projectId,
 * questionId }` to copy a library (temporary) question.
 */
export const addProjectQuestion = defineCall({
  method: "POST",
  path: "/admin/project/question/add",
  body: v.record(v.string(), v.unknown()),
  result: returns<QuestionRecord>(),
});
export const reorderProjectQuestions = defineCall({
  method: "PUT",
  path: "/admin/survey/question/update/all/:id",
  ids: { id: "Project" },
  body: QuestionReorder,
  result: returns<QuestionRecord[]>(),
});
/** Edits (or with `isDeleted`, removes) a project's question; a `projectId` in the body is ignored. */
export const updateProjectQuestion = defineCall({
  method: "PUT",
  path: "/admin/survey/question/update/:questionId",
  ids: { questionId: "Question" },
  body: v.record(v.string(), v.unknown()),
  result: returns<QuestionRecord | Deleted>(),
});

// ---------------------------------------------------------------- quotas

export type QuotaCell = { quotaOptionId: string; quotaSize: number; completes: number };
export type QualificationOptionRecord = { _id: string; text: string; subText: string; isActive: boolean };

/** A quota of a project: the qualification's options, each with its size, percent and completes. */
export type ProjectQuota = {
  _id: string;
  projectId: string;
  quotaId: {
    _id: string;
    qualificationName: string;
    qualificationOptions: QualificationOptionRecord[];
  };
  quotaValue: QuotaCell[];
  options: {
    quotaOptionId: string;
    text: string;
    selected: boolean;
    quotaSize: number;
    completes: number;
    percent: number;
    /** Respondents in the client survey now who fill the cell, held against its size (router holds). */
    held?: number;
  }[];
  total: number;
  sampleSize: number;
  totalMatchesSampleSize: boolean;
  /**
   * An interlocked quota (an import's quota on several questions): the qualifications it combines,
   * in order. Its options are then its combinations ("Female x 18-34"), all chosen; sizes can be set.
   */
  interlocked?: string[];
  /**
   * A provider quota on one qualification whose cells each cover a set of its options ("18-24 or
   * 25-34": one size for the set). Its options are those cells, all chosen; sizes can be set.
   */
  grouped?: boolean;
};

export const listQuotasCall = defineCall({
  method: "GET",
  path: "/admin/quotas/all/:projectId",
  ids: { projectId: "Project" },
  result: returns<ProjectQuota[]>(),
});
export const addQuotaCall = defineCall({
  method: "POST",
  path: "/admin/quota/add/:projectId",
  ids: { projectId: "Project" },
  body: QuotaAdd,
  result: returns<ProjectQuota[]>(),
});
export const updateQuotaCall = defineCall({
  method: "PUT",
  path: "/admin/quota/update/:quotaId/:projectId",
  ids: { quotaId: "Quota", projectId: "Project" },
  body: QuotaUpdate,
  result: returns<ProjectQuota[]>(),
});
export const updateQuotaSizesCall = defineCall({
  method: "PUT",
  path: "/admin/quota/sample/update/:quotaId/:projectId",
  ids: { quotaId: "Quota", projectId: "Project" },
  body: QuotaSizes,
  result: returns<ProjectQuota[]>(),
});

// ---------------------------------------------------------------- exclusions

/** Another project whose respondents are kept out (or, with isExcluded off, only they let in). */
export type Exclusion = {
  _id: string;
  projectId: string;
  excludedProjectId: string;
  projectCode: string;
  projectName: string;
  isExcluded: boolean;
  complete: boolean;
  terminate: boolean;
  overQuota: boolean;
  dropout: boolean;
  createdAt: string;
};

export const listExclusionsCall = defineCall({
  method: "POST",
  path: "/admin/project/excluded/:id",
  ids: { id: "Project" },
  body: v.object({ search: searchTerm }),
  result: returns<Exclusion[]>(),
});
/** Adds an exclusion; answers the project's exclusions. */
export const addExclusionCall = defineCall({
  method: "POST",
  path: "/admin/project/exclude/add",
  body: ExclusionForm,
  result: returns<Exclusion[]>(),
});
export const updateExclusionCall = defineCall({
  method: "PUT",
  path: "/admin/project/exclude/update/:id",
  ids: { id: "Exclusion" },
  body: ExclusionUpdate,
  result: returns<null>(),
});
