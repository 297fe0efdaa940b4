/**
 * The list query kit every grid uses: allow-listed filters and sorts, search over named columns,
 * count and page from the same `where`. Unknown filter keys and undeclared sorts are refused (400), never
 * interpolated.
 *
 * Built to stay fast on large tables:
 * - Totals are counted exactly only up to a window past the page (`countWindow`, 1,000 rows by
 *   default); beyond it the answer says `more: true` and `total` is a lower bound. The exact figure
 *   is one more call away (`count: "exact"`), which the grid makes in the background, once per
 *   filter set rather than once per page.
 * - A list with a trigram index (`fts`) answers a search of 3+ characters from the index when the
 *   term is rare, and with an early-stopping LIKE scan in the grid's order when the term is common
 *   (the index would hand back most of the table to sort). Both find the same rows.
 * - No search costs more than a small constant times a short one: terms are at most MAX_SEARCH
 *   characters (longer ones are refused, here too), a short term is one index phrase, a longer one
 *   asks the index for at most FTS_MAX_TRIGRAMS of its trigrams and LIKE checks the few rows found.
 */
import { type Expression, type SelectQueryBuilder, sql } from "kysely";
import type { Db } from "./connection.ts";
import type { FilterKeyOf, ListBody, ListDeclaration, ListResult, SortKeyOf } from "../../shared/list.ts";
import { MAX_LIMIT, MAX_SEARCH } from "../../shared/list.ts";
import { invalid } from "../domain/errors.ts";

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
  /** Default order; a unique column last keeps paging stable (and lets deep pages be read from the end). */
  defaultSort: [string, "asc" | "desc"][];
  maxLimit?: number;
  /**
   * The listed table's rowid as the base query names it (e.g. "users.rowid"): lets the search index
   * and exports address rows directly. Required with `fts`.
   */
  rowid?: string;
  /** A trigram full-text index over exactly the `search` columns (a migration creates and maintains it). */
  fts?: FtsIndex;
  /** Totals are exact up to this many rows past the page, then a lower bound (default 1,000). */
  countWindow?: number;
  /**
   * Count with the page, in one statement (the matching rows materialized once, then paged and
   * counted): for a base query that costs as much to count as to page (an aggregate read whole
   * either way), so it is read once. Its sorts must name the base query's output columns. An empty
   * page (past the end, or nothing matches) is counted apart.
   */
  countWithPage?: boolean;
};

export type FilterFn = (qb: AnyQB, value: NonNullable<FilterValue>) => AnyQB;

/**
 * The server's half of a list declared in `shared/api/`: how each declared filter narrows the query
 * and which column each declared sort orders by. Exactly the declared keys, no more, no fewer
 * (type-checked), so the grid's toolbar and the server cannot drift apart.
 */
export function listSpecOf<L extends ListDeclaration<never>>(
  _decl: L,
  spec: Omit<ListSpec, "filters" | "sorts"> & {
    filters: { [K in FilterKeyOf<L>]: FilterFn };
    sorts: { [K in SortKeyOf<L>]: string };
  },
): ListSpec {
  return spec;
}

export type FtsIndex = {
  /** The FTS5 table (tokenize='trigram', external content on the listed table, keyed by its rowid). */
  table: string;
  /** Under this many index matches a term is rare: its rows are looked up by rowid (1,000). */
  rareBelow?: number;
  /** At this many a term is common: a LIKE scan in order fills a page soonest (10,000). */
  commonAt?: number;
};

/**
 * How the free-text search runs: not at all, LIKE over the columns, through the trigram index, or
 * over the rows a rare term's index probe already found (their rowids).
 */
export type SearchPlan =
  | { kind: "none" }
  | { kind: "like" }
  | { kind: "fts" }
  | { kind: "rows"; rowids: number[] };

export const COUNT_WINDOW = 1_000;
const RARE_BELOW = 1_000;
const COMMON_AT = 10_000;
/** Pages this deep read more rows through LIKE than the index would hand back: use the index. */
const LIKE_MAX_OFFSET = 1_000;

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

