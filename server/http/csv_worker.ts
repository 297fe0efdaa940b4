/**
 * The worker side of csvExport (./csv.ts): opens its own connection to the app's database, runs the
 * job's export function (a module's named export: `(db, ...args) => { columns, pages }`) and sends
 * the CSV a page at a time, one page ahead of what the app has asked for. The app's thread only
 * passes the bytes on, so respondents keep being served while a million rows are written.
 */
/// <reference lib="deno.worker" />
import { openDatabase } from "../db/connection.ts";
import { csvLine, csvLines } from "./csv.ts";
import type { CsvColumn } from "../../shared/list.ts";
import type { CsvWorkerMessage, CsvWorkerStart } from "./csv_messages.ts";
export type { CsvJob, CsvWorkerMessage, CsvWorkerStart } from "./csv_messages.ts";

type Export = (db: unknown, ...args: unknown[]) => {
  columns: readonly CsvColumn<unknown>[];
  pages: AsyncIterable<unknown[]>;
};

const enc = new TextEncoder();
const failed = (err: unknown): CsvWorkerMessage => ({
  type: "error",
  message: err instanceof Error ? err.message : String(err),
});
let started: Promise<{ next: () => Promise<CsvWorkerMessage>; close: () => Promise<void> }> | null = null;
let ahead: Promise<CsvWorkerMessage> | null = null;

async function start(m: CsvWorkerStart) {
  const handle = await openDatabase(m.url, m.authToken);
  // a one-pass read: no memory map, a small page cache (RSS stays the page being written)
  if (m.url.startsWith("file:")) {
    await handle.client.execute("PRAGMA mmap_size = 0");
    await handle.client.execute("PRAGMA cache_size = -8192");
  }
  const run = (await import(m.job.module))[m.job.name] as Export;
  const { columns, pages } = run(handle.db, ...m.job.args);
  const it = pages[Symbol.asyncIterator]();
  let header = true;
  const next = async (): Promise<CsvWorkerMessage> => {
    if (header) {
      header = false;
      return { type: "chunk", bytes: enc.encode("\uFEFF" + csvLine(columns.map((c) => c.header))) };
    }
    const { value, done } = await it.next();
    if (done) return { type: "end" };
    return { type: "chunk", bytes: enc.encode(csvLines(columns, value)) };
  };
  return { next: () => next().catch(failed), close: () => handle.close() };
}

self.onmessage = async (e: MessageEvent<CsvWorkerStart | { type: "more" } | { type: "cancel" }>) => {
  const m = e.data;
  if (m.type === "start") {
    started = start(m);
    started.then((s) => (ahead = s.next()), () => {});
    return;
  }
  if (!started) return;
  let job;
  try {
    job = await started;
  } catch (err) {
    self.postMessage(failed(err));
    return;
  }
  if (m.type === "cancel") {
    await job.close().catch(() => {});
    self.close();
    return;
  }
  // "more": the page prepared ahead, and the next one started
  const out = await (ahead ?? job.next());
  if (out.type === "chunk") {
    ahead = job.next();
    self.postMessage(out, [out.bytes.buffer]);
  } else {
    ahead = null;
    self.postMessage(out);
    await job.close().catch(() => {});
  }
};
