/** Staff and supplier users (part 2: Users). */
import { type Selectable, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { UsersTable } from "../../db/tables/foundation.ts";
import { newId } from "../../db/ids.ts";
import { toApi } from "../../db/rows.ts";
import { type AnyQB, listSpecOf } from "../../db/list.ts";
import { conflict, forbidden, notFound } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import type { Role } from "../../../shared/roles.ts";
import type { UserCreate, UserUpdate } from "../../../shared/schemas/user.ts";
import { type PublicUser, type UserOption, type UserRecord, usersList } from "../../../shared/api/users.ts";
import { hashPassword } from "../auth/password.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { supplierNames } from "../suppliers/lookup.ts";
import { diffRecord, writeChanges } from "../audit/changes.ts";
import { USER_FIELDS } from "../audit/fields.ts";
import type { WriteCtx } from "../ctx.ts";

/**
 * What ends a user's tokens: a password change or a deactivation bumps the token generation, so
 * every token issued before is refused at once (also after a reactivation). When users change their
 * own password, the session that made the change is kept (`actor.sessionId`).
 */
function endTokens(actor: Actor, userId: string) {
  return {
    tokenGeneration: sql<number>`tokenGeneration + 1`,
    keptTokenJti: actor.userId === userId ? actor.sessionId ?? null : null,
  };
}
const endAllTokens = { tokenGeneration: sql<number>`tokenGeneration + 1`, keptTokenJti: null };

export type { PublicUser, UserRecord };

type UserRow = Pick<
  Selectable<UsersTable>,
  "id" | "firstName" | "lastName" | "email" | "phoneNumber" | "role" | "supplierId" | "isActive" | "createdAt"
>;

export function publicUser(u: UserRow): PublicUser {
  return {
    _id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    fullName: `${u.firstName} ${u.lastName}`.trim(),
    email: u.email,
    phoneNumber: u.phoneNumber,
    role: u.role as Role,
    supplierId: u.supplierId,
    isActive: !!u.isActive,
    createdAt: u.createdAt,
  };
}

const PUBLIC_COLUMNS = [
  "id",
  "firstName",
  "lastName",
  "email",
  "phoneNumber",
  "role",
  "supplierId",
  "isActive",
  "createdAt",
] as const;

/** The Users grids: managers (all staff roles) or suppliers (role SUPPLIER). */
export function usersListQuery(db: Db, kind: "staff" | "supplier"): AnyQB {
  const q = db.selectFrom("users").select(PUBLIC_COLUMNS).where("isDeleted", "=", 0);
  return kind === "supplier" ? q.where("role", "=", "SUPPLIER") : q.where("role", "!=", "SUPPLIER");
}

/** The filters and sorts of both Users grids (declared alike in shared/api/users.ts). */
export const usersListSpec = listSpecOf(usersList, {
  search: ["firstName", "lastName", "email", "phoneNumber"],
  rowid: "users.rowid",
  fts: { table: "users_fts" },
  filters: {
    role: (qb, val) => qb.where("role", "in", Array.isArray(val) ? val.map(String) : [String(val)]),
    supplierId: (qb, val) => qb.where("supplierId", "=", String(val)),
    isActive: (qb, val) => qb.where("isActive", "=", val === true || val === "true" || val === 1 ? 1 : 0),
  },
  status: (qb, val) => qb.where("isActive", "=", val === true || val === "true" || val === 1 ? 1 : 0),
  sorts: { name: "firstName", email: "email", role: "role", createdAt: "createdAt" },
  defaultSort: [["createdAt", "desc"], ["id", "desc"]],
});

/** Supplier users show their supplier's name: one query per page. */
export async function withSupplierNames(db: Db, rows: PublicUser[]): Promise<UserRecord[]> {
  const names = await supplierNames(db, rows.map((r) => r.supplierId ?? ""));
  return rows.map((r) => ({ ...r, supplierName: r.supplierId ? names.get(r.supplierId) ?? "" : "" }));
}

/** A user as the edit form reads it: a supplier login with its supplier's name. */
export async function getUserRecord(db: Db, id: string): Promise<UserRecord> {
  const [user] = await withSupplierNames(db, [await getUser(db, id)]);
  return user;
}

export async function getUser(db: Db, id: string): Promise<PublicUser> {
  const u = await db.selectFrom("users").select(PUBLIC_COLUMNS).where("id", "=", id).where(
    "isDeleted",
    "=",
    0,
  ).executeTakeFirst();
  if (!u) throw notFound("User");
  return publicUser(u);
}

async function assertEmailFree(db: Db, email: string, exceptId?: string) {
  let q = db.selectFrom("users").select("id").where("email", "=", email).where("isDeleted", "=", 0);
  if (exceptId) q = q.where("id", "!=", exceptId);
  if (await q.executeTakeFirst()) {
    throw conflict(MSG.emailTaken, [{ path: "email", message: MSG.emailTaken }]);
  }
}

/** A user as the guard sees it (null: a new user). */
type Target = { id: string; role: string; isActive: number } | null;
/** What a change would make of the user. */
type Change = { role?: Role; isActive?: boolean; deleting?: boolean };

/**
 * Who may change whom (our policy; the spec is silent), checked inside the write's transaction:
 * - nobody deletes or deactivates their own account (403);
 * - only a SUPERADMIN adds, edits, deactivates or deletes a SUPERADMIN, or gives that role (403);
 * - the last active SUPERADMIN is never deactivated, deleted or given another role (409).
 * The CLI and the seed act as the system (no user id) and are trusted with roles.
 */
async function guardUserChange(db: Db, actor: Actor, target: Target, change: Change) {
  const path = (field: string, message: string) => [{ path: field, message }];
  if (target && actor.userId === target.id) {
    if (change.deleting) throw forbidden(MSG.cannotDeleteSelf);
    if (change.isActive === false) {
      throw forbidden(MSG.cannotDeactivateSelf, path("isActive", MSG.cannotDeactivateSelf));
    }
  }
  const touchesSuperadmin = target?.role === "SUPERADMIN" || change.role === "SUPERADMIN";
  if (touchesSuperadmin && actor.userId) {
    const me = await db.selectFrom("users").select("role").where("id", "=", actor.userId)
      .executeTakeFirst();
    if (me?.role !== "SUPERADMIN") {
      throw forbidden(
        MSG.superadminOnly,
        change.role ? path("role", MSG.superadminOnly) : undefined,
      );
    }
  }
  const losesSuperadmin = change.deleting || change.isActive === false ||
    (change.role !== undefined && change.role !== "SUPERADMIN");
  if (target?.role === "SUPERADMIN" && target.isActive === 1 && losesSuperadmin) {
    const other = await db.selectFrom("users").select("id").where("role", "=", "SUPERADMIN")
      .where("isActive", "=", 1).where("isDeleted", "=", 0).where("id", "!=", target.id).executeTakeFirst();
    if (!other) {
      const field = change.deleting ? null : change.isActive === false ? "isActive" : "role";
      throw conflict(MSG.lastSuperadmin, field ? path(field, MSG.lastSuperadmin) : undefined);
    }
  }
}

/** Hook for areas that own suppliers: checks that a supplier exists (set by the suppliers area). */
export type SupplierCheck = (db: Db, supplierId: string) => Promise<void>;

export async function createUser(
  ctx: WriteCtx,
  input: UserCreate,
  checkSupplier?: SupplierCheck,
): Promise<PublicUser> {
  const { db, actor, now: clock } = ctx;
  const passwordHash = await hashPassword(input.password);
  return await db.transaction().execute(async (trx) => {
    await guardUserChange(trx, actor, null, { role: input.role });
    await assertEmailFree(trx, input.email);
    const supplierId = input.role === "SUPPLIER" ? input.supplierId ?? null : null;
    if (supplierId && checkSupplier) await checkSupplier(trx, supplierId);
    const at = dateAt(clock), now = at.toISOString();
    const id = newId(at.getTime());
    await trx.insertInto("users").values({
      id,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      phoneNumber: input.phoneNumber ?? "",
      role: input.role,
      supplierId,
      passwordHash,
      isActive: input.isActive === false ? 0 : 1,
      isDeleted: 0,
      createdAt: now,
      updatedAt: now,
    }).execute();
    await writeLog(trx, actor, {
      activity: `Created user ${input.email} (${input.role})`,
      module: "Users",
      recordId: id,
    }, at);
    return getUser(trx, id);
  });
}

export async function updateUser(
  ctx: WriteCtx,
  args: { id: string } & UserUpdate,
  checkSupplier?: SupplierCheck,
): Promise<PublicUser> {
  const { db, actor, now: clock } = ctx;
  const { id, ...input } = args;
  const passwordHash = "password" in input && input.password ? await hashPassword(input.password) : undefined;
  return await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("users").select([
      "id",
      "email",
      "role",
      "isActive",
      "firstName",
      "lastName",
      "phoneNumber",
      "supplierId",
      "passwordHash as password",
    ]).where(
      "id",
      "=",
      id,
    ).where(
      "isDeleted",
      "=",
      0,
    ).executeTakeFirst();
    if (!existing) throw notFound("User");
    const at = dateAt(clock), now = at.toISOString();
    let activity: string | undefined;
    if ("isDeleted" in input && Object.keys(input).length === 1) {
      await guardUserChange(trx, actor, existing, { deleting: true });
      await trx.updateTable("users").set({ isDeleted: 1, isActive: 0, updatedAt: now, ...endAllTokens })
        .where("id", "=", id).execute();
      activity = `Deleted user ${existing.email}`;
    } else if ("isActive" in input && Object.keys(input).length === 1) {
      await guardUserChange(trx, actor, existing, { isActive: input.isActive });
      await trx.updateTable("users").set({
        isActive: input.isActive ? 1 : 0,
        updatedAt: now,
        ...(input.isActive ? {} : endAllTokens),
      }).where("id", "=", id).execute();
      activity = `${input.isActive ? "Activated" : "Deactivated"} user ${existing.email}`;
    } else {
      const u = input as Extract<UserUpdate, { firstName: string }>;
      await guardUserChange(trx, actor, existing, { role: u.role, isActive: u.isActive !== false });
      await assertEmailFree(trx, u.email, id);
      const supplierId = u.role === "SUPPLIER" ? u.supplierId ?? null : null;
      if (supplierId && checkSupplier) await checkSupplier(trx, supplierId);
      await trx.updateTable("users").set({
        firstName: u.firstName,
        lastName: u.lastName,
        email: u.email,
        phoneNumber: u.phoneNumber ?? "",
        role: u.role,
        supplierId,
        isActive: u.isActive === false ? 0 : 1,
        ...(passwordHash ? { passwordHash } : {}),
        ...(u.isActive === false ? endAllTokens : passwordHash ? endTokens(actor, id) : {}),
        updatedAt: now,
      }).where("id", "=", id).execute();
      // the fields the form changed (a new password only as "changed"); none: no log row
      const changes = await diffRecord(trx, USER_FIELDS, existing, {
        firstName: u.firstName,
        lastName: u.lastName,
        email: u.email,
        phoneNumber: u.phoneNumber ?? "",
        role: u.role,
        supplierId,
        isActive: u.isActive !== false,
        password: passwordHash,
      });
      await writeChanges(trx, actor, {
        head: `Updated user ${u.email}`,
        changes,
        module: "Users",
        recordId: id,
      }, at);
    }
    if (activity) await writeLog(trx, actor, { activity, module: "Users", recordId: id }, at);
    const row = await trx.selectFrom("users").select(PUBLIC_COLUMNS).where("id", "=", id)
      .executeTakeFirstOrThrow();
    return publicUser(row);
  });
}

