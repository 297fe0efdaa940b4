/**
 * The router's single writer. Every event that changes counts (an entry, a pre-screen answer, a
 * client return, the drop sweep) is queued; the events of one event-loop turn are decided and
 * written together in ONE write transaction on the next turn, and each request is answered after
 * that transaction commits. A flush costs a handful of statements however many events it carries
 * (writes cost by the statement, design.md 5a).
 *
 * Its parts, in the order a batch goes through them:
 * - ./queue.ts: the queue (one batch per event-loop turn, busy retries, reply after commit);
 * - ./load.ts: the load (the rows the batch needs, read inside its write transaction);
 * - ./decide.ts: the decide (each event's outcome: quotas, duplicates, exclusions, returns);
 * - ./write.ts: the write (counter bumps, session rows, links, quotas, answers, hooks).
 *
 * Exactness: the load reads, inside the write transaction, the counts the decisions depend on
 * (project and supplier-map counters, existing sessions of the same respondents, IP counts, free
 * client links, quota cells). The write lock is held from that read to the commit, so those
 * figures plus the batch's own changes are the database's state: quota and duplicate decisions
 * are exact even with several app instances on one libSQL server. The partial unique index on
 * (projectId, sid) stays the last word on duplicates; counters and sessions change in the same
 * transaction, so they agree after a crash.
 */
import type { Db } from "../../../db/connection.ts";
import type { Logger } from "../../../logger.ts";
import { BatchQueue, type EventKeys } from "./queue.ts";
import {
  type BatchState,
  loadBatch,
  type MapCounts,
  type ProjectCounts,
  readerOn,
  stateWithoutRead,
} from "./load.ts";
import { guardStatements, STALE } from "./guards.ts";
import { type Remote, remoteOf } from "../../../db/connection.ts";
import type { Statement } from "../rollup.ts";
import type { InStatement } from "@libsql/client";
import { Decisions } from "./decide.ts";
import { Changes } from "./write.ts";
import type { HookRow } from "../callback-events.ts";
import type { Outcome, RouterEvent, SessionRow, WriterOptions } from "./types.ts";
import type { QuotaCellRef } from "../prescreen.ts";
import { recordRouterBatch } from "../../../lib/metrics.ts";

export type {
  EntryEvent,
  LinkEvent,
  Outcome,
  PrescreenEvent,
  ReturnEvent,
  RouterEvent,
  SessionRow,
  SweepEvent,
  WriterOptions,
} from "./types.ts";

export class RouterWriter {
  readonly #queue: BatchQueue<RouterEvent, Outcome>;
  /**
   * Called after each commit with the sessions and the callbacks it wrote (the uid cache, delivery)
   * and the surveys and maps whose completes it brought to their limit (routing stops offering them).
   */
  onCommit: ((sessions: SessionRow[], hooks: HookRow[], filled: Filled) => void) | null = null;
  /** Listeners told after each committed flush (the dashboard's live figures); see onFlushed. */
  readonly #flushed = new Set<() => void>();
  /** Transactions run so far (the bench reports events per flush). */
  flushes = 0;
  /** Remote primary only: write batches committed, and those a guard refused (then redone). */
  writeBatches = 0;
  staleBatches = 0;
  /** Remote primary only: batches decided without a read (plain entries; stateWithoutRead). */
  leanBatches = 0;
  /** Remote primary only: milliseconds spent reading and writing batches (the bench reports them). */
  readMs = 0;
  writeMs = 0;

