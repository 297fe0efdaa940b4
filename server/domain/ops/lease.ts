/**
 * Single-run tasks across instances. Several servers may share a database (scale-out over a libSQL
 * server, or by mistake two on one file): each runs the same timers, and a task that must run once
 * per period (the drop sweep, scheduled backups, the scheduled-jobs tick, planner statistics, the
 * offer refresh) first takes its lease in `task_leases` with one conditional upsert: it is taken when
 * free, expired, or already this instance's (a renewal). Only the holder runs the task; a holder
 * that crashed stops renewing, and another instance takes the task over once the lease runs out.
 * A holder renews on each of its runs, so its ttl is longer than its interval.
 */
import { sql } from "kysely";
import { wallClock } from "../common/clock.ts";
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";

function hostName(): string {
  try {
    return Deno.hostname();
  } catch {
    return "unknown";
  }
}

/** This process's name as a lease holder: host, process id, and a part unique to this start. */
export function instanceId(): string {
  return `${hostName()}:${Deno.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/** Whether process `pid` of this host runs (Linux /proc); null when that cannot be told. */
export function processAlive(pid: number): boolean | null {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch (e) {
    return e instanceof Deno.errors.NotFound && pidsVisible() ? false : null;
  }
}

const pidsVisible = () => {
  try {
    return Deno.statSync(`/proc/${Deno.pid}`).isDirectory;
  } catch {
    return false;
  }
};

/** Whether `host`/`pid` names an earlier process of this host that is gone (a crash, a kill -9). */
export function deadLocalProcess(host: string, pid: number, alive = processAlive): boolean {
  return host === hostName() && pid !== Deno.pid && alive(pid) === false;
}

/**
 * Frees the leases of earlier processes of this host that are gone, so a server restarted after a
 * crash runs its tasks at once rather than when the dead process's leases run out. Answers the
 * tasks freed.
 */
export async function releaseDeadHolders(db: Db, alive = processAlive): Promise<string[]> {
  const rows = await db.selectFrom("task_leases").select(["name", "holder"]).execute();
  const freed: string[] = [];
  for (const r of rows) {
    const parts = r.holder.split(":");
    const pid = Number(parts.at(-2));
    if (!Number.isInteger(pid) || !deadLocalProcess(parts.slice(0, -2).join(":"), pid, alive)) continue;
    await db.deleteFrom("task_leases").where("name", "=", r.name).where("holder", "=", r.holder).execute();
    freed.push(r.name);
  }
  return freed;
}

/** Takes or renews the lease `name` for `ttlMs`; true when `holder` has it now. */
export async function takeLease(
  db: Db,
  name: string,
  holder: string,
  ttlMs: number,
  now = wallClock(),
): Promise<boolean> {
  const at = new Date(now).toISOString();
  const expiresAt = new Date(now + ttlMs).toISOString();
  const r = await db.insertInto("task_leases").values({ name, holder, expiresAt, takenAt: at })
    .onConflict((oc) =>
      oc.column("name").doUpdateSet({
        holder,
        expiresAt,
        // a renewal keeps the time the holder first took it
        takenAt: sql`case when task_leases.holder = ${holder} then task_leases.takenAt else ${at} end`,
      }).where((eb) => eb.or([eb("task_leases.holder", "=", holder), eb("task_leases.expiresAt", "<=", at)]))
    ).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Gives up the leases `holder` holds (a clean stop: another instance may take them at once). */
export async function releaseLeases(db: Db, holder: string): Promise<void> {
  await db.deleteFrom("task_leases").where("holder", "=", holder).execute();
}

export type LeaseRow = { name: string; holder: string; expiresAt: string; takenAt: string };

export async function leases(db: Db): Promise<LeaseRow[]> {
  return await db.selectFrom("task_leases").selectAll().orderBy("name").execute();
}

/**
 * A check that answers whether `holder` holds (took or renewed) the lease `name` for `ttlMs` now. A
 * lease lost to another instance, or won back, is logged once at info; a failure to ask (the
 * database busy) answers false for this run.
 */
export function leaseGate(
  deps: { db: Db; log: Logger },
  holder: string,
  name: string,
  ttlMs: number,
): () => Promise<boolean> {
  let held: boolean | undefined;
  return async () => {
    let mine: boolean;
    try {
      mine = await takeLease(deps.db, name, holder, ttlMs);
    } catch (e) {
      deps.log.warn("task lease not taken", {
        task: name,
        error: e instanceof Error ? e.message : String(e),
      });
      return false;
    }
    if (mine !== held) {
      if (mine && held === false) deps.log.info("task taken over from another instance", { task: name });
      if (!mine) deps.log.info("task runs on another instance", { task: name });
      held = mine;
    }
    return mine;
  };
}

/** `task` run only when `gate` lets it (undefined otherwise). */
export function gated<T>(gate: () => Promise<boolean>, task: () => Promise<T>): () => Promise<T | undefined> {
  return async () => (await gate()) ? await task() : undefined;
}
