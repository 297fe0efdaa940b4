/**
 * What an imported offer becomes in its project, from the provider's questions and quotas and the
 * links staff can correct (provider question -> library qualification, answer -> option):
 * - each quota on ONE question becomes one cell of a project quota on the linked qualification, sized
 *   by the provider's remaining completes: the linked option's cell, or, for a quota over a set of
 *   answers ("18-24 or 25-34", a list of postal codes), one cell over the set (its options, one
 *   group), so the set has one limit and never one per answer;
 * - each quota on SEVERAL questions (an interlocked quota: Toluna sub-quotas with different
 *   QuestionIDs, UniMrkt conditions, Logit Questions[], Circle criteria[]) becomes a cell of an
 *   interlocked project quota on those qualifications (Gender x Age): the cell is the combination,
 *   with per qualification the options any of which qualifies, and the router counts and limits it
 *   like any other cell (migration 0017);
 * - two provider quotas naming the same cell give it the smaller of their limits, never the sum;
 * - each question becomes a pre-screen question whose options carry the linked options' texts, so
 *   the router matches answers to cells by text; an answer the offer does not qualify disqualifies.
 *
 * `planOf` computes this; `applyPlan` writes it to a project, the first time (the import) or again
 * (a mapping correction): then quotas and questions are updated in place, the cells that remain keep
 * their sizes and completes, and a change that would drop counted completes is refused, not made.
 */
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { parseJsonList } from "../common/records.ts";
import { cellId } from "./cells.ts";

/** The provider's questions and quotas as imported (offer_imports.offerData). */
export type OfferData = {
  questions: { id: string; name: string; answers: [string, string][]; allowed: string[] | null }[];
  quotas: {
    quotaId: string;
    remaining: number;
    /** excluded: any answer of the question but these. */
    conditions: { questionId: string; answerIds: string[]; excluded?: boolean }[];
  }[];
  /** The project's pre-screen question row of each provider question. */
  questionRows?: Record<string, string>;
};

/** A provider question's link: its qualification, and each linked answer's option (id and text). */
export type QuestionLink = {
  qualificationId: string;
  options: Map<string, { optionId: string; text: string }>;
};

/** Where a provider quota's cells are: the project quota and the cells (quotaOptionIds) it sizes. */
export type QuotaLink = { quotaId: string; projectQuotaId: string; optionIds: string[] };

export type PlannedCell = {
  quotaOptionId: string;
  quotaSize: number;
  completes: number;
  options?: string[][];
  /** The size is the provider's limit even at 0 (a closed quota), not "no limit". */
  strict?: boolean;
};
export type PlannedQuota = {
  key: string;
  qualificationId: string;
  qualificationIds: string[];
  cells: PlannedCell[];
};
export type PlannedQuestion = {
  questionId: string;
  name: string;
  options: { title: string; formvalidate: boolean }[];
};
export type Plan = {
  quotas: PlannedQuota[];
  /** Provider quota -> the planned quota (by key) and its cells. */
  links: { quotaId: string; key: string; optionIds: string[] }[];
  questions: PlannedQuestion[];
  /** Provider quotas enforced: on one question, interlocked. */
  single: number;
  interlocked: number;
  /** Provider quotas that cannot be enforced: an answer they name is not linked to an option. */
  unlinked: string[];
};

/** The key of a project quota: its qualification, or its qualifications in order (interlocked). */
export const quotaKey = (qualificationIds: string[]) => qualificationIds.join("+");

