/**
 * An invoice as the API, the PDF and the CLI read it (part 2: 3 Invoice): its code, its client
 * (bill-to), issuer and lines, by id, by code, or as a project's invoice page.
 */
import type { Selectable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { InvoiceLinesTable, InvoicesTable } from "../../db/tables/accounts.ts";
import type { BillTo, InvoiceRecord, ProjectInvoice } from "../../../shared/api/accounts.ts";
import { notFound } from "../errors.ts";
import type { Ctx } from "../ctx.ts";
import { countryFields } from "../common/records.ts";
import { invoiceStatusLabel } from "./invoices-list.ts";
import { documentDates, documentIssuer } from "./documents.ts";

export const INVOICE_SEQUENCE = "invoice";
export const INVOICE_CODE_START = 10001;
export const invoiceCodeOf = (n: number) => `INV${n}`;

// ---------------------------------------------------------------- codes

/** GET /admin/invoice/code/get: the code the next invoice takes if no other is saved first. */
export async function nextInvoiceCode(ctx: Pick<Ctx, "db">): Promise<string> {
  const db = ctx.db;
  const row = await db.selectFrom("sequences").select("value").where("name", "=", INVOICE_SEQUENCE)
    .executeTakeFirst();
  return invoiceCodeOf(row ? row.value + 1 : INVOICE_CODE_START);
}

// ---------------------------------------------------------------- read

type InvoiceRow = Selectable<InvoicesTable>;
type LineRow = Selectable<InvoiceLinesTable>;

async function billTo(db: Db, clientId: string): Promise<BillTo> {
  const c = await db.selectFrom("clients").select([
    "id",
    "clientName",
    "company",
    "clientEmail",
    "clientPhoneNumber",
    "address1",
    "address2",
    "city",
    "state",
    "zipCode",
    "countryId",
    "netDays",
    "wolfAccount",
    "taxId",
  ]).where("id", "=", clientId).executeTakeFirst();
  if (!c) throw notFound("Client");
  const { id, countryId, ...rest } = c;
  return { _id: id, ...rest, countryId: { _id: countryId, name: countryFields(countryId).countryName } };
}

async function invoiceRecord(db: Db, row: InvoiceRow): Promise<InvoiceRecord> {
  const [client, lines, issuer] = await Promise.all([
    billTo(db, row.clientId),
    db.selectFrom("invoice_lines").selectAll().where("invoiceId", "=", row.id).orderBy("position").execute(),
    documentIssuer(db, row.issuingCompanyId),
  ]);
  return {
    _id: row.id,
    invoiceCode: row.invoiceCode,
    clientId: row.clientId,
    clientName: client.clientName,
    client,
    issuer,
    netTerms: row.netTerms,
    invoiceStatus: row.invoiceStatus,
    invoiceStatusLabel: invoiceStatusLabel(row.invoiceStatus),
    ...documentDates(row),
    projects: lines.map(lineRecord),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const lineRecord = (l: LineRow) => ({
  _id: l.id,
  projectId: l.projectId,
  projectCode: l.projectCode,
  projectName: l.projectName,
  poNumber: l.poNumber,
  complete: l.complete,
  cpi: l.cpi,
  total: l.total,
});

export async function getInvoice(ctx: Pick<Ctx, "db">, id: string): Promise<InvoiceRecord> {
  const db = ctx.db;
  const row = await db.selectFrom("invoices").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
    .executeTakeFirst();
  if (!row) throw notFound("Invoice");
  return invoiceRecord(db, row);
}

/**
 * A project's invoice page: the live invoice that bills the project, its group or one of its
 * children, or none yet, with what a new invoice for it starts from (its client).
 */
export async function projectInvoice(ctx: Pick<Ctx, "db">, projectId: string): Promise<ProjectInvoice> {
  const db = ctx.db;
  const project = await db.selectFrom("projects").select(["id", "clientId", "projectCode", "parentProjectId"])
    .where("id", "=", projectId).where("isDeleted", "=", 0).executeTakeFirst();
  if (!project) throw notFound("Project");
  const line = await db.selectFrom("invoice_lines as l").innerJoin("invoices as i", "i.id", "l.invoiceId")
    .select(["i.id", "i.invoiceCode"])
    .where("i.isDeleted", "=", 0)
    .where((eb) =>
      eb.or([
        eb("l.projectId", "in", [projectId, project.parentProjectId ?? projectId]),
        eb(
          "l.projectId",
          "in",
          eb.selectFrom("projects").select("id").where("parentProjectId", "=", projectId),
        ),
      ])
    )
    .orderBy("i.createdAt", "desc").executeTakeFirst();
  return {
    projectId: project.id,
    projectCode: project.projectCode,
    clientId: project.clientId ?? null,
    invoiceId: line?.id ?? null,
    invoiceCode: line?.invoiceCode ?? null,
  };
}

/** The CLI's way in: an invoice by its code. */
export async function getInvoiceByCode(ctx: Pick<Ctx, "db">, code: string): Promise<InvoiceRecord> {
  const db = ctx.db;
  const row = await db.selectFrom("invoices").selectAll().where("invoiceCode", "=", code.trim().toUpperCase())
    .where("isDeleted", "=", 0).executeTakeFirst();
  if (!row) throw notFound("Invoice");
  return invoiceRecord(db, row);
}
