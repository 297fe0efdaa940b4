/** Sign-in, sign-out and token checks. Tokens are HS256 JWTs with a `jti` that logout revokes. */
import { jwtVerify, SignJWT } from "jose";
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { Deps } from "../../deps.ts";
import { tooManyAttempts, unauthenticated } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import { isRole, type Role } from "../../../shared/roles.ts";
import { dummyHash, verifyPassword } from "./password.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { publicUser } from "../users/users.ts";
import type { LoginResult } from "../../../shared/api/session.ts";

const HOUR = 3600_000;
export const SESSION_HOURS = 12;
export const REMEMBER_DAYS = 30;

/**
 * Throttle, counted in SQL so that concurrent attempts (and app instances sharing the database)
 * cannot race it: each attempt is reserved, atomically, before its password is checked.
 * - per e-mail and client address pair: after MAX attempts inside WINDOW the pair is refused for
 *   LOCK, so nobody locks a user out from another address;
 * - per known client address, the wider net: MAX x IP_FACTOR attempts over any e-mails.
 * A successful sign-in clears its pair and hands its reservation on the address back.
 */
export const THROTTLE = { max: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000, ipFactor: 4 };

export type { LoginResult };

type ThrottleKey = { key: string; max: number };

/**
 * Counts one attempt on `key` and says whether it may go on: one INSERT .. ON CONFLICT .. RETURNING,
 * so two attempts never read the same count. A lapsed window or lock starts the count again; the
 * attempt past the limit sets the lock; attempts during a lock leave it as it is.
 */
async function reserveAttempt(db: Db, { key, max }: ThrottleKey, now: number): Promise<boolean> {
  const fresh = sql<boolean>`(login_throttle.lockedUntil <= ${now} AND (login_throttle.lockedUntil > 0
    OR ${now} - login_throttle.firstAt > ${THROTTLE.windowMs}))`;
  const locked = sql<boolean>`login_throttle.lockedUntil > ${now}`;
  const row = await db.insertInto("login_throttle")
    .values({ key, failures: 1, firstAt: now, lockedUntil: 0 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        failures: sql`CASE WHEN ${locked} THEN login_throttle.failures WHEN ${fresh} THEN 1
          ELSE login_throttle.failures + 1 END`,
        firstAt: sql`CASE WHEN ${locked} THEN login_throttle.firstAt WHEN ${fresh} THEN ${now}
          ELSE login_throttle.firstAt END`,
        lockedUntil: sql`CASE WHEN ${locked} THEN login_throttle.lockedUntil WHEN ${fresh} THEN 0
          WHEN login_throttle.failures + 1 > ${max} THEN ${now + THROTTLE.lockMs} ELSE 0 END`,
      })
    )
    .returning(["failures", "lockedUntil"])
    .executeTakeFirstOrThrow();
  return row.lockedUntil <= now && row.failures <= max;
}

/** The throttle keys of one attempt: the pair, and the address when one is known. */
function throttleKeys(email: string, ipAddress: string | undefined): ThrottleKey[] {
  // an unknown address is one pair per e-mail, but never one address lock shared by all
  const keys = [{ key: `pair:${ipAddress ?? ""}|${email}`, max: THROTTLE.max }];
  if (ipAddress) keys.push({ key: `ip:${ipAddress}`, max: THROTTLE.max * THROTTLE.ipFactor });
  return keys;
}

