/**
 * WAL checkpoints of a file database (server/db/checkpoints.ts, README "WAL checkpoints"): the app's
 * connection runs without SQLite's automatic checkpoint while a worker of its own checkpoints the
 * log, which stays bounded (with pauses between writes, and under writes that never pause); a
 * worker that cannot start, or dies, gives the app's connection its automatic checkpoint back
 * (logged once); closing leaves no worker running (the test sanitizers would report it).
 */
import { sql } from "kysely";
import { assert, assertEquals } from "../helpers/assert.ts";
import { type DbHandle, openDatabase } from "../../server/db/connection.ts";
import { CHECKPOINT_FRAMES, OVERFLOW_FACTOR, walState } from "../../server/db/checkpoints.ts";
import { loadEnv } from "../../server/env.ts";
import { buildDeps } from "../../server/boot.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function scratch() {
  const dir = await Deno.makeTempDir({ prefix: "samplex-checkpoint-" });
  return { dir, path: `${dir}/t.db`, remove: () => Deno.remove(dir, { recursive: true }) };
}

const autocheckpoint = async (h: DbHandle) =>
  (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(h.db)).rows[0]
    .wal_autocheckpoint;

/** A table whose rows are a page each (3,000 bytes): a transaction of `n` inserts writes about `n` frames. */
async function pages(h: DbHandle) {
  await sql`CREATE TABLE IF NOT EXISTS big (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(h.db);
  return (n: number) =>
    h.db.transaction().execute(async (trx) => {
      await sql`WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE x < ${n})
        INSERT INTO big (body) SELECT printf('%03000d', x) FROM k`.execute(trx);
    });
}

/** The -wal file's size in frames: its high-water mark (the file is reused, never shrunk, here). */
async function walFileFrames(path: string) {
  return Math.round((await Deno.stat(`${path}-wal`)).size / 4_120);
}

Deno.test("checkpoints: a worker checkpoints a file database and the app's connection has no automatic checkpoint", async () => {
  const s = await scratch();
  const h = await openDatabase(`file:${s.path}`, undefined, undefined, { checkpoints: "worker" });
  try {
    assertEquals(await h.checkpointer.ready, "worker");
    assertEquals(h.checkpointer.mode, "worker");
    assertEquals(await autocheckpoint(h), 0);
    const write = await pages(h);
    // 50 transactions of ~100 frames with a pause between them, as requests come: 5,000 frames
    // written, which would stay in the log without a checkpoint
    for (let i = 0; i < 50; i++) {
      await write(100);
      await sleep(40);
    }
    const deadline = performance.now() + 10_000;
    let wal = await walState(`${s.path}-shm`);
    while (
      wal && wal.nBackfill < wal.mxFrame && wal.mxFrame >= CHECKPOINT_FRAMES && performance.now() < deadline
    ) {
      await sleep(50);
      wal = await walState(`${s.path}-shm`);
    }
    assert(h.checkpointer.checkpoints > 0, "the worker ran no checkpoint");
    assert(wal, "the WAL index is readable");
    assert(
      wal.mxFrame < CHECKPOINT_FRAMES || wal.nBackfill === wal.mxFrame,
      `log left: ${JSON.stringify(wal)}`,
    );
    // the log restarted rather than grew, and before the app's connection would have checkpointed
    const high = await walFileFrames(s.path);
    assert(high < CHECKPOINT_FRAMES * OVERFLOW_FACTOR, `the log grew to ${high} frames`);
    // the app's connection still has no automatic checkpoint, and a test connection finds no backlog
    assertEquals(await autocheckpoint(h), 0);
    const other = await openDatabase(`file:${s.path}`);
    try {
      const r = await other.client.execute("PRAGMA wal_checkpoint(PASSIVE)");
      const [busy, log, done] = Array.from(r.rows[0], Number);
      assertEquals(busy, 0);
      assert(
        log - done === 0 && log < CHECKPOINT_FRAMES * OVERFLOW_FACTOR,
        `a test connection's checkpoint: log ${log}, done ${done}`,
      );
      assertEquals((await other.client.execute("SELECT count(*) AS n FROM big")).rows[0].n, 5_000);
    } finally {
      await other.close();
    }
  } finally {
    await h.close();
    await s.remove();
  }
  assertEquals(h.checkpointer.mode, "inline");
});

