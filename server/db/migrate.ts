import { type MigrationResultSet, Migrator } from "kysely/migration";
import { migrations } from "../../db/migrations/index.ts";
import type { Db } from "./connection.ts";

/** Runs every pending migration from the static index; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    // no failing migration: the database could not even be read (unreachable, locked, not a database)
    throw new Error(
      failed ? `Migration ${failed} failed: ${reason}` : `Cannot migrate the database: ${reason}`,
    );
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
