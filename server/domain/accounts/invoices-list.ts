/** The invoices grid (part 2, 2 "Invoices"): its query, list declaration, row shape and page figures. */
import type { Selectable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { InvoicesTable } from "../../db/tables/accounts.ts";
import { type AnyQB, listSpecOf } from "../../db/list.ts";
import { type InvoiceListItem, invoicesList } from "../../../shared/api/accounts.ts";
import { documentDates, documentsQuery, documentsSpec, documentStatusLabel, INVOICES } from "./documents.ts";
import { projectFigures } from "./invoice-projects.ts";

type InvoiceRow = Selectable<InvoicesTable>;

export const invoiceStatusLabel = documentStatusLabel;

export const invoicesListQuery = (db: Db): AnyQB => documentsQuery(db, INVOICES);

export const invoicesListSpec = listSpecOf(invoicesList, documentsSpec(INVOICES));

export const invoiceListMap = (row: never): InvoiceListItem => {
  const r = row as InvoiceRow & { clientName: string | null };
  return {
    _id: r.id,
    invoiceCode: r.invoiceCode,
    clientId: r.clientId,
    clientName: r.clientName ?? "",
    projectCodes: "",
    ...documentDates(r),
    invoiceStatus: r.invoiceStatus,
    invoiceStatusLabel: invoiceStatusLabel(r.invoiceStatus),
    complete: 0,
    sampleSize: 0,
    createdAt: r.createdAt,
  };
};

/** Adds each page's project codes and the invoiced projects' completes and sample sizes. */
export async function enrichInvoices(db: Db, rows: InvoiceListItem[]): Promise<InvoiceListItem[]> {
  if (!rows.length) return rows;
  const lines = await db.selectFrom("invoice_lines").select(["invoiceId", "projectId", "projectCode"])
    .where("invoiceId", "in", rows.map((r) => r._id)).orderBy("position").execute();
  const figures = await projectFigures(db, lines.map((l) => l.projectId).filter((x): x is string => !!x));
  const by = new Map<string, { codes: string[]; complete: number; sampleSize: number }>();
  for (const l of lines) {
    const e = by.get(l.invoiceId) ?? { codes: [], complete: 0, sampleSize: 0 };
    e.codes.push(l.projectCode);
    const f = l.projectId ? figures.get(l.projectId) : undefined;
    e.complete += f?.complete ?? 0;
    e.sampleSize += f?.sampleSize ?? 0;
    by.set(l.invoiceId, e);
  }
  return rows.map((r) => {
    const e = by.get(r._id);
    return e ? { ...r, projectCodes: e.codes.join(", "), complete: e.complete, sampleSize: e.sampleSize } : r;
  });
}
