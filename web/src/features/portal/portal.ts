/** The supplier portal's lists and records (declared in shared/api/portal.ts). */
import type { ListDecl } from "../../components/data-grid/types.ts";
import {
  inventoryList,
  type InventoryProject,
  mappedProjectsList,
  type PortalProject,
} from "../../../../shared/api/portal.ts";
import { PROJECT_STATUS_LIST } from "../../../../shared/status.ts";

export type {
  InventoryProject,
  PortalProject,
  SupplierDashboard,
  SupplierRedirects,
} from "../../../../shared/api/portal.ts";

export const mappedDecl: ListDecl<PortalProject, "projectStatus"> = {
  list: mappedProjectsList,
  rowId: (r) => r._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search projects", hint: "Project code or name" },
    {
      kind: "select",
      key: "projectStatus",
      label: "Status",
      multiple: true,
      numeric: true,
      options: PROJECT_STATUS_LIST.map((s) => ({ value: String(s.value), label: s.label })),
    },
  ],
};

export const inventoryDecl: ListDecl<InventoryProject> = {
  list: inventoryList,
  rowId: (r) => r._id,
  defaultPageSize: 10,
  filters: [{ kind: "search", placeholder: "Search projects", hint: "Project code or name" }],
};

/** A percentage, or a dash before there is anything to divide. */
export const pctText = (n: number | null) => (n === null ? "–" : `${n}%`);
