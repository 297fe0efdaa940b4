/**
 * The dashboard's time buckets. Days are UTC days, as the router's daily rollup counts them
 * (router_daily.date). Daily: the last 30 days; Monthly: the last 12 months; Yearly: the last 5
 * years, each including the current one.
 */
import type { ChartPeriod, SortDate } from "../../../shared/api/dashboard.ts";

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, "0");

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type Buckets = {
  /** The first day read (yyyy-MM-dd). */
  from: string;
  /** Length of a date's prefix that names its bucket: 10 (day), 7 (month) or 4 (year). */
  keyLength: 10 | 7 | 4;
  /** Every bucket, oldest first. */
  keys: string[];
};

export const DAILY_BUCKETS = 30;
export const MONTHLY_BUCKETS = 12;
export const YEARLY_BUCKETS = 5;

export function bucketsOf(period: ChartPeriod, now: number): Buckets {
  const d = new Date(now);
  const y = d.getUTCFullYear(), m = d.getUTCMonth();
  if (period === 2) {
    const keys = Array.from({ length: MONTHLY_BUCKETS }, (_, i) => {
      const at = new Date(Date.UTC(y, m - (MONTHLY_BUCKETS - 1) + i, 1));
      return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}`;
    });
    return { from: `${keys[0]}-01`, keyLength: 7, keys };
  }
  if (period === 3) {
    const keys = Array.from({ length: YEARLY_BUCKETS }, (_, i) => String(y - (YEARLY_BUCKETS - 1) + i));
    return { from: `${keys[0]}-01-01`, keyLength: 4, keys };
  }
  const today = Date.UTC(y, m, d.getUTCDate());
  const keys = Array.from({ length: DAILY_BUCKETS }, (_, i) => isoDay(today - (DAILY_BUCKETS - 1 - i) * DAY));
  return { from: keys[0], keyLength: 10, keys };
}

/** The first day of a Today dialog's range: today, the last 7 days (today included), this month. */
export function sortDateFrom(sortDate: SortDate, now: number): string {
  const today = isoDay(now);
  if (sortDate === 2) return isoDay(Date.parse(today) - 6 * DAY);
  if (sortDate === 3) return `${today.slice(0, 7)}-01`;
  return today;
}

/** Today and the first day of this month (the cards' "today" and "monthly"). */
export function todayAndMonth(now: number): { today: string; monthStart: string } {
  const today = isoDay(now);
  return { today, monthStart: `${today.slice(0, 7)}-01` };
}
