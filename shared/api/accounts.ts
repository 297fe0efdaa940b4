/**
 * Accounts (part 2: 2 "Accounts", 3, 4, 5, 7 "Accounts"): Ready To Invoice and Archieved projects,
 * invoices to clients, purchase orders to suppliers, supplier finances, the issuing companies. The
 * calls, the records they answer with, and the lists.
 */
import * as v from "valibot";
import { defineCall, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import { moneyCell as money } from "../format.ts";
import {
  InvoiceForm,
  InvoiceProjectsBody,
  InvoiceUpdate,
  IssuingCompanyForm,
  ManualProjectForm,
  PurchaseOrderForm,
  RefUploadBody,
} from "../schemas/accounts.ts";
import type { ProjectStatus } from "../status.ts";

// ---------------------------------------------------------------- records

/** A legal entity invoices and purchase orders come from, with its bank details (SUPERADMIN edits). */
export type IssuingCompany = {
  _id: string;
  /** The client account marker (wolfAccount) that picks this entity; "" for the default entity. */
  accountMarker: string;
  companyName: string;
  address: string;
  email: string;
  phone: string;
  taxNumber: string;
  /** Tax lines printed under an invoice's subtotal, one per line: "GST 18%" (a rate) or a note. */
  taxLines: string;
  serviceDescription: string;
  /** Beneficiary bank details for US payments, with the further-credit instructions. */
  bankUs: string;
  /** Beneficiary bank details for international payments, with the further-credit instructions. */
  bankInternational: string;
  updatedAt: string;
};

/** A project on the Ready To Invoice and Archieved tabs (group projects; figures summed over children). */
export type AccountProjectRow = {
  _id: string;
  projectCode: string;
  projectName: string;
  clientId: string;
  clientName: string;
  userId: string | null;
  /** Completes the router counted, summed over the children. */
  complete: number;
  /** The accepted count: approved, or the admin-approved count where staff set one. */
  approved: number;
  sampleSize: number;
  cpi: number;
  poNumber: string;
  projectStatus: ProjectStatus;
  projectStatusLabel: string;
  /** The invoice the project is on, if any, and its dates and reference. */
  invoiceId: string | null;
  invoiceCode: string;
  dueDate: string | null;
  recievedDate: string | null;
  referenceNo: string;
  /** The invoice line's total when invoiced, else the accepted count x CPI over the children. */
  total: number;
  createdAt: string;
};

/**
 * A Ready To Invoice project offered to the Generate Invoice form, with its default line: the
 * line's `complete` is the accepted count (`approved`), `routerComplete` what the router counted.
 */
export type InvoiceProjectOption = {
  _id: string;
  projectCode: string;
  projectName: string;
  poNumber: string;
  complete: number;
  approved: number;
  routerComplete: number;
  sampleSize: number;
  cpi: number;
  total: number;
};

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

export type PurchaseOrderLineRecord = {
  _id: string;
  supplierMapId: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  accepted: number;
  supplierCPI: number;
  total: number;
};

export type PurchaseOrderRecord = {
  _id: string;
  poCode: string;
  supplierId: string;
  supplierName: string;
  supplier: { _id: string; supplierName: string; supplierEmail: string; countryName: string };
  issuer: IssuingCompany;
  netTerms: number;
  poStatus: number;
  poStatusLabel: string;
  currentDate: string;
  dueDate: string;
  recievedDate: string | null;
  referenceNo: string;
  comment: string;
  total: number;
  projects: PurchaseOrderLineRecord[];
  createdAt: string;
  updatedAt: string;
};
export type PurchaseOrderSaved = { purchaseOrder: PurchaseOrderRecord; apiUrl: string };

/** A row of the Purchase Order tab. */
export type PurchaseOrderListItem = {
  _id: string;
  poCode: string;
  supplierId: string;
  supplierName: string;
  createdAt: string;
  currentDate: string;
  dueDate: string;
  recievedDate: string | null;
  referenceNo: string;
  comment: string;
  total: number;
  poStatus: number;
  poStatusLabel: string;
};

/** A row of the Finances tab: what a supplier earned on reconciled projects. */
export type SupplierFinanceRow = {
  _id: string;
  supplierName: string;
  supplierCode: string;
  projects: number;
  totalAccepted: number;
  totalCost: number;
};

/**
 * A reconciled project of one supplier (/admin/invoice/supplier/:id/list): one of its supplier maps
 * (`_id`), on a project past reconcile. Its CSV is Finances' "Export supplier map".
 */
export type SupplierProjectRow = {
  _id: string;
  supplierName: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  clientName: string;
  supplierCPI: number;
  totalAccepted: number;
  totalCost: number;
  /** The purchase order that paid it, if any. */
  poCode: string;
};

/** The metadata of a supplier's projects page: whose they are. */
export type SupplierProjectsMeta = { supplierName: string; supplierCode: string };

/**
 * What an Upload Ref. No. did: how many records it changed, the codes of its rows, and those
 * already Paid whose reference it replaced (only with `overwrite`).
 */
export type RefUploadResult = { updated: number; codes: string[]; overwritten: string[] };

/** A project entered by hand for invoicing. */
export type ManualProjectRecord = {
  _id: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
};

// ---------------------------------------------------------------- calls

export const listReadyToInvoice = defineCall({
  method: "POST",
  path: "/admin/invoice/projects",
  body: ListBody,
  csv: true,
  result: returns<ListResult<AccountProjectRow>>(),
});
export const listArchieved = defineCall({
  method: "POST",
  path: "/admin/archieved/projects",
  body: ListBody,
  csv: true,
  result: returns<ListResult<AccountProjectRow>>(),
});
export const invoiceProjectsCall = defineCall({
  method: "POST",
  path: "/admin/invoice/projects/all",
  body: InvoiceProjectsBody,
  result: returns<InvoiceProjectOption[]>(),
});
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
export const addManualProjectCall = defineCall({
  method: "POST",
  path: "/admin/invoice/manual/add",
  body: ManualProjectForm,
  result: returns<ManualProjectRecord>(),
});

export const listPurchaseOrders = defineCall({
  method: "POST",
  path: "/admin/invoices/supplier",
  body: ListBody,
  csv: true,
  result: returns<ListResult<PurchaseOrderListItem>>(),
});
export const addPurchaseOrderCall = defineCall({
  method: "POST",
  path: "/admin/invoice/supplier/add",
  body: PurchaseOrderForm,
  result: returns<PurchaseOrderSaved>(),
});
/** The purchase order's PDF (`PO#{code}.pdf`). */
export const downloadPurchaseOrderCall = defineCall({
  method: "POST",
  path: "/admin/invoice/supplier/download/:id",
  ids: { id: "Purchase order" },
  media: "application/pdf",
  result: returns<Blob>(),
});
export const uploadPurchaseOrderRefsCall = defineCall({
  method: "POST",
  path: "/admin/invoice/supplier/upload",
  body: RefUploadBody,
  bodyLimit: 4 * 1024 * 1024,
  result: returns<RefUploadResult>(),
});
export const listSupplierFinances = defineCall({
  method: "POST",
  path: "/admin/supplier/finances/all",
  body: ListBody,
  csv: true,
  result: returns<ListResult<SupplierFinanceRow>>(),
});
export const listSupplierProjects = defineCall({
  method: "POST",
  path: "/admin/project/reconsile/supplier/:supplierId",
  ids: { supplierId: "Supplier" },
  body: ListBody,
  csv: true,
  result: returns<ListResult<SupplierProjectRow>>(),
});

export const issuingCompaniesCall = defineCall({
  method: "GET",
  path: "/admin/issuing-companies",
  result: returns<IssuingCompany[]>(),
});
export const updateIssuingCompanyCall = defineCall({
  method: "PUT",
  path: "/admin/issuing-company/update/:id",
  ids: { id: "Issuing company" },
  body: IssuingCompanyForm,
  result: returns<IssuingCompany>(),
});

// ---------------------------------------------------------------- lists

const dmy = (iso: string | null) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : "");

