/**
 * ISO 4217 currencies from a well-kept data package, held in memory: `_id` is the code. Symbols come
 * from the runtime's ICU data. Units of account, precious metals, fund and test codes are left out:
 * nobody prices a survey complete in them.
 */
import { once } from "../../lib/memo.ts";
import cc from "currency-codes";

import type { CurrencyOption } from "../../../shared/api/lookups.ts";

export type { CurrencyOption };

/** The preset currency of a new child project (part 1, section 9: "a fixed preset id"). */
export const DEFAULT_CURRENCY = "USD";

const NOT_MONEY: ReadonlySet<string> = new Set([
  // supranational units of account and regional clearing units
  "XDR",
  "XSU",
  "XUA",
  // fund and next-day codes that stand beside a real currency
  "BOV",
  "CHE",
  "CHW",
  "CLF",
  "COU",
  "MXV",
  "USN",
  "UYI",
  "UYW",
]);

function symbolOf(code: string): string | undefined {
  try {
    const part = new Intl.NumberFormat("en", {
      style: "currency",
      currency: code,
      currencyDisplay: "narrowSymbol",
    })
      .formatToParts(0).find((p) => p.type === "currency")?.value;
    return part && part !== code ? part : undefined;
  } catch {
    return undefined;
  }
}

/** The list, sorted by code, and its index by code: built once per process. */
const table = once(() => {
  const list: CurrencyOption[] = cc.data
    // metals, bond units, test and "no currency" codes are listed under pseudo-countries "Zz.."
    .filter((d) => !NOT_MONEY.has(d.code) && !d.countries.every((c) => /^zz\d/i.test(c)))
    .map((d) => {
      const symbol = symbolOf(d.code);
      return {
        _id: d.code,
        label: `${d.code} - ${d.currency}`,
        value: d.code,
        name: d.currency,
        ...(symbol ? { symbol } : {}),
        digits: d.digits,
      };
    })
    .sort((a, b) => a._id.localeCompare(b._id));
  return { list, byCode: new Map(list.map((c) => [c._id, c])) };
});

export function currencies(): CurrencyOption[] {
  return table().list;
}

export function currencyByCode(code: string | null | undefined): CurrencyOption | undefined {
  if (!code) return undefined;
  return table().byCode.get(code.toUpperCase());
}

export const isCurrencyCode = (code: unknown): code is string =>
  typeof code === "string" && !!currencyByCode(code);
