// Frozen: never edit a migration that has shipped; add a new one.
// In-progress holds weighted by time in the survey (issue 24, item 2; writer/holds.ts).
// projects.otherSeconds / otherTimed: the seconds in the client survey of the sessions that came
// back from it as anything but a complete (terminate, over quota, quality), and how many they are,
// bumped in the writer's counter UPDATE like loiSeconds / loiCompletes (migration 0034). A terminate
// comes back sooner than a complete, so the sessions still in the survey complete more often than
// those back: the holds count them at the completes' share of the time spent in the survey.
import type { Kysely } from "kysely";
import { sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("projects").addColumn("otherSeconds", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("projects").addColumn("otherTimed", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // the sessions back so far, in one pass over them: from here on the writer keeps the sums
  await sql`UPDATE projects SET otherSeconds = t.secs, otherTimed = t.n
    FROM (SELECT projectId, coalesce(sum(seconds), 0) AS secs, count(seconds) AS n FROM sessions
      WHERE isTest = 0 AND seconds IS NOT NULL AND status IN ('terminate', 'overQuota', 'qualityTerm',
        'drop', 'security', 'duplicate', 'preScreenTerminate', 'preScreenDrop')
      GROUP BY projectId) AS t
    WHERE t.projectId = projects.id`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("otherTimed").execute();
  await db.schema.alterTable("projects").dropColumn("otherSeconds").execute();
}
