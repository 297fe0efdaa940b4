/**
 * Supplier callbacks (issue 23; they began as the approved hooks): at a session's outcome the router
 * queues one row of router_hooks per event the supplier has a URL for (complete: its
 * supplierApprovedHook; terminate, over quota, quality term: callback URLs of migration 0036; see
 * ./callback-events.ts) in the same transaction as the outcome; a reconcile queues its approvals and
 * its reconcile changes into the same table (../reconcile/post-backs.ts). A background sender
 * delivers them, retrying with back-off; the queue is a table, so a restart loses nothing. Each
 * request is built when sent from the supplier's API fields and signed under its hash key
 * (./callback-request.ts, shared/callbacks.ts).
 *
 * Several app instances may share the database, each with its own sender: a sender first claims a
 * due row (queued -> sending, nextAt = the end of its lease, the attempt counted) with one
 * conditional UPDATE committed before the request goes out, and only the one whose UPDATE changed
 * the row sends it. A sender that dies mid-send leaves a 'sending' row whose lease runs out; it is
 * due again then, so the hook is late but never lost.
 *
 * An outcome's callback is claimed at birth: the router's writer writes a batch's callbacks as one
 * claim under this instance's lease (./hook-claims.ts; on a remote primary, each as a 'sending' row)
 * and hands them to `fresh()` at the commit, so the usual callback costs no read and no claim, only
 * its request and a share of the INSERT that moves its claim's callbacks into router_hooks when
 * answered. Retries, reconcile callbacks, redeliveries and lapsed leases and claims go through the
 * scan (`kick()`: at the start, after a reconcile or a redeliver, when a retry or a claim's lease is
 * due, and every SCAN_EVERY_MS while callbacks are sent). A fresh callback not sent before its lease
 * nears its end (a backlog), or left when the app closes, is released to the scan: never sent twice by
 * this instance, never lost.
 *
 * Delivery is at least once: a sender that died after its request went out but before it recorded
 * the answer cannot know whether the supplier got it, so the hook is sent again. Every send of a
 * hook carries the same idempotency key (the session's uid and the outcome, hookKey) in the
 * `Idempotency-Key` header and in the [key] placeholder: the supplier deduplicates on it. A send
 * that takes over a lapsed lease is logged as a possible duplicate.
 *
 * Hooks go through the outbound client (../common/outbound): a hook whose URL the policy refuses
 * (an internal address, a name that resolves to one, a port it does not call) fails at once, without
 * retries; its answer says why (the delivery log), and the complete URL's reason is kept on the
 * supplier (shown on its form) and logged once, when it changes.
 */
import { wallClock } from "../common/clock.ts";
import type { ChangeNotifier } from "../common/changes.ts";
import type { Db } from "../../db/connection.ts";
import { sql } from "kysely";
import type { Logger } from "../../logger.ts";
import { hookKey } from "./outcomes.ts";
import type { Outbound } from "../common/outbound/client.ts";
import { CallbackThread, Gather, ON_THREAD_PARALLEL } from "./callback-thread.ts";
import type { HookRow } from "./callback-events.ts";
import { CallbackSends, type FreshAnswers, freshOf } from "./callback-sends.ts";
import { type ClaimRun, ClaimTally, firstClaimEnd, recoverClaims, settleClaims } from "./hook-claims.ts";
import {
  type Claimed,
  type DeliveredRuns,
  type Due,
  keyOf,
  type Result,
  settleResults,
} from "./hook-results.ts";

export { hookKey };
export { IDEMPOTENCY_HEADER } from "../../../shared/callbacks.ts";

// deno-fmt-ignore
const DUE_COLUMNS = ["id", "sessionId", "supplierId", "url", "status", "attempts", "nextAt", "hookKey", "event", "vars"] as const;

export type HookOptions = {
  /** The outbound client the hooks go through (its timeouts and size cap apply; timeoutMs overrides its total). */
  outbound: Outbound;
  /** Waits before the 2nd, 3rd... attempt; after the last one the hook is marked failed. */
  retryDelaysMs: number[];
  timeoutMs: number;
  /** How long a claimed hook is left to its sender before another may take it (default 3 x timeout, at least 1 min). */
  leaseMs?: number;
  /** The clock (deps.now); default Date.now. */
  now?: () => number;
  /** Where a supplier's change is told: its cached signing fields are dropped (a rotated key applies at once). */
  changes?: ChangeNotifier;
  /**
   * Send from a worker (./callback-thread.ts): default when the outbound client can be rebuilt there
   * (no test resolver or transport); false keeps every send on this thread.
   */
  thread?: boolean;
};

