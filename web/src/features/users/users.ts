/** Users area: the two lists (managers, suppliers) and the labels and colours of roles. */
import { type Role, ROLE_LABELS } from "../../../../shared/roles.ts";
import type { ListDecl } from "../../components/data-grid/types.ts";
import {
  supplierUsersList as supplierUsers,
  type UserRecord,
  usersList as users,
} from "../../../../shared/api/users.ts";
import type { BadgeTone } from "../../components/ui/badge.tsx";

export type { UserRecord } from "../../../../shared/api/users.ts";

/**
 * Why the signed-in user may not switch off or delete this row, or null (the server's rules, shown
 * ahead: nobody deactivates or deletes their own account; Super Admins are for Super Admins).
 */
export function lockedReason(
  row: Pick<UserRecord, "_id" | "role">,
  me: { _id: string; role: Role } | null,
): string | null {
  if (!me) return null;
  if (row._id === me._id) return "Your own account";
  if (row.role === "SUPERADMIN" && me.role !== "SUPERADMIN") return "Super Admins only";
  return null;
}

const filters = [
  { kind: "search", placeholder: "Search name, email or phone" },
  { kind: "status" },
  { kind: "export" },
] as const satisfies ListDecl<UserRecord>["filters"];

export const managersList: ListDecl<UserRecord> = {
  list: users,
  rowId: (u) => u._id,
  defaultPageSize: 10,
  filters: [...filters],
};

export const supplierUsersList: ListDecl<UserRecord> = {
  list: supplierUsers,
  rowId: (u) => u._id,
  defaultPageSize: 10,
  filters: [...filters],
};

export const ROLE_TONES: Record<Role, BadgeTone> = {
  SUPERADMIN: "violet",
  ADMIN: "primary",
  MANAGER: "blue",
  ACCOUNTANT: "green",
  SUBSCRIBER: "slate",
  APIMANAGER: "cyan",
  SUPPLIER: "orange",
  BDE: "pink",
};

export const roleOptions = (Object.keys(ROLE_LABELS) as Role[]).map((r) => ({
  value: r,
  label: ROLE_LABELS[r],
}));

/** The roles the signed-in user may give: SUPERADMIN only by a SUPERADMIN (or when already held). */
export function roleOptionsFor(myRole: Role | undefined, current?: string) {
  return roleOptions.filter((o) =>
    o.value !== "SUPERADMIN" || myRole === "SUPERADMIN" || current === o.value
  );
}

export const USER_TABS = [
  { label: "Managers", to: "/admin/user" },
  { label: "Suppliers", to: "/admin/user/supplier" },
];