/** The `minDate`/`maxDate` filters of a date range on `column` (the day of maxDate included). */
export const dateRangeFilters = (column: string) => ({
  minDate: (qb: AnyQB, val: NonNullable<FilterValue>) => qb.where(sql.ref(column), ">=", String(val)),
  maxDate: (qb: AnyQB, val: NonNullable<FilterValue>) =>
    qb.where(sql.ref(column), "<", `${String(val).slice(0, 10)}T23:59:59.999Z`),
});

/**
 * A filter (or status) whose value is one number code or a list of them (project statuses, say).
 * Values that are not numbers (a `true` from a grid's active switch, text) narrow nothing: a list
 * of codes has no active switch, and NaN must never reach the SQL.
 */
export const inNumberFilter = (column: string) => (qb: AnyQB, val: NonNullable<FilterValue>) => {
  const list = (Array.isArray(val) ? val : [val])
    .filter((x) => typeof x === "number" || (typeof x === "string" && x.trim() !== ""))
    .map(Number).filter(Number.isFinite);
  return list.length ? qb.where(sql.ref(column), "in", list) : qb;
};

/**
 * A search term escaped for `LIKE ... escape '\\'`. Refuses (400) a term longer than MAX_SEARCH or
 * holding a NUL: a LIKE costs the term's length times the column's per row, and SQLite refuses
 * patterns over 50,000 bytes outright; every search of every list and picker comes through here.
 */
export function escapeLike(s: string) {
  checkSearch(s);
  return s.replace(/[\\%_]/g, (m) => "\\" + m);
}

/** Throws the 400 of a search term too long to plan, or holding a NUL. */
export function checkSearch(s: string) {
  if (s.length > MAX_SEARCH * 2 || [...s].length > MAX_SEARCH) {
    throw invalid(`search must be at most ${MAX_SEARCH} characters`, [{
      path: "search",
      message: `search must be at most ${MAX_SEARCH} characters`,
    }]);
  }
  if (s.includes("\0")) {
    throw invalid("search must not hold control characters", [{
      path: "search",
      message: "search must not hold control characters",
    }]);
  }
}

/**
 * A term with letters beyond ASCII, up to this many characters, is one index phrase: exact, every
 * letter's case folded (LIKE folds ASCII only). A phrase costs a trigram lookup per character.
 */
export const FTS_PHRASE_MAX = 8;
/** A longer term asks the index for at most this many of its distinct trigrams, spread over it. */
export const FTS_MAX_TRIGRAMS = 6;

const ASCII = /^[\x20-\x7e]*$/;
const quoteFts = (s: string) => `"${s.replaceAll('"', '""')}"`;

/**
 * The index query for a search term, or null when the index cannot answer it (under 3 characters).
 * `exact`: the index alone finds exactly the term's rows (one trigram, or a short term beyond ASCII
 * as one phrase); otherwise the query names at most FTS_MAX_TRIGRAMS distinct trigrams of the term,
 * all of which a matching row holds, and LIKE checks the rows it finds (exact for an ASCII term; a
 * longer term's other letters then match as typed). Its cost never grows with the term's length.
 */
export function ftsQuery(search: string): { match: string; exact: boolean } | null {
  const chars = [...search];
  if (chars.length < 3) return null;
  if (chars.length === 3 || (chars.length <= FTS_PHRASE_MAX && !ASCII.test(search))) {
    return { match: quoteFts(search), exact: true };
  }
  const trigrams: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) {
    const t = chars.slice(i, i + 3).join("");
    const key = t.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      trigrams.push(t);
    }
  }
  // first, last and evenly between: a typo anywhere in the term still narrows the search
  const picked = trigrams.length <= FTS_MAX_TRIGRAMS ? trigrams : Array.from(
    { length: FTS_MAX_TRIGRAMS },
    (_, i) => trigrams[Math.round(i * (trigrams.length - 1) / (FTS_MAX_TRIGRAMS - 1))],
  );
  return { match: [...new Set(picked)].map(quoteFts).join(" AND "), exact: false };
}

