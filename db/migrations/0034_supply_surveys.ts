// Frozen: never edit a migration that has shipped; add a new one.
// The supply API's survey list (issue 23, item 2: GET /supply/v1/surveys).
// projects.countersAt: when the router's writer last moved the project's counters, set in the very
// counter UPDATE it already runs per project and batch (no statement of its own): `?updated_since=`
// finds the surveys whose remaining completes, conversion or measured IR moved.
// projects.loiSeconds / loiCompletes: the seconds of the completes whose length is known, and how
// many they are, bumped in the same UPDATE: the measured LOI without a scan of sessions (the
// completes already there are summed here, once).
// Indexes: the live survey (child) projects in id order (the list's pages), the survey projects
// changed since a time (the surveys a poll says closed), and the newest change of a project's
// quotas and questions (updated_since).
import type { Kysely } from "kysely";
import { sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("projects").addColumn("countersAt", "text").execute();
  await db.schema.alterTable("projects").addColumn("loiSeconds", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("projects").addColumn("loiCompletes", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // the completes so far, once: from here on the writer keeps the sums
  await sql`UPDATE projects SET
    loiSeconds = (SELECT coalesce(sum(s.seconds), 0) FROM sessions s
      WHERE s.projectId = projects.id AND s.status = 'complete' AND s.isTest = 0),
    loiCompletes = (SELECT count(s.seconds) FROM sessions s
      WHERE s.projectId = projects.id AND s.status = 'complete' AND s.isTest = 0)
    WHERE projects.complete > 0`.execute(db);
  await sql`CREATE INDEX projects_live_children ON projects(projectStatus, projectType, isDeleted, id)`
    .execute(db);
  await sql`CREATE INDEX projects_changed ON projects(projectType, updatedAt)`.execute(db);
  await sql`CREATE INDEX project_quotas_changed ON project_quotas(projectId, updatedAt)`.execute(db);
  await sql`CREATE INDEX questions_changed ON questions(projectId, updatedAt)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX IF EXISTS questions_changed`.execute(db);
  await sql`DROP INDEX IF EXISTS project_quotas_changed`.execute(db);
  await sql`DROP INDEX IF EXISTS projects_changed`.execute(db);
  await sql`DROP INDEX IF EXISTS projects_live_children`.execute(db);
  await db.schema.alterTable("projects").dropColumn("loiCompletes").execute();
  await db.schema.alterTable("projects").dropColumn("loiSeconds").execute();
  await db.schema.alterTable("projects").dropColumn("countersAt").execute();
}
