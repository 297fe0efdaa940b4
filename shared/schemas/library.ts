/** Library forms (part 2: Library; entities Category, Question, Qualification, Supplier rule; section 5). */
import * as v from "valibot";
import { MSG } from "../messages.ts";
import {
  boolDefault,
  issuePath,
  MAX_COUNT,
  MAX_LEN,
  MAX_MONEY,
  money,
  optionalText,
  recordId,
  requiredChoice,
  requiredText,
  tooLargeMsg,
  tooLongMsg,
  withDeletePatch,
  withStatusPatch,
} from "./common.ts";

// ---------------------------------------------------------------- categories

export const CategoryForm = v.object({
  categoryTitle: requiredText(MSG.categoryTitleRequired, 1, MAX_LEN.name),
  categoryDesc: requiredText(MSG.categoryDescRequired, 1, 2000),
  isActive: boolDefault(true),
});
export type CategoryForm = v.InferOutput<typeof CategoryForm>;
export const CategoryUpdate = withStatusPatch(CategoryForm);
export type CategoryUpdate = v.InferOutput<typeof CategoryUpdate>;

// ---------------------------------------------------------------- questions

export const QUESTION_TYPES = ["TEXT", "RADIO", "DROPDOWN", "CHECKBOX", "MAP"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const DEFAULT_LANGUAGE = "en";
export const QUESTION_TITLE_MIN = 4;
export const MIN_OPTIONS = 2;

/** One answer option with its flags (defaults enable, formvalidate, diy, local true; quota 0). */
export const QuestionOption = v.object({
  _id: v.optional(v.pipe(v.string(), v.maxLength(64, "Unknown option"))),
  title: v.pipe(
    v.optional(v.nullable(v.string(MSG.optionRequired)), ""),
    v.transform((s) => (s ?? "").trim()),
    v.maxLength(MAX_LEN.longName, tooLongMsg("Option", MAX_LEN.longName)),
  ),
  enable: boolDefault(true),
  formvalidate: boolDefault(true),
  diy: boolDefault(true),
  local: boolDefault(true),
  quota: v.pipe(
    v.optional(v.union([v.number(), v.string()], "quota must be a number"), 0),
    v.transform((x) => (typeof x === "string" ? Number(x.trim() || 0) : x)),
    v.check((n) => Number.isFinite(n) && n >= 0, "quota must be a number of 0 or more"),
    v.integer("quota must be a whole number"),
    v.maxValue(MAX_COUNT, tooLargeMsg("quota", MAX_COUNT)),
  ),
});
export type QuestionOption = v.InferOutput<typeof QuestionOption>;

/** The longest question title, in any language. */
export const QUESTION_TITLE_MAX: number = MAX_LEN.longName;
const titleText = v.pipe(
  v.string(MSG.questionNameRequired),
  v.maxLength(QUESTION_TITLE_MAX, tooLongMsg("Question name", QUESTION_TITLE_MAX)),
);

/** Per-language titles `{ en: "...", fr: "..." }`; a plain string is the title in the question's language. */
const QuestionTitle = v.optional(
  v.union(
    [
      titleText,
      v.pipe(
        v.record(v.pipe(v.string(), v.maxLength(16, MSG.languageRequired)), titleText),
        v.check((r) => Object.keys(r).length <= 200, "At most 200 languages"),
      ),
    ],
    MSG.questionNameRequired,
  ),
  "",
);

/** The titles as a map, from a string (the title in `languageId`) or a map; blank titles dropped. */
function titleMap(title: unknown, languageId: string): Record<string, string> {
  const raw = typeof title === "string" ? { [languageId]: title } : (title ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [lang, text] of Object.entries(raw)) {
    const t = typeof text === "string" ? text.trim() : "";
    if (t) out[lang.trim().toLowerCase()] = t;
  }
  return out;
}

export const QuestionForm = v.pipe(
  v.object({
    languageId: v.pipe(
      v.optional(
        v.nullable(v.pipe(v.string(MSG.languageRequired), v.maxLength(16, MSG.languageRequired))),
        DEFAULT_LANGUAGE,
      ),
      v.transform((s) => (s ?? "").trim().toLowerCase() || DEFAULT_LANGUAGE),
      v.regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, MSG.languageRequired),
    ),
    questionTitle: QuestionTitle,
    questionType: requiredChoice(QUESTION_TYPES, MSG.questionTypeRequired),
    questionOption: v.optional(
      v.nullable(
        v.pipe(v.array(QuestionOption, MSG.optionRequired), v.maxLength(1000, "At most 1000 options")),
      ),
      [],
    ),
    /** Project pre-screen questions name their project; library (temporary) questions have none. */
    projectId: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64, MSG.projectRequired)))),
    isActive: boolDefault(true),
  }),
  // Cross-field rules run even when another field failed, so the form shows every message at once:
  // the title in the question's language (en by default) trimmed, at least 4 characters; for
  // non-TEXT types every option titled and at least two options.
  v.rawCheck(({ dataset, addIssue }) => {
    const q = dataset.value as Partial<Record<string, unknown>>;
    if (!q || typeof q !== "object") return;
    const lang = typeof q.languageId === "string" ? q.languageId : DEFAULT_LANGUAGE;
    const title = titleMap(q.questionTitle, lang)[lang] ?? "";
    if (title.length < QUESTION_TITLE_MIN) {
      addIssue({
        message: MSG.questionNameRequired,
        path: issuePath({ questionTitle: { [lang]: title } }, ["questionTitle", lang]),
      });
    }
    // null means no options; anything else that is not a list already failed on its own
    const options = q.questionOption ?? [];
    if (typeof q.questionType !== "string" || q.questionType === "TEXT" || !Array.isArray(options)) return;
    if (!(QUESTION_TYPES as readonly string[]).includes(q.questionType)) return;
    options.forEach((o: { title?: unknown }, i) => {
      if (typeof o?.title !== "string" || !o.title.trim()) {
        addIssue({ message: MSG.optionRequired, path: issuePath(q, ["questionOption", i, "title"]) });
      }
    });
    if (options.length < MIN_OPTIONS) {
      addIssue({ message: MSG.optionsTooFew, path: issuePath(q, ["questionOption"]) });
    }
  }),
  // normalized: the title map; a TEXT question has no options
  v.transform((q) => ({
    ...q,
    questionTitle: titleMap(q.questionTitle, q.languageId),
    questionOption: q.questionType === "TEXT" ? [] : (q.questionOption ?? []),
  })),
);
export type QuestionForm = v.InferOutput<typeof QuestionForm>;

