/**
 * The worker side of the WAL checkpointer (./checkpoints.ts): a connection of its own to the app's
 * database file, which copies the write-ahead log back into the database (and fsyncs it) off the
 * app's thread. Every `intervalMs` it reads the log's size from the WAL index (the `-shm` file)
 * and, once the log holds `frames` frames not all copied yet, runs `PRAGMA wal_checkpoint(PASSIVE)`:
 * the threshold and the mode of SQLite's automatic checkpoint. It tells the app, through the shared
 * slots, that it is running and alive (a beat per tick).
 */
/// <reference lib="deno.worker" />
import { openDatabase } from "./connection.ts";
import { filePathOf, SLOT, walState } from "./checkpoints.ts";

export type CheckpointWorkerStart = {
  type: "start";
  url: string;
  intervalMs: number;
  frames: number;
  shared: Int32Array;
};
export type CheckpointWorkerMessage =
  | { type: "ready" }
  | { type: "error"; message: string }
  | { type: "stopped" };

/** Ticks in a row the index may be unreadable before every tick checkpoints. */
const UNREADABLE_TICKS = 5;

type Running = { stop: () => Promise<void> };
let running: Promise<Running> | null = null;

const failed = (err: unknown): CheckpointWorkerMessage => ({
  type: "error",
  message: err instanceof Error ? err.message : String(err),
});

async function start(m: CheckpointWorkerStart): Promise<Running> {
  const { shared } = m;
  const handle = await openDatabase(m.url);
  // it only checkpoints: no memory map, a small page cache
  await handle.client.execute("PRAGMA mmap_size = 0");
  await handle.client.execute("PRAGMA cache_size = -2048");
  const shm = `${filePathOf(m.url)}-shm`;
  let unreadable = 0;
  const tick = async () => {
    Atomics.add(shared, SLOT.beats, 1);
    const wal = await walState(shm);
    unreadable = wal ? 0 : unreadable + 1;
    // an index that stays unreadable (another layout) must not leave the log unbounded: this
    // connection checkpoints at every tick (nothing new: no copy), the app's as well (./checkpoints.ts)
    const due = wal ? wal.mxFrame >= m.frames && wal.nBackfill < wal.mxFrame : unreadable >= UNREADABLE_TICKS;
    if (!due) return;
    await handle.client.execute("PRAGMA wal_checkpoint(PASSIVE)");
    Atomics.add(shared, SLOT.checkpoints, 1);
    Atomics.add(shared, SLOT.beats, 1);
  };
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout>;
  const loop = () => {
    if (stopped) return;
    current = tick().then(
      () => {
        if (!stopped) timer = setTimeout(loop, m.intervalMs);
      },
      (err) => {
        // a failed checkpoint ends the work here: the app takes its automatic checkpoint back
        stopped = true;
        self.postMessage(failed(err));
      },
    );
  };
  // running, unless the app has given up on this worker meanwhile
  Atomics.compareExchange(shared, SLOT.state, 0, 1);
  loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
      await handle.close();
    },
  };
}

self.onmessage = async (e: MessageEvent<CheckpointWorkerStart | { type: "stop" }>) => {
  const m = e.data;
  if (m.type === "start") {
    running = start(m);
    running.then(
      () => self.postMessage({ type: "ready" } satisfies CheckpointWorkerMessage),
      (err) => self.postMessage(failed(err)),
    );
    return;
  }
  // stop: the running checkpoint finishes, the connection closes, then the worker ends
  await (await running?.catch(() => null))?.stop().catch(() => {});
  self.postMessage({ type: "stopped" } satisfies CheckpointWorkerMessage);
  self.close();
};
