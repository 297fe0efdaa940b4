/** What other areas may ask about clients (suppliers, later projects and invoices). */
import type { Db } from "../../db/connection.ts";
import { invalid } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";

/**
 * Checks a list of client ids given on a form: an id that never existed is a 400 on `path`;
 * clients deleted since are dropped quietly. Returns the ids to keep, in the given order.
 */
export async function keepKnownClients(db: Db, ids: string[], path: string): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom("clients").select(["id", "isDeleted"]).where("id", "in", ids).execute();
  const state = new Map(rows.map((r) => [r.id, r.isDeleted]));
  const unknown = ids.findIndex((id) => !state.has(id));
  if (unknown >= 0) {
    throw invalid(MSG.clientNotFound, [{ path: `${path}.${unknown}`, message: MSG.clientNotFound }]);
  }
  return ids.filter((id) => state.get(id) === 0);
}

/** A live client or 400 'Client is required' on `path` (project forms pick a client). */
export async function clientExists(db: Db, clientId: string, path = "clientId"): Promise<void> {
  const c = await db.selectFrom("clients").select("id").where("id", "=", clientId).where("isDeleted", "=", 0)
    .executeTakeFirst();
  if (!c) throw invalid(MSG.clientRequired, [{ path, message: MSG.clientRequired }]);
}
