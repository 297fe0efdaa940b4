/**
 * The provider answer <-> library option mappings (APIMANAGER): each provider question with the
 * library qualification it is linked to and, per answer, the option (or none). A correction
 * (another qualification, another option, or unlinked) is kept for future imports and applied to
 * the provider's imported projects that are not finished: their quotas (single and interlocked) and
 * pre-screen questions are rebuilt from the offer as imported with the new links, where that drops
 * no counted complete; a project where it would is left as it was, and the answer says which and why.
 * Every correction is in the system log, and each project's change in the project's log.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type AnyQB, inFilter, listSpecOf } from "../../db/list.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import { parseJsonList } from "../common/records.ts";
import { dateAt, MODULE as PROJECTS } from "../projects/projects.ts";
import { normText } from "../router/config.ts";
import { isFinishedStatus } from "../../../shared/status.ts";
import { PROVIDER_NAMES, type ProviderKey } from "../../../shared/schemas/providers.ts";
import type { MappingUpdateBody } from "../../../shared/schemas/providers.ts";
import { type MappingChange, mappingsList, type ProviderMapping } from "../../../shared/api/providers.ts";
import { type AnswerLink, questionLink } from "./import.ts";
import {
  applyPlan,
  type OfferData,
  planOf,
  type QuestionLink,
  type QuotaLink,
  unsafeChange,
} from "./plan.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

const MODULE = "Api Projects";

export function mappingsQuery(db: Db): AnyQB {
  return db.selectFrom("provider_questions as m").leftJoin("qualifications as q", "q.id", "m.qualificationId")
    .select([
      "m.id",
      "m.provider",
      "m.questionId",
      "m.questionName",
      "m.qualificationId",
      "m.answers",
      "m.updatedAt",
      "q.qualificationName",
      sql<string>`(SELECT json_group_array(json_object('_id', o.id, 'text', o.text)) FROM (
        SELECT id, text FROM qualification_options WHERE qualificationId = m.qualificationId AND isDeleted = 0
        ORDER BY sortOrder, id) o)`.as("options"),
      sql<number>`(SELECT count(*) FROM offer_imports i WHERE i.provider = m.provider AND EXISTS (
        SELECT 1 FROM json_each(i.offerData, '$.questions') j WHERE json_extract(j.value, '$.id') = m.questionId))`
        .as("imports"),
    ]);
}

export const mappingsSpec = listSpecOf(mappingsList, {
  search: ["m.questionId", "m.questionName", "q.qualificationName"],
  filters: {
    provider: inFilter("m.provider", (s) => s.trim().toLowerCase()),
    qualificationId: inFilter("m.qualificationId"),
  },
  sorts: { questionId: "m.questionId", updatedAt: "m.updatedAt" },
  defaultSort: [["m.provider", "asc"], ["m.questionId", "asc"], ["m.id", "asc"]],
});

type Row = {
  id: string;
  provider: string;
  questionId: string;
  questionName: string;
  qualificationId: string;
  answers: string;
  updatedAt: string;
  qualificationName: string | null;
  options: string;
  imports: number;
};

export function mappingItem(r: Row): ProviderMapping {
  const options = parseJsonList<{ _id: string; text: string }>(r.options);
  const textOf = new Map(options.map((o) => [o._id, o.text]));
  const name = r.qualificationName ?? "(deleted qualification)";
  return {
    _id: r.id,
    provider: r.provider as ProviderKey,
    providerName: PROVIDER_NAMES[r.provider as ProviderKey] ?? r.provider,
    questionId: r.questionId,
    // before names were kept, the qualification made for the question says it
    questionName: r.questionName || name.replace(/^[^:]+: /, ""),
    qualificationId: r.qualificationId,
    qualificationName: name,
    answers: parseJsonList<AnswerLink>(r.answers).map((l) => {
      const optionText = l.optionId ? textOf.get(l.optionId) ?? null : null;
      return {
        answerId: l.answerId,
        answerText: l.text || optionText || l.answerId,
        optionId: optionText === null ? null : l.optionId,
        optionText,
      };
    }),
    options,
    imports: Number(r.imports) || 0,
    updatedAt: r.updatedAt,
  };
}

export async function getMapping(db: Db, id: string): Promise<ProviderMapping> {
  const r = await mappingsQuery(db).where("m.id", "=", id).executeTakeFirst();
  if (!r) throw notFound("Mapping");
  return mappingItem(r as Row);
}

const liveOptions = async (db: Db, qualificationId: string) =>
  await db.selectFrom("qualification_options").select(["id", "text"]).where(
    "qualificationId",
    "=",
    qualificationId,
  )
    .where("isDeleted", "=", 0).orderBy("sortOrder").execute();

/** Applies a correction; see the module's comment. */
export async function correctMapping(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { id: string } & MappingUpdateBody,
): Promise<MappingChange> {
  const { db, services, actor, now } = ctx;
  const { id, ...body } = input;
  const at = dateAt(now), stamp = at.toISOString();
  const out = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("provider_questions").selectAll().where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("Mapping");
    const provider = row.provider as ProviderKey;
    const label = `${PROVIDER_NAMES[provider] ?? provider} question ${row.questionId}`;
    const links = parseJsonList<AnswerLink>(row.answers);
    const changes: string[] = [];
    let qualificationId = row.qualificationId;
    let options = await liveOptions(trx, qualificationId);
    const textOf = (list: typeof options, optionId: string | null) =>
      optionId ? list.find((o) => o.id === optionId)?.text ?? null : null;
    // answers keep the provider's label, so a relink can match them by text
    for (const l of links) l.text ||= textOf(options, l.optionId) ?? l.answerId;

    if (body.qualificationId && body.qualificationId !== row.qualificationId) {
      const qual = await trx.selectFrom("qualifications").select(["id", "qualificationName"])
        .where("id", "=", body.qualificationId).where("isDeleted", "=", 0).executeTakeFirst();
      if (!qual) {
        throw invalid("Qualification not found", [{
          path: "qualificationId",
          message: "Qualification not found",
        }]);
      }
      const taken = await trx.selectFrom("provider_questions").select("questionId").where(
        "provider",
        "=",
        provider,
      )
        .where("qualificationId", "=", qual.id).where("id", "!=", row.id).executeTakeFirst();
      if (taken) {
        throw conflict(`${qual.qualificationName} is already linked to question ${taken.questionId}`, [{
          path: "qualificationId",
          message: `Already linked to question ${taken.questionId}`,
        }]);
      }
      const before = await trx.selectFrom("qualifications").select("qualificationName")
        .where("id", "=", row.qualificationId).executeTakeFirst();
      options = await liveOptions(trx, qual.id);
      for (const l of links) {
        l.optionId = options.find((o) => normText(o.text) === normText(l.text ?? ""))?.id ?? null;
      }
      changes.push(
        `linked to ${qual.qualificationName} (was ${before?.qualificationName ?? "a deleted qualification"})`,
      );
      qualificationId = qual.id;
    }
    for (const a of body.answers) {
      const link = links.find((l) => l.answerId === a.answerId);
      if (!link) {
        throw invalid(`Answer ${a.answerId} is not an answer of ${label}`, [{
          path: "answers",
          message: `Unknown answer ${a.answerId}`,
        }]);
      }
      if (a.optionId !== null && !options.some((o) => o.id === a.optionId)) {
        throw invalid("Option not found in the linked qualification", [{
          path: "answers",
          message: "Option not found in the linked qualification",
        }]);
      }
      if (link.optionId === a.optionId) continue;
      changes.push(
        `answer ${link.text} (${link.answerId}) -> ${textOf(options, a.optionId) ?? "unlinked"} (was ${
          textOf(options, link.optionId) ?? "unlinked"
        })`,
      );
      link.optionId = a.optionId;
    }
    const result: Omit<MappingChange, "mapping"> = { changes, remapped: [], unchanged: [] };
    if (!changes.length) return result;
    await trx.updateTable("provider_questions").set({
      qualificationId,
      answers: JSON.stringify(links),
      updatedAt: stamp,
    })
      .where("id", "=", row.id).execute();

    // the provider's imported projects that ask the question, not finished
    const imports = await trx.selectFrom("offer_imports as i").innerJoin(
      "projects as p",
      "p.id",
      "i.projectId",
    )
      .select(["i.id", "i.projectId", "i.quotaMap", "i.offerData", "p.projectCode", "p.projectStatus"])
      .where("i.provider", "=", provider).where("p.isDeleted", "=", 0).orderBy("i.createdAt").execute();
    for (const imp of imports) {
      if (isFinishedStatus(imp.projectStatus)) continue;
      const data = JSON.parse(imp.offerData || "{}") as Partial<OfferData>;
      const project = { projectId: imp.projectId, projectCode: imp.projectCode };
      if (!Array.isArray(data.questions) || !Array.isArray(data.quotas)) {
        // imported before offers were kept: only the questions' links tell, not the quotas
        continue;
      }
      if (!data.questions.some((q) => q.id === row.questionId)) continue;
      const full = data as OfferData;
      const linked = new Map<string, QuestionLink>();
      const rows = await trx.selectFrom("provider_questions").select([
        "questionId",
        "qualificationId",
        "answers",
      ])
        .where("provider", "=", provider).where("questionId", "in", full.questions.map((q) => q.id))
        .execute();
      for (const r of rows) {
        linked.set(
          r.questionId,
          await questionLink(trx, r.qualificationId, parseJsonList<AnswerLink>(r.answers)),
        );
      }
      const plan = planOf(full, linked);
      const quotaMap = parseJsonList<QuotaLink>(imp.quotaMap);
      const reason = await unsafeChange(trx, imp.projectId, plan, quotaMap);
      if (reason) {
        result.unchanged.push({ ...project, reason });
        await writeLog(trx, actor, {
          activity: `The corrected mapping of ${label} was not applied to ${imp.projectCode}: ${reason}`,
          module: PROJECTS,
          recordId: imp.projectId,
        }, at);
        continue;
      }
      const made = await applyPlan(trx, {
        projectId: imp.projectId,
        plan,
        previous: { quotaMap, questionRows: full.questionRows ?? {} },
        stamp,
      });
      await trx.updateTable("offer_imports").set({
        quotaMap: JSON.stringify(made.quotaMap),
        offerData: JSON.stringify({ ...full, questionRows: made.questionRows }),
        updatedAt: stamp,
      }).where("id", "=", imp.id).execute();
      result.remapped.push(project);
      await writeLog(trx, actor, {
        activity: `Quotas and pre-screen of ${imp.projectCode} re-mapped after ${label} was corrected: ${
          changes.join("; ")
        } (${plan.single + plan.interlocked} quotas enforced)`,
        module: PROJECTS,
        recordId: imp.projectId,
      }, at);
    }
    await writeLog(trx, actor, {
      activity: `Mapping of ${label} corrected: ${changes.join("; ")}; re-mapped ${
        result.remapped.map((p) => p.projectCode).join(", ") || "no project"
      }` + (result.unchanged.length
        ? `; left unchanged ${
          result.unchanged.map((p) => `${p.projectCode} (${p.reason})`).join(", ")
        }`
        : ""),
      module: MODULE,
      recordId: row.id,
    }, at);
    return result;
  });
  // the router sees the new quotas and questions at once
  if (out.remapped.length) services.changes.project(...out.remapped.map((p) => p.projectId));
  return { ...out, mapping: await getMapping(db, id) };
}
