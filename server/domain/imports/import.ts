/**
 * Importing an external offer as a project (part 2, "Add as project"): the offer is read again from
 * its provider (the row the screen sent only names it), then, in ONE transaction, a group project
 * and its child are added through the projects domain with the offer's country, LOI, IR, CPI, end
 * date and remaining completes; each provider question is linked to a library qualification (made
 * the first time, with one option per answer; staff correct links on the mappings screen); the
 * quotas (on one question, or interlocked on several) and pre-screen questions are made by
 * `plan.ts`, so the router matches respondents' answers to the quota cells and enforces imported
 * quotas like hand-made ones. Answers outside an offer's qualification are disqualifying options.
 * The same offer imported twice is refused, naming the project.
 */
import * as v from "valibot";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { conflict, DomainError, invalid } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import { insertChildProject, insertGroupProject } from "../projects/create.ts";
import { type Caller, type CallerCtx, dateAt, MODULE } from "../projects/projects.ts";
import type { Ctx } from "../ctx.ts";
import { ChildProject, GroupProject } from "../../../shared/schemas/project.ts";
import { PROVIDER_NAMES, type ProviderKey } from "../../../shared/schemas/providers.ts";
import type { ImportResult } from "../../../shared/api/providers.ts";
import type { Offer, ProviderAdapter } from "../../providers/types.ts";
import { countryByCode } from "../lookups/geo.ts";
import { applyPlan, type OfferData, planOf, type QuestionLink, type QuotaLink } from "./plan.ts";

export type { QuotaLink };

const DAY = 86_400_000;

export const providerLabel = (key: ProviderKey, sandbox: boolean) =>
  PROVIDER_NAMES[key] + (sandbox ? " (Sandbox)" : "");

/** The import of this offer whose project still exists, if any. */
async function existingImport(db: Db, provider: ProviderKey, surveyId: string) {
  return await db.selectFrom("offer_imports as i").innerJoin("projects as p", "p.id", "i.projectId")
    .select(["i.id", "p.projectCode", "p.isDeleted"]).where("i.provider", "=", provider)
    .where("i.surveyId", "=", surveyId).executeTakeFirst();
}

function alreadyImported(provider: ProviderKey, surveyId: string, projectCode: string) {
  return conflict(
    `${PROVIDER_NAMES[provider]} survey ${surveyId} is already imported as project ${projectCode}`,
    [{
      path: "surveyId",
      message: `Already imported as project ${projectCode}`,
    }],
  );
}

type Question = { id: string; name: string; answers: Map<string, string>; allowed: Set<string> | null };

/** Every question the offer targets or sets quotas on, with every answer it names. */
function questionsOf(offer: Offer): Question[] {
  const out = new Map<string, Question>();
  const touch = (id: string, name: string) => {
    let q = out.get(id);
    if (!q) out.set(id, q = { id, name, answers: new Map(), allowed: null });
    if (q.name === id && name !== id) q.name = name;
    return q;
  };
  for (const q of offer.qualifications) {
    const x = touch(q.questionId, q.name);
    q.answerIds.forEach((a, i) => x.answers.set(a, q.answers[i] || a));
    x.allowed = new Set([...(x.allowed ?? []), ...q.answerIds]);
  }
  for (const quota of offer.quotas) {
    for (const c of quota.conditions) {
      const x = touch(c.questionId, c.questionName);
      c.answerIds.forEach((a, i) => x.answers.has(a) || x.answers.set(a, c.answers[i] || a));
    }
  }
  return [...out.values()].filter((q) => q.answers.size > 0);
}

/** A provider question's answer links as stored (optionId null: staff unlinked it). */
export type AnswerLink = { answerId: string; optionId: string | null; text?: string };