const projectColumns = [
  { key: "projectCode", header: "Project code", value: (r: AccountProjectRow) => r.projectCode },
  { key: "projectName", header: "Title", value: (r: AccountProjectRow) => r.projectName },
  { key: "clientName", header: "Client name", value: (r: AccountProjectRow) => r.clientName },
  { key: "complete", header: "Complete", value: (r: AccountProjectRow) => r.complete },
  { key: "approved", header: "Approved", value: (r: AccountProjectRow) => r.approved },
  { key: "cpi", header: "CPI", value: (r: AccountProjectRow) => money(r.cpi) },
  { key: "poNumber", header: "PO number", value: (r: AccountProjectRow) => r.poNumber },
  { key: "dueDate", header: "Due date", value: (r: AccountProjectRow) => dmy(r.dueDate) },
  { key: "recievedDate", header: "Received date", value: (r: AccountProjectRow) => dmy(r.recievedDate) },
  { key: "referenceNo", header: "Reference", value: (r: AccountProjectRow) => r.referenceNo },
  { key: "total", header: "Total ($)", value: (r: AccountProjectRow) => money(r.total) },
  { key: "projectStatus", header: "Status", value: (r: AccountProjectRow) => r.projectStatusLabel },
];
const projectFilters = { clientId: "texts", userId: "texts" } as const;

