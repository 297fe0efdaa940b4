/**
 * The client of a local database (a `file:` URL or `:memory:`): the `Client` of @libsql/client over
 * one connection of the `libsql` driver it uses itself, with its writing statements kept prepared.
 *
 * @libsql/client prepares every statement again at each call, asks each one whether it returns
 * rows by letting the driver throw, and builds each row with a property definition per value. On
 * the router's hot path that was a quarter of the server's time (a CPU profile of the router
 * bench: `prepare` 25% of the busy time). Here a statement that returns no rows (the writes) is
 * prepared once per distinct SQL text (at most CACHE_SIZE kept, least recently used dropped); one
 * that returns rows is prepared at each call, as before (see #prepare), but its column names are
 * kept per SQL text (#shapes: the driver built five strings per column at every read), and its rows
 * are plain objects of named columns (no access by position, which nothing here uses). Values, integers as
 * numbers (beyond 2^53: an error, as the client's `intMode: "number"`), BLOBs as ArrayBuffers and
 * errors (LibsqlError with the SQLite code) are as the client gives them.
 */
import Database from "libsql";
import { Buffer } from "node:buffer";
import { BoundedMap } from "../lib/memo.ts";
import {
  type Client,
  type InArgs,
  type InStatement,
  type InValue,
  LibsqlError,
  type Replicated,
  type ResultSet,
  type Transaction,
  type TransactionMode,
} from "@libsql/client";

/** Prepared statements kept per connection. */
const CACHE_SIZE = 500;

type Db = InstanceType<typeof Database>;
type Stmt = ReturnType<Db["prepare"]>;
type Prepared = { stmt: Stmt; reader: boolean; columns: string[]; types: string[] };
type Shape = { columns: string[]; types: string[] };

/** Readers' column lists kept (by SQL text; the least recently added dropped). */
const SHAPES_SIZE = 2_000;
/** A statement that may change the schema (the kept column lists are then dropped). */
const DDL = /^\s*(create|alter|drop)\b/i;
/** The end of a read that returns a row at most (Connection.#single). */
const LIMIT_ONE = /\blimit\s+1\s*$/i;
const LIMIT_PARAM = /\blimit\s+\?\s*$/i;

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER), MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function fromSql(v: unknown): unknown {
  if (typeof v === "bigint") {
    if (v < MIN_SAFE || v > MAX_SAFE) {
      throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    }
    return Number(v);
  }
  if (v instanceof Uint8Array) return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
  return v;
}

