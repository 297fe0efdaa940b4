import { type Client, createClient } from "@libsql/client";
import { Kysely } from "kysely";
import { LibsqlDialect } from "./dialect.ts";
import type { Database } from "./types.ts";

export type Db = Kysely<Database>;
export type DbHandle = { db: Db; client: Client; url: string; close(): Promise<void> };

function isLocal(url: string) {
  return url === ":memory:" || url.startsWith("file:");
}

/** Opens the database at `url` (`file:`, `:memory:`, `libsql://`, `http(s)://`), ready for Kysely. */
export async function openDatabase(url: string, authToken?: string): Promise<DbHandle> {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir) await Deno.mkdir(dir, { recursive: true });
  }
  // One connection locally: per-connection pragmas (foreign keys) then hold for every statement.
  const client = createClient({ url, authToken, concurrency: isLocal(url) ? 1 : 20, intMode: "number" });
  if (isLocal(url)) {
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
  const db = new Kysely<Database>({ dialect: new LibsqlDialect(client) });
  return {
    db,
    client,
    url,
    async close() {
      await db.destroy();
    },
  };
}
