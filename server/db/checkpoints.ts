/**
 * Who checkpoints a local database file's write-ahead log (README, "WAL checkpoints").
 *
 * SQLite's automatic checkpoint runs inside whichever COMMIT takes the log past 1,000 frames: it
 * copies the log into the database and fsyncs it, on the app's only connection, on the thread that
 * also serves respondents. In "worker" mode a Deno worker with a connection of its own does that
 * instead (./checkpoint_worker.ts) with `PRAGMA wal_checkpoint(PASSIVE)`, which never waits for,
 * nor blocks, the app's readers and writers; the app's connection then runs with
 * `PRAGMA wal_autocheckpoint = 0`.
 *
 * The app's connection checkpoints itself again (`wal_autocheckpoint = 1000`, as SQLite does by
 * default) whenever the worker cannot keep the log bounded, so the log never grows without bound:
 * - until the worker is running, and for good once it fails to start, fails a checkpoint or dies
 *   (logged once);
 * - while the worker shows no sign of life (its heartbeat is older than STALE_MS);
 * - while the log holds OVERFLOW_FACTOR times the threshold: a log restarts from its beginning only
 *   at a write that finds every frame copied, which a checkpoint running beside a writer that never
 *   pauses does not achieve; the writer's own checkpoint then copies what the worker has not yet
 *   and the next write restarts the log.
 * The app decides each time it takes its connection (the dialect's `beforeUse`), from the worker's
 * state and heartbeat (a SharedArrayBuffer) and the log's size (the WAL index, read at most every
 * LOOK_MS): no event-loop turn is needed, so a job that writes without yielding still sees it.
 */
import type { Client } from "@libsql/client";
import type { CheckpointWorkerMessage, CheckpointWorkerStart } from "./checkpoint_worker.ts";

export type CheckpointMode = "inline" | "worker";
/** SQLite's default: the automatic checkpoint's threshold, which the worker keeps. */
export const CHECKPOINT_FRAMES = 1000;
/** How often the worker looks at the log's size. */
export const CHECKPOINT_INTERVAL_MS = 100;
/** A log this many times the threshold is checkpointed by the app's connection too. */
export const OVERFLOW_FACTOR = 4;
/** A worker whose heartbeat is older than this is taken for dead until it beats again. */
const STALE_MS = 3_000;
/** How often, at most, the app's connection reads the log's size (a read of the WAL index). */
const LOOK_MS = 10;
/** How long closing waits for the worker to finish its checkpoint and close its connection. */
const STOP_TIMEOUT_MS = 5_000;

/** Slots of the shared Int32Array. */
export const SLOT = {
  /** 0 starting, 1 running, 2 ended (stopped or failed). */
  state: 0,
  /** Incremented by every tick of the worker. */
  beats: 1,
  /** Checkpoints the worker has run. */
  checkpoints: 2,
} as const;
export const SLOTS = 3;

export type Checkpointer = {
  /** Who checkpoints now: "worker" while the worker is running, else "inline". */
  readonly mode: CheckpointMode;
  /** Settles once the worker has taken over ("worker") or could not ("inline"). */
  readonly ready: Promise<CheckpointMode>;
  /** Checkpoints the worker has run (each a PASSIVE one on a log of CHECKPOINT_FRAMES or more). */
  readonly checkpoints: number;
  /**
   * Run on the app's connection each time it is taken (before a statement or a transaction): sets
   * its automatic checkpoint to what the worker's state calls for, when that changed.
   */
  beforeUse?: (client: Client) => Promise<void>;
  /** Stops the worker (its running checkpoint finishes, its connection closes). */
  stop(): Promise<void>;
};

export type CheckpointerOptions = {
  /** Told once when the worker cannot do the work and the app's connection takes it back. */
  warn?: (msg: string, fields?: Record<string, unknown>) => void;
  /** The worker's module (tests substitute one that fails). */
  workerUrl?: URL;
  intervalMs?: number;
  frames?: number;
};

/** Inline: SQLite's automatic checkpoint, nothing to run or stop. */
export const inlineCheckpoints: Checkpointer = {
  mode: "inline",
  ready: Promise.resolve("inline"),
  checkpoints: 0,
  stop: () => Promise.resolve(),
};