/** Written out, not bound: SQLite uses the partial index router_hooks_due only for this literal term. */
const DUE_STATES = sql<boolean>`status IN ('queued', 'sending')`;

/** How many due callbacks a round takes (ON_THREAD_PARALLEL of them on their way at once without the worker). */
const SEND_ROUND = 100;
/**
 * Fresh callbacks' results settled at once at most, and how long the first of them waits for others
 * (ms): SETTLE_MS while more are on their way, SETTLE_IDLE_MS once none is (the end of a burst is
 * recorded at once, yet a trickle of callbacks settles at most one transaction per SETTLE_IDLE_MS).
 * A settle is a transaction on the router's own connection: under a steady flow one a second (at
 * 250 ms the router bench's callbacks-on pairs ran at 0.89-0.90x of those without, at 1 s at 0.94x).
 * A crash between a delivery and its settle sends that callback again (same idempotency key).
 */
const SETTLE_ROUND = 4_000;
const SETTLE_MS = 1_000;
const SETTLE_IDLE_MS = 20;
/**
 * Fresh callbacks handed to the worker at once (it keeps each panel's server to PER_ORIGIN connections
 * of PIPELINE_DEPTH callbacks).
 */
const THREAD_PARALLEL = 1_000;
/** Fresh callbacks waiting in memory at most; more wait in the table for their lease to lapse. */
const FRESH_MAX = 5_000;
/** While fresh callbacks are sent, the table is scanned this often (lapsed leases, other instances'). */
const SCAN_EVERY_MS = 10_000;

export const DEFAULT_HOOK_RETRIES = [10_000, 60_000, 5 * 60_000, 30 * 60_000];

export class HookSender {
  #running: Promise<void> | null = null;
  #again = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires (ms), or Infinity. */
  #timerAt = Infinity;
  #closed = false;
  readonly #outbound: Outbound;
  /** The worker the callbacks are sent from, or null: sent on this thread. */
  readonly #thread: CallbackThread | null;
  readonly #sends: CallbackSends;
  /**
   * Fresh callbacks not yet on their way (a write batch's together: one lease), how many, their sends
   * in flight, their results (delivered ones as runs of ids, with no object per callback).
   */
  #fresh: { rows: HookRow[]; lease: string }[] = [];
  #freshCount = 0;
  #inFlight = new Set<Promise<void>>();
  /** Fresh callbacks on their way (not yet answered). */
  #sending = 0;
  #results: Result[] = [];
  #delivered: DeliveredRuns = new Map();
  #deliveredCount = 0;
  readonly #answers: FreshAnswers;
  #afterQueued = false;
  /**
   * Fresh callbacks for the worker gather here as they do there (Gather: QUIET_MS, HANDOVER_MS), and
   * go as one batch, handed over at once: a write batch holds a callback or two, and each batch sent
   * on its own cost the router's thread more than its callbacks did (its promise, its suppliers' look-up).
   */
  readonly #freshGather: Gather;
  #lease: [string, number] = ["", NaN];
  /** The claims this sender wrote (hook-claims.ts) and how many of their callbacks are still in them. */
  readonly #tally = new ClaimTally();
  #settleTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the first result not yet settled came, and when the settle timer fires (performance.now()). */
  #resultsSince = 0;
  #settleAt = Infinity;
  #settling: Promise<void> = Promise.resolve();
  #scannedAt = -Infinity;
  readonly #unsubscribe: () => void;

