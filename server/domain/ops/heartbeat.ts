/**
 * "This database is in use": a running server writes a heartbeat row in `settings` (key
 * `server.heartbeat`: its host, process id and time) when it starts and every HEARTBEAT_MS after,
 * and deletes it when it stops cleanly. `db restore` refuses to overwrite a database whose heartbeat
 * is younger than STALE_MS unless told `--force`. A crashed server leaves a heartbeat that goes
 * stale after STALE_MS, so a restore after a crash waits at most that long (or uses --force).
 * SQLite's own locks cannot tell: in WAL mode a serving process holds no lock between statements.
 */
import { wallClock } from "../common/clock.ts";
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";

export const HEARTBEAT_KEY = "server.heartbeat";
export const HEARTBEAT_MS = 30_000;
/** A heartbeat older than this belongs to a server that is gone. */
export const STALE_MS = 3 * HEARTBEAT_MS;

export type Heartbeat = { host: string; pid: number; at: string };

/** Heartbeats compare across processes, so their default is the real clock. */
export async function beat(db: Db, now = wallClock()): Promise<void> {
  const value = JSON.stringify({ host: hostname(), pid: Deno.pid, at: new Date(now).toISOString() });
  await db.insertInto("settings").values({ key: HEARTBEAT_KEY, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value })).execute();
}

/** Removes the heartbeat; `ownOnly`: only when it is this process's (another server may beat on). */
export async function clearHeartbeat(db: Db, ownOnly = false): Promise<void> {
  let q = db.deleteFrom("settings").where("key", "=", HEARTBEAT_KEY);
  if (ownOnly) {
    q = q.where(sql<number>`json_extract(value, '$.pid')`, "=", Deno.pid)
      .where(sql<string>`json_extract(value, '$.host')`, "=", hostname());
  }
  await q.execute();
}

/**
 * Another server's heartbeat younger than STALE_MS (a second server on this database, or one that
 * stopped without a clean shutdown less than STALE_MS ago, unless `deadLocal` says that process of
 * this host is gone); null when there is none.
 */
export async function otherServer(
  db: Db,
  now = wallClock(),
  deadLocal: (host: string, pid: number) => boolean = () => false,
): Promise<(Heartbeat & { ageMs: number }) | null> {
  const live = await liveServer(db, now);
  if (!live || (live.pid === Deno.pid && live.host === hostname())) return null;
  // this host's earlier process that crashed moments ago is nobody now
  return deadLocal(live.host, live.pid) ? null : live;
}

export async function readHeartbeat(db: Db): Promise<Heartbeat | null> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", HEARTBEAT_KEY)
    .executeTakeFirst();
  if (!row) return null;
  try {
    const h = JSON.parse(row.value) as Heartbeat;
    return typeof h?.at === "string" ? h : null;
  } catch {
    return null;
  }
}

/** The live server's heartbeat, or null when none beat within STALE_MS of `now`. */
export async function liveServer(db: Db, now = wallClock()): Promise<(Heartbeat & { ageMs: number }) | null> {
  const h = await readHeartbeat(db);
  if (!h) return null;
  const ageMs = now - Date.parse(h.at);
  return Number.isFinite(ageMs) && ageMs < STALE_MS ? { ...h, ageMs } : null;
}

function hostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return "unknown";
  }
}
