/**
 * One handler shape for every grid: the same body answers a JSON page, or with `?format=csv` a
 * streamed CSV of all matching rows (same filters, same order).
 */
import type { ListBody } from "../../shared/list.ts";
import { type AnyQB, type Enrich, iterateList, type ListSpec, runList } from "../db/list.ts";
import type { Ctx } from "./context.ts";
import { type CsvColumn, csvResponse, csvStream } from "./csv.ts";
import { ok } from "./respond.ts";

export type ListDefinition<T> = {
  query: AnyQB;
  spec: ListSpec;
  map: (row: never) => T;
  /** Adds per-page figures (one query for the page's ids). */
  enrich?: Enrich<T>;
  csv: { filename: string; columns: CsvColumn<T>[] };
};

export async function listResponse<T>(c: Ctx, body: ListBody, def: ListDefinition<T>, message = "Success") {
  if (c.req.query("format") === "csv") {
    const stamp = new Date().toISOString().slice(0, 10);
    return csvResponse(
      c,
      `${def.csv.filename}-${stamp}.csv`,
      csvStream(def.csv.columns, iterateList(def.query, body, def.spec, def.map, def.enrich)),
    );
  }
  return ok(c, await runList(def.query, body, def.spec, def.map, def.enrich), message);
}
