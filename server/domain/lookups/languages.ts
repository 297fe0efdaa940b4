/** ISO 639-1 languages from a well-kept data package, held in memory: `_id` is the two-letter code. */
import ISO6391 from "iso-639-1";

import type { LanguageOption } from "../../../shared/api/lookups.ts";

export type { LanguageOption };

/** The child project form's default language (part 1, section 9). */
export const DEFAULT_LANGUAGE = "en";

let cache: LanguageOption[] | null = null;
let byCode: Map<string, LanguageOption> | null = null;

export function languages(): LanguageOption[] {
  if (!cache) {
    cache = ISO6391.getAllCodes()
      .map((code) => ({
        _id: code,
        label: ISO6391.getName(code),
        value: code,
        nativeName: ISO6391.getNativeName(code),
      }))
      .sort((a, b) => a.label.localeCompare(b.label));
    byCode = new Map(cache.map((l) => [l._id, l]));
  }
  return cache;
}

export function languageByCode(code: string | null | undefined): LanguageOption | undefined {
  if (!code) return undefined;
  languages();
  return byCode!.get(code.toLowerCase());
}

export const isLanguageCode = (code: unknown): code is string =>
  typeof code === "string" && !!languageByCode(code);
