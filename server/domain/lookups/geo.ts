/**
 * Reference geography from a well-kept data package, held in memory (read-only): countries by ISO
 * alpha-2 code with name, flag and dialling code; regions ("US-CA") and cities ("US-CA:Los Angeles")
 * indexed on first use. Country ids throughout the product are these codes.
 */
import { City, Country, State } from "country-state-city";

export type CountryOption = {
  _id: string;
  label: string;
  value: string;
  code: string;
  flag: string;
  phonecode: string;
  currency: string;
};

let cache: CountryOption[] | null = null;
let byCode: Map<string, CountryOption> | null = null;

export function countries(): CountryOption[] {
  if (!cache) {
    cache = Country.getAllCountries()
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
    byCode = new Map(cache.map((c) => [c.code, c]));
  }
  return cache;
}

export function countryByCode(code: string | null | undefined): CountryOption | undefined {
  if (!code) return undefined;
  countries();
  return byCode!.get(code.toUpperCase());
}

export const isCountryCode = (code: unknown): code is string =>
  typeof code === "string" && !!countryByCode(code);

// ---------------------------------------------------------------- regions and cities

export type RegionOption = { _id: string; label: string; value: string; code: string; countryCode: string };
export type CityOption = { _id: string; label: string; value: string; regionId: string; countryCode: string };

type CityEntry = CityOption & { key: string };

let regionsByCountry: Map<string, RegionOption[]> | null = null;
let regionIndex: Map<string, RegionOption> | null = null;
let citiesByRegion: Map<string, CityEntry[]> | null = null;

/** Folds case and accents so "sao" finds "São Paulo". */
export const foldText = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

function loadRegions() {
  if (regionsByCountry) return;
  const byCountry = new Map<string, RegionOption[]>();
  const byId = new Map<string, RegionOption>();
  for (const s of State.getAllStates()) {
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
  regionsByCountry = byCountry;
  regionIndex = byId;
}

function loadCities() {
  if (citiesByRegion) return;
  loadRegions();
  const byRegion = new Map<string, CityEntry[]>();
  for (const c of City.getAllCities()) {
    const regionId = `${c.countryCode}-${c.stateCode}`.toUpperCase();
    const id = `${regionId}:${c.name}`;
    const list = byRegion.get(regionId) ?? [];
    list.push({
      _id: id,
      label: c.name,
      value: id,
      regionId,
      countryCode: c.countryCode,
      key: foldText(c.name),
    });
    byRegion.set(regionId, list);
  }
  for (const list of byRegion.values()) list.sort((a, b) => a.label.localeCompare(b.label));
  citiesByRegion = byRegion;
}

export function regionById(id: string | null | undefined): RegionOption | undefined {
  if (!id) return undefined;
  loadRegions();
  return regionIndex!.get(id.toUpperCase());
}

/** Regions of one country, by name; [] for a country without regions (and for an unknown one). */
export function regionsOf(countryCode: string): RegionOption[] {
  loadRegions();
  return regionsByCountry!.get(countryCode.toUpperCase()) ?? [];
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
  loadCities();
  const regionIds = q.regionIds.length
    ? q.regionIds.map((r) => r.toUpperCase())
    : (q.countryIds ?? []).flatMap((c) => regionsOf(c).map((r) => r._id));
  const needle = foldText(q.search?.trim() ?? "");
  const starts: CityEntry[] = [];
  const contains: CityEntry[] = [];
  for (const rid of regionIds) {
    for (const c of citiesByRegion!.get(rid) ?? []) {
      if (!needle) starts.push(c);
      else if (c.key.startsWith(needle)) starts.push(c);
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
  loadCities();
  const c = citiesByRegion!.get(id.slice(0, at).toUpperCase())?.find((x) => x._id === id);
  if (!c) return undefined;
  const { key: _key, ...rest } = c;
  return rest;
}