  constructor(private readonly db: Db, private readonly opts: HookOptions, private readonly log: Logger) {
    this.#outbound = opts.outbound.with({ timeoutMs: opts.timeoutMs });
    const portable = opts.thread === false ? null : this.#outbound.portable;
    this.#thread = portable ? new CallbackThread(portable) : null;
    const { retryDelaysMs, timeoutMs } = opts;
    this.#sends = new CallbackSends(db, this.#thread ?? this.#outbound, {
      retryDelaysMs,
      timeoutMs,
      now: () => this.#now(),
    }, log);
    this.#unsubscribe = opts.changes?.on("supplier", (id) => this.#sends.drop(id)) ?? (() => {});
    this.#freshGather = new Gather((quiet) => this.#pump({ quiet }));
    this.#answers = {
      result: (r) => {
        this.#sending--;
        if (r) this.#results.push(r);
        this.#answered();
      },
      delivered: (answer, first, last, lease) => {
        const n = last - first + 1;
        this.#sending -= n;
        this.#deliveredCount += n;
        const runs = this.#delivered.get(answer);
        if (runs) runs.push([first, last, lease]);
        else this.#delivered.set(answer, [[first, last, lease]]);
        this.#answered();
      },
    };
  }

  /** Once for the answers that came together (one message from the worker), not once each. */
  #answered() {
    if (this.#afterQueued) return;
    this.#afterQueued = true;
    queueMicrotask(() => {
      this.#afterQueued = false;
      this.#afterSend();
    });
  }

  /**
   * Callbacks the router's writer has just committed claimed for this sender (HookRow.lease): sent
   * soon (those of the next QUIET_MS to HANDOVER_MS as one batch to the worker, THREAD_PARALLEL on
   * their way at most; or at once, ON_THREAD_PARALLEL at a time, on this thread), their results
   * settled together.
   */
  fresh(rows: HookRow[]) {
    // a claim's callbacks all count, those left to the scan too (it is deleted once all are moved)
    const claims = new Map<number, [string, number]>();
    for (const r of rows) {
      if (r.claim === undefined || !r.lease) continue;
      const c = claims.get(r.claim);
      if (c) c[1]++;
      else claims.set(r.claim, [r.lease, 1]);
    }
    for (const [claim, [lease, n]] of claims) this.#tally.open(claim, n, this.#leaseEnd(lease));
    // a backlog past FRESH_MAX waits in the table: its lease lapses and a scan sends it
    const taken = rows.filter((r) => r.lease).slice(0, Math.max(0, FRESH_MAX - this.#freshCount));
    if (!taken.length) return;
    if (this.#closed) return this.#releaseLater(taken);
    // a write batch's share one lease (hookInsert)
    const lease = taken[0].lease!;
    const batches = taken.every((r) => r.lease === lease)
      ? [[lease, taken] as const]
      : Map.groupBy(taken, (r) => r.lease!);
    for (const [l, batch] of batches) this.#fresh.push({ rows: batch, lease: l });
    this.#freshCount += taken.length;
    if (this.#thread) this.#freshGather.add();
    else this.#pump();
  }

  /** `handOver`: the worker gets them at once (a gathering ended; `quiet`: it ended a burst). */
  #pump(handOver?: { quiet: boolean }) {
    if (this.#thread) return this.#pumpToWorker(handOver);
    while (!this.#closed && this.#sending < ON_THREAD_PARALLEL && this.#fresh.length) {
      const head = this.#fresh[0], room = ON_THREAD_PARALLEL - this.#sending;
      const rows = head.rows.length <= room ? head.rows : head.rows.splice(0, room);
      if (rows === head.rows) this.#fresh.shift();
      this.#freshCount -= rows.length;
      const end = this.#leaseEnd(head.lease);
      // too near the end of its lease to be sure of settling it: the scan takes it when it lapses
      if (end - this.#now() < 2 * this.opts.timeoutMs) continue;
      this.#sending += rows.length;
      this.#track(
        this.#sends.sendAll(
          rows.map((r) => freshOf(r, head.lease)),
          (l) => this.#leaseEnd(l),
          this.#answers.result,
        ),
      );
    }
  }

  /**
   * The fresh callbacks gathered, as one batch to the worker (many wait there at once: it keeps each
   * panel's server to PER_ORIGIN at a time), write batches whole, THREAD_PARALLEL on their way at most.
   */
  #pumpToWorker(handOver?: { quiet: boolean }) {
    const rows: HookRow[] = [];
    let end = Infinity;
    const now = this.#now();
    while (!this.#closed && this.#sending + rows.length < THREAD_PARALLEL && this.#fresh.length) {
      const head = this.#fresh.shift()!;
      this.#freshCount -= head.rows.length;
      const leaseEnd = this.#leaseEnd(head.lease);
      // too near the end of its lease to be sure of settling it: the scan takes it when it lapses
      if (leaseEnd - now < 2 * this.opts.timeoutMs) continue;
      for (const r of head.rows) rows.push(r);
      end = Math.min(end, leaseEnd);
    }
    if (!rows.length) return;
    this.#sending += rows.length;
    this.#track(this.#sends.sendFresh(rows, { end, handOver }, this.#answers));
  }

  /** A send on its way (idle() waits for it); its end settles what it answered. */
  #track(send: Promise<void>) {
    const p: Promise<void> = send.finally(() => {
      this.#inFlight.delete(p);
      this.#afterSend();
    });
    this.#inFlight.add(p);
  }

  /** A lease's end (ms): the callbacks of one write batch share their lease, parsed once. */
  #leaseEnd(lease: string): number {
    if (lease !== this.#lease[0]) this.#lease = [lease, Date.parse(lease)];
    return this.#lease[1];
  }

  #afterSend() {
    // settled together: a full round at once, the others SETTLE_MS after the first of them, or
    // SETTLE_IDLE_MS when nothing else is on its way (a settle is a transaction of its own: one per
    // callback batch cost the router's thread more than the callbacks' rows did); idle() settles
    // what is left at once; fresh callbacks gathering for the worker go when the gathering ends
    if (!this.#freshGather.pending) this.#pump();
    const unsettled = this.#results.length + this.#deliveredCount;
    if (unsettled >= SETTLE_ROUND) return this.#settleNow();
    if (!unsettled) return;
    const now = performance.now();
    if (this.#settleTimer === undefined) this.#resultsSince = now;
    const idle = this.#sending === 0 && !this.#fresh.length;
    const at = this.#resultsSince + (idle ? SETTLE_IDLE_MS : SETTLE_MS);
    if (at >= this.#settleAt) return;
    clearTimeout(this.#settleTimer);
    this.#settleAt = at;
    this.#settleTimer = setTimeout(() => this.#settleNow(), Math.max(0, at - now));
  }

  /** Settles the results so far (after what is settling). */
  #settleNow() {
    clearTimeout(this.#settleTimer);
    this.#settleTimer = undefined;
    this.#settleAt = Infinity;
    if (!this.#results.length && !this.#deliveredCount) return;
    const batch = this.#results.splice(0), delivered = this.#delivered;
    this.#delivered = new Map();
    this.#deliveredCount = 0;
    this.#settling = this.#settling.then(() =>
      settleResults(this.db, this.log, { results: batch, now: this.#now(), delivered, tally: this.#tally })
    ).then(
      () => {
        const retry = Math.min(
          ...batch.map((r) =>
            r.set.status === "queued" && r.set.nextAt ? Date.parse(r.set.nextAt) : Infinity
          ),
        );
        if (retry < Infinity) this.#wakeAt(retry);
      },
    ).catch((e) => this.log.error("supplier callbacks not settled", { error: String(e) }));
    if (this.#now() - this.#scannedAt > SCAN_EVERY_MS) this.kick();
  }

  /** The scan runs at `at` (ms) unless the timer is set earlier already. */
  #wakeAt(at: number) {
    if (this.#closed || at >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timerAt = Infinity;
      this.kick();
    }, Math.min(Math.max(0, at - this.#now()), 2 ** 31 - 1));
  }

  /** Sends what is due now (and schedules the next retry). */
  kick() {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#run().finally(() => {
      this.#running = null;
      if (this.#again) {
        this.#again = false;
        this.kick();
      }
    });
  }

  /** Resolves when nothing is being sent or settled. */
  async idle() {
    for (;;) {
      const settling = this.#settling;
      if (this.#running) await this.#running;
      // gathering for the worker: sent now
      else if (this.#freshGather.pending && !this.#inFlight.size) this.#freshGather.now();
      else if (this.#inFlight.size) await Promise.all([...this.#inFlight]);
      else if (this.#results.length || this.#deliveredCount) this.#settleNow();
      else {
        await settling;
        if (settling !== this.#settling || this.#running || this.#inFlight.size) continue;
        // closed and nothing left on its way: the worker ends
        if (this.#closed) this.#thread?.close();
        return;
      }
    }
  }

  /**
   * Stops sending. Fresh callbacks not yet on their way are released to the table (queued, due now,
   * their attempt not counted), so the next start sends them at once, not after their lease.
   */
  close() {
    this.#closed = true;
    this.#unsubscribe();
    this.#freshGather.cancel();
    clearTimeout(this.#timer);
    this.#timerAt = Infinity;
    this.#settleNow();
    const left = this.#fresh.flatMap((b) => b.rows);
    this.#fresh = [];
    this.#freshCount = 0;
    this.#releaseLater(left);
  }

  /** Back to the queue, due now, the attempt counted at birth taken back (after what is settling). */
  #releaseLater(left: HookRow[]) {
    if (!left.length) return;
    const at = new Date(this.#now()).toISOString();
    const claimed = left.filter((h) => h.claim !== undefined && h.id !== undefined);
    const rest = left.filter((h) => h.claim === undefined || h.id === undefined);
    const release = async () => {
      if (claimed.length) {
        const set = { status: "queued" as const, attempts: 0, lastAnswer: "", lastError: "", nextAt: at };
        const runs: ClaimRun[] = claimed.map((h) => ({ first: h.id!, last: h.id!, lease: h.lease!, set }));
        await this.db.transaction().execute((trx) =>
          settleClaims(trx, this.log, { runs, at, tally: this.#tally })
        );
      }
      for (const [lease, hs] of Map.groupBy(rest, (h) => h.lease!)) {
        await this.db.updateTable("router_hooks")
          .set({ status: "queued", attempts: sql`max(attempts - 1, 0)`, nextAt: at, updatedAt: at })
          .where("hookKey", "in", hs.map((h) => h.key)).where("status", "=", "sending")
          .where("nextAt", "=", lease).execute();
      }
    };
    this.#settling = this.#settling.then(release).catch((e) =>
      this.log.error("supplier callbacks not released", { error: String(e) })
    );
  }

  #now() {
    return (this.opts.now ?? wallClock)();
  }

  /** Whether callbacks are sent from a worker (./callback-thread.ts). */
  get threaded(): boolean {
    return this.#thread !== null;
  }

  /** How long a claim is this sender's (the writer writes outcome callbacks claimed for as long). */
  get leaseMs() {
    return this.opts.leaseMs ?? Math.max(60_000, 3 * this.opts.timeoutMs);
  }

  async #run() {
    this.#scannedAt = this.#now();
    // claims whose sender died (or never got to some of their callbacks): queued, due now
    await recoverClaims(this.db, this.log, this.#scannedAt);
    this.#tally.forget(this.#scannedAt);
    for (let round = 0; round < 50 && !this.#closed; round++) {
      const now = new Date(this.#now()).toISOString();
      // queued and due, or claimed by a sender whose lease ran out
      const due = await this.db.selectFrom("router_hooks")
        .select(DUE_COLUMNS)
        .where(DUE_STATES).where("nextAt", "<=", now).orderBy("nextAt").limit(SEND_ROUND).execute();
      if (!due.length) break;
      // a round's claims are one statement and its results a few (one per kind of result), not one
      // per callback: the sender shares the database (and its one writer) with the router
      const mine = await this.#claim(due, now);
      const results: Result[] = [];
      await this.#sends.sendAll(mine, (l) => this.#leaseEnd(l), (r) => r && results.push(r));
      await settleResults(this.db, this.log, { results, now: this.#now() });
    }
    if (this.#closed) return;
    const next = await this.db.selectFrom("router_hooks").select("nextAt")
      .where(DUE_STATES).orderBy("nextAt").limit(1).executeTakeFirst();
    const claimEnd = await firstClaimEnd(this.db);
    clearTimeout(this.#timer);
    this.#timerAt = Infinity;
    const at = Math.min(next ? Date.parse(next.nextAt) : Infinity, claimEnd);
    if (at < Infinity) this.#wakeAt(at);
  }

  /**
   * Takes the rows still due for this sender, in one statement (a row another sender claimed since
   * they were read is no longer due: its lease is ahead); the claim (the lease and the attempt) is
   * committed before any request goes out.
   */
  async #claim(due: Due[], now: string): Promise<Claimed[]> {
    const at = this.#now();
    const lease = new Date(at + this.leaseMs).toISOString();
    const taken = await this.db.updateTable("router_hooks").set({
      status: "sending",
      nextAt: lease,
      attempts: sql`attempts + 1`,
      updatedAt: new Date(at).toISOString(),
    }).where("id", "in", due.map((h) => h.id)).where(DUE_STATES).where("nextAt", "<=", now)
      .returning(["id", "attempts"]).execute();
    const attempts = new Map(taken.map((r) => [Number(r.id), Number(r.attempts)]));
    const out: Claimed[] = [];
    for (const h of due) {
      const n = attempts.get(h.id);
      if (n === undefined) continue;
      if (h.status === "sending") {
        // its sender died mid-send: the supplier may have it already, and deduplicates on the key
        this.log.warn("supplier callback sent again after its lease ran out", {
          id: h.id,
          key: keyOf(h),
          attempts: n,
        });
      }
      out.push({ ...h, lease, attempts: n });
    }
    return out;
  }
}
