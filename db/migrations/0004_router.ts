// Frozen: never edit a migration that has shipped; add a new one.
// The respondent router: one session row per arrival at a supplier link (the Support Identifiers
// screen reads them), pre-screen answers, a daily rollup per project and supplier kept by the same
// writes as the counters on projects and supplier maps, per-project secrets for signed return
// links, and the supplier approved-hook queue.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

/** Outcome counters of the rollup (the live ones of projects and supplier maps). */
const ROLLUP_COUNTERS = [
  "clicked",
  "complete",
  "terminate",
  "overQuota",
  "qualityTerm",
  "drop",
  "security",
  "preScreenTerminate",
  "preScreenDrop",
  // what the security count is made of (dashboard security series)
  "secDuplicate",
  "secIp",
  "secDevice",
  "secGeo",
  "secProxy",
  "secRd",
  // quality terms for speed (dashboard quality series)
  "speeder",
] as const;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("sessions")
    // the respondent's uid: handed to the client in the survey link, named in every return
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("projectId", "text", (c) => c.notNull())
    .addColumn("parentProjectId", "text")
    .addColumn("clientId", "text", (c) => c.notNull())
    .addColumn("supplierMapId", "text", (c) => c.notNull())
    .addColumn("supplierId", "text", (c) => c.notNull())
    .addColumn("sid", "text", (c) => c.notNull())
    // entered states: prescreen, redirected (to the client); final: complete, terminate, overQuota,
    // qualityTerm, drop, security, preScreenTerminate, preScreenDrop; refused: closed, duplicate
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("isTest", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("ip", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("country", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("deviceType", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("browser", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("userAgent", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("rdScore", "real")
    .addColumn("clientUrl", "text", (c) => c.notNull().defaultTo(""))
    // project quota cells the pre-screen answers fall in: JSON [{quotaId, quotaOptionId}]
    .addColumn("quotaCells", "text", (c) => c.notNull().defaultTo("[]"))
    // what the client said (c, t, q, f) and how (redirect, postback)
    .addColumn("rawStatus", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("returnedBy", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addColumn("redirectedAt", "text")
    .addColumn("endedAt", "text")
    // when an unanswered pre-screen or an unreturned survey becomes a drop
    .addColumn("dropAt", "text")
    .addColumn("seconds", "integer")
    .execute();
  // One live arrival per respondent and project: the database decides duplicates. Refused arrivals
  // (survey closed, duplicates) and test entries stay out, so they never block a real entry.
  await sql`CREATE UNIQUE INDEX sessions_live_sid ON sessions(projectId, sid)
    WHERE isTest = 0 AND status NOT IN ('closed', 'duplicate')`.execute(db);
  await db.schema.createIndex("sessions_map_status").on("sessions").columns(["supplierMapId", "status"])
    .execute();
  await db.schema.createIndex("sessions_created").on("sessions").column("createdAt").execute();
  // the drop sweep
  await sql`CREATE INDEX sessions_due ON sessions(dropAt) WHERE status IN ('prescreen', 'redirected')`
    .execute(db);

  // Unique-IP security: arrivals per address on projects that limit them. A table kept by the
  // router only while a project has isUniqueIp on, rather than an index every session would pay for.
  await sql`CREATE TABLE project_ip_counts (
    projectId TEXT NOT NULL, ip TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (projectId, ip)
  ) WITHOUT ROWID`.execute(db);

  await db.schema.createTable("prescreen_answers")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("sessionId", "text", (c) => c.notNull())
    .addColumn("projectId", "text", (c) => c.notNull())
    .addColumn("supplierId", "text", (c) => c.notNull())
    .addColumn("questionId", "text", (c) => c.notNull())
    // JSON: chosen option ids, or {text}
    .addColumn("answer", "text", (c) => c.notNull())
    // readable answer (option titles or the text) for the prescreen report
    .addColumn("answerText", "text", (c) => c.notNull())
    .addColumn("passed", "integer", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("prescreen_answers_project").on("prescreen_answers").columns([
    "projectId",
    "createdAt",
  ]).execute();
  await db.schema.createIndex("prescreen_answers_session").on("prescreen_answers").column("sessionId")
    .execute();

  let daily = db.schema.createTable("router_daily")
    .addColumn("date", "text", (c) => c.notNull()) // YYYY-MM-DD (UTC) of the counted event
    .addColumn("projectId", "text", (c) => c.notNull())
    .addColumn("supplierId", "text", (c) => c.notNull())
    .addColumn("supplierMapId", "text", (c) => c.notNull())
    .addColumn("parentProjectId", "text")
    .addColumn("clientId", "text", (c) => c.notNull());
  for (const k of ROLLUP_COUNTERS) daily = daily.addColumn(k, "integer", (c) => c.notNull().defaultTo(0));
  await daily
    .addColumn("revenue", "real", (c) => c.notNull().defaultTo(0)) // project cpi x complete
    .addColumn("cost", "real", (c) => c.notNull().defaultTo(0)) // supplier CPI x complete
    .addPrimaryKeyConstraint("router_daily_pk", ["date", "projectId", "supplierId"])
    .execute();
  await db.schema.createIndex("router_daily_client").on("router_daily").columns(["clientId", "date"])
    .execute();
  await db.schema.createIndex("router_daily_supplier").on("router_daily").columns(["supplierId", "date"])
    .execute();
  await db.schema.createIndex("router_daily_parent").on("router_daily").columns(["parentProjectId", "date"])
    .execute();

  // Kept apart from the projects table so no project listing (supplier portal included) can leak it.
  await db.schema.createTable("project_secrets")
    .addColumn("projectId", "text", (c) => c.primaryKey())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();

  // Supplier approved hooks: written with the complete, sent in the background, retried.
  await db.schema.createTable("router_hooks")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("sessionId", "text", (c) => c.notNull())
    .addColumn("supplierId", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued")) // queued | sent | failed
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastError", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("nextAt", "text", (c) => c.notNull())
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX router_hooks_due ON router_hooks(nextAt) WHERE status = 'queued'`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (
    const t of [
      "router_hooks",
      "project_secrets",
      "router_daily",
      "prescreen_answers",
      "project_ip_counts",
      "sessions",
    ]
  ) {
    await db.schema.dropTable(t).execute();
  }
}
