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
