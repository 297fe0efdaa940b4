/**
 * The writer's queue: every event submitted during one event-loop turn waits for the next turn and
 * is handed to `flush` with its neighbours as one batch (one write transaction); each submitter is
 * answered once that batch has committed. A batch the database refuses as busy (another writer,
 * process or instance, holds it) is tried again after a short wait; a batch that fails otherwise is
 * written event by event, so one bad event never fails its neighbours.
 */
import { setImmediate } from "node:timers";
import type { Logger } from "../../../logger.ts";

type Pending<E, O> = { event: E; resolve: (o: O) => void; reject: (e: unknown) => void };

const BUSY = /SQLITE_BUSY|database is locked/i;
const message = (err: unknown) => err instanceof Error ? err.message : String(err);

export class BatchQueue<E, O> {
  #queue: Pending<E, O>[] = [];
  #scheduled = false;
  #running: Promise<void> | null = null;
  #idle: (() => void)[] = [];

  constructor(
    /** Writes one batch in one transaction; answers one outcome per event, in order. */
    private readonly flush: (events: E[]) => Promise<O[]>,
    private readonly maxBatch: number,
    private readonly log: Logger,
  ) {}

  submit(event: E): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ event, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every queued event is written. */
  idle(): Promise<void> {
    if (!this.#queue.length && !this.#running && !this.#scheduled) return Promise.resolve();
    return new Promise((r) => this.#idle.push(r));
  }

  #schedule() {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    // the next turn: whatever else this turn's requests submit goes into the same transaction
    setImmediate(() => this.#drain());
  }

  async #drain() {
    this.#scheduled = false;
    const batch = this.#queue.splice(0, this.maxBatch);
    this.#running = this.#flushSafe(batch);
    try {
      await this.#running;
    } finally {
      this.#running = null;
    }
    if (this.#queue.length) this.#schedule();
    else this.#idle.splice(0).forEach((r) => r());
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
