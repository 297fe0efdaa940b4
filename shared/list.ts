/** The list contract shared by every grid: body of list calls and the metadata of their answers. */
import * as v from "valibot";

export const PAGE_SIZES = [5, 10, 20] as const;
export const MAX_LIMIT = 100;
export const MAX_EXPORT_LIMIT = 1000;

/** The longest free-text search a list takes: longer terms are refused (400), never planned. */
export const MAX_SEARCH = 100;
/** The deepest page a list call takes (deeper pages of any real list are empty anyway). */
export const MAX_PAGE_NO = 1_000_000;
/** The longest filter text (a multi-line search of 10,000 codes fits). */
const MAX_FILTER_TEXT = 500_000;

/** Characters no search or filter holds: C0 controls (NUL included) other than tab and line breaks. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

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
