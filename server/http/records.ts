/**
 * The records a call's input names, checked against their tables by the registrar: the ids of the
 * path (`ids: { id: "Project" }`, a 404) and every id a body or query schema declares with
 * `refersTo` (shared/schemas/refs.ts, a 404 "<Kind> not found" of the first such field). An id of the right shape that is in no
 * row is refused here, whatever the handler would have made of it (a list of nothing, a summary of
 * zeros, a row pointing nowhere). Existence only: a handler still says when a record is deleted,
 * inactive or of the wrong type.
 */
import * as v from "valibot";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { collectRefs, type RecordKind, type RecordRef, refuseMissing } from "../../shared/schemas/refs.ts";
import { controlCharsMsg, hasControlChars } from "../../shared/text.ts";
import { badRequest, HttpError } from "./errors.ts";
import { parseWith } from "./validate.ts";
import { MSG } from "../../shared/messages.ts";

/**
 * The table of each kind of record. Records whose id may point at more than one table (a project's
 * question or quota) are not declared and are left to their handler.
 */
export const RECORD_TABLES: Record<RecordKind, string> = {
  Project: "projects",
  Client: "clients",
  Supplier: "suppliers",
  User: "users",
  "Supplier map": "supplier_maps",
  "Supplier rule": "supplier_rules",
  Category: "categories",
  Qualification: "qualifications",
  Invoice: "invoices",
  "Purchase order": "purchase_orders",
  "Issuing company": "issuing_companies",
  "Scheduled job": "scheduled_jobs",
  "E-mail": "email_outbox",
};

export const tableOf = (what: string): string | undefined => RECORD_TABLES[what as RecordKind];

/** Whether a record of this kind (a table of RECORD_TABLES) has this id. */
export async function recordExists(db: Db, table: string, id: string): Promise<boolean> {
  const found = await sql`SELECT 1 FROM ${sql.table(table)} WHERE id = ${id}`.execute(db);
  return found.rows.length > 0;
}

/** The references that name no row: one query per kind, the ids passed as one JSON list. */
export async function missingRecords(db: Db, refs: RecordRef[]): Promise<RecordRef[]> {
  const byKind = new Map<RecordKind, Set<string>>();
  for (const r of refs) byKind.set(r.kind, (byKind.get(r.kind) ?? new Set()).add(r.id));
  const missing: RecordRef[] = [];
  for (const [kind, ids] of byKind) {
    const found = await sql<{ id: string }>`SELECT id FROM ${sql.table(RECORD_TABLES[kind])}
      WHERE id IN (SELECT value FROM json_each(${JSON.stringify([...ids])}))`.execute(db);
    const there = new Set(found.rows.map((r) => r.id));
    for (const id of ids) if (!there.has(id)) missing.push({ kind, id });
  }
  return missing;
}

/**
 * The backstop of the text fields' own check: no string anywhere in the input (keys included) holds
 * a control character. Walked without recursion, so a deeply nested body cannot overflow the stack.
 */
export function refuseControlChars(input: unknown, fileFields: readonly string[] = []): void {
  const stack: [unknown, string][] = [[input, ""]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (fileFields.includes(path)) continue;
    if (typeof value === "string") {
      if (hasControlChars(value)) {
        const label = path.split(".").pop() || "The input";
        throw badRequest(controlCharsMsg(label), [{ path, message: controlCharsMsg(label) }]);
      }
    } else if (value && typeof value === "object") {
      for (const [k, item] of Object.entries(value)) {
        const at = path ? `${path}.${k}` : k;
        if (hasControlChars(k)) throw badRequest(MSG.invalidInput, [{ path: at, message: MSG.invalidInput }]);
        stack.push([item, at]);
      }
    }
  }
}

/**
 * Validates a body or query with its contract schema, then what the schema alone cannot: control
 * characters in any field, and every declared id naming a row. A missing one is refused with the
 * message of its field ("Client not found"), found by parsing once more with it marked.
 */
export async function parseInput<S extends v.GenericSchema>(
  db: Db,
  schema: S,
  input: unknown,
  /** Top-level fields holding a file's contents (the contract's `fileFields`). */
  fileFields?: readonly string[],
): Promise<v.InferOutput<S>> {
  const { value, refs } = collectRefs(() => parseWith(schema, input));
  refuseControlChars(input, fileFields);
  if (!refs.length) return value;
  const missing = await missingRecords(db, refs);
  if (!missing.length) return value;
  try {
    // an id noted in a branch of a union that did not match is not the input's: the parse then passes
    refuseMissing(() => parseWith(schema, input), missing);
  } catch (e) {
    // the record is not found, answered exactly as for an id of the path and as the handlers answer
    // a record the caller may not see (a supplier's portal): nothing tells the two apart
    if (e instanceof HttpError) throw new HttpError(404, e.message);
    throw e;
  }
  return value;
}
