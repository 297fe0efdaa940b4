// Frozen: never edit a migration that has shipped; add a new one.
// External imports (issue 13):
// - offer_imports: each provider offer imported as a project (a group and its child), with what the
//   provider said at import and at the last refresh. One row per provider survey: the unique index
//   refuses a second import of the same offer even when two race past the domain's check.
// - provider_questions: a provider's question linked to the library qualification made (or chosen)
//   for it, with its answers linked to the qualification's options, so imported quotas match
//   respondents' answers the way hand-made quotas do; staff correct a link by editing the
//   qualification in the library.
import type { Kysely } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("offer_imports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("surveyId", "text", (c) => c.notNull())
    .addColumn("groupProjectId", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("projectId", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("countryCode", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("cpi", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("remaining", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("loi", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("ir", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("endDate", "text")
    // open | closed (quota full at the provider) | vanished (no longer offered)
    .addColumn("offerState", "text", (c) => c.notNull().defaultTo("open"))
    .addColumn("sandbox", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rawIds", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("quotaMap", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("createdBy", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addColumn("lastCheckedAt", "text")
    .execute();
  await db.schema.createIndex("offer_imports_offer").on("offer_imports").columns(["provider", "surveyId"])
    .unique().execute();
  await db.schema.createIndex("offer_imports_created").on("offer_imports").column("createdAt").execute();

  await db.schema.createTable("provider_questions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("questionId", "text", (c) => c.notNull())
    .addColumn("qualificationId", "text", (c) => c.notNull().references("qualifications.id"))
    // JSON [{ answerId, optionId }]
    .addColumn("answers", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("provider_questions_question").on("provider_questions")
    .columns(["provider", "questionId"]).unique().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("provider_questions").execute();
  await db.schema.dropTable("offer_imports").execute();
}
