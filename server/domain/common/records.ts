/**
 * Pieces every master-data area shares: whether a record of a kind exists (the registrar's check of
 * the ids a call names), the `{isActive} | {isDeleted: true} | form` update run in one transaction
 * with its audit row, generated keys, country fields, JSON list columns.
 */
import type { LogModule } from "../../../shared/log-modules.ts";
import { type Kysely, sql } from "kysely";
import type { RecordKind, RecordRef } from "../../../shared/schemas/refs.ts";
import type { Db } from "../../db/connection.ts";
import { invalid, notFound } from "../errors.ts";
import { isStatusPatch, type StatusPatch } from "../../../shared/schemas/common.ts";
import { countryByCode } from "../lookups/geo.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { diffRecord, type FieldDecls, writeChanges } from "../audit/changes.ts";
import { type Clock, dateAt } from "./clock.ts";

export { parseJsonList, randomKey } from "./values.ts";

/** Tables with an active switch and a soft delete. */
export type SwitchableTable =
  | "clients"
  | "suppliers"
  | "categories"
  | "qualifications"
  | "supplier_rules"
  | "questions";

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

/**
 * A path's id against its kind's table: a 404 "<Kind> not found" when no row has it. A kind
 * without a table of its own (a project's question or quota) is left to the handler.
 */
export async function requireRecord(db: Db, kind: string, id: string): Promise<void> {
  const table = tableOf(kind);
  if (table && !await recordExists(db, table, id)) throw notFound(kind);
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

/** What a record shows of its country: the code is the id; name, code and flag for display. */
export function countryFields(code: string) {
  const c = countryByCode(code);
  return {
    countryId: code,
    countryName: c?.label ?? code,
    countryCode: c?.code ?? code,
    flag: c?.flag ?? "",
  };
}

/** The shared schemas check the shape of a country code; this checks it names a country. */
export function requireCountry(code: string, message: string, path = "countryId") {
  if (!countryByCode(code)) throw invalid(message, [{ path, message }]);
}

/** The live (not deleted) row's id, or a 404 naming `what`. */
export async function requireLive(
  db: Db,
  table: SwitchableTable,
  id: string,
  what: string,
): Promise<{ id: string }> {
  // deno-lint-ignore no-explicit-any
  const row = await (db as Kysely<any>).selectFrom(table as string).select("id").where("id", "=", id)
    .where("isDeleted", "=", 0).executeTakeFirst();
  if (!row) throw notFound(what);
  return row as { id: string };
}

/** Sets the active switch or soft-deletes (a deleted record is also inactive). Returns the verb for the log. */
export async function applyStatusPatch(
  db: Db,
  input: { table: SwitchableTable; id: string; patch: StatusPatch; now: string },
): Promise<"Deleted" | "Activated" | "Deactivated"> {
  const { table, id, patch, now } = input;
  const deleting = "isDeleted" in patch;
  const set = deleting ? { isDeleted: 1, isActive: 0 } : { isActive: patch.isActive ? 1 : 0 };
  // deno-lint-ignore no-explicit-any
  await (db as Kysely<any>).updateTable(table as string).set({ ...set, updatedAt: now }).where("id", "=", id)
    .where("isDeleted", "=", 0).execute();
  return deleting ? "Deleted" : patch.isActive ? "Activated" : "Deactivated";
}

export type UpdateOutcome = "deleted" | "status" | "form";

/** The record's row as stored (the audit diff's before and after). */
async function rowOf(db: Db, table: SwitchableTable, id: string): Promise<Record<string, unknown>> {
  // deno-lint-ignore no-explicit-any
  return await (db as Kysely<any>).selectFrom(table as string).selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow() as Record<string, unknown>;
}

/**
 * Runs an update body in one transaction: `{isActive}` or `{isDeleted: true}` alone through
 * applyStatusPatch, anything else through `saveForm`. A status change writes one audit row; a form
 * save writes one naming each declared field it changed with its old and new value, and none when
 * it changed nothing. `label` names the record in the log ("client Acme Research").
 */
export async function runUpdate<F extends object, R>(
  db: Db,
  actor: Actor,
  opts: {
    table: SwitchableTable;
    id: string;
    what: string;
    module: LogModule;
    input: StatusPatch | F;
    label: (trx: Db) => Promise<string>;
    /** The caller's clock (`Deps.now`): stamps the row's updatedAt and the log row. */
    now: Clock;
    /** Saves the form and returns the head of the log's activity ("Updated client Acme (CL0001)"). */
    saveForm: (trx: Db, form: F, now: string) => Promise<string>;
    /** The fields the log names when a form save changes them. */
    fields: FieldDecls;
    /** The record as the diff sees it (default: its row); for what lives in other tables too. */
    snapshot?: (trx: Db) => Promise<Record<string, unknown>>;
    read: (trx: Db) => Promise<R>;
    /** Runs after a soft delete, in the same transaction (e.g. closing dependants). */
    onDelete?: (trx: Db, now: string) => Promise<string | void>;
  },
): Promise<{ record: R; outcome: UpdateOutcome }> {
  return await db.transaction().execute(async (trx) => {
    await requireLive(trx, opts.table, opts.id, opts.what);
    const at = dateAt(opts.now), now = at.toISOString();
    let outcome: UpdateOutcome;
    if (isStatusPatch(opts.input)) {
      const label = await opts.label(trx);
      const verb = await applyStatusPatch(trx, {
        table: opts.table,
        id: opts.id,
        patch: opts.input as StatusPatch,
        now,
      });
      let activity = `${verb} ${label}`;
      outcome = verb === "Deleted" ? "deleted" : "status";
      if (outcome === "deleted" && opts.onDelete) {
        const more = await opts.onDelete(trx, now);
        if (more) activity += `; ${more}`;
      }
      await writeLog(trx, actor, { activity, module: opts.module, recordId: opts.id }, at);
    } else {
      const snapshot = opts.snapshot ?? ((db: Db) => rowOf(db, opts.table, opts.id));
      const before = await snapshot(trx);
      const head = await opts.saveForm(trx, opts.input as F, now);
      const changes = await diffRecord(trx, opts.fields, before, await snapshot(trx));
      await writeChanges(trx, actor, { head, changes, module: opts.module, recordId: opts.id }, at);
      outcome = "form";
    }
    return { record: await opts.read(trx), outcome };
  });
}

/** The success message of an update call, by what it did. */
export function updateMessage(what: string, outcome: UpdateOutcome): string {
  return outcome === "deleted"
    ? `${what} deleted successfully`
    : outcome === "status"
    ? `${what} status updated successfully`
    : `${what} updated successfully`;
}
