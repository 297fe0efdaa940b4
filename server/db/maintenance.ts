/**
 * Upkeep the query planner and the search indexes need: table statistics (so a list's search
 * through a trigram index is chosen over a scan of a low-selectivity index) and a rebuild of the
 * full-text indexes from their tables.
 */
import { sql } from "kysely";
import type { Db } from "./connection.ts";

/**
 * Rows read per index by ANALYZE: bounds a refresh to tens of milliseconds per index however large
 * the table, yet reads enough to tell a two-valued column (isDeleted) from a selective one; a small
 * sample would make every `isDeleted = 0` look selective and sorts would skip their indexes.
 */
const ANALYSIS_LIMIT = 100_000;
/** How often a running server refreshes the statistics. */
export const STATS_INTERVAL_MS = 6 * 60 * 60 * 1000;

/**
 * Refreshes the planner's statistics (sqlite_stat1) from a bounded read of every index. Answers
 * false where the database refuses ANALYZE (a libSQL server does): its planner then works from
 * defaults, which still find every index the lists use, if not always the best one for a sort.
 */
export async function refreshPlannerStats(db: Db): Promise<boolean> {
  try {
    await sql.raw(`PRAGMA analysis_limit = ${ANALYSIS_LIMIT}`).execute(db);
    await sql`ANALYZE`.execute(db);
    return true;
  } catch (e) {
    if (/unsupported statement/i.test(e instanceof Error ? e.message : String(e))) return false;
    throw e;
  }
}

/** The FTS5 tables of the schema. */
export async function searchIndexes(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select name from sqlite_master
    where type = 'table' and sql like 'CREATE VIRTUAL TABLE%USING fts5%' order by name`.execute(db);
  return rows.map((r) => r.name);
}

/** Rebuilds every full-text index from its table; answers index -> rows indexed. */
export async function rebuildSearchIndexes(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of await searchIndexes(db)) {
    const table = sql.table(name);
    await sql`insert into ${table}(${table}) values ('rebuild')`.execute(db);
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(`${name}_docsize`)}`
      .execute(db);
    out[name] = Number(rows[0]?.n ?? 0);
  }
  return out;
}
