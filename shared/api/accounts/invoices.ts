/** Invoices to clients (part 2: 2 "Invoices", 3 Invoice, 4, 5): the records, the calls, the grid. */
import { defineCall, returns } from "../contract.ts";
import { defineList, ListBody, type ListResult } from "../../list.ts";
import { moneyCell as money } from "../../format.ts";
import { InvoiceForm, InvoiceUpdate, RefUploadBody } from "../../schemas/accounts.ts";
import type { IssuingCompany } from "./issuers.ts";
import { dmy, type RefUploadResult } from "./common.ts";

/** One line of an invoice as stored. */
export type InvoiceLineRecord = {
  _id: string;
  projectId: string | null;
  projectCode: string;
  projectName: string;
  poNumber: string;
  complete: number;
  cpi: number;
  total: number;
};

/** Who an invoice is billed to (part 2, 3: the client object of an invoice). */
export type BillTo = {
  _id: string;
  clientName: string;
  company: string;
  clientEmail: string;
  clientPhoneNumber: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipCode: string;
  countryId: { _id: string; name: string };
  netDays: number;
  wolfAccount: string;
  taxId: string;
};

export type InvoiceRecord = {
  _id: string;
  invoiceCode: string;
  clientId: string;
  clientName: string;
  client: BillTo;
  issuer: IssuingCompany;
  netTerms: number;
  invoiceStatus: number;
  invoiceStatusLabel: string;
  currentDate: string;
  dueDate: string;
  recievedDate: string | null;
  referenceNo: string;
  comment: string;
  total: number;
  projects: InvoiceLineRecord[];
  createdAt: string;
  updatedAt: string;
};

/** A row of the Invoices tab. */
export type InvoiceListItem = {
  _id: string;
  invoiceCode: string;
  clientId: string;
  clientName: string;
  /** The project codes of the lines, comma separated. */
  projectCodes: string;
  currentDate: string;
  dueDate: string;
  recievedDate: string | null;
  referenceNo: string;
  comment: string;
  total: number;
  invoiceStatus: number;
  invoiceStatusLabel: string;
  /** Completes and sample size of the invoiced projects: the row warns when complete reaches it. */
  complete: number;
  sampleSize: number;
  createdAt: string;
};

/** A saved invoice or PO and where its PDF comes from (the spec's `apiUrl`: the download call's path). */
export type InvoiceSaved = { invoice: InvoiceRecord; apiUrl: string };

export const listInvoices = defineCall({
  method: "POST",
  path: "/admin/invoices",
  body: ListBody,
  csv: true,
  result: returns<ListResult<InvoiceListItem>>(),
});
export const nextInvoiceCodeCall = defineCall({
  method: "GET",
  path: "/admin/invoice/code/get",
  result: returns<{ invoiceCode: string }>(),
});
export const addInvoiceCall = defineCall({
  method: "POST",
  path: "/admin/invoice/add",
  body: InvoiceForm,
  result: returns<InvoiceSaved>(),
});
export const updateInvoiceCall = defineCall({
  method: "PUT",
  path: "/admin/invoice/update/:id",
  ids: { id: "Invoice" },
  body: InvoiceUpdate,
  result: returns<InvoiceRecord>(),
});
export const getInvoiceCall = defineCall({
  method: "GET",
  path: "/admin/invoice/:id",
  ids: { id: "Invoice" },
  result: returns<InvoiceRecord>(),
});
/** A project's invoice page (/admin/invoice/{projectid}/edit): the invoice billing it, if any. */
export type ProjectInvoice = {
  projectId: string;
  projectCode: string;
  clientId: string | null;
  invoiceId: string | null;
  invoiceCode: string | null;
};
export const projectInvoiceCall = defineCall({
  method: "GET",
  path: "/admin/invoice/project/:projectId",
  ids: { projectId: "Project" },
  result: returns<ProjectInvoice>(),
});
/** The invoice's PDF (`Invoice#{code}.pdf`). */
export const downloadInvoiceCall = defineCall({
  method: "POST",
  path: "/admin/invoice/download/:id",
  ids: { id: "Invoice" },
  media: "application/pdf",
  result: returns<Blob>(),
});
export const uploadInvoiceRefsCall = defineCall({
  method: "POST",
  path: "/admin/invoice/upload",
  body: RefUploadBody,
  bodyLimit: 4 * 1024 * 1024,
  result: returns<RefUploadResult>(),
});

/** Invoices (/admin/invoice/list). */
export const invoicesList = defineList<InvoiceListItem>()({
  id: "invoices",
  call: listInvoices,
  filters: { clientId: "texts", invoiceStatus: "numbers" },
  sorts: ["invoiceCode", "dueDate", "createdAt"],
  columns: [
    { key: "projectCodes", header: "Project code", value: (r) => r.projectCodes },
    { key: "invoiceCode", header: "Invoice number", value: (r) => r.invoiceCode },
    { key: "clientName", header: "Client name", value: (r) => r.clientName },
    { key: "dueDate", header: "Due date", value: (r) => dmy(r.dueDate) },
    { key: "recievedDate", header: "Received date", value: (r) => dmy(r.recievedDate) },
    { key: "referenceNo", header: "Reference", value: (r) => r.referenceNo },
    { key: "comment", header: "Comment", value: (r) => r.comment },
    { key: "total", header: "Amount ($)", value: (r) => money(r.total) },
    { key: "invoiceStatus", header: "Status", value: (r) => r.invoiceStatusLabel },
  ],
});
