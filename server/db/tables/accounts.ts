/** Row types of issuing companies, invoices and purchase orders with their lines (migration 0010). */
import type { ColumnType } from "kysely";

type D<T> = ColumnType<T, T | undefined, T>;

export interface IssuingCompaniesTable {
  id: string;
  accountMarker: string;
  companyName: string;
  address: D<string>;
  email: D<string>;
  phone: D<string>;
  taxNumber: D<string>;
  /** Tax lines printed under an invoice's subtotal, one per line ("GST 18%", or a note). */
  taxLines: D<string>;
  serviceDescription: D<string>;
  bankUs: D<string>;
  bankInternational: D<string>;
  createdAt: string;
  updatedAt: string;
}

export interface InvoicesTable {
  id: string;
  invoiceCode: string;
  clientId: string;
  issuingCompanyId: string;
  netTerms: D<number>;
  invoiceStatus: D<number>;
  currentDate: string;
  dueDate: string;
  recievedDate: D<string | null>;
  referenceNo: D<string>;
  comment: D<string>;
  total: D<number>;
  isDeleted: D<number>;
  createdBy: D<string | null>;
  createdAt: string;
  updatedAt: string;
}

export interface InvoiceLinesTable {
  id: string;
  invoiceId: string;
  position: number;
  projectId: D<string | null>;
  projectCode: string;
  projectName: string;
  poNumber: D<string>;
  complete: D<number>;
  cpi: D<number>;
  total: D<number>;
}

export interface PurchaseOrdersTable {
  id: string;
  poCode: string;
  supplierId: string;
  issuingCompanyId: string;
  netTerms: D<number>;
  poStatus: D<number>;
  currentDate: string;
  dueDate: string;
  recievedDate: D<string | null>;
  referenceNo: D<string>;
  comment: D<string>;
  total: D<number>;
  isDeleted: D<number>;
  createdBy: D<string | null>;
  createdAt: string;
  updatedAt: string;
}

export interface PurchaseOrderLinesTable {
  id: string;
  purchaseOrderId: string;
  position: number;
  supplierMapId: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  accepted: D<number>;
  supplierCPI: D<number>;
  total: D<number>;
}

export interface ManualProjectFiguresTable {
  projectId: string;
  complete: D<number>;
}

export interface AccountTables {
  manual_project_figures: ManualProjectFiguresTable;
  issuing_companies: IssuingCompaniesTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  purchase_orders: PurchaseOrdersTable;
  purchase_order_lines: PurchaseOrderLinesTable;
}
