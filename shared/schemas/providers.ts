/**
 * External providers (part 2, "External providers" calls): the provider keys as the paths spell them,
 * and the bodies of the offer, quota, question and add-as-project calls.
 */
import * as v from "valibot";
import { ListBody } from "../list.ts";
import { issuePath, MAX_LEN, noControlChars, recordId } from "./common.ts";

/** The five providers, as their calls' paths spell them. */
export const PROVIDER_KEYS = ["precision", "logit", "toluna", "circle", "mrkt"] as const;
export type ProviderKey = (typeof PROVIDER_KEYS)[number];

/** What each provider is called in messages, the CLI and the Projects External tab. */
export const PROVIDER_NAMES: Record<ProviderKey, string> = {
  precision: "Precision",
  logit: "Logit",
  toluna: "Toluna",
  circle: "Circle",
  mrkt: "UniMrkt",
};

/** The environment variables' `<NAME>` of each provider (PROVIDER_<NAME>_URL / _KEY). */
export const PROVIDER_ENV_NAMES: Record<ProviderKey, string> = {
  precision: "PRECISION",
  logit: "LOGIT",
  toluna: "TOLUNA",
  circle: "CIRCLE",
  mrkt: "MRKT",
};

export const isProviderKey = (s: string): s is ProviderKey =>
  (PROVIDER_KEYS as readonly string[]).includes(s);

const shortText = (label: string, max: number = MAX_LEN.code) =>
  v.pipe(
    v.string(`${label} must be text`),
    v.trim(),
    v.maxLength(max, `${label} must be at most ${max} characters`),
    noControlChars(label),
  );

/** A provider's id (a survey, quota or question): text or a whole number, kept as text. */
const providerId = (label: string) =>
  v.pipe(
    v.union(
      [
        v.string(),
        // a number past 2^53 is already another id (precision lost): refused rather than rounded
        v.pipe(
          v.number(),
          v.safeInteger(`${label} must be a whole number up to ${Number.MAX_SAFE_INTEGER}`),
          v.minValue(0, `${label} must not be negative`),
          v.transform(String),
        ),
      ],
      `${label} is required`,
    ),
    v.transform((s) => s.trim()),
    v.nonEmpty(`${label} is required`),
    v.maxLength(MAX_LEN.code, `${label} must be at most ${MAX_LEN.code} characters`),
    // it goes into the provider's URL or body: letters, digits and - _ . : only, as every provider's ids
    v.regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, `${label} is not valid`),
  );

const offerFilterEntries = {
  countryCode: v.optional(v.nullable(shortText("Country", 8))),
  country: v.optional(v.nullable(shortText("Country", 8))),
  search: v.optional(v.nullable(shortText("Search", 100))),
};
const OFFER_FILTER_KEYS = Object.keys(offerFilterEntries).sort().join(", ");

/**
 * The offer filters (the grid's `filter`, or the spec's `filters`): a country and a text. Any other
 * key is refused at its place, as the list kit refuses a filter its list does not have.
 */
const OfferFilters = v.optional(
  v.pipe(
    v.looseObject(offerFilterEntries),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      for (const key of Object.keys(dataset.value)) {
        if (key in offerFilterEntries) continue;
        addIssue({
          message: `Unknown filter "${key.slice(0, 100)}": this list filters on ${OFFER_FILTER_KEYS}`,
          path: issuePath(dataset.value, [key]),
        });
      }
    }),
  ),
  {},
);

/** POST /admin/project/api/<provider>/request: the grid's list body, with `filters` of the spec too. */
/**
 * Offers come from the providers in their order: an offer list declares no sorts, so a `sortBy`
 * is refused as the list kit refuses an undeclared one (server/db/list.ts sortColumn).
 */
const unsortable = v.optional(
  v.pipe(
    v.string("sortBy must be text"),
    v.check((s) => s === "", "This list cannot be sorted: leave sortBy out"),
  ),
);

