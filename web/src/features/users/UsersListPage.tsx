/** /admin/user (Managers) and /admin/user/supplier (Suppliers): part 2, Users. */
import { useMemo } from "react";
import { useLocation, useNavigate } from "react-router";
import { useMutation } from "@tanstack/react-query";
import { Pencil, Trash2 } from "lucide-react";
import { ROLE_LABELS } from "../../../../shared/roles.ts";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { initialsOf } from "../../lib/auth.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid, useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { managersList, ROLE_TONES, supplierUsersList, USER_TABS, type UserRow } from "./users.ts";

export default function UsersListPage() {
  const { pathname } = useLocation();
  const suppliers = pathname.replace(/\/+$/, "").endsWith("/supplier");
  // the key remounts the grid so each tab keeps its own URL state and selection
  return <UsersList key={suppliers ? "suppliers" : "managers"} suppliers={suppliers} />;
}

function UsersList({ suppliers }: { suppliers: boolean }) {
  const list = useList<UserRow>(suppliers ? supplierUsersList : managersList);
  const navigate = useNavigate();
  const canEdit = useCanEdit();

  const toggleActive = useMutation({
    mutationFn: ({ user, isActive }: { user: UserRow; isActive: boolean }) =>
      api.put<UserRow>(`/admin/user/update/${user._id}`, { isActive }),
    onMutate: ({ user, isActive }) => list.patchRow(user._id, { isActive }),
    onSuccess: (res) => notify.success(res.message),
    onError: (_e, { user }) => list.patchRow(user._id, { isActive: user.isActive }),
    // a status filter may no longer match the row: let the server say what the page holds now
    onSettled: () => void list.invalidate(),
  });

  const columns = useMemo<GridColumn<UserRow>[]>(() => [
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
            disabled={!canEdit}
            aria-label={`${u.isActive ? "Deactivate" : "Activate"} ${u.fullName}`}
            onCheckedChange={(isActive) => toggleActive.mutate({ user: u, isActive })}
          />
          <span className="text-xs text-muted-foreground">{u.isActive ? "Active" : "Inactive"}</span>
        </div>
      ),
    },
  ], [canEdit, toggleActive.mutate]);

  const actions = useMemo<RowAction<UserRow>[]>(() => [
    { label: "Edit", icon: Pencil, onSelect: (u) => navigate(`/admin/user/${u._id}/edit`) },
    {
      label: "Delete",
      icon: Trash2,
      destructive: true,
      confirm: true,
      onSelect: async (u) => {
        const res = await api.put(`/admin/user/update/${u._id}`, { isDeleted: true });
        list.removeRow(u._id);
        notify.success(res.message);
      },
    },
  ], [navigate, list.removeRow]);

  return (
    <>
      <PageHeader
        title="Users"
        description="Staff accounts and supplier logins: who can sign in, with which role."
        tabs={USER_TABS}
      />
      <FilterToolbar list={list} actions={<NewButton to="/admin/user/add">New User</NewButton>} />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        caption={suppliers ? "Supplier users" : "Managers"}
      />
    </>
  );
}
