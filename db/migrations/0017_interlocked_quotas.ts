// Frozen: never edit a migration that has shipped; add a new one.
// Interlocked quotas and re-mappable imports (issue 13 follow-up):
// - project_quotas.qualificationIds: an interlocked quota's qualifications, in order (JSON list of
//   two or more ids; "[]" for the usual one-qualification quota, whose qualificationId says it).
//   Its cells are combinations of options, one group per qualification:
//   { quotaOptionId: "<cell id>", quotaSize, completes, options: [[ids of qualification 1], ...] }
//   and a respondent falls in a cell when an answer matches an option of every group. The router's
//   writer counts and limits cells by quotaOptionId alone, so it needs no change.
//   The unique "one live quota per qualification" index now takes the qualification set into account:
//   a project may have Gender and Gender x Age.
// - offer_imports.offerData: the provider's questions and quotas as imported (JSON), so a mapping
//   correction can rebuild the project's quotas and pre-screen questions with the new links.
// - provider_questions.questionName: the provider's name of the question, shown on the mappings
//   screen (its answers' texts go in the answers JSON beside each link).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("project_quotas")
    .addColumn("qualificationIds", "text", (c) => c.notNull().defaultTo("[]")).execute();
  await sql`DROP INDEX IF EXISTS project_quotas_live`.execute(db);
  await sql`CREATE UNIQUE INDEX project_quotas_live ON project_quotas(projectId, qualificationId, qualificationIds) WHERE isDeleted = 0`
    .execute(db);
  await db.schema.alterTable("offer_imports")
    .addColumn("offerData", "text", (c) => c.notNull().defaultTo("{}")).execute();
  await db.schema.alterTable("provider_questions")
    .addColumn("questionName", "text", (c) => c.notNull().defaultTo("")).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX IF EXISTS project_quotas_live`.execute(db);
  await sql`CREATE UNIQUE INDEX project_quotas_live ON project_quotas(projectId, qualificationId) WHERE isDeleted = 0`
    .execute(db);
  await db.schema.alterTable("project_quotas").dropColumn("qualificationIds").execute();
  await db.schema.alterTable("offer_imports").dropColumn("offerData").execute();
  await db.schema.alterTable("provider_questions").dropColumn("questionName").execute();
}
