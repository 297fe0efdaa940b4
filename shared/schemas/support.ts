/** Support (part 2, 2 "Support" and 5): the identifier search body and the scheduled job form. */
import * as v from "valibot";
import { ListBody } from "../list.ts";
import { boolDefault, numberish, optionalText, requiredText } from "./common.ts";
import { requiredMsg } from "../messages.ts";

/** At most this many identifiers in one search (the box takes thousands at once). */
export const MAX_SEARCH_IDENTIFIERS = 10_000;
/** Identifiers are up to 100 characters each: the box's text is bounded by that. */
const MAX_IDENTIFIERS_TEXT = MAX_SEARCH_IDENTIFIERS * 101;

/** The identifiers of the box: one per line (commas also separate), blanks and repeats dropped. */
export function searchIdentifiers(text: string): string[] {
  return [...new Set(text.split(/[\r\n,]+/).map((s) => s.trim()).filter(Boolean))];
}

export const TOO_MANY_IDENTIFIERS = `At most ${
  MAX_SEARCH_IDENTIFIERS.toLocaleString("en-US")
} identifiers at once`;

const identifiersText = v.pipe(
  v.string("Identifiers must be text"),
  v.maxLength(MAX_IDENTIFIERS_TEXT, TOO_MANY_IDENTIFIERS),
  v.check((s) => searchIdentifiers(s).length <= MAX_SEARCH_IDENTIFIERS, TOO_MANY_IDENTIFIERS),
);

/**
 * POST /admin/projects/identifier: the list body, its `filter.multiSearch` the box's text (supplier
 * or user identifiers, one per line) and `filter.outcome` the session statuses to keep.
 */
export const IdentifierSearchBody = v.object({
  ...ListBody.entries,
  filter: v.optional(
    v.object({
      multiSearch: v.optional(identifiersText, ""),
      outcome: v.optional(
        v.nullable(v.array(v.pipe(v.string("outcome must be session statuses"), v.maxLength(40)))),
      ),
    }),
    {},
  ),
});

/** POST /admin/identifiers/report: every match of the box's text, as CSV. */
export const IdentifiersReportBody = v.object({
  identifierData: v.pipe(
    v.optional(identifiersText, ""),
    v.check((s) => searchIdentifiers(s).length > 0, "Identifiers are required"),
  ),
});

export const MIN_JOB_INTERVAL = 2;
export const INTERVAL_MIN_MSG = `Interval must be at least ${MIN_JOB_INTERVAL} minutes`;

/** The scheduled job form (part 2, 5): Project Code and Interval (minutes, at least 2) required. */
export const JobForm = v.object({
  projectCode: requiredText(requiredMsg("Project Code"), 1, 60),
  interval: v.pipe(
    numberish(requiredMsg("Interval"), "Interval must be a number"),
    v.integer("Interval must be a whole number of minutes"),
    v.minValue(MIN_JOB_INTERVAL, INTERVAL_MIN_MSG),
    v.maxValue(525_600, "Interval must be at most 525600 minutes (a year)"),
  ),
  comment: optionalText(1000),
  isSoft: boolDefault(false),
  isActive: boolDefault(true),
});
export type JobForm = v.InferOutput<typeof JobForm>;

const SoftPatch = v.strictObject({ isSoft: v.boolean("isSoft must be true or false") });
const ActivePatch = v.strictObject({ isActive: v.boolean("isActive must be true or false") });
const DeletePatch = v.strictObject({ isDeleted: v.literal(true, "isDeleted must be true") });
export type JobPatch = { isSoft: boolean } | { isActive: boolean } | { isDeleted: true };

const only = (input: unknown, key: string) =>
  !!input && typeof input === "object" && !Array.isArray(input) && Object.keys(input).length === 1 &&
  key in input;

/** PUT /admin/schedule/job/update/:id: `{isSoft}`, `{isActive}` or `{isDeleted: true}` alone, else the form. */
export const JobUpdate = v.lazy((input: unknown) =>
  only(input, "isSoft")
    ? SoftPatch
    : only(input, "isActive")
    ? ActivePatch
    : only(input, "isDeleted")
    ? DeletePatch
    : JobForm
) as v.GenericSchema<unknown, JobPatch | JobForm>;

/** POST /admin/shortcode {filter}: an optional text narrowing the list. */
export const ShortCodeBody = v.object({
  filter: v.optional(v.nullable(v.pipe(v.string("filter must be text"), v.maxLength(100))), ""),
});
