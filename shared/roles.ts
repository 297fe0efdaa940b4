/** The eight roles of the spec (part 1 section 6, part 2 section 6). */
export const ROLES = [
  "SUBSCRIBER",
  "APIMANAGER",
  "SUPERADMIN",
  "ADMIN",
  "MANAGER",
  "ACCOUNTANT",
  "SUPPLIER",
  "BDE",
] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES: readonly Role[] = ROLES.filter((r) => r !== "SUPPLIER");

export const ROLE_LABELS: Record<Role, string> = {
  SUBSCRIBER: "Subscriber",
  APIMANAGER: "API Manager",
  SUPERADMIN: "Super Admin",
  ADMIN: "Admin",
  MANAGER: "Manager",
  ACCOUNTANT: "Accountant",
  SUPPLIER: "Supplier",
  BDE: "BDE",
};

/** Roles that may not open row action menus nor use a list's New button (part 1, 2.4). */
export const READ_ONLY_ROLES: readonly Role[] = ["SUBSCRIBER", "BDE"];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Where a signed-in user lands (part 1, 2.1). */
export function homePathFor(role: Role): string {
  return role === "SUPPLIER" ? "/supplier/project" : "/admin/dashboard";
}
