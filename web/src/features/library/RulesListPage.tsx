/** /admin/library/rule (part 2, Library > Supplier Rules): the CPI band of a rule, edit and delete. */
import { useMemo } from "react";
import { Link, useNavigate } from "react-router";
import { Pencil, Trash2 } from "lucide-react";
import { api } from "../../lib/api.ts";
import { updateSupplierRuleCall } from "../../../../shared/api/library.ts";
import { notify } from "../../lib/notify.ts";
import { formatMoney } from "../../lib/format.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid, useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useActiveSwitch, useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Switch } from "../../components/ui/switch.tsx";
import {
  LIBRARY_DESCRIPTION,
  type SupplierRuleRecord,
  supplierRulesList,
  useLibraryTabs,
} from "./library.ts";

export default function RulesListPage() {
  const list = useList<SupplierRuleRecord>(supplierRulesList);
  const navigate = useNavigate();
  const canEdit = useCanEdit();
  const tabs = useLibraryTabs();

  const setActive = useActiveSwitch(list, updateSupplierRuleCall);

  const columns = useMemo<GridColumn<SupplierRuleRecord>[]>(() => [
    {
      id: "minSupplierCpi",
      header: "Minimum CPI",
      className: "tabular-nums",
      cell: (r) => (
        <Link
          to={`/admin/library/rule/${r._id}/edit`}
          className="rounded-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {formatMoney(r.minSupplierCpi)}
        </Link>
      ),
    },
    {
      id: "maxSupplierCpi",
      header: "Maximum CPI",
      className: "tabular-nums",
      cell: (r) => formatMoney(r.maxSupplierCpi),
    },
    {
      id: "categoryTitle",
      header: "Category",
      cell: (r) => r.categoryTitle || <span className="text-muted-foreground">—</span>,
    },
    {
      id: "isActive",
      header: "Active",
      cell: (r) => (
        <div className="flex items-center gap-2">
          <Switch
            checked={r.isActive}
            disabled={!canEdit}
            aria-label={`${
              r.isActive ? "Deactivate" : "Activate"
            } rule ${r.minSupplierCpi}–${r.maxSupplierCpi}`}
            onCheckedChange={(isActive) => setActive(r, isActive)}
          />
          <span className="text-xs text-muted-foreground">{r.isActive ? "Active" : "Inactive"}</span>
        </div>
      ),
    },
  ], [canEdit, setActive]);

  const actions = useMemo<RowAction<SupplierRuleRecord>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (r) => navigate(`/admin/library/rule/${r._id}/edit`) },
    {
      label: "Delete",
      icon: Trash2,
      destructive: true,
      confirm: true,
      onSelect: async (r) => {
        const res = await api(updateSupplierRuleCall, { params: { id: r._id }, body: { isDeleted: true } });
        list.removeRow(r._id);
        notify.success(res.message);
      },
    },
  ], [navigate, list.removeRow]);

  return (
    <>
      <PageHeader title="Library" description={LIBRARY_DESCRIPTION} tabs={tabs} />
      <FilterToolbar list={list} actions={<NewButton to="/admin/library/rule/add">New Rule</NewButton>} />
      <DataGrid list={list} columns={columns} rowActions={actions} caption="Supplier rules" />
    </>
  );
}
