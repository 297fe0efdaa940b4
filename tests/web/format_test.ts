/** Formatters of the spec (part 1, section 9). */
import { assertEquals } from "../helpers/assert.ts";
import {
  formatDate,
  formatDateTime,
  formatMoney,
  formatShort,
  isoDayToDisplay,
  parseDisplayDate,
} from "../../web/src/lib/format.ts";

Deno.test("dates are dd/MM/yyyy; log dates dd MMM yyyy HH:mm", () => {
  const d = new Date(2026, 0, 5, 9, 7);
  assertEquals(formatDate(d), "05/01/2026");
  assertEquals(formatDateTime(d), "05 Jan 2026 09:07");
  assertEquals(formatDate(null), "");
  assertEquals(formatDate("not a date"), "");
  assertEquals(isoDayToDisplay("2026-12-31"), "31/12/2026");
});

Deno.test("dd/MM/yyyy input must be a real calendar day", () => {
  assertEquals(parseDisplayDate("31/12/2026"), "2026-12-31");
  assertEquals(parseDisplayDate("1/2/2026"), "2026-02-01");
  assertEquals(parseDisplayDate("31/02/2026"), null);
  assertEquals(parseDisplayDate("2026-12-31"), null);
});

Deno.test("money is $ with 2 decimals", () => {
  assertEquals(formatMoney(1234.5), "$1,234.50");
  assertEquals(formatMoney(0), "$0.00");
  assertEquals(formatMoney(-3), "-$3.00");
  assertEquals(formatMoney("12.345"), "$12.35");
  assertEquals(formatMoney(null), "");
});

Deno.test("dashboard numbers shorten with k or m, a trailing .00 removed", () => {
  assertEquals(formatShort(999), "999");
  assertEquals(formatShort(2000), "2k");
  assertEquals(formatShort(1234), "1.23k");
  assertEquals(formatShort(1500), "1.50k");
  assertEquals(formatShort(3_000_000), "3m");
  assertEquals(formatShort(2_345_678), "2.35m");
});
