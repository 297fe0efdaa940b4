/**
 * The outbound client's kept-alive connections (./http1.ts), per origin and checked address: a
 * connection idle longer than `idleMs` is closed, not used; `close()` (the app's) ends them all.
 */
type Idle = { conn: Deno.Conn; since: number };

export type PoolOptions = {
  /** A pooled connection idle longer than this is closed instead of used (default 2 s). */
  idleMs?: number;
  /** Idle connections kept per origin and address (default 32); more are closed. */
  perOrigin?: number;
};

/** Keep-alive connections of one outbound client; `close()` ends them (the app's close does). */
export class ConnectionPool {
  readonly #idle = new Map<string, Idle[]>();
  /** Origins that ended a connection with calls still written on it: sent one call at a time. */
  readonly #serial = new Set<string>();
  #sweptAt = 0;
  #closed = false;

  constructor(private readonly opts: PoolOptions = {}) {}

  get #idleMs() {
    return this.opts.idleMs ?? 2_000;
  }

  /** A live idle connection to `key`, the most recently used, or null. */
  take(key: string): Deno.Conn | null {
    const now = performance.now();
    if (now - this.#sweptAt > this.#idleMs) this.#sweep(now);
    const list = this.#idle.get(key);
    while (list?.length) {
      const one = list.pop()!;
      if (now - one.since <= this.#idleMs) return one.conn;
      quietClose(one.conn);
    }
    return null;
  }

  give(key: string, conn: Deno.Conn) {
    const list = this.#idle.get(key) ?? [];
    if (this.#closed || list.length >= (this.opts.perOrigin ?? 32)) return quietClose(conn);
    list.push({ conn, since: performance.now() });
    this.#idle.set(key, list);
  }

  /** Whether calls to `key` go one at a time (it ended a connection mid-pipeline). */
  serial(key: string): boolean {
    return this.#serial.has(key);
  }

  markSerial(key: string) {
    if (this.#serial.size >= 1_000) this.#serial.clear();
    this.#serial.add(key);
  }

  /** Idle connections now (tests). */
  get idle(): number {
    let n = 0;
    for (const list of this.#idle.values()) n += list.length;
    return n;
  }

  close() {
    this.#closed = true;
    for (const list of this.#idle.values()) list.forEach((one) => quietClose(one.conn));
    this.#idle.clear();
  }

  /** Closes what has been idle too long, everywhere (a name called once does not keep its socket). */
  #sweep(now: number) {
    this.#sweptAt = now;
    for (const [key, list] of this.#idle) {
      const live = list.filter((one) => now - one.since <= this.#idleMs || void quietClose(one.conn));
      if (live.length) this.#idle.set(key, live);
      else this.#idle.delete(key);
    }
  }
}

export function quietClose(conn: Deno.Conn) {
  try {
    conn.close();
  } catch { /* closed already */ }
}
