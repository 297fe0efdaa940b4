/** Accounts area (part 2, 2 "Accounts"): the tab strip and the grids' declarations over shared/api/accounts.ts. */
import type { ListDecl, OptionsSource } from "../../components/data-grid/types.ts";
import type { PageTab } from "../../components/layout/PageHeader.tsx";
import {
  type AccountProjectRow,
  archievedList as archieved,
  type InvoiceListItem,
  invoicesList as invoices,
  type PurchaseOrderListItem,
  purchaseOrdersList as purchaseOrders,
  readyToInvoiceList as ready,
  type SupplierFinanceRow,
  supplierFinancesList as finances,
  type SupplierProjectRow,
  supplierProjectsList as supplierProjects,
} from "../../../../shared/api/accounts.ts";
import { type UserOption, userOptionsCall } from "../../../../shared/api/users.ts";
import { INVOICE_STATUS } from "../../../../shared/status.ts";
import { CLIENTS, SUPPLIERS } from "../../lib/lookups.ts";

export type * from "../../../../shared/api/accounts.ts";

/** The shared tab strip of Accounts. */
export const ACCOUNT_TABS: PageTab[] = [
  { label: "Ready To Invoice", to: "/admin/invoice" },
  { label: "Archieved", to: "/admin/invoice/archieved" },
  { label: "Invoices", to: "/admin/invoice/list" },
  { label: "Finances", to: "/admin/invoice/supplier" },
  { label: "Purchase Order", to: "/admin/invoice/supplier/list" },
];

/** Staff (GET /admin/users/all; supplier logins left out). */
export const USERS: OptionsSource = {
  call: userOptionsCall,
  map: (u: UserOption) => ({ value: u.role === "SUPPLIER" ? "" : u._id, label: u.label || u.email }),
};

const projectFilters = [
  { kind: "search", placeholder: "Search projects", hint: "Searches code, title, client and PO number" },
  { kind: "select", key: "clientId", label: "Client", multiple: true, source: CLIENTS },
  { kind: "select", key: "userId", label: "User", multiple: true, source: USERS },
  { kind: "export" },
] as const;

export const readyToInvoiceList: ListDecl<AccountProjectRow, "clientId" | "userId"> = {
  list: ready,
  rowId: (r) => r._id,
  defaultPageSize: 20,
  filters: [...projectFilters],
};
export const archievedList: ListDecl<AccountProjectRow, "clientId" | "userId"> = {
  list: archieved,
  rowId: (r) => r._id,
  defaultPageSize: 20,
  filters: [...projectFilters],
};

export const INVOICE_STATUS_OPTIONS = INVOICE_STATUS.map((s) => ({ value: String(s.value), label: s.label }));

export const invoicesList: ListDecl<InvoiceListItem, "clientId" | "invoiceStatus"> = {
  list: invoices,
  rowId: (r) => r._id,
  defaultPageSize: 20,
  filters: [
    { kind: "search", placeholder: "Search invoices", hint: "Searches invoice number, client and reference" },
    { kind: "select", key: "clientId", label: "Client", multiple: true, source: CLIENTS },
    {
      kind: "select",
      key: "invoiceStatus",
      label: "Status",
      multiple: true,
      options: INVOICE_STATUS_OPTIONS,
      numeric: true,
    },
    { kind: "export" },
  ],
};

export const purchaseOrdersList: ListDecl<PurchaseOrderListItem, "supplierId" | "poStatus"> = {
  list: purchaseOrders,
  rowId: (r) => r._id,
  defaultPageSize: 20,
  filters: [
    {
      kind: "search",
      placeholder: "Search purchase orders",
      hint: "Searches PO number, supplier and reference",
    },
    { kind: "select", key: "supplierId", label: "Supplier", multiple: true, source: SUPPLIERS },
    {
      kind: "select",
      key: "poStatus",
      label: "Status",
      multiple: true,
      options: INVOICE_STATUS_OPTIONS,
      numeric: true,
    },
    { kind: "export" },
  ],
};

export const supplierFinancesList: ListDecl<SupplierFinanceRow, never> = {
  list: finances,
  rowId: (r) => r._id,
  defaultPageSize: 100,
  filters: [{ kind: "search", placeholder: "Search suppliers" }, { kind: "export" }],
};

export const supplierProjectsList = (
  supplierId: string,
): ListDecl<SupplierProjectRow, "clientId" | "userId"> => ({
  list: supplierProjects,
  id: `supplier-projects-${supplierId}`,
  params: { supplierId },
  rowId: (r) => r._id,
  defaultPageSize: 20,
  filters: [
    { kind: "search", placeholder: "Search projects" },
    { kind: "select", key: "clientId", label: "Client", multiple: true, source: CLIENTS },
    { kind: "select", key: "userId", label: "User", multiple: true, source: USERS },
    { kind: "export" },
  ],
});

/** dd/mm/yyyy of a calendar day (the list due dates are days of the +05:30 business calendar). */
export function dmy(day: string | null | undefined): string {
  return day ? `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}` : "";
}
/** $1,234.50 */
export const usd = (n: number) =>
  `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Today at the business's +05:30, and days from a day. */
export function today(): string {
  return new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
}
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
