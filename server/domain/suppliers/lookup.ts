/** What other areas may ask about suppliers (users, clients, e-mail) without touching the table. */
import type { Db } from "../../db/connection.ts";
import { invalid, notFound } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";

/**
 * A SUPPLIER user must belong to a live supplier: 400 'Supplier is required' on supplierId otherwise.
 * Matches the users area's `SupplierCheck` hook.
 */
export async function supplierExists(db: Db, supplierId: string): Promise<void> {
  const s = await db.selectFrom("suppliers").select("id").where("id", "=", supplierId).where(
    "isDeleted",
    "=",
    0,
  )
    .executeTakeFirst();
  if (!s) throw invalid(MSG.supplierRequired, [{ path: "supplierId", message: MSG.supplierRequired }]);
}

/**
 * Checks a list of supplier ids given on a form: an id that never existed is a 400 on `path`;
 * suppliers deleted since are dropped quietly. Returns the ids to keep, in the given order.
 */
export async function keepKnownSuppliers(
  db: Db,
  ids: string[],
  path: string,
): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom("suppliers").select(["id", "isDeleted"]).where("id", "in", ids).execute();
  const state = new Map(rows.map((r) => [r.id, r.isDeleted]));
  const unknown = ids.findIndex((id) => !state.has(id));
  if (unknown >= 0) {
    throw invalid(MSG.supplierNotFound, [{ path: `${path}.${unknown}`, message: MSG.supplierNotFound }]);
  }
  return ids.filter((id) => state.get(id) === 0);
}

/** Supplier names by id (deleted ones included: old records still name them). */
export async function supplierNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return new Map();
  const rows = await db.selectFrom("suppliers").select(["id", "supplierName"]).where("id", "in", unique)
    .execute();
  return new Map(rows.map((r) => [r.id, r.supplierName]));
}

/** A supplier's own five return links (its record's Complete, Terminate, Over Quota, Quality Term, Survey Close). */
export type SupplierReturnUrls = {
  redirectComplete: string;
  redirectTerminate: string;
  redirectQuotaFull: string;
  redirectQualityTerm: string;
  redirectSurveyClose: string;
};

/** The return links of a live supplier: what a new map of it starts with. 404 for an unknown or deleted one. */
export async function supplierReturnUrls(db: Db, supplierId: string): Promise<SupplierReturnUrls> {
  const s = await db.selectFrom("suppliers")
    .select([
      "redirectComplete",
      "redirectTerminate",
      "redirectQuotaFull",
      "redirectQualityTerm",
      "redirectSurveyClose",
    ])
    .where("id", "=", supplierId).where("isDeleted", "=", 0).executeTakeFirst();
  if (!s) throw notFound("Supplier");
  return s;
}
