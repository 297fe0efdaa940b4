/**
 * One handler shape for every grid: the same body answers a JSON page, or with `?format=csv` a
 * streamed CSV of all matching rows (same filters, same order).
 */
import type { ListBody, ListDeclaration } from "../../shared/list.ts";
import { type AnyQB, iterateList, type ListSpec, runList } from "../db/list.ts";
import type { HttpCtx } from "./context.ts";
import { type CsvColumn, csvResponse, csvStream } from "./csv.ts";
import { ok } from "./respond.ts";

export type ListDefinition<T> = {
  query: AnyQB;
  spec: ListSpec;
  map: (row: never) => T;
  /**
   * Adds per-row data that lives elsewhere (figures, names) to one page at a time, with one query
   * per page rather than per row; used for the JSON page and for every page of the CSV.
   */
  enrich?: (rows: T[]) => Promise<T[]>;
  /** The list's shared declaration: its CSV is the declared columns, named after its id. */
  list?: ListDeclaration<T>;
  /** CSV columns and file name of a list not declared in shared/ (yet). */
  csv?: { filename: string; columns: readonly CsvColumn<T>[] };
  /** The CSV's file name (before its date) when the declaration's id is not the best name. */
  filename?: string;
  /** More for the page's metadata beside `{ total, limit, pageNo }` (the projects' return links). */
  metadata?: Record<string, unknown>;
};

async function* enriched<T>(pages: AsyncIterable<T[]>, enrich?: (rows: T[]) => Promise<T[]>) {
  for await (const page of pages) yield enrich ? await enrich(page) : page;
}

export async function listResponse<T>(
  c: HttpCtx,
  body: ListBody,
  def: ListDefinition<T>,
  message = "Success",
) {
  const db = c.get("deps").db;
  if (c.req.query("format") === "csv") {
    const stamp = new Date().toISOString().slice(0, 10);
    const csv = def.list ? { filename: def.filename ?? def.list.id, columns: def.list.columns } : def.csv;
    if (!csv) throw new Error("list without CSV columns");
    return csvResponse(
      c,
      `${csv.filename}-${stamp}.csv`,
      csvStream(csv.columns, enriched(iterateList(db, def.query, body, def.spec, def.map), def.enrich)),
    );
  }
  const page = await runList(db, def.query, body, def.spec, def.map);
  if (def.enrich && page.data.length) page.data = await def.enrich(page.data);
  return ok(c, def.metadata ? { ...page, metadata: { ...page.metadata, ...def.metadata } } : page, message);
}