/** The library qualification linked to a provider question (made, or grown by new answers). */
async function linkQuestion(
  trx: Db,
  provider: ProviderKey,
  q: Question,
  stamp: string,
): Promise<{ link: QuestionLink; answers: [string, string][] }> {
  const found = await trx.selectFrom("provider_questions").selectAll().where("provider", "=", provider)
    .where("questionId", "=", q.id).executeTakeFirst();
  const live = found &&
    await trx.selectFrom("qualifications").select("id").where("id", "=", found.qualificationId)
      .where("isDeleted", "=", 0).executeTakeFirst();
  let qualificationId: string;
  let links: AnswerLink[] = [];
  if (found && live) {
    qualificationId = found.qualificationId;
    const options = new Set(
      (await trx.selectFrom("qualification_options").select("id").where(
        "qualificationId",
        "=",
        qualificationId,
      )
        .where("isDeleted", "=", 0).execute()).map((o) => o.id),
    );
    // a link whose option staff deleted is made again; one staff unlinked stays unlinked
    links = (JSON.parse(found.answers) as AnswerLink[]).filter((l) =>
      l.optionId === null || options.has(l.optionId)
    );
  } else {
    qualificationId = newId();
    await trx.insertInto("qualifications").values({
      id: qualificationId,
      qualificationName: `${PROVIDER_NAMES[provider]}: ${q.name}`.slice(0, 100),
      qualificationKey: `${provider}_${q.id}`.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 50),
      qualificationIcon: "",
      isActive: 1,
      isDeleted: 0,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
  }
  let order = (await trx.selectFrom("qualification_options").select((eb) => eb.fn.countAll<number>().as("n"))
    .where("qualificationId", "=", qualificationId).executeTakeFirst())?.n ?? 0;
  for (const [answerId, text] of q.answers) {
    const known = links.find((l) => l.answerId === answerId);
    if (known) {
      known.text ||= text;
      continue;
    }
    const optionId = newId();
    await trx.insertInto("qualification_options").values({
      id: optionId,
      qualificationId,
      text: text.slice(0, 200),
      subText: answerId === text ? "" : `${PROVIDER_NAMES[provider]} answer ${answerId}`,
      isActive: 1,
      isDeleted: 0,
      sortOrder: Number(order++),
    }).execute();
    links.push({ answerId, optionId, text });
  }
  const questionName = q.name !== q.id ? q.name : found?.questionName ?? "";
  if (found) {
    await trx.updateTable("provider_questions").set({
      qualificationId,
      questionName,
      answers: JSON.stringify(links),
      updatedAt: stamp,
    }).where("id", "=", found.id).execute();
  } else {
    await trx.insertInto("provider_questions").values({
      id: newId(),
      provider,
      questionId: q.id,
      questionName,
      qualificationId,
      answers: JSON.stringify(links),
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
  }
  const link = await questionLink(trx, qualificationId, links);
  // every answer the question is known by (this offer's first), so the pre-screen offers them all
  const answers = links.map((l): [string, string] => [
    l.answerId,
    q.answers.get(l.answerId) ?? l.text ?? link.options.get(l.answerId)?.text ?? l.answerId,
  ]);
  const mine = new Set(q.answers.keys());
  return {
    link,
    answers: [...answers.filter((a) => mine.has(a[0])), ...answers.filter((a) => !mine.has(a[0]))],
  };
}

/** The links of a question with the linked options' texts (what answers are matched by). */
export async function questionLink(
  trx: Db,
  qualificationId: string,
  links: AnswerLink[],
): Promise<QuestionLink> {
  const texts = new Map(
    (await trx.selectFrom("qualification_options").select(["id", "text"]).where(
      "qualificationId",
      "=",
      qualificationId,
    )
      .where("isDeleted", "=", 0).execute()).map((o) => [o.id, o.text]),
  );
  const options = new Map<string, { optionId: string; text: string }>();
  for (const l of links) {
    const text = l.optionId ? texts.get(l.optionId) : undefined;
    if (l.optionId && text !== undefined) options.set(l.answerId, { optionId: l.optionId, text });
  }
  return { qualificationId, options };
}

/** What the import keeps of the offer to rebuild its quotas after a mapping correction. */
function offerDataOf(
  offer: Offer,
  questions: Question[],
  answers: Map<string, [string, string][]>,
): OfferData {
  return {
    questions: questions.map((q) => ({
      id: q.id,
      name: q.name,
      answers: answers.get(q.id) ?? [...q.answers],
      allowed: q.allowed ? [...q.allowed] : null,
    })),
    quotas: offer.quotas.map((q) => ({
      quotaId: q.quotaId,
      remaining: q.remaining,
      conditions: q.conditions.map((c) => ({
        questionId: c.questionId,
        answerIds: c.answerIds,
        ...(c.excluded ? { excluded: true } : {}),
      })),
    })),
  };
}

export async function importOffer(
  ctx: CallerCtx & Pick<Ctx, "services">,
  args: { adapter: ProviderAdapter } & { surveyId: string; clientId: string },
): Promise<ImportResult> {
  const { db, services, now } = ctx;
  const caller: Caller = ctx;
  const { adapter, ...input } = args;
  const provider = adapter.key;
  const before = await existingImport(db, provider, input.surveyId);
  if (before && !before.isDeleted) throw alreadyImported(provider, input.surveyId, before.projectCode);
  const offer = await adapter.getOffer(input.surveyId);
  if (!offer) {
    throw new DomainError(
      "notFound",
      `${PROVIDER_NAMES[provider]} does not offer survey ${input.surveyId} (any more)`,
    );
  }
  const country = countryByCode(offer.countryCode)?.code;
  if (!country) {
    throw invalid(
      `${
        PROVIDER_NAMES[provider]
      } survey ${offer.surveyId} is for country "${offer.countryCode}", which is not in the country list`,
    );
  }
  const at = dateAt(now), stamp = at.toISOString(), today = stamp.slice(0, 10);
  const endDate = offer.endDate && offer.endDate >= today
    ? offer.endDate
    : new Date(at.getTime() + 30 * DAY).toISOString().slice(0, 10);
  const label = providerLabel(provider, offer.sandbox);
  const name = `${offer.title}`.slice(0, 200).padEnd(4, ".");
  const questions = questionsOf(offer);

  const result = await db.transaction().execute(async (trx) => {
    const again = await existingImport(trx, provider, input.surveyId);
    if (again && !again.isDeleted) throw alreadyImported(provider, input.surveyId, again.projectCode);
    if (again) await trx.deleteFrom("offer_imports").where("id", "=", again.id).execute();

    const group = await insertGroupProject(
      { ...ctx, db: trx },
      v.parse(GroupProject, {
        projectName: name,
        clientId: input.clientId,
        userId: caller.userId,
        averageLOI: String(offer.loi),
        ir: String(offer.ir),
        projectDescription: `Imported from ${label}, survey ${offer.surveyId}`,
      }),
    );
    const child = await insertChildProject(
      { ...ctx, db: trx },
      v.parse(ChildProject, {
        projectName: name,
        parentProjectId: group._id,
        clientId: input.clientId,
        wid: offer.surveyId,
        countryId: country,
        averageLOI: offer.loi,
        ir: offer.ir,
        sampleSize: offer.remaining,
        respondentClickQuota: 0,
        cpi: offer.cpi,
        startDate: today,
        endDate,
        projectDescription: `Imported from ${label}, survey ${offer.surveyId}`,
      }),
    );

    // questions -> library qualifications; quotas -> project quotas; each question asked at entry
    const links = new Map<string, QuestionLink>();
    const answers = new Map<string, [string, string][]>();
    for (const q of questions) {
      const made = await linkQuestion(trx, provider, q, stamp);
      links.set(q.id, made.link);
      answers.set(q.id, made.answers);
    }
    const data = offerDataOf(offer, questions, answers);
    const plan = planOf(data, links);
    const made = await applyPlan(trx, {
      projectId: child._id,
      plan,
      previous: { quotaMap: [], questionRows: {} },
      stamp,
    });
    await trx.updateTable("projects").set({
      provider,
      providerSurveyId: offer.surveyId,
      isPreScreen: questions.length ? 1 : 0,
      updatedAt: stamp,
    }).where("id", "in", [group._id, child._id]).execute();
    await trx.insertInto("offer_imports").values({
      id: newId(at.getTime()),
      provider,
      surveyId: offer.surveyId,
      groupProjectId: group._id,
      projectId: child._id,
      title: offer.title.slice(0, 500),
      countryCode: country,
      cpi: offer.cpi,
      remaining: offer.remaining,
      loi: offer.loi,
      ir: offer.ir,
      endDate: offer.endDate,
      offerState: offer.remaining > 0 ? "open" : "closed",
      sandbox: offer.sandbox ? 1 : 0,
      rawIds: JSON.stringify(offer.rawIds),
      quotaMap: JSON.stringify(made.quotaMap),
      offerData: JSON.stringify({ ...data, questionRows: made.questionRows }),
      createdBy: caller.userId || null,
      createdAt: stamp,
      updatedAt: stamp,
      lastCheckedAt: stamp,
    }).execute();
    const enforced = plan.single + plan.interlocked;
    await writeLog(trx, caller.actor, {
      activity:
        `Imported ${label} survey ${offer.surveyId} as ${child.projectCode}: CPI ${offer.cpi.toFixed(2)}, ` +
        `${offer.remaining} completes, ${enforced} quota${enforced === 1 ? "" : "s"} enforced` +
        (plan.interlocked ? ` (${plan.interlocked} interlocked)` : "") +
        (plan.unlinked.length ? ` (${plan.unlinked.length} on unlinked answers left to the provider)` : "") +
        `, ${questions.length} pre-screen question${questions.length === 1 ? "" : "s"}`,
      module: MODULE,
      recordId: child._id,
    }, at);
    return {
      projectId: child._id,
      projectCode: child.projectCode,
      groupProjectId: group._id,
      groupProjectCode: group.projectCode,
      quotas: enforced,
      qualifications: questions.length,
    };
  });
  services.changes.project(result.projectId, result.groupProjectId);
  return result;
}
