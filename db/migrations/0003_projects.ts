// Frozen: never edit a migration that has shipped; add a new one.
// Projects (parent = projectType 1, child = 2), their supplier maps, quotas, exclusions and client
// survey links. Outcome counters live on the child project and on each supplier map: the respondent
// router bumps them inside its write transaction, so lists read counters instead of aggregating sessions.
import { type Kysely, sql } from "kysely";

const COUNTERS = [
  "clicked",
  "complete",
  "terminate",
  "overQuota",
  "qualityTerm",
  "drop",
  "security",
  "preScreenTerminate",
  "preScreenDrop",
  "testClicked",
  "approved",
  "rejected",
] as const;

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("sequences")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "integer", (c) => c.notNull())
    .execute();

  let projects = db.schema.createTable("projects")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("projectType", "integer", (c) => c.notNull())
    .addColumn("parentProjectId", "text", (c) => c.references("projects.id"))
    .addColumn("projectCode", "text", (c) => c.notNull())
    .addColumn("projectName", "text", (c) => c.notNull())
    .addColumn("projectDescription", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("clientId", "text", (c) => c.notNull())
    .addColumn("userId", "text")
    .addColumn("projectStatus", "integer", (c) => c.notNull())
    .addColumn("poNumber", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("clientEmail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("projectSpecs", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("projectQuestionaire", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("averageLOI", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("ir", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("wid", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("categoryId", "text")
    .addColumn("countryId", "text")
    .addColumn("regionIds", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("cityIds", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("zipCodes", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("languageId", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("currencyId", "text", (c) => c.notNull().defaultTo("USD"))
    .addColumn("cpi", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("sampleSize", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sampleSizeInc", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("respondentClickQuota", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("respondentTestClickQuota", "integer", (c) => c.notNull().defaultTo(5))
    .addColumn("startDate", "text")
    .addColumn("endDate", "text")
    // URLs
    .addColumn("isMultiLinkUrl", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("singleLinkUrl", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("singleLinkUrlTest", "text", (c) => c.notNull().defaultTo(""))
    // security
    .addColumn("isDynamicThanksUrl", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("isGeoLocation", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isClientUrlProtection", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isPreScreen", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isExclude", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isMobile", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("isDesktop", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("isTablet", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("isSpeeder", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isProxyVpn", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isUniqueIp", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isPii", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isRDLow", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isRDMedium", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isRDHigh", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("maxIPCount", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("speedTime", "integer", (c) => c.notNull().defaultTo(0))
    // provenance of imported offers
    .addColumn("provider", "text")
    .addColumn("providerSurveyId", "text")
    .addColumn("isDeleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdBy", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addColumn("statusChangedAt", "text", (c) => c.notNull());
  for (const k of COUNTERS) projects = projects.addColumn(k, "integer", (c) => c.notNull().defaultTo(0));
  await projects.execute();
  await sql`CREATE UNIQUE INDEX projects_code ON projects(projectCode)`.execute(db);
  await db.schema.createIndex("projects_list").on("projects").columns([
    "projectType",
    "isDeleted",
    "createdAt",
  ]).execute();
  await db.schema.createIndex("projects_parent").on("projects").columns(["parentProjectId", "isDeleted"])
    .execute();
  await db.schema.createIndex("projects_client").on("projects").columns(["clientId", "isDeleted"]).execute();
  await db.schema.createIndex("projects_status").on("projects").columns(["projectStatus", "isDeleted"])
    .execute();
  await db.schema.createIndex("projects_manager").on("projects").columns(["userId", "isDeleted"]).execute();

  // client survey links of multi-link projects: each handed out once
  await db.schema.createTable("project_links")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("projectId", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("usedBy", "text")
    .execute();
  await db.schema.createIndex("project_links_free").on("project_links").columns(["projectId", "usedBy", "id"])
    .execute();

  let maps = db.schema.createTable("supplier_maps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("projectId", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("supplierId", "text", (c) => c.notNull())
    .addColumn("supplierCPI", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("supplierQuota", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("supplierClickQuota", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isPreScreen", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isTestLink", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allowTraffic", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("isBoarded", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("redirectComplete", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("redirectTerminate", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("redirectQuotaFull", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("redirectQualityTerm", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("redirectSurveyClose", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("questionnaire", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("adminApproved", "integer")
    .addColumn("isDeleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull());
  for (const k of COUNTERS) maps = maps.addColumn(k, "integer", (c) => c.notNull().defaultTo(0));
  await maps.execute();
  await sql`CREATE UNIQUE INDEX supplier_maps_live ON supplier_maps(projectId, supplierId) WHERE isDeleted = 0`
    .execute(db);
  await db.schema.createIndex("supplier_maps_supplier").on("supplier_maps").columns([
    "supplierId",
    "isDeleted",
  ]).execute();

  await db.schema.createTable("project_quotas")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("projectId", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("qualificationId", "text", (c) => c.notNull())
    // [{ quotaOptionId, quotaSize, completes }]
    .addColumn("quotaValue", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("isDeleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX project_quotas_live ON project_quotas(projectId, qualificationId) WHERE isDeleted = 0`
    .execute(db);

  await db.schema.createTable("project_exclusions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("projectId", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("excludedProjectId", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("isExcluded", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("complete", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("terminate", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("overQuota", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("dropout", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("isDeleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX project_exclusions_live ON project_exclusions(projectId, excludedProjectId) WHERE isDeleted = 0`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (
    const t of [
      "project_exclusions",
      "project_quotas",
      "supplier_maps",
      "project_links",
      "projects",
      "sequences",
    ]
  ) {
    await db.schema.dropTable(t).execute();
  }
}
