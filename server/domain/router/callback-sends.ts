/**
 * The sending half of the supplier callbacks' sender (./hooks.ts, HookSender): each supplier's
 * signing fields (read at most once a SUPPLIER_TTL_MS), the sends themselves, on the worker
 * (./callback-thread.ts) or on this thread, and what each answer sets its row to (./hook-results.ts),
 * with the supplier's refusal reason kept when its complete URL is refused.
 *
 * A write batch's fresh callbacks go to the worker as one batch (sendFresh): its 2xx answers come
 * back as runs, and a run of a claim's callbacks (./hook-claims.ts) whose slots follow each other is
 * told as one range (moved into router_hooks as one), with no object per callback on the router's
 * thread; any other answer is a result of its own.
 */
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";
import { recordCallbackAttempt } from "../../lib/metrics.ts";
import type { Outbound } from "../common/outbound/client.ts";
import { callbackSupplier } from "./callback-request.ts";
import type { HookRow } from "./callback-events.ts";
import {
  batchOf,
  CallbackThread,
  deliverAll,
  type ThreadAnswer,
  type ThreadSend,
} from "./callback-thread.ts";
import { type Fresh, keyOf, type Result, resultOf, type Sendable } from "./hook-results.ts";

/** A supplier's signing fields are read again after this long (sooner when it changes: drop). */
const SUPPLIER_TTL_MS = 1_000;

type Supplier = Awaited<ReturnType<typeof callbackSupplier>>;

/** The events whose refusal the supplier's record keeps (its complete URL: the approved hook). */
const KEEPS_REFUSAL = (event: string) => event === "complete" || event === "approved";

/** A fresh callback (HookRow) as the per-callback steps take it. */
export function freshOf(r: HookRow, lease: string): Fresh {
  return {
    id: r.id ?? null,
    claim: r.claim,
    sessionId: r.sessionId,
    supplierId: r.supplierId,
    url: r.url,
    status: "sending",
    attempts: 1,
    nextAt: lease,
    lease,
    hookKey: r.key,
    event: r.event,
    vars: r.vars,
  };
}

/** Where a fresh batch's answers go: delivered rows as a range of ids (with their answer), the others as results. */
export type FreshAnswers = {
  delivered(answer: string, first: number, last: number, lease: string): void;
  result(r: Result | null): void;
};

/** Where a callback's result goes, and the supplier refusals being noted meanwhile (awaited at the end). */
type Told = { result: (r: Result | null) => void; noted: Promise<void>[] };

export class CallbackSends {
  #suppliers = new Map<string, { at: number; s: Promise<Supplier> }>();

  constructor(
    private readonly db: Db,
    private readonly via: CallbackThread | Outbound,
    private readonly opts: { retryDelaysMs: number[]; timeoutMs: number; now: () => number },
    private readonly log: Logger,
  ) {}

  /** Its signing fields are read again at its next callback (a rotated key applies at once). */
  drop(supplierId: string) {
    this.#suppliers.delete(supplierId);
  }

  /** A supplier's signing fields, read at most once a SUPPLIER_TTL_MS while it does not change. */
  #supplier(id: string): Promise<Supplier> {
    const at = this.opts.now();
    const known = this.#suppliers.get(id);
    if (known && at - known.at < SUPPLIER_TTL_MS) return known.s;
    const s = callbackSupplier(this.db, id);
    s.catch(() => this.#suppliers.delete(id));
    this.#suppliers.set(id, { at, s });
    return s;
  }

  /** The suppliers of callbacks, each read once (an error in place of one that cannot be read). */
  async #suppliersOf(ids: Iterable<string>): Promise<Map<string, Supplier | Error>> {
    const out = new Map<string, Supplier | Error>();
    await Promise.all([...new Set(ids)].map(async (id) => {
      out.set(id, await this.#supplier(id).catch((e) => e instanceof Error ? e : new Error(String(e))));
    }));
    return out;
  }

