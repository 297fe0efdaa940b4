/** /admin/supplier (part 1, 2.8): suppliers with their figures, active switch, edit and delete. */
import { useMemo } from "react";
import { Link, useNavigate } from "react-router";
import { Pencil, Trash2 } from "lucide-react";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid, useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useActiveSwitch, useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Switch } from "../../components/ui/switch.tsx";
import { CountryFlag } from "../../components/display/CountryFlag.tsx";
import { countColumn, moneyColumn } from "../../components/data-grid/columns.tsx";
import { BulkEmailButton } from "./BulkEmailDialog.tsx";
import { ProfileSettingsButton } from "./ProfilesDialog.tsx";
import { type SupplierListItem, suppliersList } from "./suppliers.ts";
import { updateSupplierCall } from "../../../../shared/api/suppliers.ts";

export default function SuppliersListPage() {
  const list = useList<SupplierListItem>(suppliersList);
  const navigate = useNavigate();
  const canEdit = useCanEdit();

  const setActive = useActiveSwitch(list, updateSupplierCall);

  const columns = useMemo<GridColumn<SupplierListItem>[]>(() => [
    {
      id: "supplierName",
      header: "Supplier name",
      className: "min-w-44",
      cell: (s) => (
        <div className="flex flex-col">
          <Link
            to={`/admin/supplier/${s._id}/edit`}
            className="w-fit rounded-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            {s.supplierName}
          </Link>
          <span className="text-xs text-muted-foreground">
            {s.supplierShortCode} · {s.supplierTypeLabel}
          </span>
        </div>
      ),
    },
    {
      id: "country",
      header: "Country",
      cell: (s) => (
        <span className="inline-flex items-center gap-2 whitespace-nowrap">
          <CountryFlag flag={s.flag} code={s.countryCode} />
          <span className="flex flex-col">
            <span>{s.countryName}</span>
            <span className="text-xs text-muted-foreground">{s.countryCode}</span>
          </span>
        </span>
      ),
    },
    countColumn<SupplierListItem>("totalProjects", "Total projects", (s) => s.totalProjects),
    countColumn<SupplierListItem>("activeProjects", "Active projects", (s) => s.activeProjects),
    countColumn<SupplierListItem>("responded", "Traffic", (s) => s.responded),
    countColumn<SupplierListItem>("completed", "Completed", (s) => s.completed),
    countColumn<SupplierListItem>("approved", "Approved", (s) => s.approved),
    moneyColumn<SupplierListItem>("actualExpense", "Actual expense", (s) => s.actualExpense),
    moneyColumn<SupplierListItem>("expectedExpense", "Expected expense", (s) => s.expectedExpense),
    {
      id: "isActive",
      header: "Active",
      cell: (s) => (
        <Switch
          checked={s.isActive}
          disabled={!canEdit}
          title={s.isActive ? "Active" : "Inactive"}
          aria-label={`${s.isActive ? "Deactivate" : "Activate"} ${s.supplierName}`}
          onCheckedChange={(isActive) => setActive(s, isActive)}
        />
      ),
    },
  ], [canEdit, setActive]);

  const actions = useMemo<RowAction<SupplierListItem>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (s) => navigate(`/admin/supplier/${s._id}/edit`) },
    {
      label: "Delete",
      icon: Trash2,
      destructive: true,
      confirm: true,
      onSelect: async (s) => {
        const res = await api(updateSupplierCall, { params: { id: s._id }, body: { isDeleted: true } });
        list.removeRow(s._id);
        notify.success(res.message);
      },
    },
  ], [navigate, list.removeRow]);

  return (
    <>
      <PageHeader
        title="Suppliers"
        description="Panels that send respondents: where they send them back, what they cost and how they perform."
      />
      <FilterToolbar
        list={list}
        actions={
          <>
            <BulkEmailButton disabled={!canEdit} />
            <ProfileSettingsButton disabled={!canEdit} />
            <NewButton to="/admin/supplier/add">New Supplier</NewButton>
          </>
        }
      />
      <DataGrid list={list} columns={columns} rowActions={actions} caption="Suppliers" />
    </>
  );
}