/** Sets a password by e-mail (CLI `user passwd`). */
export async function setPassword(
  ctx: WriteCtx,
  input: { email: string; password: string },
) {
  const { db, actor, now: clock } = ctx;
  const { email, password } = input;
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const u = await trx.selectFrom("users").select("id").where("email", "=", email.toLowerCase()).where(
      "isDeleted",
      "=",
      0,
    ).executeTakeFirst();
    if (!u) throw notFound("User");
    const at = dateAt(clock);
    await trx.updateTable("users").set({
      passwordHash,
      updatedAt: at.toISOString(),
      ...endTokens(actor, u.id),
    }).where("id", "=", u.id).execute();
    await writeLog(
      trx,
      actor,
      { activity: `Changed password of ${email}`, module: "Users", recordId: u.id },
      at,
    );
  });
}

/** Active staff users for pickers: `{ _id, label, role }`, optionally one role only. */
export async function userOptions(db: Db, role?: Role): Promise<UserOption[]> {
  let q = db.selectFrom("users").select(["id", "firstName", "lastName", "email", "role"])
    .where("isDeleted", "=", 0).where("isActive", "=", 1).where("role", "!=", "SUPPLIER");
  if (role) q = q.where("role", "=", role);
  const rows = await q.orderBy("firstName").orderBy("lastName").execute();
  return rows.map((r) => ({ ...toApi(r), label: `${r.firstName} ${r.lastName}`.trim(), value: r.id }));
}

/** Whether `id` is an active, not deleted user with `role` (e.g. a client's Assigned To must be a BDE). */
export async function isActiveUserWithRole(db: Db, id: string, role: Role): Promise<boolean> {
  const u = await db.selectFrom("users").select("id").where("id", "=", id).where("role", "=", role)
    .where("isActive", "=", 1).where("isDeleted", "=", 0).executeTakeFirst();
  return !!u;
}

/** Full names of users by id, for lists that show who a record is assigned to (one query per page). */
export async function userNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return new Map();
  const rows = await db.selectFrom("users").select(["id", "firstName", "lastName"]).where("id", "in", unique)
    .execute();
  return new Map(rows.map((r) => [r.id, `${r.firstName} ${r.lastName}`.trim()]));
}

/** When a supplier is deleted its portal users can no longer sign in. Returns how many were deactivated. */
export async function deactivateSupplierUsers(db: Db, supplierId: string, now: string) {
  const r = await db.updateTable("users").set({ isActive: 0, updatedAt: now, ...endAllTokens }).where(
    "supplierId",
    "=",
    supplierId,
  )
    .where("role", "=", "SUPPLIER").where("isDeleted", "=", 0).where("isActive", "=", 1).executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0);
}