export function planOf(data: OfferData, links: Map<string, QuestionLink>): Plan {
  // questions of interlocked quotas in the order the provider first names them (Gender x Age)
  const order = new Map<string, number>();
  for (const c of data.quotas.flatMap((q) => q.conditions)) {
    order.has(c.questionId) || order.set(c.questionId, order.size);
  }
  const quotas = new Map<string, PlannedQuota>();
  const plan: Plan = { quotas: [], links: [], questions: [], single: 0, interlocked: 0, unlinked: [] };
  for (const quota of data.quotas) {
    // the same question twice in one quota is OR: its answers join one group; a condition that
    // excludes answers takes every other answer of the question known (linked) here
    const byQuestion = new Map<string, Set<string>>();
    for (const c of quota.conditions) {
      const g = byQuestion.get(c.questionId) ?? new Set<string>();
      const known = [...(links.get(c.questionId)?.options.keys() ?? [])];
      (c.excluded ? known.filter((a) => !c.answerIds.includes(a)) : c.answerIds).forEach((a) => g.add(a));
      byQuestion.set(c.questionId, g);
    }
    const questionIds = [...byQuestion.keys()].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    const groups: { qualificationId: string; optionIds: string[] }[] = [];
    for (const id of questionIds) {
      const link = links.get(id);
      const optionIds = [...new Set([...byQuestion.get(id)!].map((a) => link?.options.get(a)?.optionId))]
        .filter((x): x is string => !!x).sort();
      if (link && optionIds.length) groups.push({ qualificationId: link.qualificationId, optionIds });
    }
    const qualificationIds = groups.map((g) => g.qualificationId);
    if (
      !questionIds.length || groups.length < questionIds.length ||
      new Set(qualificationIds).size < groups.length
    ) {
      plan.unlinked.push(quota.quotaId);
      continue;
    }
    const key = quotaKey(qualificationIds);
    const pq = quotas.get(key) ??
      {
        key,
        qualificationId: qualificationIds[0],
        qualificationIds: groups.length > 1 ? qualificationIds : [],
        cells: [],
      };
    quotas.set(key, pq);
    // one provider quota is one cell with the provider's one limit: over one answer, that option's
    // cell; over a set of answers of one question (OR), one cell over the set; over several
    // questions, the combination (interlocked). Two provider quotas on the same cell: the tighter
    // limit holds (a complete counts for both at the provider).
    const single = groups.length === 1 && groups[0].optionIds.length === 1;
    const id = single ? groups[0].optionIds[0] : cellId(groups.map((g) => g.optionIds));
    const cell = pq.cells.find((c) => c.quotaOptionId === id);
    if (cell) cell.quotaSize = Math.min(cell.quotaSize, quota.remaining);
    else {
      pq.cells.push({
        quotaOptionId: id,
        quotaSize: quota.remaining,
        completes: 0,
        ...(single ? {} : { options: groups.map((g) => g.optionIds) }),
        strict: true,
      });
    }
    plan.links.push({ quotaId: quota.quotaId, key, optionIds: [id] });
    if (groups.length === 1) plan.single++;
    else plan.interlocked++;
  }
  plan.quotas = [...quotas.values()];
  for (const q of data.questions) {
    const link = links.get(q.id);
    const options: PlannedQuestion["options"] = [];
    const seen = new Map<string, number>();
    for (const [answerId, text] of q.answers) {
      const o = link?.options.get(answerId);
      const title = o ? o.text : text;
      const ok = !q.allowed || q.allowed.includes(answerId);
      // answers linked to one option are one option: it qualifies when any of them does
      const at = seen.get(title.trim().toLowerCase());
      if (at !== undefined) {
        options[at].formvalidate ||= ok;
        continue;
      }
      seen.set(title.trim().toLowerCase(), options.length);
      options.push({ title, formvalidate: ok });
    }
    plan.questions.push({ questionId: q.id, name: q.name, options });
  }
  return plan;
}

type ExistingQuota = { id: string; qualificationId: string; qualificationIds: string; quotaValue: string };

/** Why a plan cannot be applied to a project without losing counted completes, or null. */
export async function unsafeChange(
  trx: Db,
  projectId: string,
  plan: Plan,
  previous: QuotaLink[],
): Promise<string | null> {
  const existing = await existingQuotas(trx, previous);
  for (const q of existing) {
    const planned = plan.quotas.find((p) => p.key === keyOf(q));
    for (const c of parseJsonList<PlannedCell>(q.quotaValue)) {
      if (
        (Number(c.completes) || 0) > 0 && !planned?.cells.some((p) => p.quotaOptionId === c.quotaOptionId)
      ) {
        return `a quota cell with ${c.completes} complete${c.completes === 1 ? "" : "s"} would be dropped`;
      }
    }
  }
  // a quota the plan adds must not clash with one staff made on the project by hand
  const ids = new Set(existing.map((q) => q.id));
  const others = await trx.selectFrom("project_quotas").select(["id", "qualificationId", "qualificationIds"])
    .where("projectId", "=", projectId).where("isDeleted", "=", 0).execute();
  for (const o of others) {
    if (!ids.has(o.id) && plan.quotas.some((p) => p.key === keyOf(o))) {
      return "the project has its own quota on the same qualification";
    }
  }
  return null;
}

const keyOf = (q: { qualificationId: string; qualificationIds: string }) => {
  const ids = parseJsonList<string>(q.qualificationIds);
  return ids.length > 1 ? quotaKey(ids) : q.qualificationId;
};