/** The LIKE condition of a search over the spec's columns (ORed). */
function likeWhere(qb: AnyQB, search: string, columns: (string | Expression<unknown>)[]): AnyQB {
  const pattern = `%${escapeLike(search)}%`;
  return qb.where((eb) =>
    eb.or(
      columns.map((col) =>
        eb(typeof col === "string" ? sql.ref(col) : col, "like", sql`${pattern} escape '\\'`)
      ),
    )
  );
}

/**
 * Decides how the search runs for a page starting at `offset`, from a bounded count of the term's
 * matches in the trigram index (a few ms): a rare term runs over the rows the index found; a common
 * one with a LIKE scan in the grid's order that stops once the page and its count window are full
 * (unless the page is deep); anything between through the index.
 */
export async function planSearch(db: Db, body: ListBody, spec: ListSpec, offset = 0): Promise<SearchPlan> {
  const search = body.search?.trim();
  if (!search) return { kind: "none" };
  checkSearch(search);
  const query = ftsQuery(search);
  if (spec.searchWhere || !spec.fts || !spec.rowid || !query) return { kind: "like" };
  const term = query.match;
  const rare = spec.fts.rareBelow ?? RARE_BELOW;
  const common = spec.fts.commonAt ?? COMMON_AT;
  const table = sql.table(spec.fts.table);
  const { rows: [probe] } = await sql<
    { n: number }
  >`select count(*) as n from (select 1 from ${table} where ${table} match ${term} limit ${common})`
    .execute(db);
  const n = Number(probe?.n ?? 0);
  if (n < rare) {
    const { rows } = await sql<{ rowid: number }>`select rowid from ${table} where ${table} match ${term}`
      .execute(db);
    return { kind: "rows", rowids: rows.map((r) => Number(r.rowid)) };
  }
  // LIKE folds the case of ASCII letters only: a short term with others stays with the index, which folds all
  const ascii = ASCII.test(search);
  return n >= common && ascii && offset < LIKE_MAX_OFFSET ? { kind: "like" } : { kind: "fts" };
}

/** 400: the filter key names no filter of the list; the message names the ones it has. */
function unknownFilter(key: string, spec: ListSpec) {
  const known = [...Object.keys(spec.filters ?? {}), ...(spec.multiSearch?.length ? ["multiSearch"] : [])];
  const message = `Unknown filter "${key.slice(0, 100)}"` +
    (known.length ? `: this list filters on ${known.sort().join(", ")}` : ": this list takes no filter");
  return invalid(message, [{ path: `filter.${key.slice(0, 100)}`, message }]);
}