/** Edit: the form, or `{isDeleted: true}` alone. */
export const QuestionUpdate = withDeletePatch(QuestionForm);
export type QuestionUpdate = v.InferOutput<typeof QuestionUpdate>;

/** PUT /admin/question/temp/reorder: question ids in their new order. */
export const QuestionReorder = v.object({
  ids: v.pipe(
    v.array(recordId(MSG.questionOrderInvalid), MSG.questionOrderInvalid),
    v.minLength(1, MSG.questionOrderInvalid),
    v.maxLength(1000, MSG.questionOrderInvalid),
    v.check((ids) => new Set(ids).size === ids.length, MSG.questionOrderInvalid),
  ),
});
export type QuestionReorder = v.InferOutput<typeof QuestionReorder>;

/** MAP questions are typed as text, one option per line. */
export function optionsFromLines(text: string): QuestionOption[] {
  return text.split(/\r?\n/).map((s) => s.trim()).filter(Boolean).map((title) => ({
    title,
    enable: true,
    formvalidate: true,
    diy: true,
    local: true,
    quota: 0,
  }));
}

// ---------------------------------------------------------------- qualifications

export const QualificationOption = v.object({
  _id: v.optional(v.pipe(v.string(), v.maxLength(64, "Unknown option"))),
  text: requiredText(MSG.optionRequired, 1, MAX_LEN.longName, "Option"),
  subText: optionalText(MAX_LEN.longName, "Sub text"),
  isActive: boolDefault(true),
});

/** A key from a name: lower case, words joined by underscores ("Household Income" -> household_income). */
export function qualificationKeyOf(name: string): string {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "").slice(0, 64);
}

export const QualificationForm = v.pipe(
  v.object({
    qualificationName: requiredText(MSG.questionNameRequired, 1, MAX_LEN.name, "Qualification name"),
    qualificationKey: v.pipe(
      optionalText(64, "Qualification key"),
      v.check((s) => s === "" || /^[A-Za-z0-9_]+$/.test(s), MSG.qualificationKeyInvalid),
    ),
    qualificationIcon: requiredText(MSG.questionNameRequired, 1, MAX_LEN.url, "Icon"),
    qualificationOptions: v.pipe(
      v.optional(
        v.nullable(
          v.pipe(v.array(QualificationOption, MSG.optionRequired), v.maxLength(1000, "At most 1000 options")),
        ),
        [],
      ),
      v.transform((o) => o ?? []),
      v.minLength(MIN_OPTIONS, MSG.optionsTooFew),
    ),
    isActive: boolDefault(true),
  }),
  v.transform((q) => ({
    ...q,
    qualificationKey: q.qualificationKey || qualificationKeyOf(q.qualificationName),
  })),
);
export type QualificationForm = v.InferOutput<typeof QualificationForm>;
export const QualificationUpdate = withStatusPatch(QualificationForm);
export type QualificationUpdate = v.InferOutput<typeof QualificationUpdate>;

// ---------------------------------------------------------------- supplier rules

const cpi = (required: string) => money(required, MSG.cpiNotNumber, MAX_MONEY);

export const SupplierRuleForm = v.pipe(
  v.object({
    minSupplierCpi: cpi(MSG.minCpiRequired),
    maxSupplierCpi: cpi(MSG.maxCpiRequired),
    categoryTitle: optionalText(MAX_LEN.name, "Category title"),
    isActive: boolDefault(true),
  }),
  v.forward(
    v.partialCheck(
      [["minSupplierCpi"], ["maxSupplierCpi"]],
      (r) => r.maxSupplierCpi >= r.minSupplierCpi,
      MSG.maxCpiBelowMin,
    ),
    ["maxSupplierCpi"],
  ),
);
export type SupplierRuleForm = v.InferOutput<typeof SupplierRuleForm>;
export const SupplierRuleUpdate = withStatusPatch(SupplierRuleForm);
export type SupplierRuleUpdate = v.InferOutput<typeof SupplierRuleUpdate>;
