// Frozen: never edit a migration that has shipped; add a new one.
// Lists at scale: trigram full-text indexes for the searched columns of the lists that grow large
// (users, system logs), kept in step by triggers; the users grid's default-order index widened with
// the columns its filters test (role, active) so deep pages skip rows without reading them, and an
// index for its sort by name (the e-mail sort has the unique e-mail index).
//
// The indexes hold their table's rowid (external content). A rebuild (`deno task cli db reindex`)
// re-reads every row, should they ever drift (a restore from a dump taken without them, say).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

/** table -> its searched columns (the `search` of its ListSpec, in the same order). */
const SEARCH_INDEXES: Record<string, { fts: string; columns: string[] }> = {
  users: { fts: "users_fts", columns: ["firstName", "lastName", "email", "phoneNumber"] },
  system_logs: { fts: "system_logs_fts", columns: ["name", "activity", "module", "ipAddress"] },
};

export async function up(db: AnyDb): Promise<void> {
  for (const [table, { fts, columns }] of Object.entries(SEARCH_INDEXES)) {
    const cols = columns.join(", ");
    const news = columns.map((c) => `new.${c}`).join(", ");
    const olds = columns.map((c) => `old.${c}`).join(", ");
    await sql.raw(
      `CREATE VIRTUAL TABLE ${fts} USING fts5(${cols}, content='${table}', content_rowid='rowid', tokenize='trigram')`,
    ).execute(db);
    await sql.raw(
      `CREATE TRIGGER ${fts}_ai AFTER INSERT ON ${table} BEGIN
         INSERT INTO ${fts}(rowid, ${cols}) VALUES (new.rowid, ${news});
       END`,
    ).execute(db);
    await sql.raw(
      `CREATE TRIGGER ${fts}_ad AFTER DELETE ON ${table} BEGIN
         INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', old.rowid, ${olds});
       END`,
    ).execute(db);
    await sql.raw(
      `CREATE TRIGGER ${fts}_au AFTER UPDATE OF ${cols} ON ${table} BEGIN
         INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', old.rowid, ${olds});
         INSERT INTO ${fts}(rowid, ${cols}) VALUES (new.rowid, ${news});
       END`,
    ).execute(db);
    await sql.raw(`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`).execute(db);
  }
  await db.schema.dropIndex("users_list").execute();
  await db.schema.createIndex("users_list").on("users")
    .columns(["isDeleted", "createdAt", "id", "role", "isActive"]).execute();
  await db.schema.createIndex("users_by_name").on("users").columns(["isDeleted", "firstName", "role"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("users_by_name").execute();
  await db.schema.dropIndex("users_list").execute();
  await db.schema.createIndex("users_list").on("users").columns(["isDeleted", "createdAt", "id"]).execute();
  for (const { fts } of Object.values(SEARCH_INDEXES)) {
    for (const t of ["ai", "ad", "au"]) await sql.raw(`DROP TRIGGER ${fts}_${t}`).execute(db);
    await sql.raw(`DROP TABLE ${fts}`).execute(db);
  }
}
