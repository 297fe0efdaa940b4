/**
 * Dates of accounts: invoices carry calendar days (YYYY-MM-DD). "Today" is the business's day, at
 * the +05:30 offset the spec's lists show due dates in.
 */
export type Clock = () => number;

/** The business's offset from UTC (the spec's list dates use +05:30). */
export const ACCOUNTS_OFFSET_MINUTES = 330;

/** Today's calendar day at the business's offset. */
export function businessToday(now: Clock = Date.now): string {
  return new Date(now() + ACCOUNTS_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
}

/** A calendar day plus `days` days. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** dd/MM/yyyy, as the spec shows dates. */
export function dmy(day: string | null | undefined): string {
  return day ? `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}` : "";
}

/** A day typed in an upload: YYYY-MM-DD or dd/MM/yyyy (also with - or .); null if neither. */
export function parseDay(s: string): string | null {
  const t = s.trim();
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(t);
  const dm = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dm) [d, m, y] = [Number(dm[1]), Number(dm[2]), Number(dm[3])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** Money to the cent. */
export const cents = (n: number) => Math.round(n * 100) / 100;
