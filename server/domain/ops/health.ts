/** What /healthz says beyond "the process answers": the database answers, its migrations are current. */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { migrations } from "../../../db/migrations/index.ts";

export type MigrationState = { current: boolean; applied: number; latest: string; pending: string[] };

/** The migrations the code knows that the database has not applied (kysely's own table). */
export async function migrationState(db: Db): Promise<MigrationState> {
  const known = Object.keys(migrations).sort();
  let done: string[] = [];
  try {
    const r = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    done = r.rows.map((x) => x.name);
  } catch {
    // no migration table: nothing applied yet
  }
  const have = new Set(done);
  const pending = known.filter((n) => !have.has(n));
  return { current: pending.length === 0, applied: done.length, latest: known.at(-1) ?? "", pending };
}

export type DatabaseHealth =
  | { answers: true; ms: number; migrations: MigrationState }
  | { answers: false; error: string };

export async function databaseHealth(db: Db): Promise<DatabaseHealth> {
  const started = performance.now();
  try {
    await sql`select 1`.execute(db);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    return { answers: true, ms, migrations: await migrationState(db) };
  } catch (e) {
    return { answers: false, error: e instanceof Error ? e.message.split("\n")[0] : String(e) };
  }
}
