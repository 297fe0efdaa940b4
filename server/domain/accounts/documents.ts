/**
 * What invoices (to clients) and purchase orders (to suppliers) share, once for both: their status
 * (Unpaid, Paid: one scale), their grid (live rows with their party's name, searched, filtered and
 * sorted alike; the fields every row has) and their Upload Ref. No. (./refs.ts), which marks rows
 * Paid with their payment reference.
 */
import type { Selectable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { InvoicesTable, PurchaseOrdersTable } from "../../db/tables/accounts.ts";
import { type AnyQB, type FilterFn, inNumberFilter, type ListSpec } from "../../db/list.ts";
import type { IssuingCompany, RefUploadResult } from "../../../shared/api/accounts.ts";
import { notFound } from "../errors.ts";
import { INVOICE_STATUS } from "../../../shared/status.ts";
import type { WriteCtx } from "../ctx.ts";
import { businessToday } from "./dates.ts";
import { MODULE } from "./issuers.ts";
import { applyRefRows, inIds, readRefRows, type RefTarget } from "./refs.ts";

/** An invoice's or a purchase order's status label (both take the invoice statuses). */
export const documentStatusLabel = (s: number) =>
  INVOICE_STATUS.find((x) => x.value === s)?.label ?? String(s);

/** Invoices or purchase orders: their table, their party's, and the columns named for each. */
export type DocumentKind = RefTarget & {
  /** The table of whom the document is to, and its id and name columns. */
  party: "clients" | "suppliers";
  partyId: "clientId" | "supplierId";
  partyName: "clientName" | "supplierName";
};

export const INVOICES = {
  table: "invoices",
  codeColumn: "invoiceCode",
  statusColumn: "invoiceStatus",
  what: "Invoice",
  module: MODULE,
  party: "clients",
  partyId: "clientId",
  partyName: "clientName",
} as const satisfies DocumentKind;

export const PURCHASE_ORDERS = {
  table: "purchase_orders",
  codeColumn: "poCode",
  statusColumn: "poStatus",
  what: "Purchase order",
  module: MODULE,
  party: "suppliers",
  partyId: "supplierId",
  partyName: "supplierName",
} as const satisfies DocumentKind;

/** The grid's query: the live documents, each with its party's name (under the party's column name). */
export function documentsQuery(db: Db, k: DocumentKind): AnyQB {
  const t = k.table, p = k.party;
  return (db.selectFrom(t) as unknown as AnyQB)
    .leftJoin(p, `${p}.id`, `${t}.${k.partyId}`)
    .selectAll(t)
    .select([`${p}.${k.partyName} as ${k.partyName}`])
    .where(`${t}.isDeleted`, "=", 0);
}

/**
 * The grid's search (code, party name, reference), filters (party, status) and sorts (code, due date,
 * created), newest first: keyed by the kind's column names, as its list declaration names them.
 */
export function documentsSpec<K extends DocumentKind>(k: K): ListSpec & {
  filters: Record<K["partyId"] | K["statusColumn"], FilterFn>;
  sorts: Record<K["codeColumn"] | "dueDate" | "createdAt", string>;
} {
  const t = k.table;
  return {
    search: [`${t}.${k.codeColumn}`, `${k.party}.${k.partyName}`, `${t}.referenceNo`],
    filters: {
      [k.partyId]: inIds(`${t}.${k.partyId}`),
      [k.statusColumn]: inNumberFilter(`${t}.${k.statusColumn}`),
    } as Record<K["partyId"] | K["statusColumn"], FilterFn>,
    sorts: {
      [k.codeColumn]: `${t}.${k.codeColumn}`,
      dueDate: `${t}.dueDate`,
      createdAt: `${t}.createdAt`,
    } as Record<K["codeColumn"] | "dueDate" | "createdAt", string>,
    defaultSort: [[`${t}.createdAt`, "desc"], [`${t}.id`, "desc"]],
  };
}

type DocumentRow = Pick<
  Selectable<InvoicesTable> & Selectable<PurchaseOrdersTable>,
  "currentDate" | "dueDate" | "recievedDate" | "referenceNo" | "comment" | "total"
>;

/** The dates, reference and amount every grid row of a document carries, under the same names. */
export const documentDates = (r: DocumentRow) => ({
  currentDate: r.currentDate,
  dueDate: r.dueDate,
  recievedDate: r.recievedDate,
  referenceNo: r.referenceNo,
  comment: r.comment,
  total: r.total,
});

/** The company a document is issued from, as its record shows it: 404 when it is gone. */
export async function documentIssuer(db: Db, issuingCompanyId: string): Promise<IssuingCompany> {
  const issuer = await db.selectFrom("issuing_companies").selectAll().where("id", "=", issuingCompanyId)
    .executeTakeFirst();
  if (!issuer) throw notFound("Issuing company");
  const { id, createdAt: _c, ...rest } = issuer;
  return { _id: id, ...rest };
}

/**
 * Upload Ref. No. {data: rows, overwrite}: each row names a document's code and its payment
 * reference (then optionally the received date, default today, and a comment); the document is
 * marked Paid. All or nothing: an unknown code, a bad row or (without `overwrite`) a row replacing
 * the reference of one already Paid refuses the whole file, naming the line (./refs.ts).
 */
export async function uploadRefs(
  ctx: WriteCtx,
  k: DocumentKind,
  input: { data: string[][]; overwrite?: boolean },
): Promise<RefUploadResult> {
  const refs = readRefRows(input.data, businessToday(ctx.now), k.what.toLowerCase());
  return await applyRefRows(ctx, k, {
    refs,
    overwrite: input.overwrite ?? false,
    at: new Date(ctx.now()),
  });
}
