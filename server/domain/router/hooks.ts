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
import type { Db } from "../../db/connection.ts";
import { sql, type Updateable } from "kysely";
import type { Logger } from "../../logger.ts";
import type { RouterHooksTable } from "../../db/tables/router.ts";
import { hookKey } from "./outcomes.ts";
import { type Outbound, OutboundRefused } from "../common/outbound/client.ts";
import { recordCallbackAttempt } from "../../lib/metrics.ts";
import { buildCallback, type CallbackSupplier } from "./callback-request.ts";
import { randomKey } from "../common/values.ts";

export { hookKey };

export { IDEMPOTENCY_HEADER } from "../../../shared/callbacks.ts";

type Due = {
  id: number;
  sessionId: string;
  supplierId: string;
  url: string;
  status: string;
  attempts: number;
  nextAt: string;
  /** The idempotency key (null on a complete's queued before migration 0036: `<uid>-c`). */
  hookKey: string | null;
  event: string;
  /** JSON of the values the URL and body are filled with; null: the URL was filled when queued. */
  vars: string | null;
};
/** The idempotency key a queued hook travels with. */
const keyOf = (h: Pick<Due, "sessionId" | "hookKey">) => h.hookKey ?? hookKey(h.sessionId, "complete");
type Claimed = Due & { lease: string; attempts: number };
const DUE_COLUMNS = [
  "id",
  "sessionId",
  "supplierId",
  "url",
  "status",
  "attempts",
  "nextAt",
  "hookKey",
  "event",
  "vars",
] as const;

function parseVars(vars: string | null): Record<string, string> {
  if (!vars) return {};
  try {
    const o = JSON.parse(vars);
    return o && typeof o === "object" ? o : {};
  } catch {
    return {};
  }
}

/**
 * The supplier fields a callback is built from. A supplier without a hash key (cleared by hand)
 * gets a new random one first: a callback is never sent unsigned.
 */
async function callbackSupplier(
  db: Db,
  id: string,
): Promise<CallbackSupplier & { approvedHookRefusal: string }> {
  const read = () =>
    db.selectFrom("suppliers")
      .select(["hashKey", "apiHeader", "apiKey", "apiBody", "variableMapping", "approvedHookRefusal"])
      .where("id", "=", id).executeTakeFirst();
  let s = await read();
  if (!s) throw new Error("the supplier is gone");
  if (!s.hashKey.trim()) {
    await db.updateTable("suppliers").set({ hashKey: randomKey(32) }).where("id", "=", id)
      .where(sql<boolean>`trim(hashKey) = ''`).execute();
    s = await read();
    if (!s) throw new Error("the supplier is gone");
  }
  return s;
}

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
};

/** Written out, not bound: SQLite uses the partial index router_hooks_due only for this literal term. */
const DUE_STATES = sql<boolean>`status IN ('queued', 'sending')`;

/** How many due callbacks a round takes, and how many of them are on their way at once. */
const SEND_ROUND = 100;
const SEND_PARALLEL = 20;

export const DEFAULT_HOOK_RETRIES = [10_000, 60_000, 5 * 60_000, 30 * 60_000];

export class HookSender {
  #running: Promise<void> | null = null;
  #again = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(private readonly db: Db, private readonly opts: HookOptions, private readonly log: Logger) {}

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

  async idle() {
    while (this.#running) await this.#running;
  }

  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #now() {
    return (this.opts.now ?? wallClock)();
  }

