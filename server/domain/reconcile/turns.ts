/**
 * The order of reconcile jobs: the uploads and undos of one project group go one after another, and
 * this process knows which uploads it is applying (any other left `applying` was a crash).
 */
import type { Db } from "../../db/connection.ts";

/** Uploads being applied by this process: a row `applying` that is not here was left by a crash. */
export const active = new Set<string>();
/** One queue per database and project group: two uploads (or an undo) on one project go in turn. */
const queues = new WeakMap<Db, Map<string, Promise<unknown>>>();

async function lockKey(db: Db, projectId: string): Promise<string> {
  const p = await db.selectFrom("projects").select(["id", "parentProjectId"]).where("id", "=", projectId)
    .executeTakeFirst();
  return p?.parentProjectId ?? projectId;
}

/** Runs `fn` after every earlier upload or undo of the same project group has finished. */
export async function inTurn<T>(db: Db, projectId: string, fn: () => Promise<T>): Promise<T> {
  const key = await lockKey(db, projectId);
  let m = queues.get(db);
  if (!m) queues.set(db, m = new Map());
  const before = m.get(key) ?? Promise.resolve();
  const run = before.catch(() => {}).then(fn);
  const tail = run.catch(() => {});
  m.set(key, tail);
  try {
    return await run;
  } finally {
    if (m.get(key) === tail) m.delete(key);
  }
}
