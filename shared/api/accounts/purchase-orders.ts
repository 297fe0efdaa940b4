/** Purchase orders to suppliers (part 2: 2 "Purchase Order", 3 Purchase order): records, calls, grid. */
import { defineCall, returns } from "../contract.ts";
import { defineList, ListBody, type ListResult } from "../../list.ts";
import { moneyCell as money } from "../../format.ts";
import { PurchaseOrderForm, RefUploadBody } from "../../schemas/accounts.ts";
import type { IssuingCompany } from "./issuers.ts";
import { dmy, type RefUploadResult } from "./common.ts";

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