Deno.test("checkpoints: writes that never pause keep the log bounded (the app's connection checkpoints past the bound)", async () => {
  const s = await scratch();
  const h = await openDatabase(`file:${s.path}`, undefined, undefined, { checkpoints: "worker" });
  try {
    assertEquals(await h.checkpointer.ready, "worker");
    const write = await pages(h);
    // 60,000 frames back to back, never yielding to the event loop: a checkpoint beside such a
    // writer never catches up, so without the bound the log would hold them all
    let high = 0;
    for (let i = 0; i < 60; i++) {
      await write(1_000);
      high = Math.max(high, (await walState(`${s.path}-shm`))?.mxFrame ?? 0);
    }
    assert(high < 30_000, `the log grew to ${high} frames (bound ${CHECKPOINT_FRAMES * OVERFLOW_FACTOR})`);
    assert((await walFileFrames(s.path)) < 30_000);
  } finally {
    await h.close();
    await s.remove();
  }
});

Deno.test("checkpoints: a worker that cannot start leaves SQLite's automatic checkpoint on, logged once", async () => {
  const s = await scratch();
  const warnings: string[] = [];
  const h = await openDatabase(`file:${s.path}`, undefined, undefined, {
    checkpoints: "worker",
    workerUrl: new URL("./no_such_checkpoint_worker.ts", import.meta.url),
    warn: (msg) => warnings.push(msg),
  });
  try {
    assertEquals(await h.checkpointer.ready, "inline");
    assertEquals(h.checkpointer.mode, "inline");
    assertEquals(await autocheckpoint(h), CHECKPOINT_FRAMES);
    const write = await pages(h);
    for (let i = 0; i < 5; i++) await write(1_000);
    // SQLite checkpointed in the commits: the log restarted instead of holding 5,000 frames
    assert((await walFileFrames(s.path)) < 2_500);
    await sleep(100);
    assertEquals(warnings.length, 1);
    assert(warnings[0].includes("checkpoint"), warnings[0]);
  } finally {
    await h.close();
    await s.remove();
  }
});

Deno.test("checkpoints: a worker that dies gives the app's connection its automatic checkpoint back, logged once", async () => {
  const s = await scratch();
  const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
  const h = await openDatabase(`file:${s.path}`, undefined, undefined, {
    checkpoints: "worker",
    workerUrl: new URL("../helpers/dying_checkpoint_worker.ts", import.meta.url),
    warn: (msg, fields) => warnings.push({ msg, fields }),
  });
  try {
    assertEquals(await h.checkpointer.ready, "worker");
    assertEquals(await autocheckpoint(h), 0);
    const deadline = performance.now() + 10_000;
    while (h.checkpointer.mode === "worker" && performance.now() < deadline) await sleep(50);
    assertEquals(h.checkpointer.mode, "inline");
    assertEquals(await autocheckpoint(h), CHECKPOINT_FRAMES);
    const write = await pages(h);
    for (let i = 0; i < 5; i++) await write(1_000);
    assert((await walFileFrames(s.path)) < 2_500);
    assertEquals(warnings.length, 1);
    assert(
      String(warnings[0].fields?.reason).includes("checkpoint worker crashed"),
      JSON.stringify(warnings),
    );
  } finally {
    await h.close();
    await s.remove();
  }
});

Deno.test("checkpoints: the app uses the worker on a file database by default; DATABASE_CHECKPOINT=inline and :memory: do not", async () => {
  assertEquals(loadEnv({}).DATABASE_CHECKPOINT, "worker");
  assertEquals(loadEnv({ DATABASE_CHECKPOINT: "inline" }).DATABASE_CHECKPOINT, "inline");
  let problem = "";
  try {
    loadEnv({ DATABASE_CHECKPOINT: "thread" });
  } catch (e) {
    problem = e instanceof Error ? e.message : String(e);
  }
  assert(problem.includes("DATABASE_CHECKPOINT must be worker or inline"), problem);

  const s = await scratch();
  const base = { SEED: "none", LOG_LEVEL: "silent", DENO_ENV: "test" } as const;
  try {
    for (
      const [env, mode, frames] of [
        [{ DATABASE_URL: `file:${s.path}` }, "worker", 0],
        [{ DATABASE_URL: `file:${s.path}`, DATABASE_CHECKPOINT: "inline" }, "inline", CHECKPOINT_FRAMES],
        [{ DATABASE_URL: ":memory:" }, "inline", CHECKPOINT_FRAMES],
      ] as const
    ) {
      const { handle } = await buildDeps(loadEnv({ ...base, ...env }));
      try {
        assertEquals(await handle.checkpointer.ready, mode, JSON.stringify(env));
        if (env.DATABASE_URL !== ":memory:") assertEquals(await autocheckpoint(handle), frames);
      } finally {
        await handle.close();
      }
    }
  } finally {
    await s.remove();
  }
});
