// Frozen: never edit a migration that has shipped; add a new one.
// Respondent profiles (issue 24 item 1): a supplier's member's answers to library questions, kept
// per (supplierId, memberId = the sid the supplier sent, library question id), so a known answer is
// not asked again. No personal data: ids and answer ids (or a short text answer) only. The primary
// key serves the router's one read per entry (every answer of one member of one supplier).
// questions.libraryQuestionId: the library question a project's pre-screen question was copied
// from (null: written for the project only), so a project's question finds the member's answer.
import type { Kysely } from "kysely";
import { sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE TABLE member_profiles (
    supplierId TEXT NOT NULL,
    memberId TEXT NOT NULL,
    questionId TEXT NOT NULL,
    answer TEXT NOT NULL,
    answeredAt TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('prescreen', 'link')),
    PRIMARY KEY (supplierId, memberId, questionId)
  ) WITHOUT ROWID`.execute(db);
  await db.schema.alterTable("questions").addColumn("libraryQuestionId", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("questions").dropColumn("libraryQuestionId").execute();
  await db.schema.dropTable("member_profiles").execute();
}