  get #leaseMs() {
    return this.opts.leaseMs ?? Math.max(60_000, 3 * this.opts.timeoutMs);
  }

  async #run() {
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
      const suppliers = new Map<string, ReturnType<typeof callbackSupplier>>();
      const supplierOf = (id: string) => {
        if (!suppliers.has(id)) suppliers.set(id, callbackSupplier(this.db, id));
        return suppliers.get(id)!;
      };
      const results: { h: Claimed; set: Updateable<RouterHooksTable> }[] = [];
      let next = 0;
      const worker = async () => {
        while (next < mine.length) {
          const h = mine[next++];
          results.push(await this.#send(h, supplierOf));
        }
      };
      await Promise.all(Array.from({ length: Math.min(SEND_PARALLEL, mine.length) }, worker));
      await this.#settle(results);
    }
    if (this.#closed) return;
    const next = await this.db.selectFrom("router_hooks").select("nextAt")
      .where(DUE_STATES).orderBy("nextAt").limit(1).executeTakeFirst();
    clearTimeout(this.#timer);
    if (next) {
      const wait = Math.max(0, Date.parse(next.nextAt) - this.#now());
      this.#timer = setTimeout(() => this.kick(), Math.min(wait, 2 ** 31 - 1));
    }
  }

  /**
   * Takes the rows still due for this sender, in one statement (a row another sender claimed since
   * they were read is no longer due: its lease is ahead); the claim (the lease and the attempt) is
   * committed before any request goes out.
   */
  async #claim(due: Due[], now: string): Promise<Claimed[]> {
    const at = this.#now();
    const lease = new Date(at + this.#leaseMs).toISOString();
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

  /** Sends one claimed callback; answers what its row is to be set to (the round settles them together). */
  async #send(
    h: Claimed,
    supplierOf: (id: string) => ReturnType<typeof callbackSupplier>,
  ): Promise<{ h: Claimed; set: Updateable<RouterHooksTable> }> {
    let answer = "";
    let error = "";
    let refused = "";
    let known: string | null = null;
    try {
      const supplier = await supplierOf(h.supplierId);
      known = supplier.approvedHookRefusal;
      const req = buildCallback(supplier, {
        url: h.url,
        vars: parseVars(h.vars),
        event: h.event,
        key: keyOf(h),
      }, this.#now());
      const res = await this.opts.outbound.with({ timeoutMs: this.opts.timeoutMs }).request(req.url, req);
      answer = `HTTP ${res.status}`;
      if (res.status < 200 || res.status > 299) error = answer;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      answer = error.slice(0, 500);
      if (e instanceof OutboundRefused) refused = e.reason;
    }
    const attempts = h.attempts;
    const now = this.#now();
    // the supplier's record keeps the refusal of its complete (approved hook) URL; the other events'
    // refusals are on their rows (the delivery log), so two URLs never flip the one field in turn
    // (written only when it changes: the supplier's row as this round read it says what it holds)
    if ((h.event === "complete" || h.event === "approved") && known !== refused) {
      await this.#noteRefusal(h, refused, now);
    }
    if (refused) {
      // the policy will say the same on every retry: failed now, the reason on the supplier
      recordCallbackAttempt("refused");
      return {
        h,
        set: {
          status: "failed",
          attempts,
          lastAnswer: answer,
          lastError: error.slice(0, 500),
          updatedAt: new Date(now).toISOString(),
        },
      };
    }
    if (!error) {
      recordCallbackAttempt("delivered");
      return {
        h,
        set: {
          status: "sent",
          attempts,
          lastAnswer: answer,
          lastError: "",
          updatedAt: new Date(now).toISOString(),
        },
      };
    }
    const delay = this.opts.retryDelaysMs[attempts - 1];
    recordCallbackAttempt(delay === undefined ? "failed" : "retry");
    this.log.warn("supplier callback failed", { id: h.id, attempts, error });
    return {
      h,
      set: {
        status: delay === undefined ? "failed" : "queued",
        attempts,
        lastAnswer: answer,
        lastError: error.slice(0, 500),
        nextAt: new Date(now + (delay ?? 0)).toISOString(),
        updatedAt: new Date(now).toISOString(),
      },
    };
  }

  /**
   * Keeps the supplier's refusal reason ('' after a delivery): written, and logged, only when it
   * changes, so a refused hook is one log line however many completes queue it.
   */
  async #noteRefusal(h: Due, reason: string, now: number) {
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

  /**
   * Records a round's attempts while the claims are still ours (a send that outlived its lease was
   * taken over): one statement per kind of result, the delivered ones (most) together.
   */
  async #settle(results: { h: Claimed; set: Updateable<RouterHooksTable> }[]) {
    const groups = new Map<string, { set: Updateable<RouterHooksTable>; lease: string; ids: number[] }>();
    const at = new Date(this.#now()).toISOString();
    for (const r of results) {
      // the attempt was counted by the claim; the round's time stamps them all
      const { h } = r, set = { ...r.set, updatedAt: at };
      delete set.attempts;
      const key = JSON.stringify([set, h.lease]);
      const g = groups.get(key) ?? { set, lease: h.lease, ids: [] };
      g.ids.push(h.id);
      groups.set(key, g);
    }
    await this.db.transaction().execute(async (trx) => {
      for (const g of groups.values()) {
        const done = await trx.updateTable("router_hooks").set(g.set).where("id", "in", g.ids)
          .where("status", "=", "sending").where("nextAt", "=", g.lease).returning("id").execute();
        const settled = new Set(done.map((r) => Number(r.id)));
        for (const id of g.ids.filter((id) => !settled.has(id))) {
          this.log.warn("supplier callback outlived its lease; another sender has it", { id });
        }
      }
    });
  }
}
