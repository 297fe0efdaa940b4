/**
 * The worker side of ./checkpointer.ts: its own connection to the database file, which copies the
 * write-ahead log back into the database (`PRAGMA wal_checkpoint(PASSIVE)`: as much as no reader
 * still needs, never waiting on the app's writer) every `everyMs`, until told to stop.
 */
/// <reference lib="deno.worker" />
import Database from "libsql";
import type { CheckpointMessage, CheckpointReply } from "./checkpointer.ts";

function serve() {
  let db: InstanceType<typeof Database> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  const checkpoint = () => {
    try {
      db?.exec("PRAGMA wal_checkpoint(PASSIVE)");
    } catch {
      // the file is busy or gone for a moment: the next turn tries again (the app's own
      // autocheckpoint is the safety net)
    }
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
      self.postMessage({ type: "stopped" } satisfies CheckpointReply);
    }
  };
}

serve();