/** The filtered query, without paging or order. `plan` from planSearch (LIKE when not given). */
export function applyListFilters(
  base: AnyQB,
  body: ListBody,
  spec: ListSpec,
  plan: SearchPlan = { kind: "like" },
): AnyQB {
  let qb = base;
  const search = body.search?.trim();
  const query = search && (plan.kind === "fts" || plan.kind === "rows") ? ftsQuery(search) : null;
  if (search && spec.searchWhere) {
    qb = spec.searchWhere(qb, `%${escapeLike(search)}%`);
  } else if (search && spec.fts && spec.rowid && plan.kind === "rows") {
    qb = qb.where(
      sql.ref(spec.rowid),
      "in",
      sql`(select value from json_each(${JSON.stringify(plan.rowids)}))`,
    );
  } else if (query && spec.fts && spec.rowid) {
    const table = sql.table(spec.fts.table);
    qb = qb.where(
      sql.ref(spec.rowid),
      "in",
      sql`(select rowid from ${table} where ${table} match ${query.match})`,
    );
  } else if (search && spec.search?.length) {
    qb = likeWhere(qb, search, spec.search);
  }
  // a long term's index query holds only some of its trigrams: LIKE checks the rows it found
  if (search && query && !query.exact && !spec.searchWhere && spec.search?.length) {
    qb = likeWhere(qb, search, spec.search);
  }
  for (const [key, val] of Object.entries(body.filter ?? {})) {
    if (key === "multiSearch" && spec.multiSearch?.length) {
      if (typeof val !== "string") continue;
      const lines = [...new Set(val.split(/[\r\n,]+/).map((s) => s.trim()).filter(Boolean))].slice(0, 10_000);
      if (lines.length) {
        qb = qb.where((eb) => eb.or(spec.multiSearch!.map((col) => eb(sql.ref(col), "in", lines))));
      }
      continue;
    }
    const apply = spec.filters?.[key];
    // a key the list does not filter on is a mistake of the caller, not a filter of nothing (null
    // is "not set": a shared filter schema's default for a key this list does not take)
    if (!apply && val !== null && val !== undefined) throw unknownFilter(key, spec);
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

/**
 * The column a body's `sortBy` orders by: one of the list's declared sorts, else a 400 naming them
 * (a header can only ask for a declared sort; anything else is a caller's mistake, never ignored).
 */
export function sortColumn(spec: ListSpec, sortBy: string): string {
  const sorts = spec.sorts ?? {};
  if (Object.hasOwn(sorts, sortBy)) return sorts[sortBy];
  const keys = Object.keys(sorts);
  const message = keys.length
    ? `sortBy must be one of: ${keys.join(", ")}`
    : "This list cannot be sorted: leave sortBy out";
  throw invalid(message, [{ path: "sortBy", message }]);
}

/** The grid's order (`reverse`: exactly backwards, NULLs included, for reading a list from its end). */
export function applyListOrder(qb: AnyQB, body: ListBody, spec: ListSpec, reverse = false): AnyQB {
  const col = body.sortBy ? sortColumn(spec, body.sortBy) : undefined;
  const flip = (dir: "asc" | "desc") => (reverse ? (dir === "asc" ? "desc" : "asc") : dir);
  let out = qb;
  if (col) out = out.orderBy(sql.ref(col), flip(body.sortDir ?? "asc"));
  for (const [c, dir] of spec.defaultSort) out = out.orderBy(sql.ref(c), flip(dir));
  return out;
}

/** Counts the filtered rows, stopping after `cap` when given (a capped count reads at most cap+1 rows). */
async function countRows(db: Db, filtered: AnyQB, cap?: number): Promise<number> {
  let rows = filtered.clearSelect().clearOrderBy().select(sql<number>`1`.as("one"));
  if (cap !== undefined) rows = rows.limit(cap + 1);
  const r = await db.selectFrom(rows.as("matched")).select(sql<number>`count(*)`.as("total"))
    .executeTakeFirst();
  return Number(r?.total ?? 0);
}

/**
 * One page plus `{ total, limit, pageNo }`, and `more: true` when there are more rows than
 * counted (total is then a lower bound, a round multiple of the window). `count: "exact"` in the
 * body answers the exact total alone, without rows.
 */
export async function runList<T>(
  db: Db,
  base: AnyQB,
  body: ListBody,
  spec: ListSpec,
  map: (row: never) => T,
): Promise<ListResult<T>> {
  const limit = Math.min(body.limit ?? 10, spec.maxLimit ?? MAX_LIMIT);
  const pageNo = body.pageNo ?? 1;
  const offset = (pageNo - 1) * limit;
  if (body.count === "exact") {
    const filtered = applyListFilters(base, body, spec, await planSearch(db, body, spec, Infinity));
    return { data: [], metadata: { total: await countRows(db, filtered), limit, pageNo } };
  }
  const filtered = applyListFilters(base, body, spec, await planSearch(db, body, spec, offset));
  const window = spec.countWindow ?? COUNT_WINDOW;
  // the window ends on a round figure past the page: "1,000+", then "2,000+" on deeper pages
  const cap = (Math.floor((offset + limit) / window) + 1) * window;
  if (spec.countWithPage) {
    // the filtered rows once, in a CTE read twice (so SQLite materializes it): the page, and the
    // count of all of them (a window count over the rows would buffer and read them twice more)
    // deno-lint-ignore no-explicit-any
    const listed = (db as any).with((cte: AnyCte) => cte(LISTED).materialized(), () => filtered).selectFrom(
      LISTED,
    ).selectAll()
      .select(sql<number>`(select count(*) from ${sql.table(LISTED)})`.as(TOTAL)) as AnyQB;
    const page = await applyListOrder(listed, body, spec)
      .limit(limit).offset(offset).execute() as Record<string, unknown>[];
    const counted = page.length ? Number(page[0][TOTAL]) : await countRows(db, filtered, cap);
    const metadata: ListResult<T>["metadata"] = { total: Math.min(counted, cap), limit, pageNo };
    if (counted > cap) metadata.more = true;
    return {
      data: page.map(({ [TOTAL]: _, ...r }) => map(r as never)),
      metadata,
    };
  }
  const counted = await countRows(db, filtered, cap);
  // a page in the second half of a fully counted list is read from the end: the offset stays small
  const fromEnd = counted <= cap && offset < counted && offset * 2 > counted;
  const rows = fromEnd
    ? (await applyListOrder(filtered, body, spec, true).limit(Math.min(limit, counted - offset))
      .offset(Math.max(0, counted - offset - limit)).execute()).reverse()
    : await applyListOrder(filtered, body, spec).limit(limit).offset(offset).execute();
  const metadata: ListResult<T>["metadata"] = { total: Math.min(counted, cap), limit, pageNo };
  if (counted > cap) metadata.more = true;
  return { data: rows.map((r) => map(r as never)), metadata };
}

/**
 * Every matching row, in pages, for exports. With `spec.rowid` one query picks the matching rows in
 * order (their rowids only), then each page is read by rowid: no OFFSET, so a million-row export
 * costs the same per page at its end as at its start. Rows deleted meanwhile are skipped.
 */
export async function* iterateList<T>(
  db: Db,
  base: AnyQB,
  body: ListBody,
  spec: ListSpec,
  map: (row: never) => T,
  pageSize = 1000,
) {
  const plan = await planSearch(db, body, spec, Infinity);
  const ordered = applyListOrder(applyListFilters(base, body, spec, plan), body, spec);
  if (spec.rowid) {
    const ref = sql.ref(spec.rowid);
    const picked = await ordered.clearSelect().select(ref.as(ROWID)).execute();
    const rowids = picked.map((r) => Number((r as Record<string, unknown>)[ROWID]));
    for (let i = 0; i < rowids.length; i += pageSize) {
      const chunk = rowids.slice(i, i + pageSize);
      const rows = await base.select(ref.as(ROWID))
        .where(ref, "in", sql`(select value from json_each(${JSON.stringify(chunk)}))`).execute();
      const byRowid = new Map<number, Record<string, unknown>>();
      for (const r of rows as Record<string, unknown>[]) {
        const { [ROWID]: id, ...row } = r;
        byRowid.set(Number(id), row);
      }
      const page = chunk.flatMap((id) => byRowid.get(id) ?? []);
      if (page.length) yield page.map((r) => map(r as never));
    }
    return;
  }
  for (let offset = 0;; offset += pageSize) {
    const rows = await ordered.limit(pageSize).offset(offset).execute();
    if (rows.length) yield rows.map((r) => map(r as never));
    if (rows.length < pageSize) return;
  }
}

/** The alias a page counted with itself carries its total under (not a column name of any table). */
const TOTAL = "__listTotal";
// deno-lint-ignore no-explicit-any
type AnyCte = any;
/** The CTE a page counted with itself reads its rows from. */
const LISTED = "__listed";
/** The alias exports read the rowid under (not a column name of any table). */
const ROWID = "__listRowid";
