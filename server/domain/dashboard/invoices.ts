/**
 * The dashboard's invoice figures (Monthly Invoice, Monthly Invoice Cost, the Project Invoice chart),
 * read from the accounts domain, which defines them once: client invoices' grand totals and the
 * purchase orders suppliers bill us.
 */
import type { Db } from "../../db/connection.ts";
import type { Buckets } from "./periods.ts";
import { type AmountBucket, invoicedAmounts, purchaseOrderAmount } from "../accounts/invoices.ts";

export type InvoiceTotals = {
  /** Client invoices issued since `monthStart` (dollars). */
  clientAmount: number;
  /** Supplier invoices (purchase orders: what suppliers bill us) since `monthStart` (dollars). */
  supplierAmount: number;
};

const FAR_FUTURE = "9999-12-31";

/** This month's invoice totals: client invoices and purchase orders dated since `monthStart`. */
export async function invoiceTotals(db: Db, monthStart: string): Promise<InvoiceTotals> {
  const range = { from: monthStart.slice(0, 10), to: FAR_FUTURE };
  const [client, supplier] = await Promise.all([
    invoicedAmounts(db, { ...range, by: "year" }),
    purchaseOrderAmount(db, range),
  ]);
  return { clientAmount: client.reduce((sum, r) => sum + r.total, 0), supplierAmount: supplier };
}

const BY_LENGTH: Record<Buckets["keyLength"], AmountBucket> = { 10: "day", 7: "month", 4: "year" };

/** Invoiced amount and count per bucket (the chart's days, months or years), from the bucket start on. */
export async function invoiceSeries(
  db: Db,
  b: Pick<Buckets, "from" | "keyLength">,
  f: { clientId?: string | null },
): Promise<Map<string, { total: number; count: number }>> {
  const rows = await invoicedAmounts(db, {
    from: b.from.slice(0, 10),
    to: FAR_FUTURE,
    by: BY_LENGTH[b.keyLength],
    clientId: f.clientId,
  });
  return new Map(rows.map((r) => [r.date, { total: r.total, count: r.count }]));
}
