/**
 * The pace of a long reconcile job (an upload's chunks, a roll-back's, a release's): between its
 * steps the event loop is given back, so the router and every other request keep being served.
 */
import { setImmediate } from "node:timers";

/**
 * One turn of the event loop (a macrotask: I/O, timers and the router's batches get in). An
 * immediate, not a zero timeout: that one waits a millisecond or two even when nothing else is
 * waiting, which tripled an upload's time on an idle server.
 */
const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * While an upload runs, the rest of the server gets up to this many times the upload's own time
 * (its chunks, and a file parsed here) whenever it has work waiting: the router on other projects
 * keeps about 7/8 of its pace (0.83-0.87 measured), and a 100,000-identifier upload (about 0.45 s
 * of its own work) takes about 7 times that. An idle loop lets the next chunk go at once.
 */
const YIELD_SHARE = 7;
/** A turn of the loop shorter than this (ms) found nobody waiting. */
const IDLE_TURN = 0.5;
/**
 * Gives the event loop back between the steps of a long job (an upload's chunks, a roll-back's,
 * a release's), so that over the job the others get YIELD_SHARE times its own time: after each
 * step it yields (a macrotask) until they have had that, or until two turns in a row come
 * straight back (nobody was waiting: the first turn lets in what I/O brought, the second what that
 * scheduled). Time nobody wanted is not owed later.
 */
export class Pacer {
  #own: number;
  #given = 0;
  /** `ownMs`: what the job did before its first step (an upload's parse). */
  constructor(ownMs = 0) {
    this.#own = ownMs;
  }
  /** After a step that took `ms` of the job's own time. */
  async step(ms: number): Promise<void> {
    this.#own += ms;
    let quiet = 0;
    while (this.#given < this.#own * YIELD_SHARE) {
      const t0 = performance.now();
      await yieldToLoop();
      const gap = performance.now() - t0;
      this.#given += gap;
      quiet = gap < IDLE_TURN ? quiet + 1 : 0;
      if (quiet === 2) {
        this.#given = Math.max(this.#given, this.#own * YIELD_SHARE);
        break;
      }
    }
  }
}
