/** Users (part 2: Users): handlers of the contracts in shared/api/users.ts. */
import { answer, type Api } from "../http/api.ts";
import * as U from "../../shared/api/users.ts";
import {
  createUser,
  getUserRecord,
  publicUser,
  updateUser,
  userOptions,
  usersListQuery,
  usersListSpec,
  withSupplierNames,
} from "../domain/users/users.ts";
import { supplierExists } from "../domain/suppliers/lookup.ts";

export function userRoutes(api: Api) {
  api.list(U.listUsers, ({ db }) => ({
    query: usersListQuery(db, "staff"),
    spec: usersListSpec,
    map: publicUser,
    list: U.usersList,
  }));
  api.list(U.listSupplierUsers, ({ db }) => ({
    query: usersListQuery(db, "supplier"),
    spec: usersListSpec,
    map: publicUser,
    enrich: (rows) => withSupplierNames(db, rows),
    list: U.supplierUsersList,
  }));

  // a SUPPLIER user must belong to a live supplier (400 'Supplier is required' otherwise)
  api.handle(
    U.addUser,
    async ({ ctx, body }) => answer(await createUser(ctx, body, supplierExists), "User added successfully"),
  );
  api.handle(U.updateUserCall, async ({ ctx, params, body }) => {
    const user = await updateUser(ctx, { ...body, id: params.id }, supplierExists);
    return answer(user, "isDeleted" in body ? "User deleted successfully" : "User updated successfully");
  });
  api.handle(U.getUserCall, ({ db, params }) => getUserRecord(db, params.id));

  // pickers
  api.handle(U.bdeUserOptions, ({ db }) => userOptions(db, "BDE"));
  api.handle(U.userOptionsCall, ({ db }) => userOptions(db));
  api.handle(U.userOptionsAllCall, ({ db }) => userOptions(db));
}
