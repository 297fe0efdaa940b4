/**
 * The supply API's surveys (issue 23, item 2): the live surveys a supplier may send members to, its
 * started (mapped) ones and the inventory it may start by the portal's rules, with what a panel
 * needs to target and pace its traffic. Paths are under SUPPLY_BASE; the key in `X-Api-Key`.
 *
 * A panel polls `GET /surveys?updated_since=<asOf of its last poll>` every minute: a survey is
 * answered again when anything it shows changed (its project, quotas or questions were edited, its
 * map or the supplier's terms changed, or traffic moved its counters). Pages run in survey id order
 * behind an opaque `cursor`; `ETag` / `If-None-Match` answers 304 when nothing changed.
 */
import * as v from "valibot";
import { returns } from "./contract.ts";
import { defineSupplyCall } from "./supply.ts";
import { InventoryStart } from "./portal.ts";

/** Surveys per page unless `limit` says, and the most a page holds. */
export const SURVEYS_PAGE_DEFAULT = 100;
export const SURVEYS_PAGE_MAX = 200;

/** The entry link's answer parameter: `&q_<library question id>=<answer id>[,<answer id>...]`. */
export const KNOWN_ANSWER_PARAM = "q_[questionId]=[answerId],[answerId]";

const CURSOR_PREFIX = "s1:";
const toBase64Url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The cursor after a survey (opaque to panels: base64url of a versioned survey id). */
export function encodeSurveyCursor(surveyId: string): string {
  return toBase64Url(`${CURSOR_PREFIX}${surveyId}`);
}

/** The survey id a cursor continues after, or null for anything this API did not hand out. */
export function decodeSurveyCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const m = /^s1:([0-9a-f]{24})$/.exec(text);
  return m ? m[1] : null;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const UPDATED_SINCE = "updated_since must be a date-time such as 2026-11-26T10:00:00Z";

/** `GET /surveys`'s query; any other parameter is refused (a misspelt filter would answer everything). */
export const SupplySurveysQuery = v.strictObject({
  limit: v.optional(v.pipe(
    v.string(),
    v.regex(/^\d{1,6}$/, `limit must be a whole number from 1 to ${SURVEYS_PAGE_MAX}`),
    v.transform(Number),
    v.minValue(1, `limit must be a whole number from 1 to ${SURVEYS_PAGE_MAX}`),
    v.maxValue(SURVEYS_PAGE_MAX, `limit must be a whole number from 1 to ${SURVEYS_PAGE_MAX}`),
  )),
  cursor: v.optional(v.pipe(
    v.string(),
    v.transform(decodeSurveyCursor),
    v.string("cursor is not one this API handed out"),
  )),
  updated_since: v.optional(v.pipe(
    v.string(),
    v.regex(ISO_TIME, UPDATED_SINCE),
    v.transform((s) => Date.parse(s)),
    v.check((n) => Number.isFinite(n), UPDATED_SINCE),
    v.transform((n) => new Date(n).toISOString()),
  )),
}, "Unknown query parameter");
export type SupplySurveysQuery = v.InferOutput<typeof SupplySurveysQuery>;

/** A pre-screen question the survey asks, by the library's ids (`GET /supply/v1/questions`). */
export type SupplyQualification = {
  /** The library question's id: its known answer travels as `q_<questionId>` on the entry link. */
  questionId: string;
  /** The answers that qualify; null for a free-text question (any non-blank text). */
  answerIds: string[] | null;
};

/** A quota cell of the survey, with its live count. */
export type SupplyQuotaCell = {
  quotaId: string;
  /** The cell's id within its quota. */
  cellId: string;
  /** The qualification options the cell takes ("Female"; "18-24 / 25-34"; "Female x 18-34"). */
  label: string;
  /** Completes the cell wants; null: no limit. */
  size: number | null;
  completes: number;
  /** Completes the cell still takes; null: no limit. */
  remaining: number | null;
};

export type SupplyQuota = {
  id: string;
  /** The qualifications the quota is over (two or more: an interlocked quota). */
  qualificationIds: string[];
  cells: SupplyQuotaCell[];
};

export type SupplyDeviceType = "desktop" | "mobile" | "tablet";

/** A stated figure and the one measured from traffic so far (null before there is any). */
export type StatedMeasured = { stated: number; measured: number | null };