/** Starts the checkpoint worker for the database file at `url`. */
export function startCheckpointWorker(url: string, opts: CheckpointerOptions = {}): Checkpointer {
  const warn = opts.warn ??
    ((msg: string, fields?: Record<string, unknown>) =>
      console.error(JSON.stringify({ level: "warn", msg, ...fields })));
  const frames = opts.frames ?? CHECKPOINT_FRAMES;
  const shared = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  let stopping = false;
  let failed = false;
  let settle!: (m: CheckpointMode) => void;
  const ready = new Promise<CheckpointMode>((r) => (settle = r));
  let gone!: () => void;
  const ended = new Promise<void>((r) => (gone = r));
  let worker: Worker | null = null;

  /** The worker is gone: stopped for good, its connection closed or dropped with it. */
  function end() {
    Atomics.store(shared, SLOT.state, 2);
    worker?.terminate();
    gone();
  }
  /** The worker cannot do the work: the app's connection checkpoints again (logged once). */
  const fallBack = (reason: string, dead: boolean) => {
    Atomics.store(shared, SLOT.state, 2);
    if (dead) end();
    if (failed || stopping) return;
    failed = true;
    warn("database checkpoints: the worker failed, SQLite checkpoints on the app's connection again", {
      reason,
    });
    settle("inline");
    // a live worker closes its connection and ends ("stopped")
    if (!dead) worker?.postMessage({ type: "stop" });
  };

  // the app's connection: its autocheckpoint as last set, the worker's heartbeat and the log's
  // size as last seen
  let autocheckpoint = -1;
  let lastBeat = -1;
  let lastBeatAt = performance.now();
  let overflow = false;
  let lookedAt = -Infinity;
  let lastReadAt = performance.now();
  let index: Deno.FsFile | null = null;
  const shm = `${filePathOf(url)}-shm`;
  const overflowing = (now: number) => {
    if (now - lookedAt < LOOK_MS) return overflow;
    lookedAt = now;
    let wal = null;
    try {
      index ??= Deno.openSync(shm, { read: true });
      wal = readWalIndex(index);
    } catch {
      index?.close();
      index = null;
    }
    if (wal) lastReadAt = now;
    // a log whose size cannot be read for a while counts as too large
    overflow = wal
      ? wal.mxFrame >= frames * OVERFLOW_FACTOR && wal.nBackfill < wal.mxFrame
      : now - lastReadAt > STALE_MS;
    return overflow;
  };
  const wanted = () => {
    if (Atomics.load(shared, SLOT.state) !== 1) return frames;
    const beat = Atomics.load(shared, SLOT.beats);
    const now = performance.now();
    if (beat !== lastBeat) {
      lastBeat = beat;
      lastBeatAt = now;
    }
    return now - lastBeatAt > STALE_MS || overflowing(now) ? frames : 0;
  };
  const beforeUse = async (client: Client) => {
    const want = wanted();
    if (want === autocheckpoint) return;
    await client.execute(`PRAGMA wal_autocheckpoint = ${want}`);
    autocheckpoint = want;
  };

  try {
    worker = new Worker((opts.workerUrl ?? new URL("./checkpoint_worker.ts", import.meta.url)).href, {
      type: "module",
    });
  } catch (e) {
    fallBack(e instanceof Error ? e.message : String(e), true);
    return { mode: "inline", ready, checkpoints: 0, beforeUse, stop: () => Promise.resolve() };
  }
  worker.onmessage = (e: MessageEvent<CheckpointWorkerMessage>) => {
    const m = e.data;
    if (m.type === "ready") {
      if (!stopping && !failed) settle("worker");
    } else if (m.type === "error") {
      fallBack(m.message, false);
    } else if (m.type === "stopped") {
      end();
    }
  };
  worker.onerror = (e) => {
    e.preventDefault(); // the app goes on; its own connection checkpoints again
    fallBack(e.message || "the worker died", true);
  };
  worker.onmessageerror = () => fallBack("unreadable message from the worker", false);
  const start: CheckpointWorkerStart = {
    type: "start",
    url,
    intervalMs: opts.intervalMs ?? CHECKPOINT_INTERVAL_MS,
    frames,
    shared,
  };
  worker.postMessage(start);

  return {
    get mode(): CheckpointMode {
      return Atomics.load(shared, SLOT.state) === 1 ? "worker" : "inline";
    },
    ready,
    get checkpoints() {
      return Atomics.load(shared, SLOT.checkpoints);
    },
    beforeUse,
    async stop() {
      if (!stopping) {
        stopping = true;
        settle("inline");
        if (!failed) worker?.postMessage({ type: "stop" });
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([ended, new Promise<void>((r) => (timer = setTimeout(r, STOP_TIMEOUT_MS)))]);
      clearTimeout(timer);
      end();
      index?.close();
      index = null;
    },
  };
}

/** The file a `file:` URL names (as the client reads it: `file:rel`, `file:/abs`, `file:///abs`). */
export function filePathOf(url: string): string {
  const path = url.slice("file:".length).split("?")[0].replace(/^\/\/(?=\/)/, "");
  return decodeURIComponent(path);
}

const WAL_INDEX_VERSION = 3007000;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The log's size in frames (`mxFrame`: since it last restarted from its beginning) and how many of
 * them are in the database already (`nBackfill`), from the WAL index header
 * (https://www.sqlite.org/walformat.html: two copies of a 48-byte header, `mxFrame` at offset 16,
 * then the checkpoint info with `nBackfill` at offset 96; native byte order). Null when the two
 * header copies differ (a writer was updating it: look again later) or the index is not one.
 */
function parseWalIndex(buf: Uint8Array): { mxFrame: number; nBackfill: number } | null {
  if (buf.length < 136) return null;
  for (let i = 0; i < 48; i++) if (buf[i] !== buf[48 + i]) return null;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (view.getUint32(0, LITTLE_ENDIAN) !== WAL_INDEX_VERSION || buf[12] === 0) return null;
  return { mxFrame: view.getUint32(16, LITTLE_ENDIAN), nBackfill: view.getUint32(96, LITTLE_ENDIAN) };
}

/** The WAL index header of an open `-shm` file (read from its start), or null. */
export function readWalIndex(file: Deno.FsFile): { mxFrame: number; nBackfill: number } | null {
  const buf = new Uint8Array(136);
  file.seekSync(0, Deno.SeekMode.Start);
  let got = 0;
  while (got < buf.length) {
    const n = file.readSync(buf.subarray(got));
    if (n === null || n === 0) return null;
    got += n;
  }
  return parseWalIndex(buf);
}

/** The WAL index header of the `-shm` file at `shmPath`, or null (none yet, or unreadable). */
export async function walState(shmPath: string): Promise<{ mxFrame: number; nBackfill: number } | null> {
  const buf = new Uint8Array(136);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(shmPath, { read: true });
  } catch {
    return null;
  }
  try {
    let got = 0;
    while (got < buf.length) {
      const n = await file.read(buf.subarray(got));
      if (n === null || n === 0) return null;
      got += n;
    }
  } finally {
    file.close();
  }
  return parseWalIndex(buf);
}
