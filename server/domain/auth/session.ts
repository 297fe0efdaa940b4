/** Sign-in, sign-out and token checks. Tokens are HS256 JWTs with a `jti` that logout revokes. */
import { jwtVerify, SignJWT } from "jose";
import type { Deps } from "../../deps.ts";
import { tooManyAttempts, unauthenticated } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import { isRole, type Role } from "../../../shared/roles.ts";
import { dummyHash, verifyPassword } from "./password.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { publicUser } from "../users/users.ts";
import type { LoginResult } from "../../../shared/api/session.ts";
import { handBack, knownAddress, reserveAccountSlot, reserveAttempt, throttleKeys } from "./throttle.ts";

const HOUR = 3600_000;
export const SESSION_HOURS = 12;
export const REMEMBER_DAYS = 30;

export { THROTTLE } from "./throttle.ts";
export type { LoginResult };

export async function login(
  deps: Deps,
  input: { email: string; password: string; rememberMe?: boolean },
  actor: Omit<Actor, "userId" | "name">,
): Promise<LoginResult> {
  const { db } = deps;
  const now = deps.now();
  const email = input.email.trim().toLowerCase();
  const keys = throttleKeys(email, actor.ipAddress);
  const [pair, address] = keys;
  // reserved before the password is looked at: of N simultaneous attempts at most MAX get checked
  const mine = await reserveAttempt(db, pair, now);
  if (!mine.allowed) throw tooManyAttempts(MSG.tooManyAttempts);
  // an address past its limit lets through only an account that has not failed from it: its first
  // attempt in the window, and only with the right password
  const addressOpen = !address || (await reserveAttempt(db, address, now)).allowed;
  if (!addressOpen && mine.failures > 1) throw tooManyAttempts(MSG.tooManyAttempts);
  // guesses at one account from many addresses wait their turn; the owner's own address does not
  const owner = !!actor.ipAddress && await knownAddress(db, email, actor.ipAddress, now);
  if (!owner && !await reserveAccountSlot(db, email, now)) throw tooManyAttempts(MSG.tooManyAttempts);

  const user = await db.selectFrom("users").leftJoin("suppliers", "suppliers.id", "users.supplierId")
    .selectAll("users")
    .select(["suppliers.isActive as supplierActive", "suppliers.isDeleted as supplierDeleted"])
    .where("users.email", "=", email).where("users.isDeleted", "=", 0).executeTakeFirst();
  const valid = await verifyPassword(input.password, user?.passwordHash ?? await dummyHash());
  const inactive = !!user && (!user.isActive || supplierClosed(user));
  if (!user || !valid || inactive || !isRole(user.role)) {
    // the attempt stays counted (it was reserved); past the address limit it is one more refusal
    if (!addressOpen) throw tooManyAttempts(MSG.tooManyAttempts);
    throw unauthenticated(user && valid && inactive ? "Your account is inactive" : MSG.invalidCredentials);
  }
  await handBack(db, { email, keys, now, accountCounted: !owner });

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
