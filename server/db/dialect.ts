/**
 * A small Kysely dialect over @libsql/client (the published one is stale). One logical connection
 * guarded by a mutex, as Kysely's own SQLite driver does: statements and transactions run one at a
 * time, which is what an embedded SQLite file or `:memory:` needs. Transactions use the client's
 * `transaction()` so they also work against a remote libSQL server, where each plain `execute` may
 * travel on a different stream. Each statement's time goes to the metrics by kind (select, insert,
 * update, delete, other: samplex_db_statement_duration_seconds).
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { recordStatement, statementKind } from "../lib/metrics.ts";

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return acquired;
  }
}

class LibsqlConnection implements DatabaseConnection {
  tx: Transaction | null = null;
  constructor(readonly client: Client) {}

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const stmt: InStatement = {
      sql: q.sql,
      args: q.parameters as InStatement extends { args?: infer A } ? A : never,
    };
    const started = performance.now();
    const rs = await (this.tx ?? this.client).execute(stmt);
    // timed on success only: a failed statement's time says nothing about the database's speed
    recordStatement(statementKind(q.query.kind, q.sql), (performance.now() - started) / 1000);
    return {
      rows: rs.rows as unknown as R[],
      numAffectedRows: rs.columns.length === 0 || rs.rowsAffected > 0 ? BigInt(rs.rowsAffected) : undefined,
      insertId: rs.lastInsertRowid,
    };
  }

  // deno-lint-ignore require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streamQuery is not supported: page with keyset queries instead");
  }
}

class LibsqlDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #conn: LibsqlConnection;
  #release: (() => void) | null = null;

  constructor(client: Client) {
    this.#conn = new LibsqlConnection(client);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#mutex.lock();
    return this.#conn;
  }
  releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = null;
    release?.();
    return Promise.resolve();
  }
  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as LibsqlConnection;
    c.tx = await c.client.transaction("write");
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as LibsqlConnection;
    try {
      await c.tx?.commit();
    } finally {
      c.tx?.close();
      c.tx = null;
    }
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const c = conn as LibsqlConnection;
    try {
      await c.tx?.rollback();
    } finally {
      c.tx?.close();
      c.tx = null;
    }
  }
  async savepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }
  async rollbackToSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }
  async releaseSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }
  destroy(): Promise<void> {
    this.#conn.client.close();
    return Promise.resolve();
  }
}

export class LibsqlDialect implements Dialect {
  constructor(readonly client: Client) {}
  createDriver(): Driver {
    return new LibsqlDriver(this.client);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  // deno-lint-ignore no-explicit-any
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