  constructor(
    private readonly db: Db,
    readonly opts: WriterOptions,
    private readonly log: Logger,
    /** The clock (deps.now): stamps what is not an event's own time, like queued hooks. */
    private readonly now: () => number = Date.now,
  ) {
    // a remote primary: batches pipelined (each mostly waits on the network); a file: one at a time
    const remote = remoteOf(db) !== null;
    this.#queue = new BatchQueue((events) => this.#flush(events), opts.maxBatch, log, {
      inFlight: remote ? opts.remoteInFlight ?? REMOTE_IN_FLIGHT : 1,
      keysOf: eventKeys,
      linger: remote ? opts.remoteLingerMs ?? REMOTE_LINGER_MS : 0,
    });
  }

  /** Most batches in flight at once, and events held behind a batch in flight (queue.ts). */
  get pipeline() {
    return { peak: this.#queue.peakInFlight, held: this.#queue.held };
  }

  submit(event: RouterEvent): Promise<Outcome> {
    return this.#queue.submit(event);
  }

  /**
   * Calls `listener` after each committed flush (counters and rollup written), with nothing about
   * the batch: listeners read what they need themselves. Returns the function that stops it.
   */
  onFlushed(listener: () => void): () => void {
    this.#flushed.add(listener);
    return () => this.#flushed.delete(listener);
  }

  /** Resolves once every queued event is written. */
  idle(): Promise<void> {
    return this.#queue.idle();
  }

  /** One batch: load, decide each event in order, write (one transaction, or one remote batch). */
  async #flush(events: RouterEvent[]): Promise<Outcome[]> {
    this.flushes++;
    const started = performance.now();
    const remote = remoteOf(this.db);
    const { outcomes, changes, state } = remote
      ? await this.#flushRemote(events, remote)
      : await this.db.transaction().execute(async (trx) => {
        const state = await loadBatch(readerOn(trx), events);
        const changes = new Changes(state);
        const decisions = new Decisions(state, changes, this.opts);
        const outcomes = events.map((e) => decisions.decide(e));
        await changes.write(trx, this.now(), this.opts.hookLeaseMs);
        return { outcomes, changes, state };
      });
    // metrics: one call per committed batch (entries and outcomes, batch size, flush time)
    recordRouterBatch(events, outcomes, (performance.now() - started) / 1000);
    try {
      this.onCommit?.([...changes.dirty.values()], changes.hooks, filledIn(state));
    } catch (err) {
      // written is written: a failure here must not send the batch's events round again
      this.log.error("router commit listener failed", { error: String(err) });
    }
    for (const listener of this.#flushed) {
      try {
        listener();
      } catch { /* a listener's failure is its own: the batch is written and answered */ }
    }
    return outcomes;
  }

  /** Counters of projects and maps as this instance last read or wrote them (remote primary). */
  readonly #known = { projects: new Map<string, ProjectCounts>(), maps: new Map<string, MapCounts>() };

  #remember(state: BatchState) {
    for (
      const [m, from] of [[this.#known.projects, state.projects], [this.#known.maps, state.maps]] as const
    ) {
      if (m.size > 20_000) m.clear();
      for (const [id, c] of from) (m as Map<string, typeof c>).set(id, { ...c });
    }
  }

  /**
   * A batch against a remote primary: one read round trip (a read batch; two when loaded sessions
   * name more; none for plain entries on counters this instance knows, stateWithoutRead), the
   * decisions in memory, then ONE atomic write batch led by guards that refuse it if what the
   * decisions stood on moved meanwhile (./guards.ts). A refused batch is read and decided
   * again; after MAX_STALE refusals in a row the error goes to the queue like any other. One batch
   * in flight per instance by default (REMOTE_IN_FLIGHT, with a linger, REMOTE_LINGER_MS); with
   * more, ./queue.ts holds an event that depends on a batch in flight until it is done.
   */
  async #flushRemote(events: RouterEvent[], remote: Remote) {
    const read = (statements: Statement[]) => remote.batch(statements as InStatement[], "read");
    for (let attempt = 1;; attempt++) {
      const t0 = performance.now();
      // plain entries go without a read (one round trip in all); a refused batch reads
      const lean = attempt === 1 ? stateWithoutRead(events, this.#known) : null;
      if (lean) this.leanBatches++;
      const state = lean ?? await loadBatch(read, events);
      const t1 = performance.now();
      this.readMs += t1 - t0;
      const changes = new Changes(state);
      const decisions = new Decisions(state, changes, this.opts);
      const outcomes = events.map((e) => decisions.decide(e));
      const writes = changes.statements(this.now(), { json: true, hookLeaseMs: this.opts.hookLeaseMs });
      const guards = guardStatements(state, changes);
      try {
        // (the batch's rows only, not its last ids: its callbacks are settled by key)
        await remote.batch(
          [
            ...guards,
            ...writes,
            ...(guards.length ? [{ sql: "DELETE FROM router_guard", args: [] }] : []),
          ] as InStatement[],
          "write",
        );
        this.writeBatches++;
        this.#remember(state);
        this.writeMs += performance.now() - t1;
        return { outcomes, changes, state };
      } catch (err) {
        if (!STALE.test(String((err as Error)?.message ?? err)) || attempt >= MAX_STALE) throw err;
        this.staleBatches++;
      }
    }
  }
}

