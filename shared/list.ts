/** The list contract shared by every grid: body of list calls and the metadata of their answers. */
import * as v from "valibot";

export const PAGE_SIZES = [5, 10, 20] as const;
export const MAX_LIMIT = 100;
export const MAX_EXPORT_LIMIT = 1000;

/** Filter values a grid may send: strings, numbers, booleans, lists of those, or null (= not set). */
const FilterValue = v.union([
  v.string(),
  v.number(),
  v.boolean(),
  v.null(),
  v.array(v.union([v.string(), v.number()])),
]);

export const ListBody = v.object({
  filter: v.optional(v.record(v.string(), FilterValue), {}),
  search: v.optional(v.string(), ""),
  pageNo: v.optional(v.pipe(v.number("pageNo must be a number"), v.integer(), v.minValue(1)), 1),
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
  sortBy: v.optional(v.string()),
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
  // deno-lint-ignore no-explicit-any
  call: {
    key: string;
    path: string;
    method: string;
    result: { readonly __returns?: (t: ListResult<T>) => any };
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
