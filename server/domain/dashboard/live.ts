/**
 * The dashboard's live figures (today's completes and security refusals, today's traffic point):
 * read once for every viewer after the router flushes its counters, at most once per interval
 * (1 s), and handed to every subscriber (the SSE streams). A viewer who just connected, or polls
 * after its stream dropped, gets the last reading if it is fresh, else one shared new reading.
 *
 * One hub per app, built at boot into deps.services.live (server/boot.ts). It listens to the router
 * of this app only: another instance's traffic shows at the next reading this instance makes (its
 * own flush or a viewer's poll).
 */
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";
import type { LiveUpdate } from "../../../shared/api/dashboard.ts";
import { approvedSums, completes, rollupSums, securityDrops, trafficPoint, ZERO_SUMS } from "./figures.ts";
import { isoDay } from "./periods.ts";

export const LIVE_INTERVAL_MS = 1_000;

/** Today's live figures, from the same functions as the cards and the traffic chart. */
export async function readLive(db: Db, now: number): Promise<LiveUpdate> {
  const today = isoDay(now);
  const b = { from: today, keyLength: 10 as const };
  const [sums, approved] = await Promise.all([rollupSums(db, b), approvedSums(db, b)]);
  const s = sums.get(today) ?? ZERO_SUMS;
  return {
    at: new Date(now).toISOString(),
    date: today,
    todayCompleted: completes(s),
    todaySecurityDrop: securityDrops(s),
    traffic: trafficPoint(today, s, approved.get(today)),
  };
}

type Listener = (u: LiveUpdate) => void;

/** What the hub reads with, and the router's writer it listens to (told after each committed flush). */
export type LiveDeps = {
  db: Db;
  log: Logger;
  now: () => number;
  flushes: { onFlushed(fn: () => void): () => void };
};

export class DashboardLive {
  readonly #listeners = new Set<Listener>();
  #detach: (() => void) | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** performance.now() of the last reading (throttle). */
  #lastRead = -Infinity;
  #last: LiveUpdate | null = null;
  #reading: Promise<LiveUpdate> | null = null;
  /** Readings made so far (tests check that viewers share them). */
  reads = 0;

  constructor(private readonly deps: LiveDeps, readonly intervalMs = LIVE_INTERVAL_MS) {}

  get viewers() {
    return this.#listeners.size;
  }

  /** Adds a viewer; the hub listens to the router while it has any. Returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    if (!this.#detach) this.#detach = this.deps.flushes.onFlushed(() => this.#flushed());
    return () => {
      this.#listeners.delete(listener);
      if (!this.#listeners.size) this.#stop();
    };
  }

  /** The figures now: the last reading when younger than the interval, else one shared new reading. */
  snapshot(): Promise<LiveUpdate> {
    if (this.#last && performance.now() - this.#lastRead < this.intervalMs) {
      return Promise.resolve(this.#last);
    }
    return this.#read();
  }

  #read(): Promise<LiveUpdate> {
    this.#reading ??= (async () => {
      try {
        this.reads++;
        this.#lastRead = performance.now();
        const u = await readLive(this.deps.db, this.deps.now());
        this.#last = u;
        return u;
      } finally {
        this.#reading = null;
      }
    })();
    return this.#reading;
  }

  /** After a flush: one reading for everyone, no sooner than the interval after the last one. */
  #flushed() {
    if (this.#timer !== undefined || !this.#listeners.size) return;
    const wait = Math.max(0, this.#lastRead + this.intervalMs - performance.now());
    this.#timer = setTimeout(async () => {
      this.#timer = undefined;
      try {
        const u = await this.#read();
        for (const l of this.#listeners) l(u);
      } catch (e) {
        this.deps.log.warn("dashboard live reading failed", { error: String(e) });
      }
    }, wait);
  }

  #stop() {
    this.#detach?.();
    this.#detach = null;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Drops every viewer and stops listening. */
  close() {
    this.#listeners.clear();
    this.#stop();
  }
}
