/**
 * The list query kit every grid uses: allow-listed filters and sorts, search over named columns,
 * count and page from the same `where`. Unknown filter keys are ignored, never interpolated.
 */
import { type Expression, type SelectQueryBuilder, sql } from "kysely";
import type { ListBody, ListResult } from "../../shared/list.ts";
import { MAX_LIMIT } from "../../shared/list.ts";

// deno-lint-ignore no-explicit-any
export type AnyQB = SelectQueryBuilder<any, any, any>;
type FilterValue = ListBody["filter"][string];

export type ListSpec = {
  /** Columns (or expressions, e.g. a number cast to text) searched with LIKE (ORed) by the free-text search. */
  search?: (string | Expression<unknown>)[];
  /** Custom free-text search (e.g. also matching child rows); gets the escaped LIKE pattern. */
  searchWhere?: (qb: AnyQB, pattern: string) => AnyQB;
  /** Multi-line search: one exact value per line, matched against these columns (ORed). */
  multiSearch?: string[];
  /** Allow-listed filters: key of `filter` -> how it narrows the query. */
  filters?: Record<string, (qb: AnyQB, value: NonNullable<FilterValue>) => AnyQB>;
  /** How the body's `status` narrows the query (isActive for most lists). */
  status?: (qb: AnyQB, value: string | number | boolean) => AnyQB;
  /** Allow-listed sorts: key -> column. */
  sorts?: Record<string, string>;
  /** Default order; a unique column last keeps paging stable. */
  defaultSort: [string, "asc" | "desc"][];
  maxLimit?: number;
};

const isSet = (val: FilterValue): val is NonNullable<FilterValue> =>
  val !== null && val !== undefined && val !== "" && !(Array.isArray(val) && val.length === 0);

/** true/"true"/1 means active, anything else inactive: the grids' status filter. */
export function isTruthyFlag(val: unknown): boolean {
  return val === true || val === "true" || val === 1 || val === "1";
}

/** The usual `status` of a grid: its active switch, on the given column. */
export const activeStatus = (column = "isActive") => (qb: AnyQB, val: string | number | boolean) =>
  qb.where(sql.ref(column), "=", isTruthyFlag(val) ? 1 : 0);

/** A filter whose value is one code or a list of codes (countries, types), matched with IN. */
export const inFilter = (column: string, normalize: (s: string) => string = (s) => s) =>
(
  qb: AnyQB,
  val: NonNullable<FilterValue>,
) => {
  const list = (Array.isArray(val) ? val : [val]).map((x) => normalize(String(x))).filter(Boolean);
  return list.length ? qb.where(sql.ref(column), "in", list) : qb;
};

export function escapeLike(s: string) {
  return s.replace(/[\\%_]/g, (m) => "\\" + m);
}

/** The filtered query, without paging or order. */
export function applyListFilters(base: AnyQB, body: ListBody, spec: ListSpec): AnyQB {
  let qb = base;
  const search = body.search?.trim();
  if (search && spec.searchWhere) {
    qb = spec.searchWhere(qb, `%${escapeLike(search)}%`);
  } else if (search && spec.search?.length) {
    const pattern = `%${escapeLike(search)}%`;
    qb = qb.where((eb) =>
      eb.or(
        spec.search!.map((col) =>
          eb(typeof col === "string" ? sql.ref(col) : col, "like", sql`${pattern} escape '\\'`)
        ),
      )
    );
  }
  for (const [key, val] of Object.entries(body.filter ?? {})) {
    if (key === "multiSearch" && typeof val === "string" && spec.multiSearch?.length) {
      const lines = [...new Set(val.split(/[\r\n,]+/).map((s) => s.trim()).filter(Boolean))].slice(0, 10_000);
      if (lines.length) {
        qb = qb.where((eb) => eb.or(spec.multiSearch!.map((col) => eb(sql.ref(col), "in", lines))));
      }
      continue;
    }
    const apply = spec.filters?.[key];
    if (apply && isSet(val)) qb = apply(qb, val);
  }
  if (
    spec.status && body.status !== undefined && body.status !== null && body.status !== "" &&
    body.status !== "any"
  ) {
    qb = spec.status(qb, body.status);
  }
  return qb;
}

export function applyListOrder(qb: AnyQB, body: ListBody, spec: ListSpec): AnyQB {
  const col = body.sortBy ? spec.sorts?.[body.sortBy] : undefined;
  let out = qb;
  if (col) out = out.orderBy(sql.ref(col), body.sortDir ?? "asc");
  for (const [c, dir] of spec.defaultSort) out = out.orderBy(sql.ref(c), dir);
  return out;
}

/** One page plus `{ total, limit, pageNo }`. */
export async function runList<T>(
  base: AnyQB,
  body: ListBody,
  spec: ListSpec,
  map: (row: never) => T,
): Promise<ListResult<T>> {
  const limit = Math.min(body.limit ?? 10, spec.maxLimit ?? MAX_LIMIT);
  const pageNo = body.pageNo ?? 1;
  const filtered = applyListFilters(base, body, spec);
  const [{ total }] = await filtered.clearSelect().clearOrderBy().select(sql<number>`count(*)`.as("total"))
    .execute();
  const rows = await applyListOrder(filtered, body, spec).limit(limit).offset((pageNo - 1) * limit).execute();
  return { data: rows.map((r) => map(r as never)), metadata: { total: Number(total), limit, pageNo } };
}

/** Every matching row, in pages, for exports. */
export async function* iterateList<T>(
  base: AnyQB,
  body: ListBody,
  spec: ListSpec,
  map: (row: never) => T,
  pageSize = 1000,
) {
  const ordered = applyListOrder(applyListFilters(base, body, spec), body, spec);
  for (let offset = 0;; offset += pageSize) {
    const rows = await ordered.limit(pageSize).offset(offset).execute();
    if (rows.length) yield rows.map((r) => map(r as never));
    if (rows.length < pageSize) return;
  }
}
