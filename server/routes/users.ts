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

const userCsv = [
  { header: "First name", value: (u: PublicUser) => u.firstName },
  { header: "Last name", value: (u: PublicUser) => u.lastName },
  { header: "Email", value: (u: PublicUser) => u.email },
  { header: "Phone number", value: (u: PublicUser) => u.phoneNumber },
  { header: "Role", value: (u: PublicUser) => ROLE_LABELS[u.role] },
  { header: "Active", value: (u: PublicUser) => (u.isActive ? "Active" : "Inactive") },
  { header: "Created", value: (u: PublicUser) => u.createdAt },
];

function idOf(c: Ctx) {
  const r = v.safeParse(IdParam, c.req.param("id"));
  if (!r.success) throw notFound("User");
  return r.output;
}

export function userRoutes(api: Api) {
  for (const [path, kind] of [["/admin/users", "staff"], ["/admin/users/supplier", "supplier"]] as const) {
    api.post(path, async (c) =>
      listResponse(c, await body(c, ListBody), {
        query: usersListQuery(c.get("deps").db, kind),
        spec: usersListSpec,
        map: publicUser,
        csv: { filename: kind === "staff" ? "users" : "supplier-users", columns: userCsv },
      }));
  }

  api.post("/admin/user/add", async (c) => {
    const input = await body(c, UserCreate);
    return ok(c, await createUser(c.get("deps").db, actorOf(c), input), "User added successfully");
  });

  api.put("/admin/user/update/:id", async (c) => {
    const id = idOf(c);
    const input = await body(c, UserUpdate);
    const user = await updateUser(c.get("deps").db, actorOf(c), id, input);
    const message = "isDeleted" in input ? "User deleted successfully" : "User updated successfully";
    return ok(c, user, message);
  });

  api.get("/admin/user/:id", async (c) => ok(c, await getUser(c.get("deps").db, idOf(c))));

  // pickers
  api.get("/admin/users/role/bde", async (c) => ok(c, await userOptions(c.get("deps").db, "BDE")));
  api.get("/admin/users/all", async (c) => ok(c, await userOptions(c.get("deps").db)));
  api.get("/admin/usersall", async (c) => ok(c, await userOptions(c.get("deps").db)));
}
