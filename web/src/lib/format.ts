/** Formatters of the spec (part 1, section 9): dd/MM/yyyy dates, $ with 2 decimals, k/m shortening. */
const pad = (n: number) => String(n).padStart(2, "0");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** dd/MM/yyyy in local time; empty for a missing or invalid date. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  return d ? `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}` : "";
}

/** dd MMM yyyy HH:mm (log dates). */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  return d
    ? `${pad(d.getDate())} ${MONTHS[d.getMonth()]} ${d.getFullYear()} ${pad(d.getHours())}:${
      pad(d.getMinutes())
    }`
    : "";
}

/** DD/MM/YYYY hh:mm:ss (identifier start and end). */
export function formatDateTimeSeconds(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  return d ? `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` : "";
}

/** Parses dd/MM/yyyy into yyyy-MM-dd; null when it is not a real calendar date. */
export function parseDisplayDate(text: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(year, month - 1, day);
  if (d.getFullYear() !== year || d.getMonth() !== month - 1 || d.getDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** yyyy-MM-dd to dd/MM/yyyy without time-zone shifts. */
export function isoDayToDisplay(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : "";
}

const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** $1,234.50; negative amounts as -$1,234.50; empty for a missing value. */
export function formatMoney(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const n = Number(value);
  if (!Number.isFinite(n)) return "";
  return `${n < 0 ? "-" : ""}$${money.format(Math.abs(n))}`;
}

/** 1234 -> 1.23k, 2000 -> 2k, 1500000 -> 1.50m: k or m with a trailing .00 removed. */
export function formatShort(value: number | string | null | undefined): string {
  const n = Number(value ?? 0);
  if (!Number.isFinite(n)) return "0";
  const abs = Math.abs(n);
  const strip = (s: string) => s.replace(/\.00$/, "");
  if (abs >= 1_000_000) return `${strip((n / 1_000_000).toFixed(2))}m`;
  if (abs >= 1_000) return `${strip((n / 1_000).toFixed(2))}k`;
  return strip(n.toFixed(2));
}

/** Whole numbers with thousands separators. */
export function formatCount(value: number | string | null | undefined): string {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n.toLocaleString("en-US") : "0";
}
