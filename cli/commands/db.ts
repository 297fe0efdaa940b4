/**
 * `db migrate`, `db seed --demo`: the same migrator and seed the server runs at start-up;
 * `db reindex`: rebuilds the search indexes and the planner's statistics;
 * `db backup --out FILE`: a consistent snapshot of the live database (the server keeps serving);
 * `db restore FILE [--force]`: puts a backup in place of DATABASE_URL's file (the one replaced is kept
 * beside it), checked after.
 */
import type { Command } from "commander";
import { openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { migrations } from "../../db/migrations/index.ts";
import { rebuildSearchIndexes, refreshPlannerStats } from "../../server/db/maintenance.ts";
import { DEMO_PASSWORD, demoEmail, seedDemo } from "../../server/seed/seed.ts";
import { cliEnv, CliError, say, withDeps } from "../context.ts";
import {
  backupDatabase,
  BackupError,
  fileDatabasePath,
  restoreDatabase,
} from "../../server/domain/ops/backup.ts";

export function registerDbCommands(program: Command) {
  const db = program.command("db").description("database: migrations and demo data");

  db.command("migrate")
    .description("apply every pending migration to DATABASE_URL")
    .action(async () => {
      const env = cliEnv();
      const handle = await openDatabase(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN);
      try {
        const applied = await migrateToLatest(handle.db);
        if (applied.length) await refreshPlannerStats(handle.db);
        const total = Object.keys(migrations).length;
        say(
          applied.length
            ? `Applied ${applied.length} migration${applied.length === 1 ? "" : "s"}: ${applied.join(", ")}`
            : `Database is up to date (${total} migration${total === 1 ? "" : "s"})`,
        );
      } finally {
        await handle.close();
      }
    });

  db.command("seed")
    .description("seed demo data (one login per role) into a database that has no users yet")
    .option("--demo", "the demo data set (the only one so far)")
    .action(async (opts: { demo?: boolean }) => {
      if (!opts.demo) throw new CliError("Say which data to seed: --demo");
      await withDeps(async (deps) => {
        const existing = await deps.db.selectFrom("users").select(({ fn }) => fn.countAll<number>().as("n"))
          .where("isDeleted", "=", 0).executeTakeFirstOrThrow();
        if (Number(existing.n) > 0) {
          throw new CliError(
            `The database already has ${existing.n} user${
              Number(existing.n) === 1 ? "" : "s"
            }: demo data is only seeded into an empty database`,
          );
        }
        const counts = await seedDemo(deps);
        await refreshPlannerStats(deps.db);
        const what = Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(", ");
        say(`Seeded demo data (${what}); sign in as ${demoEmail("SUPERADMIN")} with ${DEMO_PASSWORD}`);
      });
    });

  db.command("reindex")
    .description("rebuild the full-text search indexes from their tables and refresh planner statistics")
    .action(() =>
      withDeps(async ({ db }) => {
        const rebuilt = await rebuildSearchIndexes(db);
        await refreshPlannerStats(db);
        const what = Object.entries(rebuilt).map(([name, n]) => `${name} (${n} row${n === 1 ? "" : "s"})`)
          .join(", ");
        say(what ? `Rebuilt ${what}; statistics refreshed` : "No search indexes; statistics refreshed");
      })
    );

  db.command("backup")
    .description("write a consistent snapshot of DATABASE_URL to a new file while the server keeps serving")
    .requiredOption("--out <file>", "the backup file to write (must not exist)")
    .action(async (opts: { out: string }) => {
      const env = cliEnv();
      // a server database is backed up where it runs: say how before connecting to it
      await guard(() => Promise.resolve(fileDatabasePath(env.DATABASE_URL, "backed up to a file")));
      const handle = await openDatabase(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN);
      try {
        const r = await guard(() => backupDatabase(handle.db, env.DATABASE_URL, opts.out));
        say(`Backed up the database to ${r.file} (${sizeOf(r.bytes)}, ${r.ms} ms)`);
      } finally {
        await handle.close();
      }
    });

  db.command("restore")
    .description(
      "replace DATABASE_URL's file with a backup, then check it (integrity, migrations); the database " +
        "replaced is kept as a timestamped copy beside it; refuses a database a running server is " +
        "using, or one with more recent data than the backup, unless --force",
    )
    .argument("<file>", "the backup file")
    .option(
      "--force",
      "restore even when a server's heartbeat says the database is in use or it holds more recent data",
    )
    .action(async (file: string, opts: { force?: boolean }) => {
      const env = cliEnv();
      const r = await guard(() => restoreDatabase(file, env.DATABASE_URL, { force: opts.force }));
      const migrated = r.migrated.length ? `, ${r.migrated.length} migration(s) applied` : "";
      const kept = r.kept ? `; the database it replaced is kept as ${r.kept}` : "";
      say(
        `Restored ${file} into ${r.file} (${
          sizeOf(r.bytes)
        }): integrity ok, migrations at ${r.latest}${migrated}${kept}`,
      );
    });
}

/** A backup's own refusals become the command's one-line error. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof BackupError) throw new CliError(e.message);
    throw e;
  }
}

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
