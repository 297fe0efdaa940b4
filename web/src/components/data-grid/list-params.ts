/**
 * The URL side of a list, without React: which parameters a declaration owns, the state they
 * encode, and the POST body built from them (`{ filter, search, pageNo, limit, status }`).
 */
import { PAGE_SIZES } from "../../../../shared/list.ts";
import type { ListBody } from "../../../../shared/list.ts";
import type { FilterDecl, FilterValue, ListDecl } from "./types.ts";

export const SEARCH_PARAM = "q";
export const LINES_PARAM = "lines";
export const STATUS_PARAM = "status";
export const SIZE_PARAM = "size";
/** The grid's order: one of the list's declared sorts, and its direction ("desc", else ascending). */
export const SORT_PARAM = "sort";
export const DIR_PARAM = "dir";

export type StatusValue = "any" | "true" | "false";

export function sortKey(f: Extract<FilterDecl, { kind: "sortBy" }>) {
  return f.key ?? "sortDate";
}

export function dateKeys(f: Extract<FilterDecl, { kind: "dateRange" }>) {
  return { min: f.minKey ?? "minDate", max: f.maxKey ?? "maxDate" };
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Every URL parameter the declaration's filters own (page and page size aside). */
export function ownedParams(filters: readonly FilterDecl[]): string[] {
  return filters.flatMap((f) => {
    switch (f.kind) {
      case "search":
        return [SEARCH_PARAM];
      case "multiSearch":
        return [LINES_PARAM];
      case "select":
        return [f.key];
      case "status":
        return [STATUS_PARAM];
      case "sortBy":
        return [sortKey(f)];
      case "dateRange": {
        const k = dateKeys(f);
        return [k.min, k.max];
      }
      default:
        return [];
    }
  });
}

type SelectDecl = Extract<FilterDecl, { kind: "select" }>;

/**
 * A select's values as the URL states them: its default while the URL does not name it, none when
 * the URL names it empty (`?key=`), else the values given.
 */
export function selectValues(params: URLSearchParams, f: SelectDecl): string[] {
  if (!params.has(f.key) && f.defaultValue !== undefined) {
    return (Array.isArray(f.defaultValue) ? f.defaultValue : [f.defaultValue]).filter(Boolean);
  }
  return params.getAll(f.key).filter(Boolean);
}

/**
 * What a select's choice writes to the URL: the values; for none, nothing (the key dropped) unless
 * the select has a default, which an absent key would bring back, so then an empty key.
 */
export function selectParam(f: SelectDecl, values: string[]): string | string[] | null {
  if (values.length) return values;
  return f.defaultValue !== undefined ? "" : null;
}

/** Page, page size, search and status as the URL states them (bad values fall back to defaults). */
export function readListState<T>(params: URLSearchParams, decl: ListDecl<T>) {
  const pageSizes = decl.pageSizes ?? PAGE_SIZES;
  const defaultSize = decl.defaultPageSize ?? 10;
  const pageParam = decl.pageParam ?? "page";
  const pageNo = Math.max(1, Math.floor(Number(params.get(pageParam)) || 1));
  const sizeRaw = Number(params.get(SIZE_PARAM));
  const limit = pageSizes.includes(sizeRaw) ? sizeRaw : defaultSize;
  const search = params.get(SEARCH_PARAM) ?? "";
  const statusRaw = params.get(STATUS_PARAM);
  const status: StatusValue = statusRaw === "true" || statusRaw === "false" ? statusRaw : "any";
  return { pageNo, limit, search, status, pageSizes, defaultSize, pageParam };
}

/** The list call's body for the URL's state: only the declared filters, typed as declared. */
export function buildListBody<T>(params: URLSearchParams, decl: ListDecl<T>): ListBody {
  const { pageNo, limit, search, status } = readListState(params, decl);
  const filter = { ...decl.fixedFilter } as Record<string, FilterValue>;
  for (const f of decl.filters ?? []) {
    if (f.kind === "select") {
      const values = selectValues(params, f);
      const typed = f.numeric ? values.map(Number).filter(Number.isFinite) : values;
      if (f.multiple) {
        if (typed.length) filter[f.key] = typed;
      } else if (typed.length) filter[f.key] = typed[0];
    } else if (f.kind === "sortBy") {
      const val = Number(params.get(sortKey(f)));
      if ([1, 2, 3].includes(val)) filter[sortKey(f)] = val;
    } else if (f.kind === "dateRange") {
      const k = dateKeys(f);
      const min = params.get(k.min) ?? "", max = params.get(k.max) ?? "";
      const okMin = ISO_DAY.test(min), okMax = ISO_DAY.test(max) && (!okMin || max >= min);
      if (okMin) filter[k.min] = min;
      if (okMax) filter[k.max] = max;
    } else if (f.kind === "multiSearch") {
      const lines = params.get(LINES_PARAM);
      if (lines?.trim()) filter.multiSearch = lines;
    }
  }
  const body: ListBody = { filter, search: search.trim(), pageNo, limit };
  if (status !== "any") body.status = status === "true";
  const sortBy = params.get(SORT_PARAM);
  if (sortBy && decl.list.sorts.includes(sortBy)) {
    body.sortBy = sortBy;
    body.sortDir = params.get(DIR_PARAM) === "desc" ? "desc" : "asc";
  }
  return body;
}
