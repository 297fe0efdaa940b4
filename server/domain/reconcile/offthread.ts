/**
 * The parse of a large identifier file on a worker (./worker.ts), away from the app's thread (the
 * one that serves respondents): the same parser, the same result. Only the parse goes there: the
 * reads and writes of an upload stay on the app's connection, because a second connection reading
 * the same file while the router writes slows the router more than the reads cost here (measured:
 * a worker reading without pause took the router on another project to 0.69-0.82 of its pace; a
 * worker spinning on plain JavaScript left it at 0.95-1.00).
 */
import type { ParseResult } from "../../../shared/schemas/reconcile.ts";

export type WorkerRequest = { id: number; csv: string; max: number };
export type WorkerReply = { id: number; ok: true; value: unknown } | {
  id: number;
  ok: false;
  message: string;
};

/** A file larger than this (characters) is parsed on a worker. */
export const PARSE_OFF_THREAD = 1 << 20;

type Parsed =
  | ParseResult
  | {
    ok: true;
    value: { joined: string; count: number; lines: number; duplicates: number; header: boolean };
  };

/** The parse of `parseIdentifierFile`, on a worker: the same result. */
export function parseOffThread(
  csv: string,
  max: number,
  /** Filled with the time this thread spent on it (ms): the identifiers taken apart. */
  stats: { busyMs: number } = { busyMs: 0 },
): Promise<ParseResult> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
  return new Promise<ParseResult>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<WorkerReply>) => {
      if (!e.data.ok) return reject(new Error(e.data.message));
      const r = e.data.value as Parsed;
      if (!r.ok || !("joined" in r.value)) return resolve(r as ParseResult);
      const { joined, count, ...rest } = r.value;
      const t0 = performance.now();
      const identifiers = count ? joined.split("\n") : [];
      stats.busyMs += performance.now() - t0;
      resolve({ ok: true, value: { ...rest, identifiers } });
    };
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(`identifier file parse: ${e.message}`));
    };
    worker.postMessage({ id: 1, csv, max } satisfies WorkerRequest);
  }).finally(() => worker.terminate());
}
