/**
 * Streamed CSV: rows are written page by page as they are read, never buffered whole. Cells that
 * a spreadsheet would run as a formula (= + - @, tab, CR) are prefixed with a quote.
 */
import type { Context } from "hono";

import type { CsvColumn } from "../../shared/list.ts";
import type { CsvJob, CsvWorkerMessage, CsvWorkerStart } from "./csv_messages.ts";
export type { CsvColumn, CsvJob };

/** First characters a spreadsheet would run as a formula: = + - @, tab, CR. */
const FORMULA = new Set([61, 43, 45, 64, 9, 13]);
const QUOTED = /[",\r\n]/;
/** A text written as it is: no formula-looking start, nothing to quote (most cells; one test). */
const PLAIN = /^(?![=+\-@\t\r])[^",\r\n]*$/;

export function csvCell(value: unknown): string {
  if (typeof value === "string" && PLAIN.test(value)) return value;
  if (value === null || value === undefined) return "";
  // (a number is never a formula, and its text holds nothing to quote)
  if (typeof value === "number") return String(value);
  let s = value instanceof Date
    ? value.toISOString()
    : typeof value === "object"
    ? JSON.stringify(value)
    : String(value);
  if (s.length && FORMULA.has(s.charCodeAt(0))) s = "'" + s;
  return QUOTED.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A CSV line (CRLF-ended) of the cells, built as one string. */
export function csvLine(cells: readonly unknown[]): string {
  let line = cells.length ? csvCell(cells[0]) : "";
  for (let i = 1; i < cells.length; i++) line += "," + csvCell(cells[i]);
  return line + "\r\n";
}

/**
 * The CSV lines of a page of rows, as one string: each row's cells read by the columns' `value`s
 * (no array of cells per row).
 */
export function csvLines<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const values = columns.map((c) => c.value);
  const n = values.length;
  let text = "";
  for (const row of rows) {
    let line = n ? csvCell(values[0](row)) : "";
    for (let i = 1; i < n; i++) line += "," + csvCell(values[i](row));
    text += line + "\r\n";
  }
  return text;
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
        controller.enqueue(enc.encode(csvLines(columns, value)));
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

/**
 * A CSV export too large to write on the app's thread (a million rows): `job` names a module's
 * export function `(db, ...args) => { columns, pages }`, run in a worker with its own connection
 * to the same database (./csv_worker.ts). The worker writes a page ahead of the download and no
 * further: memory holds a page or two, whatever the export's size, and respondents keep being
 * served meanwhile. A database a worker cannot open (`:memory:`) runs the job here (csvStream).
 */
export function csvExport(
  source: { db: unknown; url: string; authToken?: string },
  job: CsvJob,
): ReadableStream<Uint8Array> {
  if (source.url === ":memory:") {
    let inner: ReadableStreamDefaultReader<Uint8Array> | null = null;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!inner) {
          const run = (await import(job.module))[job.name] as (db: unknown, ...args: unknown[]) => {
            columns: readonly CsvColumn<unknown>[];
            pages: AsyncIterable<unknown[]>;
          };
          const { columns, pages } = run(source.db, ...job.args);
          inner = csvStream(columns, pages).getReader();
        }
        const { value, done } = await inner.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        await inner?.cancel();
      },
    });
  }
  const worker = new Worker(new URL("./csv_worker.ts", import.meta.url).href, { type: "module" });
  let waiting: { resolve: (m: CsvWorkerMessage) => void; reject: (e: Error) => void } | null = null;
  worker.onmessage = (e: MessageEvent<CsvWorkerMessage>) => waiting?.resolve(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    waiting?.reject(new Error(e.message));
  };
  const start: CsvWorkerStart = { type: "start", url: source.url, authToken: source.authToken, job };
  worker.postMessage(start);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const m = await new Promise<CsvWorkerMessage>((resolve, reject) => {
        waiting = { resolve, reject };
        worker.postMessage({ type: "more" });
      }).catch((e: Error) => ({ type: "error", message: e.message }) as const);
      waiting = null;
      if (m.type === "chunk") return controller.enqueue(m.bytes);
      worker.terminate();
      if (m.type === "end") controller.close();
      else controller.error(new Error(m.message));
    },
    cancel() {
      worker.postMessage({ type: "cancel" });
      // the worker closes its connection and itself; stop it anyway if it does not
      setTimeout(() => worker.terminate(), 5_000);
    },
  });
}
