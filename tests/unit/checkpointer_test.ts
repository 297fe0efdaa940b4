/**
 * server/db/checkpointer.ts: with DATABASE_CHECKPOINT=background a worker copies the write-ahead log
 * back into the database file, so the app's connection (its own checkpoint only a safety net at
 * 10,000 pages) never does it in a commit, and the log restarts from its start instead of growing.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { SAFETY_NET_PAGES } from "../../server/db/checkpointer.ts";
import { sql } from "kysely";
import { loadEnv } from "../../server/env.ts";
import { EnvError } from "../../server/env.ts";

/** Writes about `pages` pages of 4 KiB (a row of 4,000 bytes each), 50 to a transaction. */
async function write(db: Awaited<ReturnType<typeof openDatabase>>["db"], pages: number) {
  for (let i = 0; i < pages; i += 50) {
    await db.transaction().execute(async (trx) => {
      await sql`INSERT INTO blobs (b) SELECT randomblob(4000) FROM generate_series(1, 50)`.execute(trx)
        .catch(async () => {
          // no generate_series in this build: a recursive count
          await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
            INSERT INTO blobs (b) SELECT randomblob(4000) FROM n`.execute(trx);
        });
    });
  }
}

const walSize = (path: string) => Deno.statSync(`${path}-wal`).size;

Deno.test("checkpointer: the worker copies the log back, the app's connection keeps only a safety net, and the log restarts instead of growing", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/bg.db`;
  try {
    const h = await openDatabase(`file:${path}`, undefined, undefined, { checkpoint: "background" });
    const auto = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(h.db);
    assertEquals(Number(auto.rows[0].wal_autocheckpoint), SAFETY_NET_PAGES);
    await sql`CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB)`.execute(h.db);
    // 2,000 pages: past SQLite's own 1,000, short of the safety net: only the worker checkpoints
    await write(h.db, 2_000);
    const first = walSize(path);
    assert(first > 1_500 * 4096, `the log holds the writes (${first} bytes)`);
    await new Promise((r) => setTimeout(r, 400));
    // as much again: the log, copied back meanwhile, restarts from its start (same file size)
    await write(h.db, 2_000);
    const second = walSize(path);
    assert(second < first * 1.3, `the log restarted (${first} then ${second} bytes)`);
    await h.close();
    // everything is there, and the file is sound
    const again = await openDatabase(`file:${path}`);
    const n = await sql<{ n: number }>`SELECT count(*) AS n FROM blobs`.execute(again.db);
    assertEquals(Number(n.rows[0].n), 4_000);
    const ok = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(again.db);
    assertEquals(ok.rows[0].integrity_check, "ok");
    await again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkpointer: inline (the default of openDatabase) leaves SQLite's own checkpoint; the server's setting is validated", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const h = await openDatabase(`file:${dir}/inline.db`);
    const auto = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(h.db);
    assertEquals(Number(auto.rows[0].wal_autocheckpoint), 1000);
    await h.close();
    assertEquals(loadEnv({}).DATABASE_CHECKPOINT, "background");
    assertEquals(loadEnv({ DATABASE_CHECKPOINT: "inline" }).DATABASE_CHECKPOINT, "inline");
    let err: unknown = null;
    try {
      loadEnv({ DATABASE_CHECKPOINT: "sometimes" });
    } catch (e) {
      err = e;
    }
    assert(
      err instanceof EnvError && /DATABASE_CHECKPOINT must be background or inline/.test(err.message),
      String(err),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
