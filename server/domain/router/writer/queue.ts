/**
 * The writer's queue: every event submitted during one event-loop turn waits for the next turn and
 * is handed to `flush` with its neighbours as one batch (one write transaction); each submitter is
 * answered once that batch has committed. A batch the database refuses as busy (another writer,
 * process or instance, holds it) is tried again after a short wait; a batch that fails otherwise is
 * written event by event, so one bad event never fails its neighbours.
 *
 * Pipelining (a remote primary): up to `inFlight` batches may be written at once (each mostly waits
 * on the network). An event that depends on what a batch in flight changes (the same session, the
 * same respondent on the same project: the same key) is held in the queue until that batch is done,
 * so it is decided on the committed row, not on a read that missed it; an exclusive event (the
 * sweep, which may touch any session) goes alone, with nothing else in flight. Order between
 * batches in flight is not trusted: each one's guards are evaluated by the database at write time.
 *
 * Linger (a remote primary): after a batch of several events, the next one waits a few ms so the
 * requests that batch answered come back and share it; a server that costs by the request (sqld)
 * then writes fewer, fuller batches.
 */
import { setImmediate } from "node:timers";
import type { Logger } from "../../../logger.ts";

type Pending<E, O> = { event: E; resolve: (o: O) => void; reject: (e: unknown) => void };

const BUSY = /SQLITE_BUSY|database is locked/i;
const message = (err: unknown) => err instanceof Error ? err.message : String(err);

/** What an event depends on: keys it shares with a batch in flight hold it; `exclusive` holds everything. */
export type EventKeys = { keys: string[]; exclusive?: boolean };

export type QueueOptions<E> = {
  /** Batches written at once (1: one transaction at a time). */
  inFlight?: number;
  /** The keys of an event (needed when inFlight > 1). */
  keysOf?: (event: E) => EventKeys;
  /**
   * Milliseconds the next batch waits after one of several events is written, so the requests it
   * answered can come back and share the next one (fewer, fuller batches; 0: the next turn).
   */
  linger?: number;
};

type Running = { keys: Set<string>; exclusive: boolean };

export class BatchQueue<E, O> {
  #queue: Pending<E, O>[] = [];
  #scheduled = false;
  readonly #running = new Set<Running>();
  #idle: (() => void)[] = [];
  readonly #inFlight: number;
  readonly #keysOf: (event: E) => EventKeys;
  /** Most batches in flight at once so far (tests and the bench read it). */
  peakInFlight = 0;
  /** Events held back at least once because a batch in flight changes what they depend on. */
  held = 0;

  constructor(
    /** Writes one batch in one transaction; answers one outcome per event, in order. */
    private readonly flush: (events: E[]) => Promise<O[]>,
    private readonly maxBatch: number,
    private readonly log: Logger,
    opts: QueueOptions<E> = {},
  ) {
    this.#inFlight = Math.max(1, opts.inFlight ?? 1);
    this.#keysOf = opts.keysOf ?? (() => ({ keys: [] }));
    this.#linger = opts.linger ?? 0;
  }
  readonly #linger: number;
  #lingering = false;

  submit(event: E): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ event, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every queued event is written. */
  idle(): Promise<void> {
    if (!this.#queue.length && !this.#running.size && !this.#scheduled && !this.#lingering) {
      return Promise.resolve();
    }
    return new Promise((r) => this.#idle.push(r));
  }

  #schedule() {
    if (this.#lingering || this.#scheduled || this.#running.size >= this.#inFlight || !this.#queue.length) {
      return;
    }
    this.#scheduled = true;
    // the next turn: whatever else this turn's requests submit goes into the same transaction
    setImmediate(() => this.#drain());
  }

  /** The next batch: queued events, in order, that depend on nothing in flight. */
  #take(): { batch: Pending<E, O>[]; running: Running } | null {
    if (this.#inFlight === 1) {
      if (this.#running.size) return null;
      return { batch: this.#queue.splice(0, this.maxBatch), running: { keys: new Set(), exclusive: true } };
    }
    for (const r of this.#running) if (r.exclusive) return null;
    const busy = new Set<string>();
    for (const r of this.#running) for (const k of r.keys) busy.add(k);
    const batch: Pending<E, O>[] = [], rest: Pending<E, O>[] = [];
    const running: Running = { keys: new Set(), exclusive: false };
    let blocked = false;
    for (const p of this.#queue) {
      if (batch.length >= this.maxBatch) {
        rest.push(p);
        continue;
      }
      const k = this.#keysOf(p.event);
      if (k.exclusive) {
        // alone, with nothing else in flight; what was queued after it waits too (so a steady flow
        // of other events cannot starve it)
        if (!this.#running.size && !batch.length && !blocked) {
          batch.push(p);
          running.exclusive = true;
        } else rest.push(p);
        blocked = true;
        continue;
      }
      if (blocked || running.exclusive || k.keys.some((key) => busy.has(key))) {
        if (!blocked && !running.exclusive) this.held++;
        rest.push(p);
        // what depends on a held event waits behind it
        for (const key of k.keys) busy.add(key);
        continue;
      }
      batch.push(p);
      for (const key of k.keys) running.keys.add(key);
    }
    this.#queue = rest;
    return batch.length ? { batch, running } : null;
  }

  #drain() {
    this.#scheduled = false;
    while (this.#running.size < this.#inFlight) {
      const next = this.#take();
      if (!next) break;
      this.#run(next.batch, next.running);
    }
    if (!this.#running.size && !this.#queue.length) this.#idle.splice(0).forEach((r) => r());
  }

  async #run(batch: Pending<E, O>[], running: Running) {
    this.#running.add(running);
    this.peakInFlight = Math.max(this.peakInFlight, this.#running.size);
    try {
      await this.#flushSafe(batch);
    } finally {
      this.#running.delete(running);
    }
    // a batch of one: no one else is waiting, nothing to gather
    if (this.#linger > 0 && !this.#lingering && batch.length > 1) {
      // the answered requests come back within a few ms: let them join the next batch
      this.#lingering = true;
      setTimeout(() => {
        this.#lingering = false;
        this.#next();
      }, this.#linger);
      return;
    }
    this.#next();
  }

  #next() {
    if (this.#queue.length) this.#schedule();
    else if (!this.#running.size && !this.#scheduled && !this.#lingering) {
      this.#idle.splice(0).forEach((r) => r());
    }
  }

  async #flushSafe(batch: Pending<E, O>[], attempt = 0): Promise<void> {
    if (!batch.length) return;
    try {
      const outcomes = await this.flush(batch.map((p) => p.event));
      batch.forEach((p, i) => p.resolve(outcomes[i]));
    } catch (err) {
      // another writer (process or instance) holds the database: wait a little and try again
      if (attempt < 5 && BUSY.test(String((err as Error)?.message ?? err))) {
        await new Promise((r) => setTimeout(r, 10 * 2 ** attempt));
        return await this.#flushSafe(batch, attempt + 1);
      }
      if (batch.length === 1) {
        this.log.error("router write failed", { error: message(err) });
        batch[0].reject(err);
        return;
      }
      // one bad event must not fail its neighbours: write them one by one
      this.log.warn("router batch failed; writing its events one by one", {
        events: batch.length,
        error: message(err),
      });
      for (const p of batch) await this.#flushSafe([p]);
    }
  }
}
