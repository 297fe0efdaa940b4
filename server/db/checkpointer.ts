/**
 * Checkpoints of a database file, off the thread that serves requests (DATABASE_CHECKPOINT=background,
 * the default for the server).
 *
 * In WAL mode every commit appends the pages it changed to the `-wal` file; a checkpoint copies them
 * back into the database and syncs it. SQLite does that itself in the commit that takes the log past
 * 1,000 pages, on the connection that commits: here the app's one connection, on its event loop. On
 * the router's hot path that was a stall of several milliseconds every second or so (the p99 of an
 * entry), and the writes that go with each outcome (its supplier callback's row) paid for it twice:
 * once written, once copied back on the thread that answers respondents.
 *
 * Here a worker with a connection of its own runs a PASSIVE checkpoint every CHECKPOINT_EVERY_MS
 * (it copies what no reader still needs and never waits on the app's writer). The app's connection
 * keeps SQLite's own as a safety net at SAFETY_NET_PAGES (a log the worker could not keep short:
 * it then copies only what the worker has not). SQLite restarts the log from its start at the first
 * write after a checkpoint that copied all of it.
 */
import type { Client } from "@libsql/client";

/** How often the worker checkpoints (ms). */
export const CHECKPOINT_EVERY_MS = 50;
/** The app connection's own checkpoint, when the log reaches this many pages (4 KiB each). */
export const SAFETY_NET_PAGES = 10_000;

export type CheckpointMessage = { type: "start"; path: string; everyMs: number } | { type: "stop" };
/** The worker's answers: its connection is open (or could not be), then it has closed it. */
export type CheckpointReply = { type: "ready" } | { type: "failed"; error: string } | { type: "stopped" };

export type Checkpointer = {
  /** Ends the worker, its connection closed first. */
  stop(): Promise<void>;
};

/** How long the worker may take to open its connection; later, checkpoints stay SQLite's (ms). */
const START_MS = 30_000;

/**
 * Hands the checkpoints of the database file at `path` to a worker, once its connection is open;
 * `client` is the app's connection to it (its own checkpoint becomes the safety net). A worker that
 * cannot start leaves SQLite's own checkpoints as they were, and null is answered.
 */
export async function startCheckpointer(
  client: Client,
  path: string,
  everyMs = CHECKPOINT_EVERY_MS,
): Promise<Checkpointer | null> {
  const worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url).href, { type: "module" });
  let answer: (r: CheckpointReply) => void = () => {};
  const next = () => new Promise<CheckpointReply>((resolve) => (answer = resolve));
  worker.onmessage = (e: MessageEvent<CheckpointReply>) => answer(e.data);
  worker.onerror = (e) => {
    // the worker is gone: SQLite's own checkpoints, at SAFETY_NET_PAGES, keep the log bounded
    e.preventDefault();
    answer({ type: "failed", error: e.message });
  };
  const ready = next();
  worker.postMessage({ type: "start", path, everyMs } satisfies CheckpointMessage);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const first = await Promise.race([
    ready,
    new Promise<CheckpointReply>((resolve) => {
      timer = setTimeout(() => resolve({ type: "failed", error: "the worker did not start" }), START_MS);
    }),
  ]);
  clearTimeout(timer);
  if (first.type !== "ready") {
    worker.terminate();
    return null;
  }
  await client.execute(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= (async () => {
        const reply = next();
        worker.postMessage({ type: "stop" } satisfies CheckpointMessage);
        // answered "stopped", or "failed" by a worker that died: either way it ends here
        await reply;
        worker.terminate();
      })();
      return stopped;
    },
  };
}
