// Frozen: never edit a migration that has shipped; add a new one.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();

  await db.schema.createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firstName", "text", (c) => c.notNull())
    .addColumn("lastName", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phoneNumber", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("supplierId", "text")
    .addColumn("passwordHash", "text", (c) => c.notNull())
    .addColumn("isActive", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("isDeleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  // e-mail unique among users that are not deleted
  await sql`CREATE UNIQUE INDEX users_email_live ON users(email) WHERE isDeleted = 0`.execute(db);
  await db.schema.createIndex("users_role").on("users").columns(["isDeleted", "role", "createdAt"]).execute();
  // the Users grids page in createdAt order: without this every page sorts all live rows
  await db.schema.createIndex("users_list").on("users").columns(["isDeleted", "createdAt", "id"]).execute();
  await db.schema.createIndex("users_supplier").on("users").column("supplierId").execute();

  await db.schema.createTable("revoked_tokens")
    .addColumn("jti", "text", (c) => c.primaryKey())
    .addColumn("expiresAt", "integer", (c) => c.notNull())
    .execute();

  await db.schema.createTable("login_throttle")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("firstAt", "integer", (c) => c.notNull())
    .addColumn("lockedUntil", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createTable("system_logs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("userId", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("activity", "text", (c) => c.notNull())
    .addColumn("module", "text", (c) => c.notNull())
    .addColumn("recordId", "text")
    .addColumn("ipAddress", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("device", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("city", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("country", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("system_logs_created").on("system_logs").column("createdAt").execute();
  await db.schema.createIndex("system_logs_record").on("system_logs").columns(["recordId", "createdAt"])
    .execute();
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["system_logs", "login_throttle", "revoked_tokens", "users", "settings"]) {
    await db.schema.dropTable(t).execute();
  }
}
