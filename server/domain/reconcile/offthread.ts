/**
 * A large upload's reads away from the app's thread (./worker.ts): the parse of a big identifier
 * file, and the reads of the upload's chunks against a local database file, a chunk ahead of the
 * writes. The app's thread (the one that serves respondents) is left with the writes alone, which
 * SQLite allows one connection at a time anyway; reads on the worker's connection never block them.
 */
import type { ParseResult } from "../../../shared/schemas/reconcile.ts";
import type { Classified } from "./classify.ts";

export type WorkerRequest =
  | { id: number; op: "parse"; csv: string; max: number }
  | { id: number; op: "open"; url: string; authToken?: string; ids: string; scope: string[]; chunk: number }
  | { id: number; op: "classify"; index: number }
  | { id: number; op: "close" };
export type WorkerReply = { id: number; ok: true; value: unknown } | {
  id: number;
  ok: false;
  message: string;
};

/** A file larger than this (characters) is parsed on a worker. */
export const PARSE_OFF_THREAD = 1 << 20;
/** An upload of this many identifiers or more on a local file reads its chunks on a worker. */
export const READ_OFF_THREAD = 10_000;

type Distribute<T> = T extends unknown ? Omit<T, "id"> : never;

/** One worker and its answers by request. */
class WorkerClient {
  #worker = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
  #next = 1;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #failed: Error | null = null;

  constructor() {
    this.#worker.onmessage = (e: MessageEvent<WorkerReply>) => {
      const p = this.#pending.get(e.data.id);
      if (!p) return;
      this.#pending.delete(e.data.id);
      if (e.data.ok) p.resolve(e.data.value);
      else p.reject(new Error(e.data.message));
    };
    this.#worker.onerror = (e) => {
      e.preventDefault();
      this.#fail(new Error(`reconcile worker: ${e.message}`));
    };
  }

  #fail(err: Error) {
    this.#failed ??= err;
    for (const p of this.#pending.values()) p.reject(err);
    this.#pending.clear();
    this.#worker.terminate();
  }

  request<T>(m: Distribute<WorkerRequest>): Promise<T> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#worker.postMessage({ ...m, id });
    });
  }

  /**
   * The worker closes its connection (a connection dropped unclosed could keep its hold on the
   * write-ahead log) and itself; after a second it is stopped anyway.
   */
  async close(): Promise<void> {
    if (this.#failed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.request({ op: "close" }).catch(() => {}),
      new Promise((r) => timer = setTimeout(r, 1_000)),
    ]);
    clearTimeout(timer);
    this.#fail(new Error("reconcile worker closed"));
  }
}

/** The parse of `parseIdentifierFile`, on a worker: the same result. */
export async function parseOffThread(
  csv: string,
  max: number,
  /** Filled with the time this thread spent on it (ms): the identifiers taken apart. */
  stats: { busyMs: number } = { busyMs: 0 },
): Promise<ParseResult> {
  const w = new WorkerClient();
  try {
    const r = await w.request<
      | ParseResult
      | {
        ok: true;
        value: { joined: string; count: number; lines: number; duplicates: number; header: boolean };
      }
    >({ op: "parse", csv, max });
    if (!r.ok || !("joined" in r.value)) return r as ParseResult;
    const { joined, count, ...rest } = r.value;
    const t0 = performance.now();
    const identifiers = count ? joined.split("\n") : [];
    stats.busyMs += performance.now() - t0;
    return { ok: true, value: { ...rest, identifiers } };
  } finally {
    await w.close();
  }
}

/**
 * Reads an upload's chunks on a worker's own connection to the database file `url`: `get(k)` gives
 * chunk k (identifiers k*chunk onwards) and starts reading chunk k+1, so the read of the next chunk
 * goes on while the app writes this one.
 */
export class ChunkReader {
  #w = new WorkerClient();
  #ahead = new Map<number, Promise<Classified>>();
  #chunks: number;

  constructor(url: string, authToken: string | undefined, ids: string[], scope: string[], chunk: number) {
    this.#chunks = Math.ceil(ids.length / chunk);
    // a failed open fails the reads that follow it
    this.#w.request({ op: "open", url, authToken, ids: ids.join("\n"), scope, chunk }).catch(() => {});
  }

  #read(index: number): Promise<Classified> {
    const p = this.#w.request<Classified>({ op: "classify", index });
    p.catch(() => {}); // a read ahead nobody takes is no unhandled failure
    return p;
  }

  get(index: number): Promise<Classified> {
    const p = this.#ahead.get(index) ?? this.#read(index);
    this.#ahead.delete(index);
    if (index + 1 < this.#chunks && !this.#ahead.has(index + 1)) {
      this.#ahead.set(index + 1, this.#read(index + 1));
    }
    return p;
  }

  async close(): Promise<void> {
    // reads ahead finish first: the worker answers in order
    this.#ahead.clear();
    await this.#w.close();
  }
}
