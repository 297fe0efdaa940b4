/**
 * Supplier approved hooks: when a supplier has one (suppliers.supplierApprovedHook), each complete
 * of its respondents queues a GET to it ([sid], [uid], [pid], [status] filled) in the same
 * transaction as the complete. A background sender delivers them, retrying with back-off; the queue
 * is a table, so a restart loses nothing.
 */
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";

export type HookOptions = {
  fetch: typeof fetch;
  /** Waits before the 2nd, 3rd... attempt; after the last one the hook is marked failed. */
  retryDelaysMs: number[];
  timeoutMs: number;
};

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

  async #run() {
    for (let round = 0; round < 50 && !this.#closed; round++) {
      const now = new Date().toISOString();
      const due = await this.db.selectFrom("router_hooks").selectAll().where("status", "=", "queued")
        .where("nextAt", "<=", now).orderBy("nextAt").limit(20).execute();
      if (!due.length) break;
      await Promise.all(due.map((h) => this.#send(h)));
    }
    if (this.#closed) return;
    const next = await this.db.selectFrom("router_hooks").select("nextAt").where("status", "=", "queued")
      .orderBy("nextAt").limit(1).executeTakeFirst();
    clearTimeout(this.#timer);
    if (next) {
      const wait = Math.max(0, Date.parse(next.nextAt) - Date.now());
      this.#timer = setTimeout(() => this.kick(), Math.min(wait, 2 ** 31 - 1));
    }
  }

  async #send(h: { id: number; url: string; attempts: number }) {
    let error = "";
    try {
      const res = await this.opts.fetch(h.url, {
        method: "GET",
        redirect: "follow",
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      await res.body?.cancel();
      if (!res.ok) error = `HTTP ${res.status}`;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const attempts = h.attempts + 1;
    const now = Date.now();
    if (!error) {
      await this.db.updateTable("router_hooks").set({
        status: "sent",
        attempts,
        lastError: "",
        updatedAt: new Date(now).toISOString(),
      }).where("id", "=", h.id).execute();
      return;
    }
    const delay = this.opts.retryDelaysMs[attempts - 1];
    this.log.warn("supplier approved hook failed", { id: h.id, attempts, error });
    await this.db.updateTable("router_hooks").set({
      status: delay === undefined ? "failed" : "queued",
      attempts,
      lastError: error.slice(0, 500),
      nextAt: new Date(now + (delay ?? 0)).toISOString(),
      updatedAt: new Date(now).toISOString(),
    }).where("id", "=", h.id).execute();
  }
}