  /**
   * Tells a callback's result: what its row is set to by its answer; the supplier's record keeps
   * the refusal of its complete (approved hook) URL (the other events' refusals are on their rows,
   * the delivery log, so two URLs never flip the one field in turn), written only when it changes
   * (`known`: what the supplier's row held when read).
   */
  #record(h: Sendable, known: string | null, a: ThreadAnswer, to: Told) {
    const now = this.opts.now();
    if (!a.skipped && KEEPS_REFUSAL(h.event) && known !== a.refused) {
      to.noted.push(
        this.#noteRefusal(h, a.refused, now).catch((e) =>
          this.log.error("supplier callback refusal not noted", { error: String(e) })
        ),
      );
    }
    to.result(resultOf(h, a, { retryDelaysMs: this.opts.retryDelaysMs, now, log: this.log }));
  }

  /**
   * Sends claimed callbacks (each supplier's fields read once), and tells each one's result, what its
   * row is to be set to (null: not sent, too late for its claim), as its answer comes; resolves when
   * all have answered. `leaseEnd`: when a claim ends (ms); a callback may wait for its turn on the
   * worker until a request's time-out before it.
   */
  async sendAll(hs: Sendable[], leaseEnd: (lease: string) => number, onResult: (r: Result | null) => void) {
    const suppliers = await this.#suppliersOf(hs.map((h) => h.supplierId));
    const at = this.opts.now();
    const items: ThreadSend[] = [];
    const of: Sendable[] = [];
    const to: Told = { result: onResult, noted: [] };
    for (const h of hs) {
      const supplier = suppliers.get(h.supplierId)!;
      if (supplier instanceof Error) {
        this.#record(h, null, { id: 0, status: 0, error: supplier.message, refused: "" }, to);
        continue;
      }
      const hook = { url: h.url, vars: h.vars, event: h.event, key: keyOf(h) };
      // built, signed and sent on the worker when there is one; not sent there once too late to be
      // settled within its claim (skipped: not settled, its claim lapses and a scan sends it)
      items.push({ id: 0, supplier, hook, at, waitMs: leaseEnd(h.lease) - at - this.opts.timeoutMs });
      of.push(h);
    }
    const answered = new Array<boolean>(items.length).fill(false);
    const answer = (i: number, a: ThreadAnswer) => {
      if (answered[i]) return;
      answered[i] = true;
      this.#record(of[i], (items[i].supplier as Supplier).approvedHookRefusal, a, to);
    };
    try {
      await deliverAll(this.via, items, answer);
    } catch (e) {
      // it does not throw by design (a worker that cannot start would): each callback not answered
      // fails its attempt (retried from the queue), so none is left counted as on its way
      const error = e instanceof Error ? e.message : String(e);
      items.forEach((_, i) => answer(i, { id: 0, status: 0, error, refused: "" }));
    }
    await Promise.all(to.noted);
  }

  /**
   * Sends fresh callbacks (each claimed under its write batch's lease, HookRow.lease) on the worker
   * as one batch, sent at the latest a request's time-out before the first of their leases ends
   * (`end`, ms), handed over at once with `handOver` (else with the next ones: Gather). Delivered
   * ones of a claim whose slots follow each other are told as a range; one not in a claim (written
   * through a remote primary), or whose supplier's complete URL was refused before (its record is to
   * be cleared), and every other answer, as a result of its own.
   */
  async sendFresh(rows: HookRow[], claim: { end: number; handOver?: { quiet: boolean } }, on: FreshAnswers) {
    if (!(this.via instanceof CallbackThread)) throw new Error("fresh batches go to the worker");
    const suppliers = await this.#suppliersOf(rows.map((r) => r.supplierId));
    const at = this.opts.now();
    const { batch, add } = batchOf(at, claim.end - at - this.opts.timeoutMs);
    const of: HookRow[] = [];
    const to: Told = { result: on.result, noted: [] };
    for (const r of rows) {
      const s = suppliers.get(r.supplierId)!;
      if (s instanceof Error) {
        this.#record(freshOf(r, r.lease!), null, { id: 0, status: 0, error: s.message, refused: "" }, to);
        continue;
      }
      // vars: outcomeCallback's JSON.stringify of the values
      add(s, { url: r.url, vars: r.vars, event: r.event, key: r.key, varsJson: true });
      of.push(r);
    }
    const knownOf = (r: HookRow) => (suppliers.get(r.supplierId) as Supplier).approvedHookRefusal;
    try {
      await this.via.sendBatch(batch, {
        run: (i, j, status) => {
          const answer = `HTTP ${status}`;
          let first = -1, last = -1, n = 0, lease = "";
          for (let k = i; k <= j; k++) {
            const r = of[k];
            if (r.claim === undefined || (KEEPS_REFUSAL(r.event) && knownOf(r) !== "")) {
              const a = { id: 0, status, error: "", refused: "" };
              this.#record(freshOf(r, r.lease!), knownOf(r), a, to);
              continue;
            }
            n++;
            if (first >= 0 && r.id === last + 1 && r.lease === lease) last = r.id;
            else {
              if (first >= 0) on.delivered(answer, first, last, lease);
              first = last = r.id!;
              lease = r.lease!;
            }
          }
          if (first >= 0) on.delivered(answer, first, last, lease);
          recordCallbackAttempt("delivered", n);
        },
        one: (i, a) => this.#record(freshOf(of[i], of[i].lease!), knownOf(of[i]), a, to),
      }, claim.handOver);
    } catch (e) {
      // as sendAll: a worker that cannot start fails the attempt of each callback
      const error = e instanceof Error ? e.message : String(e);
      for (const r of of) {
        this.#record(freshOf(r, r.lease!), knownOf(r), { id: 0, status: 0, error, refused: "" }, to);
      }
    }
    await Promise.all(to.noted);
  }

  /**
   * Keeps the supplier's refusal reason ('' after a delivery): written, and logged, only when it
   * changes, so a refused hook is one log line however many completes queue it.
   */
  async #noteRefusal(h: Pick<Sendable, "id" | "supplierId">, reason: string, now: number) {
    const r = await this.db.updateTable("suppliers").set({
      approvedHookRefusal: reason,
      approvedHookRefusedAt: reason ? new Date(now).toISOString() : null,
    }).where("id", "=", h.supplierId).where("approvedHookRefusal", "!=", reason).executeTakeFirst();
    if (reason && Number(r.numUpdatedRows ?? 0) === 1) {
      this.log.warn("supplier callback refused by the outbound policy", {
        id: h.id,
        supplierId: h.supplierId,
        reason,
      });
    }
  }
}
