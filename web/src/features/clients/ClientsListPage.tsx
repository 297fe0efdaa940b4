/** /admin/client (part 1, 2.7): clients with their project figures, active switch, edit and delete. */
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
import { CountryName } from "../../components/display/CountryFlag.tsx";
import { countColumn, moneyColumn } from "../../components/data-grid/columns.tsx";
import { type ClientListItem, clientsList } from "./clients.ts";
import { updateClientCall } from "../../../../shared/api/clients.ts";

export default function ClientsListPage() {
  const list = useList<ClientListItem>(clientsList);
  const navigate = useNavigate();
  const canEdit = useCanEdit();

  const setActive = useActiveSwitch(list, updateClientCall);

  const columns = useMemo<GridColumn<ClientListItem>[]>(() => [
    {
      id: "clientName",
      header: "Client name",
      className: "min-w-44",
      cell: (c) => (
        <div className="flex flex-col">
          <Link
            to={`/admin/client/${c._id}/edit`}
            className="w-fit rounded-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            {c.clientName}
          </Link>
          <span className="text-xs text-muted-foreground">{c.clientCode}</span>
        </div>
      ),
    },
    {
      id: "region",
      header: "Region",
      cell: (c) => <CountryName flag={c.flag} code={c.countryCode} name={c.countryName} />,
    },
    countColumn<ClientListItem>("totalProjects", "Total projects", (c) => c.totalProjects),
    countColumn<ClientListItem>("activeProjects", "Active projects", (c) => c.activeProjects),
    countColumn<ClientListItem>("responded", "Traffic", (c) => c.responded),
    countColumn<ClientListItem>("completed", "Complete", (c) => c.completed),
    countColumn<ClientListItem>("approved", "Approved", (c) => c.approved),
    moneyColumn<ClientListItem>("actualRevenue", "Actual revenue", (c) => c.actualRevenue),
    moneyColumn<ClientListItem>("expectedRevenue", "Expected revenue", (c) => c.expectedRevenue),
    {
      id: "isActive",
      header: "Active",
      cell: (c) => (
        <Switch
          checked={c.isActive}
          disabled={!canEdit}
          title={c.isActive ? "Active" : "Inactive"}
          aria-label={`${c.isActive ? "Deactivate" : "Activate"} ${c.clientName}`}
          onCheckedChange={(isActive) => setActive(c, isActive)}
        />
      ),
    },
  ], [canEdit, setActive]);

  const actions = useMemo<RowAction<ClientListItem>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (c) => navigate(`/admin/client/${c._id}/edit`) },
    {
      label: "Delete",
      icon: Trash2,
      destructive: true,
      confirm: true,
      onSelect: async (c) => {
        const res = await api(updateClientCall, { params: { id: c._id }, body: { isDeleted: true } });
        list.removeRow(c._id);
        notify.success(res.message);
      },
    },
  ], [navigate, list.removeRow]);

  return (
    <>
      <PageHeader
        title="Clients"
        description="Buyers of completes: contacts, billing terms, integrations and how their projects are doing."
      />
      <FilterToolbar list={list} actions={<NewButton to="/admin/client/add">New Client</NewButton>} />
      <DataGrid list={list} columns={columns} rowActions={actions} caption="Clients" />
    </>
  );
}
