/**
 * Backups of a file database and their restore.
 *
 * - `backupDatabase`: SQLite's `VACUUM INTO` through the same connection kind the server uses. It
 *   reads one consistent snapshot (a read transaction: in WAL mode the server keeps writing while
 *   it runs) and writes a compact copy; the copy is written beside the target and renamed into
 *   place, so a half-written file never carries the target's name. The running server's heartbeat
 *   is removed from the copy, so a restored copy is not taken for a database in use.
 * - `restoreDatabase`: checks the backup (integrity), refuses to overwrite a database a server is
 *   using (its heartbeat, heartbeat.ts) unless forced, copies it in place, migrates it to the
 *   latest and checks it again.
 * - `startScheduledBackups`: BACKUP_DIR / BACKUP_EVERY_HOURS / BACKUP_KEEP, with rotation.
 *
 * A libSQL server (libsql://, http(s)://) is backed up on the server's side: `BackupUnsupported`
 * says how.
 */
import { type Clock, wallClock } from "../common/clock.ts";
import { Kysely, sql } from "kysely";
import { createClient } from "@libsql/client";
import { type Db, openDatabase } from "../../db/connection.ts";
import { LibsqlDialect } from "../../db/dialect.ts";
import type { Database } from "../../db/types.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import type { Logger } from "../../logger.ts";
import { clearHeartbeat, liveServer } from "./heartbeat.ts";
import { migrationState } from "./health.ts";
import { metrics } from "./metrics.ts";
import type { BackupsOverview } from "../../../shared/api/ops.ts";

/** A backup or restore that cannot be done; its message is what the operator reads. */
export class BackupError extends Error {}

export const REMOTE_BACKUP_HELP =
  "DATABASE_URL is a libSQL server: back it up where it runs (sqld: stop it and copy its data " +
  "directory, or run `sqlite3 <data>/dbs/default/data .backup FILE` beside it; a managed libSQL " +
  "service: its point-in-time restore, or a dump with its shell's `.dump`), then restore the file " +
  "with `db restore FILE` into a file DATABASE_URL or load the dump into a new server database";

/** The file path of a `file:` URL; null for :memory: and servers. */
export function filePathOf(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  return url.slice("file:".length).replace(/^\/\/(?=\/)/, "").split("?")[0];
}

