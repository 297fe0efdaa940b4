/**
 * The order of reconcile jobs: the uploads and undos of one project group go one after another, and
 * this app knows which uploads it is applying (any other left `applying` was a crash). One queue
 * per app, built at boot into deps.services.reconcile (server/boot.ts).
 */
import type { Db } from "../../db/connection.ts";

async function lockKey(db: Db, projectId: string): Promise<string> {
  const p = await db.selectFrom("projects").select(["id", "parentProjectId"]).where("id", "=", projectId)
    .executeTakeFirst();
  return p?.parentProjectId ?? projectId;
}

export class ReconcileQueue {
  /** Uploads being applied by this app: a row `applying` that is not here was left by a crash. */
  readonly active = new Set<string>();
  /** One queue per project group: two uploads (or an undo) on one project go in turn. */
  readonly #queues = new Map<string, Promise<unknown>>();
  #chunkTable: Promise<boolean> | null = null;

  /** Runs `fn` after every earlier upload or undo of the same project group has finished. */
  async inTurn<T>(db: Db, projectId: string, fn: () => Promise<T>): Promise<T> {
    const key = await lockKey(db, projectId);
    const m = this.#queues;
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

  /** Whether the database took the temporary chunk table: `probe` runs once per app. */
  chunkTable(probe: () => Promise<boolean>): Promise<boolean> {
    return this.#chunkTable ??= probe();
  }
}
