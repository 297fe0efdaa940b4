/**
 * Respondent profiles (issue 24 item 1): a supplier's member's answers to library questions, kept
 * in member_profiles per (supplierId, memberId = the sid, library question id). A project's
 * pre-screen question copied from the library (questions.libraryQuestionId) takes the member's
 * known answer instead of asking it; a known answer that disqualifies ends the entry at once as a
 * pre-screen terminate. Answers come from the pre-screen (source "prescreen") and from the entry
 * link (source "link", LINK_PARAM below); they expire after the profile_expiry_days setting.
 *
 * Answers are the library's answer (option) ids, or the text of a TEXT question: never names,
 * e-mails or anything else about the person.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { PrescreenQuestion, QuotaDef } from "./config.ts";
import {
  type AnswerRow,
  askable,
  type QuotaCellRef,
  quotaCellsFor,
  titleIn,
  visibleOptions,
} from "./prescreen.ts";

/** What the entry link may carry: `q_<library question id>=<answer id>[,<answer id>...]`. */
export const LINK_PARAM = /^q_([0-9a-f]{24})$/;
/** At most this many answer parameters are read from one link; the rest are ignored. */
export const LINK_MAX_PARAMS = 30;
/** A value longer than this (or with more answer ids than LINK_MAX_IDS) is ignored. */
export const LINK_MAX_VALUE = 500;
export const LINK_MAX_IDS = 20;

/** The settings key of "profile answers expire after N days", and its default. */
export const PROFILE_EXPIRY_KEY = "profile_expiry_days";
export const PROFILE_EXPIRY_DEFAULT_DAYS = 90;
export const PROFILE_EXPIRY_MAX_DAYS = 3650;

/** Known answers by library question id: answer ids, or the one text of a TEXT question. */
export type Known = Map<string, string[]>;

/** A profile row as the writer upserts it. */
export type ProfileRow = {
  supplierId: string;
  memberId: string;
  questionId: string;
  answer: string;
  source: "prescreen" | "link";
};

/**
 * The answers an entry link carries (`q_<id>=<a>[,<b>]`), bounded: LINK_MAX_PARAMS parameters,
 * values up to LINK_MAX_VALUE characters and LINK_MAX_IDS ids; anything malformed is left out.
 * Which ids are library questions and answers is checked against the project when they are used.
 */
export function linkAnswers(params: URLSearchParams): Known {
  const out: Known = new Map();
  let seen = 0;
  for (const [name, raw] of params) {
    const m = LINK_PARAM.exec(name);
    if (!m) continue;
    if (++seen > LINK_MAX_PARAMS) break;
    if (raw.length > LINK_MAX_VALUE || /\p{Cc}/u.test(raw)) continue;
    const ids = raw.split(",").map((s) => s.trim()).filter(Boolean);
    if (!ids.length || ids.length > LINK_MAX_IDS) continue;
    out.set(m[1], ids);
  }
  return out;
}

/** Whether any of the project's questions is a library question (only then is a profile read). */
export const usesProfiles = (questions: PrescreenQuestion[]) => questions.some((q) => q.libraryId);

/** The expiry setting as stored (a whole number of days, else the default). */
export function expiryDays(value: string | null | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= PROFILE_EXPIRY_MAX_DAYS ? n : PROFILE_EXPIRY_DEFAULT_DAYS;
}

/**
 * A member's unexpired answers: ONE indexed read (the primary key's prefix), the expiry setting
 * read in the same statement, answered as one row (a JSON list of [questionId, answer, answeredAt]):
 * a read of a row at most is kept prepared (db/local-client.ts).
 */
export async function readProfile(
  db: Db,
  who: { supplierId: string; memberId: string },
  now: number,
): Promise<Known> {
  const r = await sql<{ answers: string; days: string | null }>`
    SELECT json_group_array(json_array(questionId, answer, answeredAt)) AS answers,
      (SELECT value FROM settings WHERE key = ${PROFILE_EXPIRY_KEY}) AS days
    FROM member_profiles WHERE supplierId = ${who.supplierId} AND memberId = ${who.memberId} LIMIT 1`
    .execute(db);
  const row = r.rows[0];
  const out: Known = new Map();
  if (!row) return out;
  const cutoff = new Date(now - expiryDays(row.days) * 86_400_000).toISOString();
  for (const [questionId, answer, answeredAt] of JSON.parse(row.answers) as [string, string, string][]) {
    if (answeredAt < cutoff) continue;
    const values = storedValues(answer);
    if (values.length) out.set(questionId, values);
  }
  return out;
}

/** A stored answer's values: a JSON list of ids, or {"text": ...}; anything else is none. */
function storedValues(answer: string): string[] {
  try {
    const v = JSON.parse(answer);
    if (Array.isArray(v)) return v.map(String);
    if (v && typeof v === "object" && typeof v.text === "string") return [v.text];
  } catch { /* a broken row is not an answer */ }
  return [];
}