function toSql(v: InValue): unknown {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return v.valueOf();
  if (typeof v === "number" && !Number.isFinite(v)) {
    throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
  }
  if (v instanceof ArrayBuffer) return Buffer.from(v);
  if (v === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return v;
}

/** The driver's error as the client reports it: a LibsqlError with the base and extended codes. */
function mapError(e: unknown): unknown {
  // deno-lint-ignore no-explicit-any
  const err = e as any;
  if (err && typeof err === "object" && typeof err.code === "string" && err.code.startsWith("SQLITE_")) {
    const raw = typeof err.rawCode === "number" ? err.rawCode : undefined;
    const base = raw === undefined ? err.code : (BASE_CODES[raw & 0xff] ?? `SQLITE_UNKNOWN_${raw & 0xff}`);
    return new LibsqlError(err.message, base, err.code, raw, err);
  }
  return e;
}
const BASE_CODES: Record<number, string> = {
  1: "SQLITE_ERROR",
  2: "SQLITE_INTERNAL",
  3: "SQLITE_PERM",
  4: "SQLITE_ABORT",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  7: "SQLITE_NOMEM",
  8: "SQLITE_READONLY",
  9: "SQLITE_INTERRUPT",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  12: "SQLITE_NOTFOUND",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  15: "SQLITE_PROTOCOL",
  16: "SQLITE_EMPTY",
  17: "SQLITE_SCHEMA",
  18: "SQLITE_TOOBIG",
  19: "SQLITE_CONSTRAINT",
  20: "SQLITE_MISMATCH",
  21: "SQLITE_MISUSE",
  22: "SQLITE_NOLFS",
  23: "SQLITE_AUTH",
  24: "SQLITE_FORMAT",
  25: "SQLITE_RANGE",
  26: "SQLITE_NOTADB",
  27: "SQLITE_NOTICE",
  28: "SQLITE_WARNING",
};

class Result implements ResultSet {
  constructor(
    readonly columns: string[],
    readonly columnTypes: string[],
    // deno-lint-ignore no-explicit-any
    readonly rows: any[],
    readonly rowsAffected: number,
    readonly lastInsertRowid: bigint | undefined,
  ) {}
  toJSON() {
    return {
      columns: this.columns,
      columnTypes: this.columnTypes,
      rows: this.rows,
      rowsAffected: this.rowsAffected,
      lastInsertRowid: this.lastInsertRowid?.toString() ?? null,
    };
  }
}

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

/** One connection and its statements. */
class Connection {
  readonly db: Db;
  readonly #cache = new BoundedMap<string, Prepared>(CACHE_SIZE);
  /**
   * Readers' columns by SQL text. Asking the driver for them built an object of five strings per
   * column at every read (a third of a read's cost on \`SELECT *\` of a wide table); they change only
   * with the schema: dropped at a statement that may change it, and asked again when a row's width
   * says they did (another process's migration).
   */
  readonly #shapes = new BoundedMap<string, Shape>(SHAPES_SIZE);

  constructor(path: string) {
    this.db = new Database(path);
  }

  #prepare(sql: string, single: boolean): Prepared {
    const key = single ? `\u0001${sql}` : sql;
    const hit = this.#cache.get(key);
    if (hit) {
      this.#cache.touch(key); // most recently used: the last to go
      return hit;
    }
    const stmt = this.db.prepare(sql);
    stmt.safeIntegers(true);
    const shape = this.#shapes.get(sql);
    const reader = shape ? true : stmt.reader;
    let columns: string[] = [], types: string[] = [];
    if (reader) {
      stmt.raw(true);
      ({ columns, types } = shape ?? this.#shape(sql, stmt));
    }
    const p = { stmt, reader, columns, types };
    // a statement that returns rows is not kept: the driver's cursor over its rows lives until the
    // GC, and one dropped while the statement runs again crashed the process (tests/cli/backup_test.ts,
    // about 1 run in 3 when readers were kept); its columns are (see #shapes). One that returns at
    // most a row is, as it is only ever read with get(), which makes no cursor (see #single)
    if (reader && !single) return p;
    this.#cache.set(key, p);
    return p;
  }

  /** A reader's columns, asked of the driver and kept for its SQL text. */
  #shape(sql: string, stmt: Stmt): Shape {
    const cols = stmt.columns() as { name: string; type?: string | null }[];
    const shape = { columns: cols.map((c) => c.name), types: cols.map((c) => c.type ?? "") };
    this.#shapes.set(sql, shape);
    return shape;
  }

  /** After a statement that may change the schema, every kept shape is asked again. */
  #schemaMayChange(sql: string) {
    if (!DDL.test(sql)) return;
    this.#shapes.clear();
    this.#cache.clear();
  }

  /**
   * Whether a read returns one row at most: its SQL ends in `LIMIT ?` bound to 1 (Kysely's
   * `.limit(1)`) or `LIMIT 1`. Such a read is kept prepared and read with the driver's get(): one
   * step, no cursor left to the GC, no statement prepared per call.
   */
  #single(sql: string, bound: unknown[] | Record<string, unknown>): boolean {
    if (LIMIT_ONE.test(sql)) return true;
    return Array.isArray(bound) && bound[bound.length - 1] === 1 && LIMIT_PARAM.test(sql);
  }

  execute(stmt: InStatement | string, args?: InArgs): ResultSet {
    const sql = typeof stmt === "string" ? stmt : stmt.sql;
    const given = typeof stmt === "string" ? args : stmt.args;
    let bound: unknown[] | Record<string, unknown>;
    if (Array.isArray(given) || given === undefined) bound = (given ?? []).map(toSql);
    else {
      const named: Record<string, unknown> = {};
      for (const name in given) {
        const key = name[0] === "@" || name[0] === "$" || name[0] === ":" ? name.substring(1) : name;
        named[key] = toSql(given[name]);
      }
      bound = named;
    }
    try {
      const single = this.#single(sql, bound);
      const p = this.#prepare(sql, single);
      if (p.reader) {
        let raw: unknown[][];
        if (single) {
          const row = p.stmt.get(bound) as unknown[] | undefined;
          raw = row ? [row] : [];
        } else raw = p.stmt.all(bound) as unknown[][];
        // rows wider or narrower than the kept columns: the schema changed under them (asked again,
        // and kept by a statement that is itself kept)
        if (raw.length && raw[0].length !== p.columns.length) {
          ({ columns: p.columns, types: p.types } = this.#shape(sql, p.stmt));
        }
        const cols = p.columns, n = cols.length;
        const rows = new Array(raw.length);
        for (let i = 0; i < raw.length; i++) {
          const values = raw[i];
          const row: Record<string, unknown> = {};
          // the first of two columns of the same name wins, as in the client
          for (let j = n - 1; j >= 0; j--) row[cols[j]] = fromSql(values[j]);
          rows[i] = row;
        }
        return new Result(cols, p.types, rows, 0, undefined);
      }
      const info = p.stmt.run(bound) as { changes: number; lastInsertRowid: number | bigint };
      this.#schemaMayChange(sql);
      return new Result([], [], [], Number(info.changes), BigInt(info.lastInsertRowid));
    } catch (e) {
      throw mapError(e);
    }
  }

  /** Runs a script of statements (the schema's, in migrations and tests). */
  exec(sql: string) {
    try {
      this.db.exec(sql);
    } finally {
      this.#shapes.clear();
    }
  }

  close() {
    this.#cache.clear();
    this.#shapes.clear();
    if (this.db.open) this.db.close();
  }
}

