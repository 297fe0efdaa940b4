/**
 * Streamed CSV: rows are written page by page as they are read, never buffered whole. Cells that
 * a spreadsheet would run as a formula (= + - @, tab, CR) are prefixed with a quote.
 */
import type { Context } from "hono";

import type { CsvColumn } from "../../shared/list.ts";
export type { CsvColumn };

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let s = value instanceof Date
    ? value.toISOString()
    : typeof value === "object"
    ? JSON.stringify(value)
    : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !(typeof value === "number")) s = "'" + s;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(cells: unknown[]): string {
  return cells.map(csvCell).join(",") + "\r\n";
}

export function csvStream<T>(
  columns: readonly CsvColumn<T>[],
  pages: AsyncIterable<T[]>,
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const it = pages[Symbol.asyncIterator]();
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(enc.encode("\uFEFF" + csvLine(columns.map((c) => c.header))));
        return;
      }
      try {
        const { value, done } = await it.next();
        if (done) return controller.close();
        controller.enqueue(
          enc.encode(value.map((row) => csvLine(columns.map((c) => c.value(row)))).join("")),
        );
      } catch (e) {
        controller.error(e);
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
}

export function csvResponse(c: Context, filename: string, stream: ReadableStream<Uint8Array>) {
  const safe = filename.replace(/[^\w.-]+/g, "_");
  return c.body(stream, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${safe}"`,
    "cache-control": "no-store",
  });
}
