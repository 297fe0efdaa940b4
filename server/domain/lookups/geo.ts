/**
 * Reference geography from a well-kept data package (country-state-city), held in memory
 * (read-only): countries by ISO alpha-2 code with name, flag and dialling code; regions ("US-CA")
 * and cities ("US-CA:Los Angeles"). Country ids throughout the product are these codes.
 *
 * The package's entry point parses all of its data (8.6 MB of JSON, 148,000 cities) when imported,
 * which would cost every process a second and 100 MB at start-up. So its data files are read on
 * first use instead, each once, and a region's city list is built when that region is first asked.
 */
import { boundedCache, once } from "../../lib/memo.ts";
import type { ICountry, IState } from "country-state-city";
import type { CityOption, Country, RegionOption } from "../../../shared/api/lookups.ts";
import type { CitiesBody } from "../../../shared/schemas/lookups.ts";
import { invalid } from "../errors.ts";
import { PACKAGES_READ, readPackageJson } from "../../package-files.ts";

export type { CityOption, RegionOption };

const data = <T>(file: string) => readPackageJson<T>(PACKAGES_READ.geography, `lib/assets/${file}`);
/** city.json rows: [name, countryCode, stateCode, latitude, longitude]. */
type RawCity = [string, string, string, string?, string?];

/** A country as held here: what the API shows, and its currency (the child project's default). */
export type CountryOption = Country & { currency: string };

