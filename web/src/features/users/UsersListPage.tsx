/** /admin/user (Managers) and /admin/user/supplier (Suppliers): part 2, Users. */
import { useMemo } from "react";
import { useLocation, useNavigate } from "react-router";
import { Pencil, Trash2 } from "lucide-react";
import { ROLE_LABELS } from "../../../../shared/roles.ts";
import { api } from "../../lib/api.ts";
import { updateUserCall } from "../../../../shared/api/users.ts";
import { notify } from "../../lib/notify.ts";
import { initialsOf, useAuth } from "../../lib/auth.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid, useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useActiveSwitch, useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import {
  lockedReason,
  managersList,
  ROLE_TONES,
  supplierUsersList,
  USER_TABS,
  type UserRecord,
} from "./users.ts";

export default function UsersListPage() {
  const { pathname } = useLocation();
  const suppliers = pathname.replace(/\/+$/, "").endsWith("/supplier");
  // the key remounts the grid so each tab keeps its own URL state and selection
  return <UsersList key={suppliers ? "suppliers" : "managers"} suppliers={suppliers} />;
}

function UsersList({ suppliers }: { suppliers: boolean }) {
  const list = useList<UserRecord>(suppliers ? supplierUsersList : managersList);
  const navigate = useNavigate();
  const canEdit = useCanEdit();
  const me = useAuth((s) => s.admin);

  const setActive = useActiveSwitch(list, updateUserCall);

  const columns = useMemo<GridColumn<UserRecord>[]>(() => [
    {
      id: "name",
      header: "Name",
      cell: (u) => (
        <div className="flex items-center gap-3">
          <span
            className="grid size-8 shrink-0 place-items-center rounded-full bg-accent text-xs font-semibold text-accent-foreground"
            aria-hidden="true"
          >
            {initialsOf(u)}
          </span>
          <span className="font-medium">{u.fullName}</span>
        </div>
      ),
    },
    { id: "email", header: "Email", cell: (u) => u.email },
    {
      id: "phoneNumber",
      header: "Phone number",
      cell: (u) => u.phoneNumber || <span className="text-muted-foreground">—</span>,
    },
    ...(suppliers
      ? [{
        id: "supplierName",
        header: "Supplier",
        cell: (u: UserRecord) => u.supplierName || <span className="text-muted-foreground">—</span>,
      }]
      : []),
    {
      id: "role",
      header: "Role",
      cell: (u) => <Badge tone={ROLE_TONES[u.role]}>{ROLE_LABELS[u.role]}</Badge>,
    },
    {
      id: "isActive",
      header: "Active",
      cell: (u) => (
        <div className="flex items-center gap-2">
          <Switch
            checked={u.isActive}
            disabled={!canEdit || !!lockedReason(u, me)}
            title={lockedReason(u, me) ?? undefined}
            aria-label={`${u.isActive ? "Deactivate" : "Activate"} ${u.fullName}`}
            onCheckedChange={(isActive) => setActive(u, isActive)}
          />
          <span className="text-xs text-muted-foreground">{u.isActive ? "Active" : "Inactive"}</span>
        </div>
      ),
    },
  ], [canEdit, setActive, me, suppliers]);

  const actions = useMemo<RowAction<UserRecord>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (u) => navigate(`/admin/user/${u._id}/edit`) },
    {
      label: "Delete",
      icon: Trash2,
      destructive: true,
      confirm: true,
      disabled: (u) => lockedReason(u, me),
      onSelect: async (u) => {
        const res = await api(updateUserCall, { params: { id: u._id }, body: { isDeleted: true } });
        list.removeRow(u._id);
        notify.success(res.message);
      },
    },
  ], [navigate, list.removeRow, me]);

  return (
    <>
      <PageHeader
        title="Users"
        description="Staff accounts and supplier logins: who can sign in, with which role."
        tabs={USER_TABS}
      />
      <FilterToolbar
        list={list}
        actions={
          <NewButton to={suppliers ? "/admin/user/add?role=SUPPLIER" : "/admin/user/add"}>New User</NewButton>
        }
      />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        caption={suppliers ? "Supplier users" : "Managers"}
      />
    </>
  );
}
