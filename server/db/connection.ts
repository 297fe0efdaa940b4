import { type Client, createClient, type InStatement } from "@libsql/client";
import { Kysely } from "kysely";
import { startCheckpointer } from "./checkpointer.ts";
import { LibsqlDialect } from "./dialect.ts";
import { LocalClient } from "./local-client.ts";
import { guardRemoteClientLeaks } from "./remote-leaks.ts";
import { KeptStreams, keptStreamUrl, type Rows } from "./kept-stream.ts";
import type { Database } from "./types.ts";

export type Db = Kysely<Database>;
export type DbHandle = {
  db: Db;
  client: Client;
  url: string;
  /** The primary over the network, when the database is remote (the router's write batches). */
  primary: Client | null;
  /**
   * Kysely straight on the primary: the same as `db` but with an embedded replica, where it skips
   * the replica (migrations run here, then the replica syncs).
   */
  primaryDb: Db;
  /** Pulls the primary's latest changes into the replica (nothing without one). */
  sync(): Promise<void>;
  close(): Promise<void>;
};

/** How the app reaches a remote primary: for the router's reads and write batches. */
export type Remote = {
  /** The primary itself over HTTP/WebSocket: one request per batch. */
  primary: Client;
  /**
   * One transaction on the primary in one request, each statement's rows: the router's read and
   * write batches, over kept streams when the primary speaks HTTP (./kept-stream.ts).
   */
  batch(statements: InStatement[], mode: "read" | "write"): Promise<Rows[]>;
  /** The embedded replica the app's other reads use, if any (synced after the router writes). */
  replica: Client | null;
  /** Kysely straight on the primary (reads that must not lag, like a session another instance made). */
  primaryDb: Db;
};

const remotes = new WeakMap<Db, Remote>();

/** The remote primary behind `db`, or null for a file or `:memory:` database. */
export function remoteOf(db: Db): Remote | null {
  return remotes.get(db) ?? null;
}

function isLocal(url: string) {
  return url === ":memory:" || url.startsWith("file:");
}

/** The file a `file:` URL names, as @libsql/client reads it (`file:rel`, `file:/abs`, `file:///abs`). */
function localPath(fileUrl: string): string {
  const path = fileUrl.slice("file:".length).split("?")[0].replace(/^\/\/(?=\/)/, "");
  return decodeURIComponent(path);
}

async function ensureDir(fileUrl: string) {
  const path = fileUrl.slice("file:".length).replace(/^\/\/(?=\/)/, "");
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  if (dir) await Deno.mkdir(dir, { recursive: true });
}

export type OpenOptions = {
  /**
   * Who checkpoints a database file's write-ahead log: SQLite, in the commit that grows it past
   * 1,000 pages (`inline`, the default), or a worker of its own (`background`, ./checkpointer.ts;
   * SQLite's own, if the worker cannot start).
   */
  checkpoint?: "inline" | "background";
};

export type ReplicaOptions = {
  /** Local file of an embedded replica of the remote `url`: reads are served from it. */
  path: string;
  /** Seconds between background syncs of the replica from the primary. */
  syncInterval: number;
};

/**
 * Opens the database at `url` (`file:`, `:memory:`, `libsql://`, `http(s)://`, `ws(s)://`), ready
 * for Kysely. With `replica` (a remote `url` only), the app reads from an embedded replica in a
 * local file, kept in sync every `syncInterval` seconds, and its writes go to the primary (the
 * client forwards them); the router's writer talks to the primary directly (`remoteOf`).
 */
export async function openDatabase(
  url: string,
  authToken?: string,
  replica?: ReplicaOptions,
  opts: OpenOptions = {},
): Promise<DbHandle> {
  if (url.startsWith("file:")) await ensureDir(url);
  const local = isLocal(url);
  if (replica && local) {
    throw new Error("a replica needs a remote DATABASE_URL (libsql://, http(s)://, ws(s)://)");
  }
  // One connection locally: per-connection pragmas (foreign keys) then hold for every statement;
  // its writing statements are kept prepared (./local-client.ts).
  if (!local) guardRemoteClientLeaks();
  const primary: Client = local
    ? new LocalClient(url === ":memory:" ? url : localPath(url))
    : createClient({ url, authToken, concurrency: local ? 1 : 20, intMode: "number" });
  let client = primary;
  if (replica) {
    const file = `file:${replica.path}`;
    await ensureDir(file);
    client = createClient({
      url: file,
      syncUrl: url,
      authToken,
      syncInterval: replica.syncInterval,
      intMode: "number",
    });
    await client.sync();
  }
  if (local) {
    if (url !== ":memory:") {
      await client.execute("PRAGMA journal_mode = WAL");
      await client.execute("PRAGMA synchronous = NORMAL");
    }
    await client.execute("PRAGMA busy_timeout = 5000");
    // a page cache and memory map sized for list scans and sorts (SQLite's defaults are 2 MiB / off)
    await client.execute("PRAGMA cache_size = -65536");
    if (url !== ":memory:") await client.execute("PRAGMA mmap_size = 268435456");
    await client.execute("PRAGMA temp_store = MEMORY");
    await client.execute("PRAGMA foreign_keys = ON");
  }
  const checkpointer = local && url !== ":memory:" && opts.checkpoint === "background"
    ? await startCheckpointer(client, localPath(url))
    : null;
  const db = new Kysely<Database>({ dialect: new LibsqlDialect(client) });
  const primaryDb = primary === client ? db : new Kysely<Database>({ dialect: new LibsqlDialect(primary) });
  const streamUrl = local ? null : keptStreamUrl(url);
  const kept = streamUrl ? new KeptStreams(streamUrl, authToken) : null;
  if (!local) {
    remotes.set(db, {
      primary,
      batch: kept
        ? (statements, mode) => kept.batch(statements, mode)
        : async (statements, mode) =>
          (await primary.batch(statements, mode)).map((rs) => rs.rows as unknown as Rows),
      replica: replica ? client : null,
      primaryDb,
    });
  }
  return {
    db,
    client,
    url,
    primary: local ? null : primary,
    primaryDb,
    async sync() {
      if (replica) await client.sync();
    },
    async close() {
      kept?.close();
      await checkpointer?.stop();
      await db.destroy();
      if (primaryDb !== db) await primaryDb.destroy();
    },
  };
}
