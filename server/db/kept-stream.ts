/**
 * The router's batches to a remote primary (sqld) over kept hrana streams. @libsql/client opens a
 * stream for every batch and closes it in the same HTTP request, and sqld opens a database
 * connection for each stream: it reads the schema (about 200 tables and indexes) and starts with
 * an empty page cache every time. That cost sqld about 1 ms of CPU per batch of any size, a fifth of
 * a router write batch's. A kept stream is one connection on sqld, reused from batch to batch (its
 * baton names it in each request); each batch is still ONE HTTP request and ONE transaction, with
 * the same steps as the client's atomic batch (BEGIN, each statement only if the one before it
 * succeeded, COMMIT, and ROLLBACK if the COMMIT did not happen).
 *
 * sqld expires a stream idle for 10 s: one idle longer than IDLE_MS is closed rather than reused,
 * and a reused stream whose request sqld refuses as a whole (STREAM_EXPIRED, or an HTTP error
 * status: nothing of it ran) is replaced and the batch sent once more on a new one. Any other
 * failure (a statement's, the network's) is the caller's, as with the client. Only http(s):// and
 * libsql:// primaries have kept streams (`keptStreamUrl`); a WebSocket primary's batches go
 * through the client.
 */
import * as hrana from "@libsql/hrana-client";
import type { InStatement, TransactionMode } from "@libsql/client";

/** A stream idle this long is closed instead of reused (sqld expires idle streams after 10 s). */
export const IDLE_MS = 5_000;
/** Idle streams kept at most (a writer with several batches in flight uses one each). */
const POOL_MAX = 4;

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

type Kept = { stream: hrana.HttpStream; usedAt: number };
/** One statement's rows (each row readable by column name). */
export type Rows = Record<string, unknown>[];

/**
 * The HTTP URL of a remote primary whose batches can go over kept streams, or null (a WebSocket
 * URL). `libsql://` is HTTPS, or HTTP with `?tls=0`, as the client reads it.
 */
export function keptStreamUrl(url: string): string | null {
  const u = new URL(url);
  if (u.protocol === "http:" || u.protocol === "https:") return url;
  if (u.protocol !== "libsql:") return null;
  const tls = u.searchParams.get("tls") !== "0";
  u.searchParams.delete("tls");
  return `${tls ? "https" : "http"}://${u.host}${u.pathname === "/" ? "" : u.pathname}${u.search}`;
}

/** A failure of a statement, with the server's message (what the router's writer matches on). */
function statementError(e: unknown): Error {
  if (e instanceof hrana.ResponseError) {
    const err = new Error(e.message);
    (err as Error & { code?: string }).code = e.code;
    return err;
  }
  return e instanceof Error ? e : new Error(String(e));
}

/** The server's refusal of a whole request (a stream it expired, a baton it does not know). */
class Refused extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

export class KeptStreams {
  readonly #client: hrana.HttpClient;
  #idle: Kept[] = [];
  #closed = false;
  /** Streams opened so far (the tests see one reused). */
  opened = 0;

  constructor(
    url: string,
    authToken?: string,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.#client = hrana.openHttp(url, authToken);
  }

  #take(): { kept: Kept; reused: boolean } {
    const now = this.clock();
    while (this.#idle.length) {
      const kept = this.#idle.pop()!;
      if (!kept.stream.closed && now - kept.usedAt < IDLE_MS) return { kept, reused: true };
      kept.stream.close();
    }
    const stream = this.#client.openStream();
    stream.intMode = "number";
    this.opened++;
    return { kept: { stream, usedAt: now }, reused: false };
  }

  #give(kept: Kept) {
    kept.usedAt = this.clock();
    if (this.#closed || kept.stream.closed || this.#idle.length >= POOL_MAX) kept.stream.close();
    else this.#idle.push(kept);
  }

  /** Runs `statements` in one transaction (`mode`) in one request; each statement's rows. */
  async batch(statements: InStatement[], mode: TransactionMode): Promise<Rows[]> {
    if (this.#closed) throw new Error("The database is closed");
    for (let attempt = 1;; attempt++) {
      const { kept, reused } = this.#take();
      try {
        const out = await this.#run(kept.stream, statements, mode);
        this.#give(kept);
        return out;
      } catch (e) {
        kept.stream.close();
        // the server refused the request as a whole, so none of it ran: a kept stream it had expired
        if (e instanceof Refused && reused && attempt === 1) continue;
        throw statementError(e instanceof Refused ? e.cause : e);
      }
    }
  }

  async #run(stream: hrana.HttpStream, statements: InStatement[], mode: TransactionMode): Promise<Rows[]> {
    const batch = stream.batch(false);
    // every step's promise is handled: a step after a failing one rejects too, and nobody else awaits it
    const track = <T>(p: Promise<T>) => {
      p.catch(() => {});
      return p;
    };
    const begin = batch.step();
    const began = track(begin.run(BEGIN[mode]));
    let last = begin;
    const results = statements.map((s) => {
      const step = batch.step().condition(hrana.BatchCond.ok(last));
      const [sql, args] = typeof s === "string" ? [s, []] : [s.sql, s.args ?? []];
      last = step;
      return track(step.query([sql, args as hrana.InStmtArgs]));
    });
    const commit = batch.step().condition(hrana.BatchCond.ok(last));
    const committed = track(commit.run("COMMIT"));
    track(batch.step().condition(hrana.BatchCond.not(hrana.BatchCond.ok(commit))).run("ROLLBACK"));
    try {
      await batch.execute();
    } catch (e) {
      // an answer of the server about the request itself (not a statement's): nothing of it ran
      if (e instanceof hrana.HttpServerError || e instanceof hrana.ResponseError) throw new Refused(e);
      throw e;
    }
    await began;
    const out: Rows[] = [];
    for (const r of results) {
      const rows = await r;
      if (rows === undefined) {
        throw new Error("A statement of the batch did not run: its transaction was rolled back");
      }
      out.push(rows.rows as unknown as Rows);
    }
    await committed;
    return out;
  }

  /** Closes every stream and the client. */
  close() {
    this.#closed = true;
    for (const k of this.#idle.splice(0)) k.stream.close();
    this.#client.close();
  }
}
