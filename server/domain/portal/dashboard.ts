/**
 * The supplier dashboard: the staff dashboard's own figures (../dashboard/figures.ts: completes,
 * traffic, expense = completes x supplier CPI as booked, approved x supplier CPI), read with the
 * supplier filter, so a supplier's earnings are exactly the staff's expense for that supplier.
 */
import type { Db } from "../../db/connection.ts";
import { notFound } from "../errors.ts";
import {
  approvedSums,
  completes,
  expense,
  rollupSums,
  traffic,
  trafficSeries,
  ZERO_SUMS,
} from "../dashboard/figures.ts";
import { CHART_PERIOD } from "../../../shared/api/dashboard.ts";
import { todayAndMonth } from "../dashboard/periods.ts";
import { conversionOf, type SupplierDashboard } from "../../../shared/api/portal.ts";
import type { SupplierScope } from "./projects.ts";

export async function supplierDashboard(
  db: Db,
  supplierId: SupplierScope,
  now: number,
): Promise<SupplierDashboard> {
  // never unfiltered: without a supplier the figures would be everyone's
  if (!supplierId) throw notFound("Supplier");
  const { monthStart } = todayAndMonth(now);
  const month = { from: monthStart, keyLength: 7 as const };
  const filter = { supplierId };
  const [sums, approved, series] = await Promise.all([
    rollupSums(db, month, filter),
    approvedSums(db, month, filter),
    trafficSeries(db, CHART_PERIOD.DAILY, now, filter),
  ]);
  const key = monthStart.slice(0, 7);
  const m = sums.get(key) ?? ZERO_SUMS;
  const a = approved.get(key);
  return {
    month: key,
    monthTraffic: traffic(m),
    monthCompleted: completes(m),
    conversion: conversionOf(completes(m), traffic(m)),
    earnings: a?.actualExpense ?? 0,
    approved: a?.approved ?? 0,
    expectedEarnings: expense(m),
    traffic: series,
  };
}
