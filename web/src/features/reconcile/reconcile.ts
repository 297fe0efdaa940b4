/** Reconcile area (part 2, "Reconcile"): the grid's declaration over the shared list of shared/api/reconcile.ts. */
import type { ListDecl } from "../../components/data-grid/types.ts";
import { reconcileList as reconcile, type ReconcileListItem } from "../../../../shared/api/reconcile.ts";
import { PROJECT_STATUS } from "../../../../shared/status.ts";
import { STATUS_OPTIONS } from "../projects/index.ts";

export type {
  ReconcileListItem,
  ReconcileResult,
  ReconcileSummary,
  SupplierSummaryRow,
  UndoResult,
} from "../../../../shared/api/reconcile.ts";

/** The status the reconcile list opens on (part 2, 2: default status filter 6, Closed). */
export const DEFAULT_RECONCILE_STATUS = PROJECT_STATUS.CLOSED;

export const reconcileListDecl: ListDecl<ReconcileListItem, "projectStatus"> = {
  list: reconcile,
  rowId: (p) => p._id,
  defaultPageSize: 20,
  filters: [
    { kind: "search", placeholder: "Search projects", hint: "Searches project code, name and client" },
    {
      kind: "select",
      key: "projectStatus",
      label: "Status",
      multiple: true,
      numeric: true,
      options: STATUS_OPTIONS,
    },
    { kind: "export" },
  ],
};
