/**
 * Rows to API records: `id` becomes `_id`, and 0/1 integers in boolean columns (named is*, allow*,
 * has*) become true/false. One convention for every table, so serializers stay one-liners.
 */
const BOOL = /^(is|allow|has)[A-Z]/;

type FlagKey = `is${Capitalize<string>}` | `allow${Capitalize<string>}` | `has${Capitalize<string>}`;

/** A row as the API shows it: `_id`, and the 0/1 flag columns (is*, allow*, has*) as booleans. */
export type ApiRecord<T> =
  & { _id: string }
  & { [K in Exclude<keyof T, "id">]: K extends FlagKey ? (T[K] extends number ? boolean : T[K]) : T[K] };

export function toApi<T extends Record<string, unknown>>(row: T): ApiRecord<T> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(row)) {
    if (k === "id") out._id = val;
    else if (BOOL.test(k) && (val === 0 || val === 1)) out[k] = val === 1;
    else out[k] = val;
  }
  return out as ApiRecord<T>;
}

export const bool = (b: boolean | undefined | null) => (b ? 1 : 0);

/** Converts API booleans to 0/1 for the columns of a patch, leaving other values as they are. */
export function toRow<T extends Record<string, unknown>>(patch: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(patch)) {
    if (val === undefined) continue;
    out[k] = typeof val === "boolean" ? (val ? 1 : 0) : val;
  }
  return out;
}