/** The countries, sorted by name, and their index by code: read once per process. */
const countryTable = once(() => {
  const list: CountryOption[] = (data<ICountry[]>("country.json"))
    .map((c) => ({
      _id: c.isoCode,
      label: c.name,
      value: c.isoCode,
      code: c.isoCode,
      flag: c.flag,
      phonecode: c.phonecode,
      currency: c.currency,
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return { list, byCode: new Map(list.map((c) => [c.code, c])) };
});

export function countries(): CountryOption[] {
  return countryTable().list;
}

export function countryByCode(code: string | null | undefined): CountryOption | undefined {
  if (!code) return undefined;
  return countryTable().byCode.get(code.toUpperCase());
}

export const isCountryCode = (code: unknown): code is string =>
  typeof code === "string" && !!countryByCode(code);

// ---------------------------------------------------------------- regions and cities

type CityEntry = CityOption & { key: string };

/** Each region's cities as listed, built on first use (a few thousand regions: none is evicted). */
const citiesByRegion = boundedCache<string, CityEntry[]>(20_000);

/** Folds case and accents so "sao" finds "São Paulo". */
export const foldText = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The regions by country (sorted by name) and by id: read once per process. */
const regionTable = once(() => {
  const byCountry = new Map<string, RegionOption[]>();
  const byId = new Map<string, RegionOption>();
  for (const s of data<IState[]>("state.json")) {
    const id = `${s.countryCode}-${s.isoCode}`.toUpperCase();
    const r: RegionOption = {
      _id: id,
      label: s.name,
      value: id,
      code: s.isoCode,
      countryCode: s.countryCode,
    };
    byId.set(id, r);
    const list = byCountry.get(s.countryCode) ?? [];
    list.push(r);
    byCountry.set(s.countryCode, list);
  }
  for (const list of byCountry.values()) list.sort((a, b) => a.label.localeCompare(b.label));
  return { byCountry, byId };
});

/** city.json's rows by region id, read once per process (the first city asked for). */
const rawCities = once(() => {
  const byRegion = new Map<string, RawCity[]>();
  for (const row of data<RawCity[]>("city.json")) {
    const rid = `${row[1]}-${row[2]}`.toUpperCase();
    const list = byRegion.get(rid);
    if (list) list.push(row);
    else byRegion.set(rid, [row]);
  }
  return byRegion;
});

/** The cities of one region, sorted by name, built on first use. */
function citiesInRegion(regionId: string): CityEntry[] {
  const built = citiesByRegion.get(regionId);
  if (built) return built;
  const list = (rawCities().get(regionId) ?? []).map(([name, countryCode]) => {
    const id = `${regionId}:${name}`;
    return { _id: id, label: name, value: id, regionId, countryCode, key: foldText(name) };
  }).sort((a, b) => a.label.localeCompare(b.label));
  return citiesByRegion.set(regionId, list);
}

export function regionById(id: string | null | undefined): RegionOption | undefined {
  if (!id) return undefined;
  return regionTable().byId.get(id.toUpperCase());
}

/** Regions of one country, by name; [] for a country without regions (and for an unknown one). */
export function regionsOf(countryCode: string): RegionOption[] {
  return regionTable().byCountry.get(countryCode.toUpperCase()) ?? [];
}

/** Regions of several countries, country by country in the order asked. */
export function regionsOfCountries(countryCodes: string[]): RegionOption[] {
  return countryCodes.flatMap((c) => regionsOf(c));
}

export type CityQuery = { regionIds: string[]; countryIds?: string[]; search?: string; limit: number };

/**
 * Cities of the given regions (or of whole countries when no region is given), names containing
 * `search` (case and accents ignored; names starting with it first), at most `limit`.
 * `total` counts every match, so a picker can say "type to narrow".
 */
export function citiesOf(q: CityQuery): { cities: CityOption[]; total: number } {
  const regionIds = q.regionIds.length
    ? q.regionIds.map((r) => r.toUpperCase())
    : (q.countryIds ?? []).flatMap((c) => regionsOf(c).map((r) => r._id));
  const needle = foldText(q.search?.trim() ?? "");
  const starts: CityEntry[] = [];
  const contains: CityEntry[] = [];
  for (const rid of regionIds) {
    for (const c of citiesInRegion(rid)) {
      if (!needle || c.key.startsWith(needle)) starts.push(c);
      else if (c.key.includes(needle)) contains.push(c);
    }
  }
  const all = starts.concat(contains);
  const cities = all.slice(0, q.limit).map(({ key: _key, ...c }) => c);
  return { cities, total: all.length };
}

/** The city of a stable id such as "US-CA:Los Angeles", if it exists. */
export function cityById(id: string): CityOption | undefined {
  const at = id.indexOf(":");
  if (at < 0) return undefined;
  const c = citiesInRegion(id.slice(0, at).toUpperCase()).find((x) => x._id === id);
  if (!c) return undefined;
  const { key: _key, ...rest } = c;
  return rest;
}

// ---------------------------------------------------------------- the lookup calls

/** The countries as the API lists them (without the currency). */
export function countryList(): Country[] {
  return countries().map(({ currency: _currency, ...country }) => country);
}

function assertCountries(codes: string[], field: string) {
  const unknown = codes.filter((c) => !countryByCode(c));
  if (unknown.length) {
    const message = `Unknown country: ${unknown.join(", ")}`;
    throw invalid(message, [{ path: field, message }]);
  }
}

/** The regions of the given countries; an unknown country is refused on `countryId`. */
export function regionsFor(countryIds: string[]): RegionOption[] {
  assertCountries(countryIds, "countryId");
  return regionsOfCountries(countryIds);
}

/**
 * Cities for the lookup call: unknown countries and regions, and regions outside the given
 * countries, are refused; `message` says when the list is cut short.
 */
export function citiesFor(q: CitiesBody): { cities: CityOption[]; message: string } {
  assertCountries(q.countryIds, "countryId");
  const unknown = q.regionIds.filter((r) => !regionById(r));
  if (unknown.length) {
    const message = `Unknown region: ${unknown.join(", ")}`;
    throw invalid(message, [{ path: "regionId", message }]);
  }
  if (q.regionIds.length && q.countryIds.length) {
    const outside = q.regionIds.filter((r) => !q.countryIds.includes(regionById(r)!.countryCode));
    if (outside.length) {
      const message = `Region ${outside.join(", ")} is not in ${q.countryIds.join(", ")}`;
      throw invalid(message, [{ path: "regionId", message }]);
    }
  }
  const { cities, total } = citiesOf(q);
  const message = total > cities.length
    ? `Showing ${cities.length} of ${total} cities: search to narrow the list`
    : "Success";
  return { cities, message };
}
