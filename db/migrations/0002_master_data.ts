// Frozen: never edit a migration that has shipped; add a new one.
// Master data: clients, suppliers and the library (categories, questions, qualifications, supplier
// rules), plus the e-mail outbox. Country ids are ISO alpha-2 codes; lists of ids and per-language
// maps are JSON text; booleans are 0/1.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

// deno-lint-ignore no-explicit-any
const text = (c: any) => c.notNull().defaultTo("");
// deno-lint-ignore no-explicit-any
const flag = (on: 0 | 1) => (c: any) => c.notNull().defaultTo(on);

/** Indexes named `<table>_<name>`; grids order by (sort column, id), so id ends most of them. */
async function indexes(db: AnyDb, table: string, list: Record<string, string[]>) {
  for (const [name, columns] of Object.entries(list)) {
    await db.schema.createIndex(`${table}_${name}`).on(table).columns(columns).execute();
  }
}

export async function up(db: AnyDb): Promise<void> {
  // ------------------------------------------------------------ clients
  await db.schema.createTable("clients")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("clientName", "text", (c) => c.notNull())
    .addColumn("clientCode", "text", (c) => c.notNull())
    .addColumn("clientContactName", "text", text)
    .addColumn("clientPhoneNumber", "text", text)
    .addColumn("clientEmail", "text", text)
    .addColumn("clientWebsite", "text", text)
    .addColumn("countryId", "text", (c) => c.notNull())
    .addColumn("city", "text", text)
    .addColumn("state", "text", text)
    .addColumn("company", "text", text)
    .addColumn("address1", "text", text)
    .addColumn("address2", "text", text)
    .addColumn("zipCode", "text", text)
    .addColumn("netDays", "integer", (c) => c.notNull().defaultTo(30))
    .addColumn("wolfAccount", "text", text)
    .addColumn("apiUrl", "text", text)
    .addColumn("apiKey", "text", text)
    .addColumn("apiHeader", "text", text)
    .addColumn("apiFunctionHeader", "text", text)
    .addColumn("apiBody", "text", text)
    .addColumn("apiResponseVar", "text", text)
    .addColumn("apiFunction", "text", text)
    .addColumn("apiParams", "text", text)
    .addColumn("variableMapping", "text", text)
    .addColumn("identifierMapping", "text", text)
    .addColumn("supplierIds", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("clientApiKey", "text", (c) => c.notNull())
    .addColumn("isApiIntegration", "integer", flag(0))
    .addColumn("isScreenUrlIntegration", "integer", flag(0))
    .addColumn("assignedTo", "text", (c) => c.references("users.id"))
    .addColumn("isActive", "integer", flag(1))
    .addColumn("isDeleted", "integer", flag(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX clients_code_live ON clients(clientCode COLLATE NOCASE) WHERE isDeleted = 0`
    .execute(db);
  await db.schema.createIndex("clients_api_key").unique().on("clients").column("clientApiKey").execute();
  await indexes(db, "clients", {
    list: ["isDeleted", "createdAt", "id"], // the grid, newest first
    status: ["isDeleted", "isActive", "createdAt", "id"], // status filter
    country: ["isDeleted", "countryId", "createdAt", "id"], // countries filter
    by_name: ["isDeleted", "clientName", "id"], // sort by name
    picker: ["isDeleted", "isActive", "clientName", "id"], // /clients/all, /clients/invoice/all
    api: ["isDeleted", "isApiIntegration", "isActive", "clientName"], // /clients/filter/all
    assigned: ["assignedTo"],
  });

  // ------------------------------------------------------------ suppliers
  await db.schema.createTable("suppliers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("supplierType", "integer", (c) => c.notNull())
    .addColumn("supplierName", "text", (c) => c.notNull())
    .addColumn("supplierShortCode", "text", (c) => c.notNull())
    .addColumn("supplierPhoneNumber", "text", text)
    .addColumn("supplierEmail", "text", (c) => c.notNull())
    .addColumn("supplierWebsite", "text", text)
    .addColumn("countryId", "text", (c) => c.notNull())
    .addColumn("city", "text", text)
    .addColumn("state", "text", text)
    .addColumn("company", "text", text)
    .addColumn("address1", "text", text)
    .addColumn("address2", "text", text)
    .addColumn("zipCode", "text", text)
    .addColumn("netDays", "integer", (c) => c.notNull().defaultTo(30))
    .addColumn("apiClientId", "text", text)
    .addColumn("hashKey", "text", text)
    .addColumn("supplierPanelSize", "integer")
    .addColumn("supplierRuleCPI", "text", (c) => c.notNull())
    .addColumn("supplierApiKey", "text", (c) => c.notNull())
    .addColumn("apiBody", "text", text)
    .addColumn("apiKey", "text", text)
    .addColumn("apiUrl", "text", text)
    .addColumn("apiHeader", "text", text)
    .addColumn("variableMapping", "text", text)
    .addColumn("identifierMapping", "text", text)
    .addColumn("redirectComplete", "text", text)
    .addColumn("redirectQuotaFull", "text", text)
    .addColumn("redirectTerminate", "text", text)
    .addColumn("redirectQualityTerm", "text", text)
    .addColumn("redirectSurveyClose", "text", text)
    .addColumn("clientIds", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("isEmailNotification", "integer", flag(1))
    .addColumn("isPreScreen", "integer", flag(0))
    .addColumn("supplierApprovedHook", "text", text)
    .addColumn("isActive", "integer", flag(1))
    .addColumn("isDeleted", "integer", flag(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  // a short code names one live supplier (case-insensitive); deleted suppliers free theirs
  await sql`CREATE UNIQUE INDEX suppliers_short_code_live ON suppliers(supplierShortCode COLLATE NOCASE)
    WHERE isDeleted = 0`.execute(db);
  await db.schema.createIndex("suppliers_api_key").unique().on("suppliers").column("supplierApiKey")
    .execute();
  await indexes(db, "suppliers", {
    list: ["isDeleted", "createdAt", "id"],
    status: ["isDeleted", "isActive", "createdAt", "id"],
    country: ["isDeleted", "countryId", "createdAt", "id"],
    type: ["isDeleted", "supplierType", "createdAt", "id"],
    by_name: ["isDeleted", "supplierName", "id"],
    picker: ["isDeleted", "isActive", "supplierName", "id"], // /suppliers/all, bulk e-mail recipients
  });

  // ------------------------------------------------------------ library: categories
  await db.schema.createTable("categories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("categoryTitle", "text", (c) => c.notNull())
    .addColumn("categoryDesc", "text", (c) => c.notNull())
    .addColumn("isActive", "integer", flag(1))
    .addColumn("isDeleted", "integer", flag(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await indexes(db, "categories", {
    list: ["isDeleted", "createdAt", "id"],
    status: ["isDeleted", "isActive", "createdAt", "id"],
    by_title: ["isDeleted", "categoryTitle", "id"],
    picker: ["isDeleted", "isActive", "categoryTitle", "id"],
  });

  // ------------------------------------------------------------ library: questions
  // Library (temporary) questions have no project; project pre-screen questions (a later migration
  // adds their project table) reuse this table with projectId set and isTempQuestion 0.
  await db.schema.createTable("questions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("projectId", "text")
    .addColumn("isTempQuestion", "integer", flag(0))
    .addColumn("languageId", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("questionTitle", "text", (c) => c.notNull()) // JSON {"en": "...", ...}
    .addColumn("questionType", "text", (c) => c.notNull())
    .addColumn("questionOption", "text", (c) => c.notNull().defaultTo("[]")) // JSON, in display order
    .addColumn("sortOrder", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("isActive", "integer", flag(1))
    .addColumn("isDeleted", "integer", flag(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await indexes(db, "questions", {
    temp: ["isTempQuestion", "isDeleted", "sortOrder", "createdAt", "id"],
    project: ["projectId", "isDeleted", "sortOrder", "createdAt", "id"],
  });

  // ------------------------------------------------------------ library: qualifications
  await db.schema.createTable("qualifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("qualificationName", "text", (c) => c.notNull())
    .addColumn("qualificationKey", "text", (c) => c.notNull())
    .addColumn("qualificationIcon", "text", (c) => c.notNull())
    .addColumn("isActive", "integer", flag(1))
    .addColumn("isDeleted", "integer", flag(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX qualifications_key_live ON qualifications(qualificationKey COLLATE NOCASE)
    WHERE isDeleted = 0`.execute(db);
  await indexes(db, "qualifications", { list: ["isDeleted", "qualificationName", "id"] });
  // Options are rows (not JSON) so project quotas can point at one option by id; a removed option
  // is marked deleted, never erased, so quotas that used it still read.
  await db.schema.createTable("qualification_options")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn(
      "qualificationId",
      "text",
      (c) => c.notNull().references("qualifications.id").onDelete("cascade"),
    )
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("subText", "text", text)
    .addColumn("isActive", "integer", flag(1))
    .addColumn("isDeleted", "integer", flag(0))
    .addColumn("sortOrder", "integer", (c) => c.notNull())
    .execute();
  await indexes(db, "qualification_options", { parent: ["qualificationId", "isDeleted", "sortOrder"] });

  // ------------------------------------------------------------ library: supplier rules
  await db.schema.createTable("supplier_rules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("minSupplierCpi", "real", (c) => c.notNull())
    .addColumn("maxSupplierCpi", "real", (c) => c.notNull())
    .addColumn("categoryTitle", "text", text)
    .addColumn("isActive", "integer", flag(1))
    .addColumn("isDeleted", "integer", flag(0))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await indexes(db, "supplier_rules", {
    list: ["isDeleted", "createdAt", "id"],
    status: ["isDeleted", "isActive", "createdAt", "id"],
    min_cpi: ["isDeleted", "minSupplierCpi"],
    max_cpi: ["isDeleted", "maxSupplierCpi"],
  });

  // ------------------------------------------------------------ e-mail outbox
  await db.schema.createTable("email_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("toAddress", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("bodyHtml", "text", (c) => c.notNull())
    .addColumn("bodyText", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued")) // queued | sending | sent | failed
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lastError", "text", text)
    .addColumn("module", "text", (c) => c.notNull())
    .addColumn("recordId", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .addColumn("sentAt", "text")
    .execute();
  await indexes(db, "email_outbox", {
    status: ["status", "createdAt", "id"], // the delivery run's queue
    record: ["module", "recordId"],
  });
}

export async function down(db: AnyDb): Promise<void> {
  for (
    const t of [
      "email_outbox",
      "supplier_rules",
      "qualification_options",
      "qualifications",
      "questions",
      "categories",
      "suppliers",
      "clients",
    ]
  ) {
    await db.schema.dropTable(t).execute();
  }
}
