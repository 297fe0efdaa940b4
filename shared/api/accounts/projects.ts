/**
 * The project tabs of Accounts (part 2, 2 "Accounts", 5 "Manual project"): Ready To Invoice and
 * Archieved, the projects an invoice form offers, and the manual project entered for invoicing.
 */
import { defineCall, returns } from "../contract.ts";
import { defineList, ListBody, type ListResult } from "../../list.ts";
import { moneyCell as money } from "../../format.ts";
import { InvoiceProjectsBody, ManualProjectForm } from "../../schemas/accounts.ts";
import type { ProjectStatus } from "../../status.ts";
import { dmy } from "./common.ts";

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

/** A project entered by hand for invoicing. */
export type ManualProjectRecord = {
  _id: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
};

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
export const addManualProjectCall = defineCall({
  method: "POST",
  path: "/admin/invoice/manual/add",
  body: ManualProjectForm,
  result: returns<ManualProjectRecord>(),
});

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
