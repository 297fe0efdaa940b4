/** Users (part 2: Users): the calls, the records they answer with, the two lists. */
import { defineCall, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import { UserCreate, UserUpdate } from "../schemas/user.ts";
import { type Role, ROLE_LABELS } from "../roles.ts";

/** A user as the API shows it (never the password hash). */
export type PublicUser = {
  _id: string;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string;
  phoneNumber: string;
  role: Role;
  supplierId: string | null;
  isActive: boolean;
  createdAt: string;
};

/** A row of the Users grids and the edit form's record: supplier logins also name their supplier. */
export type UserRecord = PublicUser & { supplierName?: string };

/** An active staff user in a select. */
export type UserOption = {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  label: string;
  value: string;
};

export const listUsers = defineCall({
  method: "POST",
  path: "/admin/users",
  body: ListBody,
  csv: true,
  result: returns<ListResult<UserRecord>>(),
});
export const listSupplierUsers = defineCall({
  method: "POST",
  path: "/admin/users/supplier",
  body: ListBody,
  csv: true,
  result: returns<ListResult<UserRecord>>(),
});
export const addUser = defineCall({
  method: "POST",
  path: "/admin/user/add",
  body: UserCreate,
  result: returns<PublicUser>(),
});
/** Also `{ isActive }` or `{ isDeleted: true }` alone; answers the user as it now is. */
export const updateUserCall = defineCall({
  method: "PUT",
  path: "/admin/user/update/:id",
  ids: { id: "User" },
  body: UserUpdate,
  result: returns<PublicUser>(),
});
/** A supplier login reads with its supplier's name (shown even if that supplier is inactive). */
export const getUserCall = defineCall({
  method: "GET",
  path: "/admin/user/:id",
  ids: { id: "User" },
  result: returns<UserRecord>(),
});
/** Active BDE users (a client's Assigned To). */
export const bdeUserOptions = defineCall({
  method: "GET",
  path: "/admin/users/role/bde",
  result: returns<UserOption[]>(),
});
export const userOptionsCall = defineCall({
  method: "GET",
  path: "/admin/users/all",
  result: returns<UserOption[]>(),
});
/** The same as /admin/users/all (the spec names both). */
export const userOptionsAllCall = defineCall({
  method: "GET",
  path: "/admin/usersall",
  result: returns<UserOption[]>(),
});

const filters = { role: "texts", supplierId: "text", isActive: "flag" } as const;
const sorts = ["name", "email", "role", "createdAt"] as const;

const columns = {
  firstName: { key: "firstName", header: "First name", value: (u: UserRecord) => u.firstName },
  lastName: { key: "lastName", header: "Last name", value: (u: UserRecord) => u.lastName },
  email: { key: "email", header: "Email", value: (u: UserRecord) => u.email },
  phoneNumber: { key: "phoneNumber", header: "Phone number", value: (u: UserRecord) => u.phoneNumber },
  supplierName: { key: "supplierName", header: "Supplier", value: (u: UserRecord) => u.supplierName },
  role: { key: "role", header: "Role", value: (u: UserRecord) => ROLE_LABELS[u.role] },
  isActive: {
    key: "isActive",
    header: "Active",
    value: (u: UserRecord) => (u.isActive ? "Active" : "Inactive"),
  },
  createdAt: { key: "createdAt", header: "Created", value: (u: UserRecord) => u.createdAt },
};

/** The Managers tab: every staff role. */
export const usersList = defineList<UserRecord>()({
  id: "users",
  call: listUsers,
  filters,
  sorts,
  columns: [
    columns.firstName,
    columns.lastName,
    columns.email,
    columns.phoneNumber,
    columns.role,
    columns.isActive,
    columns.createdAt,
  ],
});

/** The Suppliers tab: supplier logins, with their supplier's name. */
export const supplierUsersList = defineList<UserRecord>()({
  id: "supplier-users",
  call: listSupplierUsers,
  filters,
  sorts,
  columns: [
    columns.firstName,
    columns.lastName,
    columns.email,
    columns.phoneNumber,
    columns.supplierName,
    columns.role,
    columns.isActive,
    columns.createdAt,
  ],
});