/** The file of a file database; a BackupError saying what to do for :memory: and servers. */
export function fileDatabasePath(url: string, what: string): string {
  if (url === ":memory:") throw new BackupError(`An in-memory database cannot be ${what}`);
  const path = filePathOf(url);
  if (!path) throw new BackupError(REMOTE_BACKUP_HELP);
  return path;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

async function removeIfThere(path: string) {
  try {
    await Deno.remove(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

const dirOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : ".");

export type BackupResult = { file: string; bytes: number; ms: number };

/** A consistent snapshot of the live database `db` (at `url`) written to `out` (which must not exist). */
export async function backupDatabase(db: Db, url: string, out: string): Promise<BackupResult> {
  fileDatabasePath(url, "backed up to a file");
  if (await exists(out)) throw new BackupError(`${out} already exists: choose another file or remove it`);
  await Deno.mkdir(dirOf(out), { recursive: true });
  const started = performance.now();
  const partial = `${out}.partial-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await sql`VACUUM INTO ${partial}`.execute(db);
    // the copy is nobody's live database: no heartbeat
    const copy = await openFile(partial);
    try {
      await clearHeartbeat(copy.db);
    } finally {
      await copy.close();
    }
    await Deno.rename(partial, out);
  } catch (e) {
    await removeIfThere(partial);
    throw e;
  }
  const bytes = (await Deno.stat(out)).size;
  return { file: out, bytes, ms: Math.round(performance.now() - started) };
}

async function integrityOf(db: Db): Promise<string> {
  const r = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
  return r.rows.map((x) => Object.values(x)[0]).join("; ");
}

export type RestoreResult = {
  file: string;
  /** The copy of the database the restore replaced (null when there was none). */
  kept: string | null;
  bytes: number;
  integrity: "ok";
  migrated: string[];
  latest: string;
};

/**
 * Restores the backup `from` into the file database at `url`. Refuses when `from` is not a sound
 * SQLite database, and when a server is using the target (a fresh heartbeat) unless `force`.
 */
export async function restoreDatabase(
  from: string,
  url: string,
  opts: { force?: boolean; now?: number } = {},
): Promise<RestoreResult> {
  const target = fileDatabasePath(url, "restored into");
  if (!(await exists(from))) throw new BackupError(`No backup at ${from}`);
  // the backup first: a broken one is refused before anything is overwritten
  {
    const src = await openFile(from);
    try {
      const integrity = await integrityOf(src.db).catch((e) => `${e instanceof Error ? e.message : e}`);
      if (integrity !== "ok") throw new BackupError(`${from} is not a sound Samplex backup: ${integrity}`);
    } finally {
      await src.close();
    }
  }
  let kept: string | null = null;
  if (await exists(target)) {
    const cur = await openDatabase(url);
    try {
      const live = await liveServer(cur.db, opts.now).catch(() => null);
      if (live && !opts.force) {
        throw new BackupError(
          `The database ${target} is in use by a running server (${live.host}, process ${live.pid}, ` +
            `heartbeat ${Math.round(live.ageMs / 1000)} s ago): stop it first, or pass --force`,
        );
      }
      const theirs = await latestActivity(cur.db);
      const ours = await latestActivityOf(from);
      if (theirs && (!ours || theirs > ours) && !opts.force) {
        throw new BackupError(
          `The database ${target} holds more recent data than ${from} (its last activity ${theirs}, ` +
            `the backup's ${ours ?? "none"}): restoring would lose it; pass --force to restore anyway`,
        );
      }
      // what is replaced is never lost: a consistent copy (write-ahead log included) beside it
      kept = await freePath(safetyCopyName(target, opts.now ?? wallClock()));
      await backupDatabase(cur.db, url, kept);
    } finally {
      await cur.close();
    }
  }
  await Deno.mkdir(dirOf(target), { recursive: true });
  const incoming = `${target}.restoring-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.copyFile(from, incoming);
    // the old database's write-ahead log must not be replayed onto the restored file
    await removeIfThere(`${target}-wal`);
    await removeIfThere(`${target}-shm`);
    await Deno.rename(incoming, target);
  } catch (e) {
    await removeIfThere(incoming);
    throw e;
  }
  const handle = await openDatabase(url);
  try {
    const migrated = await migrateToLatest(handle.db);
    await clearHeartbeat(handle.db);
    const integrity = await integrityOf(handle.db);
    if (integrity !== "ok") {
      throw new BackupError(`The restored database fails its integrity check: ${integrity}`);
    }
    const state = await migrationState(handle.db);
    if (!state.current) {
      throw new BackupError(`The restored database misses migrations: ${state.pending.join(", ")}`);
    }
    return {
      file: target,
      kept,
      bytes: (await Deno.stat(target)).size,
      integrity: "ok",
      migrated,
      latest: state.latest,
    };
  } finally {
    await handle.close();
  }
}

/**
 * The newest activity a database records: its latest system log row or respondent session change
 * (ISO times, comparable as text); null when it has none (or no such tables).
 */
async function latestActivity(db: Db): Promise<string | null> {
  const newest = async (q: () => Promise<{ at: string | null } | undefined>) =>
    (await q().catch(() => null))?.at ?? null;
  const log = await newest(() =>
    db.selectFrom("system_logs").select((eb) => eb.fn.max("createdAt").as("at")).executeTakeFirst()
  );
  const session = await newest(() =>
    db.selectFrom("sessions").select((eb) => eb.fn.max("updatedAt").as("at")).executeTakeFirst()
  );
  return [log, session].filter((x): x is string => !!x).sort().pop() ?? null;
}

async function latestActivityOf(path: string): Promise<string | null> {
  const f = await openFile(path);
  try {
    return await latestActivity(f.db);
  } finally {
    await f.close();
  }
}

/** `data/samplex.db` -> `data/samplex.before-restore-20260102-030405.db`. */
export function safetyCopyName(target: string, ms: number): string {
  const stamp = backupNameAt(ms).slice("samplex-".length, -".db".length);
  const dot = target.lastIndexOf(".");
  const base = dot > target.lastIndexOf("/") ? target.slice(0, dot) : target;
  return `${base}.before-restore-${stamp}.db`;
}

/** `path`, or `path` with -2, -3... before its extension when that is taken. */
async function freePath(path: string): Promise<string> {
  if (!(await exists(path))) return path;
  for (let i = 2;; i++) {
    const p = path.replace(/(\.db)?$/, `-${i}$1`);
    if (!(await exists(p))) return p;
  }
}

/** Opens a backup file as it is (no journal mode switch, no folder made); refuses a non-SQLite file. */
async function openFile(path: string) {
  const head = new Uint8Array(16);
  const f = await Deno.open(path, { read: true });
  try {
    await f.read(head);
  } finally {
    f.close();
  }
  if (new TextDecoder().decode(head) !== "SQLite format 3\0") {
    throw new BackupError(`${path} is not a SQLite database file`);
  }
  const client = createClient({ url: `file:${path}`, intMode: "number" });
  const db: Db = new Kysely<Database>({ dialect: new LibsqlDialect(client) });
  return { db, close: () => db.destroy() };
}

// ---------------------------------------------------------------- scheduled backups

const NAME_RE = /^samplex-(\d{8}-\d{6})\.db$/;

export type BackupFile = { name: string; bytes: number; createdAt: string };

/** The scheduled backups in `dir`, newest first. */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  const out: BackupFile[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      const m = NAME_RE.exec(e.name);
      if (!e.isFile || !m) continue;
      const st = await Deno.stat(`${dir}/${e.name}`);
      const s = m[1];
      const createdAt = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${
        s.slice(11, 13)
      }:${s.slice(13, 15)}Z`;
      out.push({ name: e.name, bytes: st.size, createdAt });
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out.sort((a, b) => b.name.localeCompare(a.name));
}

