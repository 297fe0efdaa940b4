/**
 * Geography and lookups (part 1, section 7): reference lists held in memory on the server, for every
 * signed-in user. Countries by ISO alpha-2 code, regions as "US-CA", cities as "US-CA:Los Angeles".
 */
import { defineCall, returns } from "./contract.ts";
import { CitiesBody, RegionsBody } from "../schemas/lookups.ts";

/** A country: `_id`, `value` and `code` are its ISO code, `label` its name, `flag` the emoji. */
export type Country = {
  _id: string;
  label: string;
  value: string;
  code: string;
  flag: string;
  phonecode: string;
};
export type RegionOption = { _id: string; label: string; value: string; code: string; countryCode: string };
export type CityOption = { _id: string; label: string; value: string; regionId: string; countryCode: string };
/** An ISO 639-1 language: `_id` is the two-letter code. */
export type LanguageOption = { _id: string; label: string; value: string; nativeName: string };
/** An ISO 4217 currency: `_id` is the code. */
export type CurrencyOption = {
  _id: string;
  label: string;
  value: string;
  name: string;
  symbol?: string;
  digits: number;
};

export const countriesCall = defineCall({
  method: "GET",
  path: "/admin/countries",
  result: returns<Country[]>(),
});
export const languagesCall = defineCall({
  method: "GET",
  path: "/admin/languages",
  result: returns<LanguageOption[]>(),
});
export const currenciesCall = defineCall({
  method: "GET",
  path: "/admin/currencies",
  result: returns<CurrencyOption[]>(),
});
/** The regions of the given countries (an unknown code is a 400). */
export const regionsCall = defineCall({
  method: "POST",
  path: "/admin/regions",
  body: RegionsBody,
  result: returns<RegionOption[]>(),
});
/**
 * Cities of the given regions or countries, matching `search`, at most `limit`; the message says
 * when there are more ("Showing 500 of 1,204 cities: search to narrow the list").
 */
export const citiesCall = defineCall({
  method: "POST",
  path: "/admin/cities",
  body: CitiesBody,
  result: returns<CityOption[]>(),
});