export async function login(
  deps: Deps,
  input: { email: string; password: string; rememberMe?: boolean },
  actor: Omit<Actor, "userId" | "name">,
): Promise<LoginResult> {
  const { db } = deps;
  const now = deps.now();
  const email = input.email.trim().toLowerCase();
  const [pair, address] = throttleKeys(email, actor.ipAddress);
  // reserved before the password is looked at: of N simultaneous attempts at most MAX get checked
  let allowed = await reserveAttempt(db, pair, now);
  if (address) allowed = await reserveAttempt(db, address, now) && allowed;
  if (!allowed) throw tooManyAttempts(MSG.tooManyAttempts);

  const user = await db.selectFrom("users").leftJoin("suppliers", "suppliers.id", "users.supplierId")
    .selectAll("users")
    .select(["suppliers.isActive as supplierActive", "suppliers.isDeleted as supplierDeleted"])
    .where("users.email", "=", email).where("users.isDeleted", "=", 0).executeTakeFirst();
  const valid = await verifyPassword(input.password, user?.passwordHash ?? await dummyHash());
  const inactive = !!user && (!user.isActive || supplierClosed(user));
  if (!user || !valid || inactive || !isRole(user.role)) {
    // the attempt stays counted (it was reserved)
    throw unauthenticated(user && valid && inactive ? "Your account is inactive" : MSG.invalidCredentials);
  }
  await db.deleteFrom("login_throttle").where("key", "=", pair.key).execute();
  if (address) {
    // a right password does not count against an address (an office signs in many users from one)
    await db.updateTable("login_throttle").set({ failures: sql`max(failures - 1, 0)` })
      .where("key", "=", address.key).where("lockedUntil", "<=", now).execute();
  }

  const ttl = input.rememberMe ? REMEMBER_DAYS * 24 * HOUR : SESSION_HOURS * HOUR;
  const accessToken = await new SignJWT({ role: user.role, gen: user.tokenGeneration })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setJti(crypto.randomUUID())
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + ttl) / 1000))
    .sign(deps.jwtKey);
  await writeLog(db, { ...actor, userId: user.id, name: `${user.firstName} ${user.lastName}` }, {
    activity: "Signed in",
    module: "Session",
    recordId: user.id,
  }, new Date(now));
  return { admin: publicUser(user), accessToken };
}

/**
 * A supplier user whose supplier is deactivated or deleted: signed out at once and refused at sign-in.
 * (A supplier id that names no supplier is left to the portal's scoping, which finds nothing for it.)
 */
function supplierClosed(
  u: { role: string; supplierActive: number | null; supplierDeleted: number | null },
): boolean {
  return u.role === "SUPPLIER" && u.supplierActive !== null && (!u.supplierActive || !!u.supplierDeleted);
}

export type TokenUser = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  supplierId: string | null;
  jti: string;
  tokenExp: number;
};

/**
 * Verifies a bearer token: signature, expiry (a token without one is refused), not revoked, user
 * still active and not deleted, and of the user's current token generation (a password change or a
 * deactivation since it was issued ends it; the one session that changed its own password is kept).
 */
export async function authenticate(deps: Deps, token: string): Promise<TokenUser> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, deps.jwtKey, {
      algorithms: ["HS256"],
      currentDate: new Date(deps.now()),
      requiredClaims: ["exp", "sub", "jti"],
    }));
  } catch {
    throw unauthenticated(MSG.unauthorized);
  }
  const { jti, sub, gen } = payload;
  if (!jti || !sub || typeof gen !== "number") throw unauthenticated(MSG.unauthorized);
  const revoked = await deps.db.selectFrom("revoked_tokens").select("jti").where("jti", "=", jti)
    .executeTakeFirst();
  if (revoked) throw unauthenticated(MSG.unauthorized);
  // the user's supplier comes in the same query: a supplier deactivated or deleted signs its users out
  const user = await deps.db.selectFrom("users")
    .leftJoin("suppliers", "suppliers.id", "users.supplierId")
    .select([
      "users.id",
      "users.firstName",
      "users.lastName",
      "users.email",
      "users.role",
      "users.supplierId",
      "users.isActive",
      "users.isDeleted",
      "users.tokenGeneration",
      "users.keptTokenJti",
      "suppliers.isActive as supplierActive",
      "suppliers.isDeleted as supplierDeleted",
    ])
    .where("users.id", "=", sub).executeTakeFirst();
  if (!user || !user.isActive || user.isDeleted || !isRole(user.role) || supplierClosed(user)) {
    throw unauthenticated(MSG.unauthorized);
  }
  if (gen !== user.tokenGeneration && !(gen < user.tokenGeneration && jti === user.keptTokenJti)) {
    throw unauthenticated(MSG.unauthorized);
  }
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    role: user.role,
    supplierId: user.supplierId,
    jti,
    tokenExp: (payload.exp ?? 0) * 1000,
  };
}

export async function logout(deps: Deps, user: TokenUser, actor: Actor) {
  await deps.db.transaction().execute(async (trx) => {
    await trx.insertInto("revoked_tokens").values({ jti: user.jti, expiresAt: user.tokenExp })
      .onConflict((oc) => oc.doNothing()).execute();
    // expired revocations are no longer needed
    await trx.deleteFrom("revoked_tokens").where("expiresAt", "<", deps.now()).execute();
    await writeLog(
      trx,
      actor,
      { activity: "Signed out", module: "Session", recordId: user.id },
      new Date(deps.now()),
    );
  });
}