/** Ready To Invoice (/admin/invoice): projects in status 4. */
export const readyToInvoiceList = defineList<AccountProjectRow>()({
  id: "ready-to-invoice",
  call: listReadyToInvoice,
  filters: projectFilters,
  sorts: ["projectCode", "createdAt"],
  columns: projectColumns,
});
/** Archieved (/admin/invoice/archieved): projects in status 7. */
export const archievedList = defineList<AccountProjectRow>()({
  id: "archieved-projects",
  call: listArchieved,
  filters: projectFilters,
  sorts: ["projectCode", "createdAt"],
  columns: projectColumns,
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

/** Purchase Order (/admin/invoice/supplier/list). */
export const purchaseOrdersList = defineList<PurchaseOrderListItem>()({
  id: "purchase-orders",
  call: listPurchaseOrders,
  filters: { supplierId: "texts", poStatus: "numbers" },
  sorts: ["poCode", "dueDate", "createdAt"],
  columns: [
    { key: "poCode", header: "PO number", value: (r) => r.poCode },
    { key: "supplierName", header: "Supplier name", value: (r) => r.supplierName },
    { key: "createdAt", header: "Created date", value: (r) => dmy(r.createdAt) },
    { key: "dueDate", header: "Due date", value: (r) => dmy(r.dueDate) },
    { key: "recievedDate", header: "Received date", value: (r) => dmy(r.recievedDate) },
    { key: "referenceNo", header: "Reference", value: (r) => r.referenceNo },
    { key: "comment", header: "Comment", value: (r) => r.comment },
    { key: "total", header: "Amount ($)", value: (r) => money(r.total) },
    { key: "poStatus", header: "Status", value: (r) => r.poStatusLabel },
  ],
});

/** Finances (/admin/invoice/supplier): suppliers with reconciled work. */
export const supplierFinancesList = defineList<SupplierFinanceRow>()({
  id: "supplier-finances",
  call: listSupplierFinances,
  filters: {},
  sorts: ["supplierName"],
  columns: [
    { key: "supplierName", header: "Supplier name", value: (r) => r.supplierName },
    { key: "projects", header: "Projects", value: (r) => r.projects },
    { key: "totalAccepted", header: "Total accepted", value: (r) => r.totalAccepted },
    { key: "totalCost", header: "Total cost ($)", value: (r) => money(r.totalCost) },
  ],
});

/**
 * A supplier's reconciled projects (/admin/invoice/supplier/:supplierid/list), its maps on them; the
 * page's metadata names the supplier (`SupplierProjectsMeta`).
 */
export const supplierProjectsList = defineList<SupplierProjectRow>()({
  id: "supplier-projects",
  call: listSupplierProjects,
  filters: { clientId: "texts", userId: "texts" },
  sorts: ["projectCode"],
  columns: [
    { key: "supplierName", header: "Supplier name", value: (r) => r.supplierName },
    { key: "_id", header: "Supplier map ID", value: (r) => r._id },
    { key: "projectCode", header: "Project code", value: (r) => r.projectCode },
    { key: "projectName", header: "Title", value: (r) => r.projectName },
    { key: "clientName", header: "Client name", value: (r) => r.clientName },
    { key: "supplierCPI", header: "Supplier CPI", value: (r) => money(r.supplierCPI) },
    { key: "totalAccepted", header: "Total accepted", value: (r) => r.totalAccepted },
    { key: "totalCost", header: "Total cost ($)", value: (r) => money(r.totalCost) },
    { key: "poCode", header: "PO number", value: (r) => r.poCode },
  ],
});

/** Issuing company ids are record ids; kept here so the edit screen needs no other import. */
export const IssuingCompanyId = v.pipe(v.string(), v.regex(/^[0-9a-f]{24}$/));
