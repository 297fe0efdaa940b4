/**
 * WAL checkpoints inline (SQLite's automatic one, inside the commit that fills the log, on the app's
 * thread) against the checkpoint worker (server/db/checkpoints.ts), in the same run: a write-heavy
 * loop on the app's connection, 100 transactions each updating 1,000 rows spread over a
 * 200,000-row table (as a reconcile upload does), on a fresh copy of the same file for every round;
 * rounds alternate between the modes. Also the log's high-water mark (the -wal file's size), which
 * must stay bounded in both.
 */
import { sql } from "kysely";
import { type CheckpointMode, openDatabase } from "../../server/db/connection.ts";
import { summarize } from "./_kit.ts";
import type { BenchRow } from "./_kit.ts";

const ROWS = 200_000;
const TRANSACTIONS = 100;
const PER_TRANSACTION = 1_000;
const ROUNDS = 4;

async function build(path: string) {
  const h = await openDatabase(`file:${path}`);
  await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, status TEXT NOT NULL, n INTEGER NOT NULL, note TEXT NOT NULL)`
    .execute(h.db);
  for (let i = 0; i < ROWS; i += 5_000) {
    await sql`WITH RECURSIVE k(x) AS (SELECT ${i} UNION ALL SELECT x + 1 FROM k WHERE x < ${i + 4_999})
      INSERT INTO t (id, status, n, note) SELECT x, 'complete', 0, printf('%080d', x) FROM k`.execute(h.db);
  }
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(h.db);
  await h.close();
}

/** One round on a fresh copy: milliseconds of the loop, and the log's largest size in pages. */
async function round(base: string, path: string, mode: CheckpointMode) {
  await Deno.copyFile(base, path);
  const h = await openDatabase(`file:${path}`, undefined, undefined, { checkpoints: mode });
  try {
    if ((await h.checkpointer.ready) !== mode) throw new Error(`checkpoints ${mode} did not start`);
    const t0 = performance.now();
    for (let tx = 0; tx < TRANSACTIONS; tx++) {
      // 1,000 rows 150 apart (a different page each), a different set every transaction
      const start = (tx * 7_919) % (ROWS - PER_TRANSACTION * 150);
      const ids = Array.from({ length: PER_TRANSACTION }, (_, j) => start + j * 150);
      await h.db.transaction().execute(async (trx) => {
        await sql`UPDATE t SET status = 'rejected', n = n + 1 WHERE id IN (${sql.join(ids)})`.execute(trx);
      });
    }
    const ms = performance.now() - t0;
    const walPages = Math.round((await Deno.stat(`${path}-wal`)).size / 4_120);
    return { ms, walPages, checkpoints: h.checkpointer.checkpoints };
  } finally {
    await h.close();
    for (const f of [path, `${path}-wal`, `${path}-shm`]) await Deno.remove(f).catch(() => {});
  }
}

export async function bench(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "samplex-checkpoint-bench-" });
  try {
    const base = `${dir}/base.db`;
    await build(base);
    const runs: Record<CheckpointMode, { ms: number[]; wal: number[]; checkpoints: number[] }> = {
      inline: { ms: [], wal: [], checkpoints: [] },
      worker: { ms: [], wal: [], checkpoints: [] },
    };
    await round(base, `${dir}/warm.db`, "inline"); // warm-up: page cache, JIT
    for (let i = 0; i < ROUNDS; i++) {
      for (const mode of (i % 2 ? ["worker", "inline"] : ["inline", "worker"]) as CheckpointMode[]) {
        const r = await round(base, `${dir}/run-${i}-${mode}.db`, mode);
        runs[mode].ms.push(r.ms);
        runs[mode].wal.push(r.walPages);
        runs[mode].checkpoints.push(r.checkpoints);
      }
    }
    const inline = summarize(runs.inline.ms), worker = summarize(runs.worker.ms);
    const what = `${TRANSACTIONS} transactions x ${PER_TRANSACTION.toLocaleString("en-US")} rows updated`;
    return [
      {
        measure: `${what}, checkpoints inline (SQLite's automatic)`,
        median: inline.median,
        p95: inline.p95,
        unit: "ms",
        note: `${ROUNDS} rounds; WAL high-water ${Math.max(...runs.inline.wal)} pages`,
      },
      {
        measure: `${what}, checkpoints in the worker`,
        median: worker.median,
        p95: worker.p95,
        unit: "ms",
        ratio: worker.median / inline.median,
        summary: "write loop, checkpoint worker (x inline)",
        note: `ratio: x inline; WAL high-water ${Math.max(...runs.worker.wal)} pages; worker checkpoints ${
          runs.worker.checkpoints.join("/")
        }`,
      },
    ];
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