class LocalTransaction implements Transaction {
  #done = false;
  constructor(readonly conn: Connection, readonly onEnd: () => void) {}

  get closed() {
    return this.#done;
  }
  #check() {
    if (this.#done) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
  }
  execute(stmt: InStatement): Promise<ResultSet> {
    try {
      this.#check();
      return Promise.resolve(this.conn.execute(stmt));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  async batch(stmts: InStatement[]): Promise<ResultSet[]> {
    const out: ResultSet[] = [];
    for (const s of stmts) out.push(await this.execute(s));
    return out;
  }
  executeMultiple(sql: string): Promise<void> {
    try {
      this.#check();
      this.conn.exec(sql);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(mapError(e));
    }
  }
  #end(sql: string): Promise<void> {
    if (this.#done) return Promise.resolve();
    try {
      if (this.conn.db.inTransaction) this.conn.execute(sql);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e);
    } finally {
      this.#done = true;
      this.onEnd();
    }
  }
  commit(): Promise<void> {
    return this.#end("COMMIT");
  }
  rollback(): Promise<void> {
    return this.#end("ROLLBACK");
  }
  close(): void {
    if (this.#done) return;
    try {
      if (this.conn.db.open && this.conn.db.inTransaction) this.conn.execute("ROLLBACK");
    } catch { /* the connection is being torn down */ }
    this.#done = true;
    this.onEnd();
  }
}

/** A local database's client: one connection, statements kept (see the module's comment). */
export class LocalClient implements Client {
  readonly protocol = "file";
  #conn: Connection;
  #tx: LocalTransaction | null = null;
  closed = false;

  /** `path`: the database file, or `:memory:`. */
  constructor(readonly path: string) {
    this.#conn = new Connection(path);
  }

  #usable() {
    if (this.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
    if (this.#tx) {
      throw new LibsqlError(
        "This client has a single connection, which an open transaction is holding. Commit or roll back the transaction before using the client again.",
        "TRANSACTION_ACTIVE",
      );
    }
  }

  execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    try {
      this.#usable();
      return Promise.resolve(this.#conn.execute(stmt, args));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>, mode: TransactionMode = "deferred") {
    const tx = await this.transaction(mode);
    try {
      const out: ResultSet[] = [];
      for (const s of stmts) {
        out.push(await tx.execute(Array.isArray(s) ? { sql: s[0], args: s[1] ?? [] } : s));
      }
      await tx.commit();
      return out;
    } finally {
      tx.close();
    }
  }

  async migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    this.#conn.execute("PRAGMA foreign_keys = OFF");
    try {
      return await this.batch(stmts, "deferred");
    } finally {
      this.#conn.execute("PRAGMA foreign_keys = ON");
    }
  }

  transaction(mode: TransactionMode = "write"): Promise<Transaction> {
    try {
      this.#usable();
      this.#conn.execute(BEGIN[mode]);
      const tx = new LocalTransaction(this.#conn, () => {
        if (this.#tx === tx) this.#tx = null;
      });
      this.#tx = tx;
      return Promise.resolve(tx);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  executeMultiple(sql: string): Promise<void> {
    try {
      this.#usable();
      this.#conn.exec(sql);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(mapError(e));
    }
  }

  sync(): Promise<Replicated> {
    return Promise.resolve(undefined);
  }

  close(): void {
    this.closed = true;
    this.#tx?.close();
    this.#conn.close();
  }

  reconnect(): void {
    this.#tx?.close();
    this.#conn.close();
    this.#conn = new Connection(this.path);
    this.closed = false;
  }
}
