/** The list contract shared by every grid: body of list calls and the metadata of their answers. */
import * as v from "valibot";
import { CONTROL_CHARS } from "./text.ts";

export const PAGE_SIZES = [5, 10, 20] as const;
export const MAX_LIMIT = 100;
export const MAX_EXPORT_LIMIT = 1000;

/** The longest free-text search a list takes: longer terms are refused (400), never planned. */
export const MAX_SEARCH = 100;
/** The deepest page a list call takes (deeper pages of any real list are empty anyway). */
export const MAX_PAGE_NO = 1_000_000;
/** The longest filter text (a multi-line search of 10,000 codes fits). */
const MAX_FILTER_TEXT = 500_000;

/** Characters no search or filter holds (shared/text.ts). */
const CONTROL = CONTROL_CHARS;

/** The free-text search of a list: at most MAX_SEARCH characters, no control characters. */
export const searchTerm = v.optional(
  v.pipe(
    v.string("search must be text"),
    v.maxLength(MAX_SEARCH, `search must be at most ${MAX_SEARCH} characters`),
    v.check((s) => !CONTROL.test(s), "search must not hold control characters"),
  ),
  "",
);

const filterText = v.pipe(
  v.string(),
  v.maxLength(MAX_FILTER_TEXT, `A filter must be at most ${MAX_FILTER_TEXT} characters`),
  v.check((s) => !CONTROL.test(s), "A filter must not hold control characters"),
);
const filterNumber = v.pipe(v.number(), v.finite("A filter number must be finite"));

/** Filter values a grid may send: strings, numbers, booleans, lists of those, or null (= not set). */
const FilterValue = v.union([
  filterText,
  filterNumber,
  v.boolean(),
  v.null(),
  v.pipe(
    v.array(v.union([filterText, filterNumber])),
    v.maxLength(10_000, "A filter takes at most 10000 values"),
  ),
]);

export const ListBody = v.object({
  filter: v.optional(v.record(v.pipe(v.string(), v.maxLength(100)), FilterValue), {}),
  search: searchTerm,
  pageNo: v.optional(
    v.pipe(
      v.number("pageNo must be a number"),
      v.integer("pageNo must be a whole number"),
      v.minValue(1, "pageNo must be at least 1"),
      v.maxValue(MAX_PAGE_NO, `pageNo must be at most ${MAX_PAGE_NO}`),
    ),
    1,
  ),
  limit: v.optional(
    v.pipe(v.number("limit must be a number"), v.integer(), v.minValue(1), v.maxValue(MAX_EXPORT_LIMIT)),
    10,
  ),
  /** The grids' active filter: true/false (or "true"/"false", 1/0); "any", "" or null for no filter. */
  status: v.optional(
    v.union(
      [v.boolean(), v.picklist(["true", "false", "1", "0", "any", ""]), v.picklist([1, 0]), v.null()],
      'status must be true, false or "any"',
    ),
  ),
  sortBy: v.optional(
    v.pipe(v.string("sortBy must be text"), v.maxLength(100, "sortBy must be at most 100 characters")),
  ),
  sortDir: v.optional(v.picklist(["asc", "desc"])),
  /** "exact": answer only the exact number of matching rows (no rows); see ListMetadata.more. */
  count: v.optional(v.picklist(["exact"], 'count must be "exact"')),
});
export type ListBody = v.InferOutput<typeof ListBody>;

/**
 * `total` is exact unless `more` is true: large results are counted up to a window past the page
 * ("1,000+"), and the exact figure is asked for separately with `count: "exact"`.
 */
export type ListMetadata = { total: number; limit: number; pageNo: number; more?: boolean };
export type ListResult<T> = { data: T[]; metadata: ListMetadata };

/** One column of a list's CSV export: its header and how a row gives its cell. */
export type CsvColumn<T> = { header: string; value: (row: T) => unknown };

/** How a list filter's value is read: the grid's toolbar and the server's list spec agree on these keys. */
export type FilterKind = "text" | "texts" | "flag" | "number" | "numbers" | "date";

/** A column of the list as exported: its CSV header and how a row gives the cell. */
export type ListColumn<T> = CsvColumn<T> & { key: string };

/**
 * One declaration per list, in `shared/api/<area>.ts`: the call that serves it, the filter keys it
 * takes (and of what kind), the sorts it allows, and its columns with their CSV headers. The
 * server's list spec must implement exactly these filters and sorts (type-checked by
 * `listSpecOf`), its CSV is these columns, and the web grid's toolbar may only name these filters.
 */
export type ListDeclaration<T, F extends string = string, S extends string = string> = {
  /** Names the list: the CSV file name and the grid's cache key. */
  id: string;
  /** The list call's contract (a POST taking the list body). */
  call: {
    key: string;
    path: string;
    method: string;
    result: { readonly __returns?: (t: ListResult<T>) => unknown };
  };
  filters: { readonly [K in F]: FilterKind };
  sorts: readonly S[];
  columns: readonly ListColumn<T>[];
};

/** Declares a list for rows of type T: `defineList<ClientListItem>()({ ... })`. */
export function defineList<T>() {
  return <const F extends string, const S extends string>(decl: ListDeclaration<T, F, S>) => decl;
}

export type RowOf<L> = L extends ListDeclaration<infer T> ? T : never;
export type FilterKeyOf<L> = L extends ListDeclaration<unknown, infer F> ? F : never;
export type SortKeyOf<L> = L extends ListDeclaration<unknown, string, infer S> ? S : never;
