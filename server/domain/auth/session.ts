/** Sign-in, sign-out and token checks. Tokens are HS256 JWTs with a `jti` that logout revokes. */
import { jwtVerify, SignJWT } from "jose";
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

// Throttle: after MAX failures inside WINDOW for one e-mail (or 4x that for one IP), refuse for LOCK.
export const THROTTLE = { max: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000, ipFactor: 4 };

export type { LoginResult };

async function checkThrottle(db: Db, keys: string[], now: number) {
  const rows = await db.selectFrom("login_throttle").selectAll().where("key", "in", keys).execute();
  if (rows.some((r) => r.lockedUntil > now)) throw tooManyAttempts(MSG.tooManyAttempts);
}

async function recordFailure(db: Db, key: string, max: number, now: number) {
  const row = await db.selectFrom("login_throttle").selectAll().where("key", "=", key).executeTakeFirst();
  const fresh = !row || now - row.firstAt > THROTTLE.windowMs;
  const failures = fresh ? 1 : row.failures + 1;
  const firstAt = fresh ? now : row.firstAt;
  const lockedUntil = failures >= max ? now + THROTTLE.lockMs : 0;
  await db.insertInto("login_throttle").values({ key, failures, firstAt, lockedUntil })
    .onConflict((oc) => oc.column("key").doUpdateSet({ failures, firstAt, lockedUntil })).execute();
}

export async function login(
  deps: Deps,
  input: { email: string; password: string; rememberMe?: boolean },
  actor: Omit<Actor, "userId" | "name">,
): Promise<LoginResult> {
  const { db } = deps;
  const now = deps.now();
  const email = input.email.trim().toLowerCase();
  // per e-mail, and per address when one is known (an unknown address is not one shared lock for all)
  const keys = [`email:${email}`, ...(actor.ipAddress ? [`ip:${actor.ipAddress}`] : [])];
  await checkThrottle(db, keys, now);

  const user = await db.selectFrom("users").selectAll()
    .where("email", "=", email).where("isDeleted", "=", 0).executeTakeFirst();
  const valid = await verifyPassword(input.password, user?.passwordHash ?? await dummyHash());
  if (!user || !valid || !user.isActive || !isRole(user.role)) {
    await recordFailure(db, keys[0], THROTTLE.max, now);
    if (keys[1]) await recordFailure(db, keys[1], THROTTLE.max * THROTTLE.ipFactor, now);
    throw unauthenticated(
      user && valid && !user.isActive ? "Your account is inactive" : MSG.invalidCredentials,
    );
  }
  await db.deleteFrom("login_throttle").where("key", "=", keys[0]).execute();

  const ttl = input.rememberMe ? REMEMBER_DAYS * 24 * HOUR : SESSION_HOURS * HOUR;
  const accessToken = await new SignJWT({ role: user.role })
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

/** Verifies a bearer token: signature, expiry, not revoked, user still active and not deleted. */
export async function authenticate(deps: Deps, token: string): Promise<TokenUser> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, deps.jwtKey, {
      algorithms: ["HS256"],
      currentDate: new Date(deps.now()),
    }));
  } catch {
    throw unauthenticated(MSG.unauthorized);
  }
  const jti = payload.jti, sub = payload.sub;
  if (!jti || !sub) throw unauthenticated(MSG.unauthorized);
  const revoked = await deps.db.selectFrom("revoked_tokens").select("jti").where("jti", "=", jti)
    .executeTakeFirst();
  if (revoked) throw unauthenticated(MSG.unauthorized);
  const user = await deps.db.selectFrom("users")
    .select(["id", "firstName", "lastName", "email", "role", "supplierId", "isActive", "isDeleted"])
    .where("id", "=", sub).executeTakeFirst();
  if (!user || !user.isActive || user.isDeleted || !isRole(user.role)) {
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
