/**
 * Questions (part 2: entity Question). Library (temporary) questions live here now; a project's
 * pre-screen questions are the same rows with a projectId, so every function takes a scope:
 * `{ kind: "temp" }` for the library, `{ kind: "project", projectId }` for a project (later issue).
 */
import type { Deps } from "../../deps.ts";
import type { Selectable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { QuestionsTable } from "../../db/tables/master.ts";
import { newId } from "../../db/ids.ts";
import { invalid, notFound } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import type {
  QuestionForm,
  QuestionOption,
  QuestionType,
  QuestionUpdate,
} from "../../../shared/schemas/library.ts";
import type { QuestionRecord, StoredOption } from "../../../shared/api/library.ts";
import type { Deleted } from "../../../shared/api/contract.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { diffRecord, writeChanges } from "../audit/changes.ts";
import { QUESTION_FIELDS } from "../audit/fields.ts";
import { parseJsonList } from "../common/records.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

const MODULE = "Questions";

export type QuestionScope = { kind: "temp" } | { kind: "project"; projectId: string };
export const TEMP: QuestionScope = { kind: "temp" };

type QuestionRow = Selectable<QuestionsTable>;
export type { QuestionRecord, StoredOption };

function parse<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function questionRecord(r: QuestionRow): QuestionRecord {
  const questionTitle = parse<Record<string, string>>(r.questionTitle, {});
  return {
    _id: r.id,
    projectId: r.projectId,
    isTempQuestion: r.isTempQuestion === 1,
    languageId: r.languageId,
    questionTitle,
    title: questionTitle[r.languageId] ?? Object.values(questionTitle)[0] ?? "",
    questionType: r.questionType as QuestionType,
    questionOption: parse<StoredOption[]>(r.questionOption, []),
    sortOrder: r.sortOrder,
    isActive: r.isActive === 1,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function scoped(db: Db, scope: QuestionScope) {
  const q = db.selectFrom("questions").where("isDeleted", "=", 0);
  return scope.kind === "temp"
    ? q.where("isTempQuestion", "=", 1)
    : q.where("projectId", "=", scope.projectId).where("isTempQuestion", "=", 0);
}

/** The scope's live questions in their order. */
export async function listQuestions(db: Db, scope: QuestionScope): Promise<QuestionRecord[]> {
  const rows = await scoped(db, scope).selectAll().orderBy("sortOrder").orderBy("createdAt").orderBy("id")
    .execute();
  return rows.map(questionRecord);
}

export async function getQuestion(db: Db, scope: QuestionScope, id: string): Promise<QuestionRecord> {
  const row = await scoped(db, scope).selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Question");
  return questionRecord(row);
}

/** Options keep their `_id` across edits (new ones get one), so answers can point at them. */
function storedOptions(options: QuestionOption[]): StoredOption[] {
  const seen = new Set<string>();
  return options.map((o) => {
    const keep = o._id && /^[0-9a-f]{24}$/.test(o._id) && !seen.has(o._id) ? o._id : newId();
    seen.add(keep);
    return { ...o, _id: keep };
  });
}

const titleOf = (q: QuestionForm) => q.questionTitle[q.languageId];

/** An option as the log names it: its title, with the switches that are not at their default. */
function optionText(o: StoredOption): string {
  const off = [
    !o.enable && "disabled",
    !o.formvalidate && "not validated",
    !o.diy && "not DIY",
    !o.local && "not Local",
    o.quota ? `quota ${o.quota}` : "",
  ].filter(Boolean);
  return off.length ? `${o.title} (${off.join(", ")})` : o.title;
}

/** A question as its log diff reads it: the title in its language, the options by their texts. */
async function questionSnapshot(db: Db, id: string) {
  const r = await db.selectFrom("questions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const options = parseJsonList<StoredOption>(r.questionOption);
  const titles = JSON.parse(r.questionTitle || "{}") as Record<string, string>;
  const { [r.languageId]: title = "", ...translations } = titles;
  return {
    ...r,
    questionTitle: title,
    translations: JSON.stringify(translations),
    questionOption: options.map(optionText),
  };
}

/** Where a change is logged: a project's question on the project (its Logs show it), a library one on itself. */
const logRecordOf = (scope: QuestionScope, questionId: string) =>
  scope.kind === "project" ? scope.projectId : questionId;

/** A project's questions changed: the router, which keeps them with the project's settings, must ask the new ones. */
function touched(services: Deps["services"], scope: QuestionScope) {
  if (scope.kind === "project") services.changes.project(scope.projectId);
}

export async function createQuestion(
  ctx: WriteCtx & Pick<Ctx, "services">,
  /** libraryQuestionId: the library question a project's question is copied from (profiles match by it). */
  args: { scope: QuestionScope; libraryQuestionId?: string } & QuestionForm,
): Promise<QuestionRecord> {
  const { db, services, actor, now: clock } = ctx;
  const { scope, libraryQuestionId, ...input } = args;
  const record = await db.transaction().execute(async (trx) => {
    const last = await scoped(trx, scope).select((eb) => eb.fn.max("sortOrder").as("n")).executeTakeFirst();
    const at = dateAt(clock), now = at.toISOString();
    const id = newId(at.getTime());
    await trx.insertInto("questions").values({
      id,
      projectId: scope.kind === "project" ? scope.projectId : null,
      isTempQuestion: scope.kind === "temp" ? 1 : 0,
      languageId: input.languageId,
      questionTitle: JSON.stringify(input.questionTitle),
      questionType: input.questionType,
      questionOption: JSON.stringify(storedOptions(input.questionOption)),
      sortOrder: (Number(last?.n) || 0) + 1,
      isActive: input.isActive ? 1 : 0,
      isDeleted: 0,
      createdAt: now,
      updatedAt: now,
      libraryQuestionId: scope.kind === "project" ? libraryQuestionId ?? null : null,
    }).execute();
    await writeLog(trx, actor, {
      activity: `Created ${scope.kind === "temp" ? "library " : ""}question "${
        titleOf(input)
      }" (${input.questionType})`,
      module: MODULE,
      recordId: logRecordOf(scope, id),
    }, at);
    return getQuestion(trx, scope, id);
  });
  touched(services, scope);
  return record;
}

/** The form, or `{isDeleted: true}` (soft delete). */
export async function updateQuestion(
  ctx: WriteCtx & Pick<Ctx, "services">,
  args: { scope: QuestionScope; id: string } & QuestionUpdate,
): Promise<{ record: QuestionRecord | Deleted; deleted: boolean }> {
  const { db, services, actor, now: clock } = ctx;
  const { scope, id, ...input } = args;
  const out = await db.transaction().execute(async (trx) => {
    const existing = await getQuestion(trx, scope, id);
    const at = dateAt(clock), now = at.toISOString();
    if ("isDeleted" in input && Object.keys(input).length === 1) {
      await trx.updateTable("questions").set({ isDeleted: 1, updatedAt: now }).where("id", "=", id).execute();
      await writeLog(trx, actor, {
        activity: `Deleted question "${existing.title}"`,
        module: MODULE,
        recordId: logRecordOf(scope, id),
      }, at);
      return { record: { _id: id, isDeleted: true as const }, deleted: true };
    }
    const form = input as QuestionForm;
    const before = await questionSnapshot(trx, id);
    await trx.updateTable("questions").set({
      languageId: form.languageId,
      questionTitle: JSON.stringify(form.questionTitle),
      questionType: form.questionType,
      questionOption: JSON.stringify(storedOptions(form.questionOption)),
      isActive: form.isActive ? 1 : 0,
      updatedAt: now,
    }).where("id", "=", id).execute();
    const changes = await diffRecord(trx, QUESTION_FIELDS, before, await questionSnapshot(trx, id));
    await writeChanges(trx, actor, {
      head: `Updated question "${titleOf(form)}" (${form.questionType})`,
      changes,
      module: MODULE,
      recordId: logRecordOf(scope, id),
    }, at);
    return { record: await getQuestion(trx, scope, id), deleted: false };
  });
  touched(services, scope);
  return out;
}

/**
 * New order: the given ids first, in the given order, then any the caller did not list (added
 * meanwhile by someone else) in their current order. Every id must be a live question of the scope.
 */
export async function reorderQuestions(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { scope: QuestionScope; ids: string[] },
): Promise<QuestionRecord[]> {
  const { db, services, actor, now: clock } = ctx;
  const { scope, ids } = input;
  const list = await db.transaction().execute(async (trx) => {
    const current = await listQuestions(trx, scope);
    const known = new Set(current.map((q) => q._id));
    const bad = ids.findIndex((id) => !known.has(id));
    if (bad >= 0) {
      throw invalid(MSG.questionOrderInvalid, [{ path: `ids.${bad}`, message: MSG.questionOrderInvalid }]);
    }
    const listed = new Set(ids);
    const order = [...ids, ...current.filter((q) => !listed.has(q._id)).map((q) => q._id)];
    const at = dateAt(clock), now = at.toISOString();
    for (const [i, id] of order.entries()) {
      const q = current.find((c) => c._id === id)!;
      if (q.sortOrder !== i + 1) {
        await trx.updateTable("questions").set({ sortOrder: i + 1, updatedAt: now }).where("id", "=", id)
          .execute();
      }
    }
    await writeLog(trx, actor, {
      activity: `Reordered ${scope.kind === "temp" ? "library" : "project"} questions`,
      module: MODULE,
      recordId: scope.kind === "project" ? scope.projectId : null,
    }, at);
    return await listQuestions(trx, scope);
  });
  touched(services, scope);
  return list;
}