/**
 * Surveys, supplier maps and quota cells a batch left with no room for another complete (a cell
 * with the completes it holds).
 */
export type Filled = { projects: string[]; maps: string[]; cells: (QuotaCellRef & { completes: number })[] };

/** What a batch's state (its counters after its own decisions) says is at its limit. */
function filledIn(state: BatchState): Filled {
  const out: Filled = { projects: [], maps: [], cells: [] };
  for (const [id, c] of state.projects) {
    if (c.sampleSize > 0 && c.complete >= c.sampleSize) out.projects.push(id);
  }
  for (const [id, c] of state.maps) if (c.quota > 0 && c.complete >= c.quota) out.maps.push(id);
  // as the decisions read a cell (decide.ts): a size of 0 is no limit, unless the cell is strict
  for (const [quotaId, q] of state.quotas) {
    for (const c of q.cells) {
      const completes = Number(c.completes) || 0;
      if ((c.quotaSize > 0 || c.strict === true) && completes >= c.quotaSize) {
        out.cells.push({ quotaId, quotaOptionId: c.quotaOptionId, completes });
      }
    }
  }
  return out;
}

/**
 * Batches in flight at once on a remote primary (writer/queue.ts). One: sqld spends about 1.5 ms
 * of CPU per request and 3.5 ms per write batch whatever its size (a few hundredths of a ms per
 * event), and runs write batches one after another, so more batches in flight only made them
 * smaller and sqld busier (2 in flight: 0.25x one instance on a file, p99 267 ms, no guard
 * refusals; 4 in flight saturated it). The pipeline stays for a primary far away (remoteInFlight).
 */
export const REMOTE_IN_FLIGHT = 1;
/**
 * Milliseconds a remote primary's next batch waits after a full one is written: the requests it
 * answered come back and join the next batch, instead of half of them riding alone (fewer, fuller
 * batches: the bench's 64 connections went from 0.42x to 0.52x one instance on a file, p99 from
 * 66 to 42 ms).
 */
export const REMOTE_LINGER_MS = 4;

/**
 * What an event depends on, for the pipeline (writer/queue.ts): a respondent (the same sid, on this
 * project or one its exclusion rules look at), a session by uid, a unique-IP count, a project's free
 * client links, pre-screen quota cells. An event sharing a key with a batch in flight waits for it;
 * the sweep (any due session) goes alone.
 */
export function eventKeys(e: RouterEvent): EventKeys {
  if (e.kind === "sweep") return { keys: [], exclusive: true };
  const keys: string[] = [];
  if (e.kind === "entry") {
    keys.push(`sid\u0000${e.sid}`);
    if (e.project.isUniqueIp && e.ip) keys.push(`ip\u0000${e.project.id}\u0000${e.ip}`);
  } else {
    keys.push(`uid\u0000${e.uid}`);
    if (e.kind === "prescreen") { for (const c of e.quotaCells) keys.push(`quota\u0000${c.quotaId}`); }
  }
  if ((e.kind === "entry" || e.kind === "prescreen") && e.project.isMultiLinkUrl && !e.clientApi) {
    keys.push(`links\u0000${e.project.id}`);
  }
  return { keys };
}

/** Refusals by a guard in a row before a batch gives up (each one means another instance wrote). */
const MAX_STALE = 50;
