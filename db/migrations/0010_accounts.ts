// Frozen: never edit a migration that has shipped; add a new one.
// Accounts (part 2, Accounts): the issuing companies (the two legal entities an invoice comes from,
// with their bank details, edited by a SUPERADMIN), invoices to clients with their lines, and
// purchase orders to suppliers with theirs. Codes come from the `sequences` table (0003), so two
// invoices made at once never share one; the unique indexes are the last word.
import type { Kysely } from "kysely";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("issuing_companies")
    .addColumn("id", "text", (c) => c.primaryKey())
    // the client's account marker (wolfAccount) that picks this entity; "" = the default entity
    .addColumn("accountMarker", "text", (c) => c.notNull().unique())
    .addColumn("companyName", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("taxNumber", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("serviceDescription", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("bankUs", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("bankInternational", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  // the completes of a project entered by hand for invoicing: not router counters (no sessions back them)
  await db.schema.createTable("manual_project_figures")
    .addColumn("projectId", "text", (c) => c.primaryKey().references("projects.id"))
    .addColumn("complete", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createTable("invoices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("invoiceCode", "text", (c) => c.notNull().unique())
    .addColumn("clientId", "text", (c) => c.notNull())
    .addColumn("issuingCompanyId", "text", (c) => c.notNull())
    .addColumn("netTerms", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("invoiceStatus", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("currentDate", "text", (c) => c.notNull())
    .addColumn("dueDate", "text", (c) => c.notNull())
    .addColumn("recievedDate", "text")
    .addColumn("referenceNo", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("total", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("isDeleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdBy", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("invoices_list").on("invoices").columns(["isDeleted", "createdAt", "id"])
    .execute();
  await db.schema.createIndex("invoices_client").on("invoices").columns(["clientId", "isDeleted"]).execute();
  await db.schema.createIndex("invoices_day").on("invoices").columns(["currentDate", "isDeleted"]).execute();

  await db.schema.createTable("invoice_lines")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("invoiceId", "text", (c) => c.notNull().references("invoices.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("projectId", "text")
    .addColumn("projectCode", "text", (c) => c.notNull())
    .addColumn("projectName", "text", (c) => c.notNull())
    .addColumn("poNumber", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("complete", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cpi", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("total", "real", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("invoice_lines_invoice").on("invoice_lines").columns(["invoiceId", "position"])
    .execute();
  await db.schema.createIndex("invoice_lines_project").on("invoice_lines").columns(["projectId"]).execute();

  await db.schema.createTable("purchase_orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("poCode", "text", (c) => c.notNull().unique())
    .addColumn("supplierId", "text", (c) => c.notNull())
    .addColumn("issuingCompanyId", "text", (c) => c.notNull())
    .addColumn("netTerms", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("poStatus", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("currentDate", "text", (c) => c.notNull())
    .addColumn("dueDate", "text", (c) => c.notNull())
    .addColumn("recievedDate", "text")
    .addColumn("referenceNo", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("total", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("isDeleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("createdBy", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("purchase_orders_list").on("purchase_orders")
    .columns(["isDeleted", "createdAt", "id"]).execute();
  await db.schema.createIndex("purchase_orders_supplier").on("purchase_orders")
    .columns(["supplierId", "isDeleted"]).execute();

  await db.schema.createTable("purchase_order_lines")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("purchaseOrderId", "text", (c) => c.notNull().references("purchase_orders.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    // one supplier map is paid once: it lands on one purchase order only
    .addColumn("supplierMapId", "text", (c) => c.notNull().unique())
    .addColumn("projectId", "text", (c) => c.notNull())
    .addColumn("projectCode", "text", (c) => c.notNull())
    .addColumn("projectName", "text", (c) => c.notNull())
    .addColumn("accepted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("supplierCPI", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("total", "real", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("purchase_order_lines_po").on("purchase_order_lines")
    .columns(["purchaseOrderId", "position"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (
    const t of [
      "purchase_order_lines",
      "purchase_orders",
      "invoice_lines",
      "invoices",
      "manual_project_figures",
      "issuing_companies",
    ]
  ) {
    await db.schema.dropTable(t).execute();
  }
}