async function existingQuotas(trx: Db, previous: QuotaLink[]): Promise<ExistingQuota[]> {
  const ids = [...new Set(previous.map((l) => l.projectQuotaId).filter(Boolean))];
  if (!ids.length) return [];
  return await trx.selectFrom("project_quotas").select([
    "id",
    "qualificationId",
    "qualificationIds",
    "quotaValue",
  ])
    .where("id", "in", ids).where("isDeleted", "=", 0).execute();
}

/**
 * Writes a plan to a project: quotas (kept by key, cells that remain keep size and completes; new
 * cells sized by the provider; quotas no longer planned removed) and pre-screen questions (updated
 * in place, options keeping their ids by text). Returns the new quota map and question rows.
 * Call `unsafeChange` first when the project may have counted completes.
 */
export async function applyPlan(
  trx: Db,
  input: {
    projectId: string;
    plan: Plan;
    previous: { quotaMap: QuotaLink[]; questionRows: Record<string, string> };
    /** The time stamped on the rows written. */
    stamp: string;
  },
): Promise<{ quotaMap: QuotaLink[]; questionRows: Record<string, string> }> {
  const { projectId, plan, previous, stamp } = input;
  const existing = await existingQuotas(trx, previous.quotaMap);
  const idOf = new Map<string, string>();
  for (const p of plan.quotas) {
    const old = existing.find((q) => keyOf(q) === p.key);
    if (old) {
      const before = parseJsonList<PlannedCell>(old.quotaValue);
      // a cell that remains keeps its size and completes; what it is (options, strict) is the plan's
      const cells = p.cells.map((c) => {
        const b = before.find((x) => x.quotaOptionId === c.quotaOptionId);
        return b ? { ...c, quotaSize: b.quotaSize, completes: b.completes } : c;
      });
      await trx.updateTable("project_quotas").set({ quotaValue: JSON.stringify(cells), updatedAt: stamp })
        .where("id", "=", old.id).execute();
      idOf.set(p.key, old.id);
    } else {
      const id = newId();
      await trx.insertInto("project_quotas").values({
        id,
        projectId,
        qualificationId: p.qualificationId,
        qualificationIds: JSON.stringify(p.qualificationIds),
        quotaValue: JSON.stringify(p.cells),
        createdAt: stamp,
        updatedAt: stamp,
      }).execute();
      idOf.set(p.key, id);
    }
  }
  for (const q of existing) {
    if (!plan.quotas.some((p) => p.key === keyOf(q))) {
      await trx.updateTable("project_quotas").set({ isDeleted: 1, updatedAt: stamp }).where("id", "=", q.id)
        .execute();
    }
  }
  const questionRows: Record<string, string> = {};
  let sortOrder = 1;
  for (const q of plan.questions) {
    const rowId = previous.questionRows[q.questionId];
    const row = rowId
      ? await trx.selectFrom("questions").select(["id", "questionOption"]).where("id", "=", rowId)
        .where("isDeleted", "=", 0).executeTakeFirst()
      : undefined;
    const before = parseJsonList<{ _id: string; title: string }>(row?.questionOption);
    const options = JSON.stringify(q.options.map((o) => ({
      _id: before.find((b) => b.title === o.title)?._id ?? newId(),
      title: o.title,
      enable: true,
      // an answer the offer does not qualify ends the session as a pre-screen terminate
      formvalidate: o.formvalidate,
      diy: true,
      local: true,
      quota: 0,
    })));
    if (row) {
      await trx.updateTable("questions").set({ questionOption: options, updatedAt: stamp }).where(
        "id",
        "=",
        row.id,
      )
        .execute();
      questionRows[q.questionId] = row.id;
      sortOrder++;
      continue;
    }
    const id = newId();
    await trx.insertInto("questions").values({
      id,
      projectId,
      isTempQuestion: 0,
      languageId: "en",
      questionTitle: JSON.stringify({ en: q.name }),
      questionType: "RADIO",
      questionOption: options,
      sortOrder: sortOrder++,
      isActive: 1,
      isDeleted: 0,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    questionRows[q.questionId] = id;
  }
  const quotaMap = plan.links.map((l) => ({
    quotaId: l.quotaId,
    projectQuotaId: idOf.get(l.key)!,
    optionIds: l.optionIds,
  }));
  return { quotaMap, questionRows };
}
