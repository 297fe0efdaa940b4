/**
 * Importing an external offer as a project (part 2, "Add as project"): the offer is read again from
 * its provider (the row the screen sent only names it), then, in ONE transaction, a group project
 * and its child are added through the projects domain with the offer's country, LOI, IR, CPI, end
 * date and remaining completes; each provider question is linked to a library qualification (made
 * the first time, with one option per answer); each single-question quota becomes a project quota
 * on that qualification with a size per answer, and each question a pre-screen question whose
 * options carry the same texts, so the router matches respondents' answers to the quota cells and
 * enforces imported quotas like hand-made ones. Answers outside an offer's qualification are
 * disqualifying options. The same offer imported twice is refused, naming the project.
 */
import * as v from "valibot";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { conflict, DomainError, invalid } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import { insertChildProject, insertGroupProject } from "../projects/create.ts";
import { type Caller, type Clock, dateAt, MODULE, projectChanged } from "../projects/projects.ts";
import { ChildProject, GroupProject } from "../../../shared/schemas/project.ts";
import { PROVIDER_NAMES, type ProviderKey } from "../../../shared/schemas/providers.ts";
import type { ImportResult, OfferQuota } from "../../../shared/api/providers.ts";
import type { Offer, ProviderAdapter } from "../../providers/types.ts";
import { countryByCode } from "../lookups/geo.ts";

const DAY = 86_400_000;

/** Where a provider quota's cells are: the project quota and the options it sizes. */
export type QuotaLink = { quotaId: string; projectQuotaId: string; optionIds: string[] };

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

/** The library qualification linked to a provider question (made, or grown by new answers): answer id -> option id. */
async function linkQuestion(trx: Db, provider: ProviderKey, q: Question, stamp: string) {
  const found = await trx.selectFrom("provider_questions").selectAll().where("provider", "=", provider)
    .where("questionId", "=", q.id).executeTakeFirst();
  const live = found &&
    await trx.selectFrom("qualifications").select("id").where("id", "=", found.qualificationId)
      .where("isDeleted", "=", 0).executeTakeFirst();
  let qualificationId: string;
  let links: { answerId: string; optionId: string }[] = [];
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
    // a link whose option staff deleted is made again
    links = (JSON.parse(found.answers) as typeof links).filter((l) => options.has(l.optionId));
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
  let order = links.length;
  for (const [answerId, text] of q.answers) {
    if (links.some((l) => l.answerId === answerId)) continue;
    const optionId = newId();
    await trx.insertInto("qualification_options").values({
      id: optionId,
      qualificationId,
      text: text.slice(0, 200),
      subText: answerId === text ? "" : `${PROVIDER_NAMES[provider]} answer ${answerId}`,
      isActive: 1,
      isDeleted: 0,
      sortOrder: order++,
    }).execute();
    links.push({ answerId, optionId });
  }
  if (found) {
    await trx.updateTable("provider_questions").set({
      qualificationId,
      answers: JSON.stringify(links),
      updatedAt: stamp,
    })
      .where("id", "=", found.id).execute();
  } else {
    await trx.insertInto("provider_questions").values({
      id: newId(),
      provider,
      questionId: q.id,
      qualificationId,
      answers: JSON.stringify(links),
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
  }
  const texts = new Map(
    (await trx.selectFrom("qualification_options").select(["id", "text"]).where(
      "qualificationId",
      "=",
      qualificationId,
    )
      .execute()).map((o) => [o.id, o.text]),
  );
  return {
    qualificationId,
    options: links.map((l) => ({ ...l, text: texts.get(l.optionId) ?? l.answerId })),
  };
}

/** Quotas the router can enforce: one question each (interlocked ones are the provider's to count). */
const singleQuestion = (q: OfferQuota) => q.conditions.length === 1;

export async function importOffer(
  db: Db,
  caller: Caller,
  adapter: ProviderAdapter,
  input: { surveyId: string; clientId: string },
  now: Clock = Date.now,
): Promise<ImportResult> {
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
      trx,
      caller,
      v.parse(GroupProject, {
        projectName: name,
        clientId: input.clientId,
        userId: caller.userId,
        averageLOI: String(offer.loi),
        ir: String(offer.ir),
        projectDescription: `Imported from ${label}, survey ${offer.surveyId}`,
      }),
      now,
    );
    const child = await insertChildProject(
      trx,
      caller,
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
      now,
    );

    // questions -> library qualifications; quotas -> project quotas; each question asked at entry
    const quotaLinks: QuotaLink[] = [];
    let sortOrder = 1;
    for (const q of questions) {
      const { qualificationId, options } = await linkQuestion(trx, provider, q, stamp);
      const optionOf = new Map(options.map((o) => [o.answerId, o]));
      const sizes = new Map<string, number>();
      for (const quota of offer.quotas.filter(singleQuestion)) {
        const c = quota.conditions[0];
        if (c.questionId !== q.id) continue;
        const ids = c.answerIds.map((a) => optionOf.get(a)?.optionId).filter((x): x is string => !!x);
        for (const id of ids) sizes.set(id, (sizes.get(id) ?? 0) + quota.remaining);
        quotaLinks.push({ quotaId: quota.quotaId, projectQuotaId: "", optionIds: ids });
      }
      if (sizes.size) {
        const projectQuotaId = newId();
        await trx.insertInto("project_quotas").values({
          id: projectQuotaId,
          projectId: child._id,
          qualificationId,
          quotaValue: JSON.stringify(
            [...sizes].map(([quotaOptionId, quotaSize]) => ({ quotaOptionId, quotaSize, completes: 0 })),
          ),
          createdAt: stamp,
          updatedAt: stamp,
        }).execute();
        for (const l of quotaLinks) if (!l.projectQuotaId) l.projectQuotaId = projectQuotaId;
      }
      await trx.insertInto("questions").values({
        id: newId(),
        projectId: child._id,
        isTempQuestion: 0,
        languageId: "en",
        questionTitle: JSON.stringify({ en: q.name }),
        questionType: "RADIO",
        questionOption: JSON.stringify(options.map((o) => ({
          _id: newId(),
          title: o.text,
          enable: true,
          // an answer the offer does not qualify ends the session as a pre-screen terminate
          formvalidate: !q.allowed || q.allowed.has(o.answerId),
          diy: true,
          local: true,
          quota: 0,
        }))),
        sortOrder: sortOrder++,
        isActive: 1,
        isDeleted: 0,
        createdAt: stamp,
        updatedAt: stamp,
      }).execute();
    }
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
      quotaMap: JSON.stringify(quotaLinks.filter((l) => l.projectQuotaId)),
      createdBy: caller.userId || null,
      createdAt: stamp,
      updatedAt: stamp,
      lastCheckedAt: stamp,
    }).execute();
    const enforced = quotaLinks.filter((l) => l.projectQuotaId).length;
    const interlocked = offer.quotas.length - offer.quotas.filter(singleQuestion).length;
    await writeLog(trx, caller.actor, {
      activity:
        `Imported ${label} survey ${offer.surveyId} as ${child.projectCode}: CPI ${offer.cpi.toFixed(2)}, ` +
        `${offer.remaining} completes, ${enforced} quota${enforced === 1 ? "" : "s"} enforced` +
        (interlocked ? ` (${interlocked} interlocked left to the provider)` : "") +
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
  projectChanged(result.projectId, result.groupProjectId);
  return result;
}
