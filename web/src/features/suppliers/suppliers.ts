/** Suppliers area (part 1, 2.8): the grid's declaration over the shared list of shared/api/suppliers.ts. */
import type { ListDecl } from "../../components/data-grid/types.ts";
import { COUNTRIES } from "../../lib/lookups.ts";
import { type SupplierListItem, suppliersList as suppliers } from "../../../../shared/api/suppliers.ts";

export type { SupplierListItem, SupplierRecord } from "../../../../shared/api/suppliers.ts";

export const suppliersList: ListDecl<
  SupplierListItem,
  "countries" | "countryId" | "supplierType" | "isActive"
> = {
  list: suppliers,
  rowId: (s) => s._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search name, code or email" },
    { kind: "status" },
    { kind: "select", key: "countries", label: "Countries", multiple: true, source: COUNTRIES },
    { kind: "export" },
  ],
};
