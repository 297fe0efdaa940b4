/**
 * Bodies of the geography lookups (part 1, section 7: POST /admin/regions and /admin/cities; the
 * spec does not show them, so these are ours). Ids: countries by ISO alpha-2 code ("US"), regions
 * as "<country>-<region code>" ("US-CA"), cities as "<region id>:<city name>" ("US-CA:Los Angeles").
 * Shape is checked here; whether a code exists is checked on the server against the data set.
 */
import * as v from "valibot";
import { MSG } from "../messages.ts";

export const MAX_CITIES = 500;
const MAX_IDS = 300;

export const COUNTRY_CODE = /^[A-Za-z]{2}$/;
export const REGION_ID = /^[A-Za-z]{2}-[A-Za-z0-9][A-Za-z0-9-]{0,9}$/;

const COUNTRY_MSG = "Country must be an ISO code such as US";
const REGION_MSG = "Region must be an id such as US-CA";

const countryCode = v.pipe(
  v.string(COUNTRY_MSG),
  v.trim(),
  v.regex(COUNTRY_CODE, COUNTRY_MSG),
  v.toUpperCase(),
);
const regionId = v.pipe(
  v.string(REGION_MSG),
  v.trim(),
  v.regex(REGION_ID, REGION_MSG),
  v.toUpperCase(),
);

/** One id or a list of them (the form's selects send either); each id gets the item's own message. */
const oneOrMany = <S extends v.GenericSchema<unknown, string>>(item: S, message: string) =>
  v.optional(
    v.pipe(
      v.union([v.string(), v.array(v.unknown())], message),
      v.transform((x): unknown[] => (Array.isArray(x) ? x : [x])),
      v.maxLength(MAX_IDS, `At most ${MAX_IDS} ids at once`),
      v.array(item),
    ),
  );

const asList = (
  a: string[] | undefined,
  b: string[] | undefined,
): string[] => [...new Set([...a ?? [], ...b ?? []])];

export const RegionsBody = v.pipe(
  v.object({
    countryId: oneOrMany(countryCode, COUNTRY_MSG),
    countryIds: oneOrMany(countryCode, COUNTRY_MSG),
  }),
  v.forward(
    v.partialCheck(
      [["countryId"], ["countryIds"]],
      (b) => asList(b.countryId, b.countryIds).length > 0,
      MSG.countryRequired,
    ),
    ["countryId"],
  ),
  v.transform((b) => ({ countryIds: asList(b.countryId, b.countryIds) })),
);
export type RegionsBody = v.InferOutput<typeof RegionsBody>;

export const CitiesBody = v.pipe(
  v.object({
    regionId: oneOrMany(regionId, REGION_MSG),
    regionIds: oneOrMany(regionId, REGION_MSG),
    countryId: oneOrMany(countryCode, COUNTRY_MSG),
    countryIds: oneOrMany(countryCode, COUNTRY_MSG),
    search: v.optional(v.pipe(v.string("search must be text"), v.trim(), v.maxLength(100)), ""),
    limit: v.optional(
      v.pipe(
        v.number("limit must be a number"),
        v.integer("limit must be a whole number"),
        v.minValue(1, "limit must be at least 1"),
        v.maxValue(MAX_CITIES, `limit must be at most ${MAX_CITIES}`),
      ),
      MAX_CITIES,
    ),
  }),
  v.forward(
    v.partialCheck(
      [["regionId"], ["regionIds"], ["countryId"], ["countryIds"]],
      (b) => asList(b.regionId, b.regionIds).length + asList(b.countryId, b.countryIds).length > 0,
      "Region or country is required",
    ),
    ["regionId"],
  ),
  v.transform((b) => ({
    regionIds: asList(b.regionId, b.regionIds),
    countryIds: asList(b.countryId, b.countryIds),
    search: b.search,
    limit: b.limit,
  })),
);
export type CitiesBody = v.InferOutput<typeof CitiesBody>;
