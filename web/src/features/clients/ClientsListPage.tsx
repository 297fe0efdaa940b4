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
import { CountryName } from "../common/CountryFlag.tsx";
import { countColumn, moneyColumn } from "../common/columns.tsx";
import { type ClientRow, clientsList } from "./clients.ts";

export default function ClientsListPage() {
  const list = useList<ClientRow>(clientsList);
  const navigate = useNavigate();
  const canEdit = useCanEdit();

  const setActive = useActiveSwitch(list, (c: ClientRow) => `/admin/client/update/${c._id}`);

  const columns = useMemo<GridColumn<ClientRow>[]>(() => [
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
    countColumn<ClientRow>("totalProjects", "Total projects", (c) => c.totalProjects),
    countColumn<ClientRow>("activeProjects", "Active projects", (c) => c.activeProjects),
    countColumn<ClientRow>("responded", "Traffic", (c) => c.responded),
    countColumn<ClientRow>("completed", "Complete", (c) => c.completed),
    countColumn<ClientRow>("approved", "Approved", (c) => c.approved),
    moneyColumn<ClientRow>("actualRevenue", "Actual revenue", (c) => c.actualRevenue),
    moneyColumn<ClientRow>("expectedRevenue", "Expected revenue", (c) => c.expectedRevenue),
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

  const actions = useMemo<RowAction<ClientRow>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (c) => navigate(`/admin/client/${c._id}/edit`) },
    {
      label: "Delete",
      icon: Trash2,
      destructive: true,
      confirm: true,
      onSelect: async (c) => {
        const res = await api.put(`/admin/client/update/${c._id}`, { isDeleted: true });
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
