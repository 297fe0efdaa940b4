/**
 * The worker side of ./checkpointer.ts: its own connection to the database file, which copies the
 * write-ahead log back into the database (`PRAGMA wal_checkpoint(PASSIVE)`: as much as no reader
 * still needs, never waiting on the app's writer) every `everyMs`, and answers its figures when
 * told to stop.
 */
/// <reference lib="deno.worker" />
import Database from "libsql";
import type { CheckpointMessage, CheckpointReply, CheckpointStats } from "./checkpointer.ts";

function serve() {
  let db: InstanceType<typeof Database> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  const stats: CheckpointStats = { runs: 0, frames: 0, failed: 0, ms: 0 };
  const checkpoint = () => {
    if (!db) return;
    const started = performance.now();
    try {
      // [busy, frames in the log, frames copied so far]
      const r = db.prepare("PRAGMA wal_checkpoint(PASSIVE)").raw(true).get() as (number | bigint)[];
      stats.runs++;
      stats.frames = Number(r[2]);
    } catch {
      // the file is busy or gone for a moment: the next turn tries again (the app's own
      // autocheckpoint is the safety net)
      stats.failed++;
    }
    stats.ms += performance.now() - started;
  };
  self.onmessage = (e: MessageEvent<CheckpointMessage>) => {
    const m = e.data;
    if (m.type === "start") {
      try {
        db = new Database(m.path);
        db.exec("PRAGMA busy_timeout = 1000");
        db.exec("PRAGMA synchronous = NORMAL");
        timer = setInterval(checkpoint, m.everyMs);
        self.postMessage({ type: "ready" } satisfies CheckpointReply);
      } catch (err) {
        self.postMessage({ type: "failed", error: String(err) } satisfies CheckpointReply);
      }
    } else {
      clearInterval(timer);
      try {
        db?.close();
      } catch { /* closed */ }
      db = null;
      self.postMessage({ type: "stopped", ...stats, ms: Math.round(stats.ms) } satisfies CheckpointReply);
    }
  };
}

serve();
