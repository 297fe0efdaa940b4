/**
 * Projects External (part 1, 2.6, /admin/project/fetch): the offers of every configured provider on
 * one page, and the texts of the offers' questions and answers from the library mapping where a
 * provider gives only ids (so no dialog shows a raw id a mapping can name).
 */
import type { Db } from "../../db/connection.ts";
import { parseJsonList } from "../common/records.ts";
import { DomainError } from "../errors.ts";
import type { ExternalOffer, OfferQuota, ProviderState } from "../../../shared/api/providers.ts";
import { PROVIDER_KEYS, type ProviderKey } from "../../../shared/schemas/providers.ts";
import type { ExternalOfferListBody } from "../../../shared/schemas/providers.ts";
import type { ProviderRegistry } from "../../providers/index.ts";
import type { Offer } from "../../providers/types.ts";
import type { AnswerLink } from "./import.ts";
import { withImports } from "./offers.ts";

type Texts = Map<string, { name: string; answers: Map<string, string> }>;

/** The mapped texts of a provider's questions: the question's name and each answer's label or option. */
async function mappedTexts(db: Db, provider: ProviderKey, questionIds: string[]): Promise<Texts> {
  const ids = [...new Set(questionIds)].slice(0, 5000);
  if (!ids.length) return new Map();
  const rows = await db.selectFrom("provider_questions as m")
    .leftJoin("qualifications as q", "q.id", "m.qualificationId")
    .select(["m.questionId", "m.questionName", "m.answers", "m.qualificationId", "q.qualificationName"])
    .where("m.provider", "=", provider).where("m.questionId", "in", ids).execute();
  const optionIds = rows.flatMap((r) => parseJsonList<AnswerLink>(r.answers).map((a) => a.optionId))
    .filter((x): x is string => !!x);
  const options = optionIds.length
    ? await db.selectFrom("qualification_options").select(["id", "text"])
      .where("id", "in", [...new Set(optionIds)].slice(0, 5000)).execute()
    : [];
  const optionText = new Map(options.map((o) => [o.id, o.text]));
  return new Map(rows.map((r) => [r.questionId, {
    // the provider's name kept at import, else the library qualification's ("Toluna: Gender" -> "Gender")
    name: r.questionName || (r.qualificationName ?? "").replace(/^[^:]+: /, ""),
    answers: new Map(
      parseJsonList<AnswerLink>(r.answers).map((a) => [
        a.answerId,
        (a.text && a.text !== a.answerId ? a.text : "") ||
        (a.optionId ? optionText.get(a.optionId) ?? "" : ""),
      ]),
    ),
  }]));
}

/** `label` unless it is only the id, else the mapped text, else the id. */
const named = (id: string, label: string, mapped: string | undefined) =>
  label && label !== id ? label : mapped || label || id;

function nameAll<T extends { answerIds: string[]; answers: string[] }>(
  item: T,
  known: { answers: Map<string, string> } | undefined,
): string[] {
  return item.answerIds.map((a, i) => named(a, item.answers[i] ?? "", known?.answers.get(a)));
}

/** Quotas with their questions and answers named from the mapping where the provider gave ids. */
export function nameQuotas(quotas: OfferQuota[], texts: Texts): OfferQuota[] {
  return quotas.map((q) => ({
    ...q,
    conditions: q.conditions.map((c) => {
      const known = texts.get(c.questionId);
      return {
        ...c,
        questionName: named(c.questionId, c.questionName, known?.name),
        answers: nameAll(c, known),
      };
    }),
  }));
}

/** The offers with their questions and answers named (see the module's comment). */
export async function withTexts<T extends Offer>(db: Db, provider: ProviderKey, offers: T[]): Promise<T[]> {
  const ids = offers.flatMap((o) => [
    ...o.qualifications.map((q) => q.questionId),
    ...o.quotas.flatMap((q) => q.conditions.map((c) => c.questionId)),
  ]);
  const texts = await mappedTexts(db, provider, ids);
  if (!texts.size) return offers;
  return offers.map((o) => ({
    ...o,
    qualifications: o.qualifications.map((q) => {
      const known = texts.get(q.questionId);
      return { ...q, name: named(q.questionId, q.name, known?.name), answers: nameAll(q, known) };
    }),
    quotas: nameQuotas(o.quotas, texts),
  }));
}

/** One offer's quotas, named: Logit and UniMrkt answer them on their own call, the others with the offer. */
export async function offerQuotas(
  db: Db,
  registry: ProviderRegistry,
  provider: ProviderKey,
  surveyId: string,
): Promise<OfferQuota[]> {
  const adapter = registry.get(provider);
  const quotas = adapter.quotasOf
    ? await adapter.quotasOf(surveyId)
    : (await adapter.getOffer(surveyId))?.quotas ?? [];
  const ids = quotas.flatMap((q) => q.conditions.map((c) => c.questionId));
  return nameQuotas(quotas, await mappedTexts(db, provider, ids));
}

/**
 * Every configured provider's offers (those `filter.provider` names), in the tabs' order, with what
 * was imported of them and their texts. A provider that fails is left out and named in its state.
 */
export async function externalOffers(
  db: Db,
  registry: ProviderRegistry,
  body: ExternalOfferListBody,
): Promise<{ offers: ExternalOffer[]; providers: ProviderState[] }> {
  const f = body.filter ?? {};
  const wanted = f.provider ? (Array.isArray(f.provider) ? f.provider : [f.provider]) : [];
  const country = f.countryCode?.trim().toUpperCase() || undefined;
  const providers = PROVIDER_KEYS.map((k) => registry.state(k));
  const lists = await Promise.all(PROVIDER_KEYS.map(async (key, i): Promise<ExternalOffer[]> => {
    const adapter = registry.find(key);
    if (!adapter || (wanted.length && !wanted.includes(key))) return [];
    try {
      const offers = await adapter.listOffers({ countryCode: country, search: body.search || undefined });
      return await withImports(db, key, await withTexts(db, key, offers));
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      providers[i] = { ...providers[i], error: e.message };
      return [];
    }
  }));
  let offers = lists.flat();
  // a client's view: what is free to import for it (not imported yet, or imported for it)
  if (f.clientdiy) offers = offers.filter((o) => !o.imported || o.imported.clientId === f.clientdiy);
  return { offers, providers };
}