/**
 * The known answer of a project question that can stand for asking it: a TEXT question's non-blank
 * text; a choice question's visible options (one for a single choice). Else null (asked).
 */
export function knownAnswer(q: PrescreenQuestion, supplierType: number, known: Known): string[] | null {
  const values = q.libraryId ? known.get(q.libraryId) : undefined;
  if (!values?.length) return null;
  if (q.type === "TEXT") {
    const text = values[0].trim().slice(0, 500);
    return text ? [text] : null;
  }
  const visible = new Set(visibleOptions(q, supplierType).map((o) => o._id));
  const picked = values.filter((v) => visible.has(v));
  if (picked.length !== values.length || !picked.length) return null;
  if (q.type !== "CHECKBOX" && picked.length > 1) return null;
  return picked;
}

/** The questions still to ask: the askable ones without a usable known answer. */
export function toAsk(questions: PrescreenQuestion[], supplierType: number, known: Known) {
  return askable(questions, supplierType).filter((q) => !knownAnswer(q, supplierType, known));
}

/**
 * The first known answer that disqualifies, as the pre-screen says it ("title: option"), with the
 * known answers' rows for the pre-screen report; null when none does.
 */
export function knownFailure(
  questions: PrescreenQuestion[],
  supplierType: number,
  known: Known,
  lang: string,
): { detail: string; rows: AnswerRow[] } | null {
  let detail = "";
  const rows: AnswerRow[] = [];
  for (const q of askable(questions, supplierType)) {
    const values = knownAnswer(q, supplierType, known);
    if (!values || q.type === "TEXT") continue;
    const picked = visibleOptions(q, supplierType).filter((o) => values.includes(o._id));
    const bad = picked.find((o) => !o.formvalidate);
    if (bad && !detail) detail = `${titleIn(q, lang)}: ${bad.title}`;
    rows.push({
      questionId: q.id,
      answer: JSON.stringify(picked.map((o) => o._id)),
      answerText: picked.map((o) => o.title).join("; "),
      passed: bad ? 0 : 1,
    });
  }
  return detail ? { detail, rows } : null;
}

/**
 * The quota cells the known answers alone put the member in (a cell all of whose options they
 * answer): the pre-screen takes known answers as given, so these are cells of theirs whatever they
 * answer to the rest.
 */
export function knownCells(
  questions: PrescreenQuestion[],
  supplierType: number,
  quotas: QuotaDef[],
  known: Known,
): QuotaCellRef[] {
  if (!quotas.length || !known.size) return [];
  const titles: string[] = [];
  for (const q of askable(questions, supplierType)) {
    const values = knownAnswer(q, supplierType, known);
    if (!values || q.type === "TEXT") continue;
    for (const o of visibleOptions(q, supplierType)) if (values.includes(o._id)) titles.push(o.title);
  }
  return titles.length ? quotaCellsFor(quotas, titles) : [];
}

/** The form the pre-screen reads: a known answer stands for its question, else what was sent. */
export function withKnown(
  questions: PrescreenQuestion[],
  supplierType: number,
  known: Known,
  form: (name: string) => string[],
): (name: string) => string[] {
  const byField = new Map<string, string[]>();
  for (const q of askable(questions, supplierType)) {
    const values = knownAnswer(q, supplierType, known);
    if (values) byField.set(`q_${q.id}`, values);
  }
  return (name) => byField.get(name) ?? form(name);
}

/**
 * The profile rows of answers a respondent gave on the pre-screen page (known answers are not
 * written again: their date and source stay): one per answered library question.
 */
export function answeredRows(
  questions: PrescreenQuestion[],
  rows: AnswerRow[],
  who: { supplierId: string; memberId: string; asked: Set<string> },
): ProfileRow[] {
  const libraryOf = new Map(questions.map((q) => [q.id, q.libraryId]));
  const out: ProfileRow[] = [];
  for (const r of rows) {
    const libraryId = libraryOf.get(r.questionId);
    if (!libraryId || !who.asked.has(r.questionId)) continue;
    out.push({
      supplierId: who.supplierId,
      memberId: who.memberId,
      questionId: libraryId,
      answer: r.answer,
      source: "prescreen",
    });
  }
  return out;
}

/**
 * The link's answers as profile rows: only those for the project's library questions that stand
 * for asking them (an unknown question or answer id is ignored).
 */
export function linkRows(
  questions: PrescreenQuestion[],
  supplierType: number,
  link: Known,
  who: { supplierId: string; memberId: string },
): ProfileRow[] {
  const out: ProfileRow[] = [];
  for (const q of questions) {
    if (!q.libraryId || !link.has(q.libraryId)) continue;
    const values = knownAnswer(q, supplierType, link);
    if (!values) continue;
    out.push({
      ...who,
      questionId: q.libraryId,
      answer: q.type === "TEXT" ? JSON.stringify({ text: values[0] }) : JSON.stringify(values),
      source: "link",
    });
  }
  return out;
}
