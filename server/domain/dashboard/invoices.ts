/**
 * The dashboard's invoice figures (Monthly Invoice, Monthly Invoice Cost, the Project Invoice chart).
 * There are no invoices yet: the reconcile and accounts issue adds the client and supplier invoice
 * tables and fills these two functions in; until then they answer zeros, and the cards and the
 * chart read them like any other figure (no special case elsewhere).
 */
import type { Db } from "../../db/connection.ts";
import type { Buckets } from "./periods.ts";

export type InvoiceTotals = {
  /** Client invoices issued since `monthStart` (dollars). */
  clientAmount: number;
  /** Supplier invoices (what suppliers bill us) since `monthStart` (dollars). */
  supplierAmount: number;
};

/** This month's invoice totals: zeros until invoices exist (the accounts issue fills this in). */
export function invoiceTotals(_db: Db, _monthStart: string): Promise<InvoiceTotals> {
  return Promise.resolve({ clientAmount: 0, supplierAmount: 0 });
}

/** Invoiced amount and count per bucket: empty until invoices exist (the accounts issue fills this in). */
export function invoiceSeries(
  _db: Db,
  _b: Pick<Buckets, "from" | "keyLength">,
  _f: { clientId?: string | null },
): Promise<Map<string, { total: number; count: number }>> {
  return Promise.resolve(new Map());
}
