/** ISO 639-1 languages from a well-kept data package, held in memory: `_id` is the two-letter code. */
import { once } from "../../lib/memo.ts";
import ISO6391 from "iso-639-1";

import type { LanguageOption } from "../../../shared/api/lookups.ts";

export type { LanguageOption };

/** The child project form's default language (part 1, section 9). */
export const DEFAULT_LANGUAGE = "en";

/** The list, sorted by name, and its index by code: built once per process. */
const table = once(() => {
  const list: LanguageOption[] = ISO6391.getAllCodes()
    .map((code) => ({
      _id: code,
      label: ISO6391.getName(code),
      value: code,
      nativeName: ISO6391.getNativeName(code),
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return { list, byCode: new Map(list.map((l) => [l._id, l])) };
});

export function languages(): LanguageOption[] {
  return table().list;
}

export function languageByCode(code: string | null | undefined): LanguageOption | undefined {
  if (!code) return undefined;
  return table().byCode.get(code.toLowerCase());
}

export const isLanguageCode = (code: unknown): code is string =>
  typeof code === "string" && !!languageByCode(code);
