/** An in-memory database and a way to move it to any migration, up or down (migration tests). */
import { Migrator } from "kysely/migration";
import { openDatabase } from "../../server/db/connection.ts";
import { migrations } from "../../db/migrations/index.ts";

export async function migratingDb() {
  const handle = await openDatabase(":memory:");
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const to = async (name: string) => {
    const { error } = await migrator.migrateTo(name);
    if (error) throw error;
  };
  return { handle, db: handle.db, to };
}