export function backupNameAt(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-01-02T03:04:05.678Z
  return `samplex-${iso.slice(0, 10).replace(/-/g, "")}-${iso.slice(11, 19).replace(/:/g, "")}.db`;
}

export type ScheduleOptions = { dir: string; everyHours: number; keep: number };

/** One scheduled run: a backup named by its time, then the oldest beyond `keep` removed. */
export async function runScheduledBackup(
  db: Db,
  url: string,
  opts: ScheduleOptions,
  log: Logger,
  now = wallClock(),
): Promise<BackupResult | null> {
  try {
    const res = await backupDatabase(db, url, `${opts.dir}/${backupNameAt(now)}`);
    metrics.backups.inc({ result: "ok" });
    log.info("backup written", { file: res.file, bytes: res.bytes, ms: res.ms });
    const all = await listBackups(opts.dir);
    for (const old of all.slice(opts.keep)) {
      await removeIfThere(`${opts.dir}/${old.name}`);
      log.info("backup removed", { file: `${opts.dir}/${old.name}`, keep: opts.keep });
    }
    return res;
  } catch (e) {
    metrics.backups.inc({ result: "failed" });
    log.error("backup failed", { error: e instanceof Error ? e.message : String(e) });
    return null;
  }
}

/**
 * Backs up every `everyHours`; the first run comes when the newest backup in the folder is that old
 * (at once when there is none), so restarts do not skip or double a backup. Returns the stop.
 */
export async function startScheduledBackups(
  db: Db,
  url: string,
  opts: ScheduleOptions,
  log: Logger,
  now: Clock = wallClock,
  /** Asked before each run: false skips it (another instance holds the backups' lease). */
  gate: () => Promise<boolean> = () => Promise.resolve(true),
): Promise<{ stop(): Promise<void> }> {
  const every = opts.everyHours * 3_600_000;
  if (!filePathOf(url)) {
    log.warn("scheduled backups off: not a file database", { hint: REMOTE_BACKUP_HELP });
    return { stop: () => Promise.resolve() };
  }
  const newest = (await listBackups(opts.dir))[0];
  const due = newest ? Date.parse(newest.createdAt) + every - now() : 0;
  let running: Promise<unknown> = Promise.resolve();
  let interval: ReturnType<typeof setInterval> | undefined;
  const run = () => {
    running = gate().then((go) => go ? runScheduledBackup(db, url, opts, log, now()) : null);
  };
  const first = setTimeout(() => {
    run();
    interval = setInterval(run, every);
  }, Math.max(0, Math.min(due, every)));
  log.info("scheduled backups on", { dir: opts.dir, everyHours: opts.everyHours, keep: opts.keep });
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(interval);
      await running;
    },
  };
}

/** What the Support page shows: the schedule and the backups in BACKUP_DIR with their sizes. */
export async function backupsOverview(env: {
  DATABASE_URL: string;
  BACKUP_DIR?: string;
  BACKUP_EVERY_HOURS?: number;
  BACKUP_KEEP: number;
}): Promise<BackupsOverview> {
  const dir = env.BACKUP_DIR ?? null;
  const everyHours = env.BACKUP_EVERY_HOURS ?? null;
  const note = !filePathOf(env.DATABASE_URL)
    ? "The database is a libSQL server: it is backed up where it runs, not by Samplex."
    : !dir
    ? "Scheduled backups are off: set BACKUP_DIR and BACKUP_EVERY_HOURS."
    : !everyHours
    ? "No schedule: set BACKUP_EVERY_HOURS. The backups already in BACKUP_DIR are listed."
    : "";
  return { dir, everyHours, keep: env.BACKUP_KEEP, note, backups: dir ? await listBackups(dir) : [] };
}
