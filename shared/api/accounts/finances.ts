/**
 * Supplier finances (part 2: 2 "Finances", 3 Supplier finance row): suppliers with reconciled work,
 * and one supplier's reconciled projects (its maps on them).
 */
import { defineCall, returns } from "../contract.ts";
import { defineList, ListBody, type ListResult } from "../../list.ts";
import { moneyCell as money } from "../../format.ts";

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
