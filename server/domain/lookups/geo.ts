/**
 * Reference geography from a well-kept data package, held in memory (read-only): countries by ISO
 * alpha-2 code with name, flag and dialling code. Country ids throughout the product are these codes.
 */
import { Country } from "country-state-city";

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