export const OfferListBody = v.object({
  ...ListBody.entries,
  sortBy: unsortable,
  limit: v.optional(
    v.pipe(v.number("limit must be a number"), v.integer(), v.minValue(1), v.maxValue(1000)),
    20,
  ),
  filter: OfferFilters,
  filters: OfferFilters,
});
export type OfferListBody = v.InferOutput<typeof OfferListBody>;

export const LogitQuotaBody = v.object({ filters: OfferFilters, projectId: providerId("Project id") });
export const TolunaQuotaBody = v.object({ filters: OfferFilters, quotaId: providerId("Quota id") });
export const TolunaQuestionsBody = v.object({
  filters: OfferFilters,
  questionId: v.union([
    providerId("Question id"),
    v.pipe(v.array(providerId("Question id")), v.maxLength(200)),
  ]),
});
export const MrktQuotaBody = v.object({ filters: OfferFilters, surveyId: providerId("Survey id") });

/**
 * POST /admin/project/external/offers (Projects External): the offers of every configured provider;
 * `filter.provider` narrows to some, `filter.countryCode` to a country, `filter.clientdiy` to the
 * offers free to import for that client (not imported yet, or imported for it). Page size 20.
 */
export const ExternalOfferListBody = v.object({
  ...ListBody.entries,
  sortBy: unsortable,
  limit: v.optional(
    v.pipe(v.number("limit must be a number"), v.integer(), v.minValue(1), v.maxValue(1000)),
    20,
  ),
  filter: v.optional(
    v.object({
      provider: v.optional(
        v.nullable(
          v.union([
            v.picklist(PROVIDER_KEYS, "Provider must be one of precision, logit, toluna, circle, mrkt"),
            v.pipe(
              v.array(
                v.picklist(PROVIDER_KEYS, "Provider must be one of precision, logit, toluna, circle, mrkt"),
              ),
              v.maxLength(PROVIDER_KEYS.length),
            ),
          ], "Provider must be one of precision, logit, toluna, circle, mrkt"),
        ),
      ),
      countryCode: v.optional(v.nullable(shortText("Country", 8))),
      clientdiy: v.optional(v.nullable(v.union([v.literal(""), recordId("Client not found")]))),
    }),
    {},
  ),
});
export type ExternalOfferListBody = v.InferOutput<typeof ExternalOfferListBody>;

/** POST /admin/project/external/quotas: one offer's quotas, naming its provider. */
export const ExternalQuotasBody = v.object({
  provider: v.picklist(PROVIDER_KEYS, "Provider must be one of precision, logit, toluna, circle, mrkt"),
  surveyId: providerId("Survey id"),
});

/** POST /admin/project/<provider>/api/add: the survey row (its id is what counts) plus the client. */
export const AddOfferBody = v.object({
  surveyId: providerId("Survey id"),
  clientId: recordId("Client is required", "Client"),
  countryCode: v.optional(v.nullable(shortText("Country", 8))),
});
export type AddOfferBody = v.InferOutput<typeof AddOfferBody>;

/** POST /admin/project/external/add: the same, naming the provider. */
export const ExternalAddBody = v.object({
  provider: v.picklist(PROVIDER_KEYS, "Provider must be one of precision, logit, toluna, circle, mrkt"),
  ...AddOfferBody.entries,
});

/**
 * PUT /admin/project/api/mappings/:id: a correction of a provider question's links. `qualificationId`
 * relinks the question to another library qualification (answers are then matched to its options by
 * text unless given); each answer given is linked to an option of the question's qualification, or
 * unlinked with `optionId: null`.
 */
export const MappingUpdateBody = v.object({
  qualificationId: v.optional(recordId("Qualification not found", "Qualification")),
  answers: v.optional(
    v.pipe(
      v.array(
        v.object({
          answerId: providerId("Answer id"),
          optionId: v.nullable(recordId("Option not found")),
        }),
        "answers must be a list",
      ),
      v.maxLength(500, "At most 500 answers"),
    ),
    [],
  ),
});
export type MappingUpdateBody = v.InferOutput<typeof MappingUpdateBody>;
