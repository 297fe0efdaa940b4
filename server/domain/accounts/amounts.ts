/**
 * The invoice figures the dashboard reads (Monthly Invoice, Monthly Invoice Cost, the Project
 * Invoice chart): client invoices' grand totals and purchase orders' totals, by invoice date.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { cents } from "./dates.ts";

export type InvoicedAmount = { date: string; total: number; count: number };
export type AmountBucket = "day" | "month" | "year";
const BUCKET_LENGTH: Record<AmountBucket, number> = { day: 10, month: 7, year: 4 };

/**
 * The dashboard's invoice figures: the sum of client invoice grand totals (and their number) per
 * day, month or year of the invoice date, from `from` to `to` (calendar days, inclusive).
 */
export async function invoicedAmounts(
  db: Db,
  range: { from: string; to: string; by?: AmountBucket; clientId?: string | null },
): Promise<InvoicedAmount[]> {
  const bucket = sql<string>`substr(currentDate, 1, ${BUCKET_LENGTH[range.by ?? "day"]})`;
  let q = db.selectFrom("invoices")
    .select([bucket.as("date"), sql<number>`sum(total)`.as("total"), sql<number>`count(*)`.as("count")])
    .where("isDeleted", "=", 0).where("currentDate", ">=", range.from).where("currentDate", "<=", range.to);
  if (range.clientId) q = q.where("clientId", "=", range.clientId);
  const rows = await q.groupBy(bucket).orderBy(bucket).execute();
  return rows.map((r) => ({ date: r.date, total: cents(Number(r.total)), count: Number(r.count) }));
}

/** What suppliers bill us: the purchase orders' totals from `from` to `to` (calendar days, inclusive). */
export async function purchaseOrderAmount(db: Db, range: { from: string; to: string }): Promise<number> {
  const r = await db.selectFrom("purchase_orders").select(sql<number>`coalesce(sum(total), 0)`.as("total"))
    .where("isDeleted", "=", 0).where("currentDate", ">=", range.from).where("currentDate", "<=", range.to)
    .executeTakeFirst();
  return cents(Number(r?.total ?? 0));
}