/** A live survey as the supply API shows it. */
export type SupplySurvey = {
  /** The survey (project) id. */
  id: string;
  code: string;
  /** The survey's name, as the supplier portal shows it. */
  name: string;
  /** true: this supplier is mapped and sends to `entryLink`; false: inventory it may start. */
  started: boolean;
  /** ISO 3166 country code ("" when the survey has none). */
  country: string;
  /** Language code. */
  language: string;
  /** What this supplier earns per complete. */
  cpi: number;
  /** Length of interview in minutes: stated, and measured over the completes so far. */
  loi: StatedMeasured;
  /**
   * Incidence in percent: stated, and measured over the whole survey so far (completes over
   * completes and terminates, pre-screen terminates included; over-quota and quality left out).
   */
  ir: StatedMeasured;
  /** The survey's completes over clicks so far, in percent (null before the first click). */
  conversion: number | null;
  /**
   * Completes this supplier may still deliver (null: no limit): the least of the project's
   * remainder (sample size less completes), the supplier map's (its quota less its completes) and,
   * for each quota whose every cell is limited, the sum of its cells' remainders (a quota's cells
   * together take no more than that). A quota with an unlimited cell limits nothing overall; its
   * cells' own remainders are in `quotas`.
   */
  remaining: number | null;
  deviceTypes: SupplyDeviceType[];
  /** The survey's end date (YYYY-MM-DD), or null. */
  endDate: string | null;
  /** Only the pre-screen questions copied from the library (a member's known answers stand for them). */
  qualifications: SupplyQualification[];
  quotas: SupplyQuota[];
  /**
   * The live entry link: `[sid]` is the member's id; known answers are added as
   * `&q_<library question id>=<answer id>[,<answer id>]` (KNOWN_ANSWER_PARAM). null until started.
   */
  entryLink: string | null;
  /** When anything shown here last changed. */
  updatedAt: string;
};

export type SupplySurveyPage = {
  data: SupplySurvey[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** Pass as `updated_since` on the next poll (the time of this answer, less a few seconds' margin). */
  asOf: string;
  /**
   * With `updated_since`, on the first page: the ids of surveys this supplier may no longer send to
   * that changed since (closed, paused, deleted, its map removed or its traffic turned off); stop
   * sending to them. At most 1,000; empty otherwise.
   */
  closed: string[];
};

/** `GET /supply/v1/surveys`. */
export const supplySurveysCall = defineSupplyCall({
  method: "GET",
  path: "/surveys",
  query: SupplySurveysQuery,
  result: returns<SupplySurveyPage>(),
  etag: true,
  doc: "The live surveys you may send members to: those you started (`started`, with their `entryLink`) " +
    "and the inventory you may start, in id order, in pages behind an opaque `cursor`. Each with its CPI " +
    "for you, LOI and IR stated and measured, conversion, the completes you may still deliver, devices, end " +
    "date, qualifications (library question and answer ids) and quota cells with their remaining completes. " +
    "Poll with `updated_since` = the previous answer's `asOf`: only surveys changed since, and in `closed` " +
    "those you may no longer send to. An `ETag` answers 304 to `If-None-Match` while the list is unchanged.",
});

/** `GET /supply/v1/surveys/:id`: one survey (404 for a survey this supplier may not send to). */
export const supplySurveyCall = defineSupplyCall({
  method: "GET",
  path: "/surveys/:id",
  result: returns<SupplySurvey>(),
  etag: true,
  doc: "One survey as the list shows it; 404 for a survey you may not send to.",
});

/** A survey's live quota cells and the completes the supplier may still deliver. */
export type SupplySurveyQuotas = { surveyId: string; remaining: number | null; quotas: SupplyQuota[] };

/** `GET /supply/v1/surveys/:id/quotas`: the survey's quota cells, live, and its remaining completes. */
export const supplySurveyQuotasCall = defineSupplyCall({
  method: "GET",
  path: "/surveys/:id/quotas",
  result: returns<SupplySurveyQuotas>(),
  etag: true,
  doc: "A survey's quota cells as they stand now, each with its remaining completes, and the completes " +
    "you may still deliver overall.",
});

/**
 * `POST /supply/v1/surveys/:id/start`: starts an inventory survey, as the portal's Start does: the
 * supplier is mapped with its saved redirect links (an empty body) or the five links sent
 * (InventoryStart). Answers the started survey with its entry link; 409 when already started.
 */
export const supplySurveyStartCall = defineSupplyCall({
  method: "POST",
  path: "/surveys/:id/start",
  body: InventoryStart,
  result: returns<SupplySurvey>(),
  doc: "Starts an inventory survey, as the portal's Start does: you are mapped with your saved redirect " +
    "links (an empty body) or the five links sent, and the survey is answered with its `entryLink`. 409 " +
    "when you started it already.",
});
