/**
 * The parse of a large identifier file on a worker (./worker.ts), away from the app's thread (the
 * one that serves respondents): the same parser, the same result. Only the parse goes there: the
 * reads and writes of an upload stay on the app's connection, because a second connection reading
 * the same file while the router writes slows the router more than the reads cost here (measured:
 * a worker reading without pause took the router on another project to 0.69-0.82 of its pace; a
 * worker spinning on plain JavaScript left it at 0.95-1.00).
 */
import type { ParsedIdentifiers, ParseResult } from "../../../shared/reconcile-file.ts";

export type OffThreadRequest = { csv: string; max: number };
/** The worker's answer: a parse result whose identifiers come as one string, a line each. */
export type OffThreadParse =
  | Extract<ParseResult, { ok: false }>
  | { ok: true; value: Omit<ParsedIdentifiers, "identifiers"> & { joined: string } };

/** A file larger than this (characters) is parsed on a worker. */
export const PARSE_OFF_THREAD = 1 << 20;

/** The parse of `parseIdentifierFile`, on a worker: the same result. */
export function parseOffThread(
  csv: string,
  max: number,
  /** Filled with the time this thread spent on it (ms): the identifiers taken apart. */
  stats: { busyMs: number } = { busyMs: 0 },
): Promise<ParseResult> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
  return new Promise<ParseResult>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<OffThreadParse>) => {
      const r = e.data;
      if (!r.ok) return resolve(r);
      const { joined, ...rest } = r.value;
      const t0 = performance.now();
      const identifiers = joined ? joined.split("\n") : [];
      stats.busyMs += performance.now() - t0;
      resolve({ ok: true, value: { ...rest, identifiers } });
    };
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(`identifier file parse: ${e.message}`));
    };
    worker.postMessage({ csv, max } satisfies OffThreadRequest);
  }).finally(() => worker.terminate());
}
