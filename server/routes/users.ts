import * as v from "valibot";
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body, IdParam } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { listResponse } from "../http/list-route.ts";
import { ListBody } from "../../shared/list.ts";
import { UserCreate, UserUpdate } from "../../shared/schemas/user.ts";
import { ROLE_LABELS } from "../../shared/roles.ts";
import {
  createUser,
  getUser,
  type PublicUser,
  publicUser,
  updateUser,
  userOptions,
  usersListQuery,
  usersListSpec,
} from "../domain/users/users.ts";
import { notFound } from "../http/errors.ts";
import type { Ctx } from "../http/context.ts";
import { supplierExists, supplierNames } from "../domain/suppliers/lookup.ts";

type UserRow = PublicUser & { supplierName?: string };

/** Supplier users show their supplier's name: one query per page. */
async function withSupplierNames(
  db: Parameters<typeof supplierNames>[0],
  rows: UserRow[],
): Promise<UserRow[]> {
  const names = await supplierNames(db, rows.map((r) => r.supplierId ?? ""));
  return rows.map((r) => ({ ...r, supplierName: r.supplierId ? names.get(r.supplierId) ?? "" : "" }));
}

const userCsv = [
  { header: "First name", value: (u: UserRow) => u.firstName },
  { header: "Last name", value: (u: UserRow) => u.lastName },
  { header: "Email", value: (u: UserRow) => u.email },
  { header: "Phone number", value: (u: UserRow) => u.phoneNumber },
  { header: "Role", value: (u: UserRow) => ROLE_LABELS[u.role] },
  { header: "Active", value: (u: UserRow) => (u.isActive ? "Active" : "Inactive") },
  { header: "Created", value: (u: UserRow) => u.createdAt },
];
const supplierUserCsv = [...userCsv.slice(0, 4), {
  header: "Supplier",
  value: (u: UserRow) => u.supplierName,
}, ...userCsv.slice(4)];

function idOf(c: Ctx) {
  const r = v.safeParse(IdParam, c.req.param("id"));
  if (!r.success) throw notFound("User");
  return r.output;
}

export function userRoutes(api: Api) {
  for (const [path, kind] of [["/admin/users", "staff"], ["/admin/users/supplier", "supplier"]] as const) {
    api.post(path, async (c) => {
      const db = c.get("deps").db;
      return listResponse<UserRow>(c, await body(c, ListBody), {
        query: usersListQuery(db, kind),
        spec: usersListSpec,
        map: publicUser,
        enrich: kind === "supplier" ? (rows) => withSupplierNames(db, rows) : undefined,
        csv: kind === "staff"
          ? { filename: "users", columns: userCsv }
          : { filename: "supplier-users", columns: supplierUserCsv },
      });
    });
  }

  api.post("/admin/user/add", async (c) => {
    const input = await body(c, UserCreate);
    // a SUPPLIER user must belong to a live supplier (400 'Supplier is required' otherwise)
    return ok(
      c,
      await createUser(c.get("deps").db, actorOf(c), input, supplierExists),
      "User added successfully",
    );
  });

  api.put("/admin/user/update/:id", async (c) => {
    const id = idOf(c);
    const input = await body(c, UserUpdate);
    const user = await updateUser(c.get("deps").db, actorOf(c), id, input, supplierExists);
    const message = "isDeleted" in input ? "User deleted successfully" : "User updated successfully";
    return ok(c, user, message);
  });

  // a supplier login reads with its supplier's name (the form shows it even if that supplier is inactive)
  api.get("/admin/user/:id", async (c) => {
    const db = c.get("deps").db;
    const [user] = await withSupplierNames(db, [await getUser(db, idOf(c))]);
    return ok(c, user);
  });

  // pickers
  api.get("/admin/users/role/bde", async (c) => ok(c, await userOptions(c.get("deps").db, "BDE")));
  api.get("/admin/users/all", async (c) => ok(c, await userOptions(c.get("deps").db)));
  api.get("/admin/usersall", async (c) => ok(c, await userOptions(c.get("deps").db)));
}
