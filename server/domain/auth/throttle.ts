/**
 * The sign-in throttle, counted in SQL so that concurrent attempts (and app instances sharing the
 * database) cannot race it: each attempt is reserved, atomically, before its password is checked.
 *
 * - per e-mail and client address pair: after MAX attempts inside WINDOW the pair is refused for LOCK,
 *   so nobody locks a user out from another address;
 * - per known client address, the wider net: past MAX x IP_FACTOR attempts over any e-mails the
 *   address is limited, but not closed: an account that has not failed from that address in the
 *   window may still sign in with its right password (a wrong one is answered 429 as before). Behind a
 *   proxy whose hops are not trusted every user shares one address, so a closed address would be the
 *   whole company locked out by one guesser;
 * - per account, over every address: past ACCOUNT_FREE attempts inside WINDOW each further attempt
 *   has to wait for its slot, one at a time, the wait doubling from ACCOUNT_DELAY up to
 *   ACCOUNT_DELAY_MAX; earlier ones are answered 429 without their password being checked. Guessing
 *   from many addresses is slowed to a trickle; the owner signing in from an address the account has
 *   signed in from before skips this queue, so the guessing never locks the owner out.
 *
 * A successful sign-in clears its pair and hands its reservations on the address and account back.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";

export const THROTTLE = {
  max: 5,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  ipFactor: 4,
  accountFree: 10,
  accountDelayMs: 1_000,
  accountDelayMaxMs: 60_000,
  /** How far back a successful sign-in makes an address the owner's own. */
  knownAddressMs: 90 * 86_400_000,
};

export type ThrottleKey = { key: string; max: number };
export type Reservation = { allowed: boolean; failures: number };

/**
 * Counts one attempt on `key` and says whether it may go on: one INSERT .. ON CONFLICT .. RETURNING,
 * so two attempts never read the same count. A lapsed window or lock starts the count again; the
 * attempt past the limit sets the lock; attempts during a lock leave it as it is.
 */
export async function reserveAttempt(db: Db, { key, max }: ThrottleKey, now: number): Promise<Reservation> {
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
  return { allowed: row.lockedUntil <= now && row.failures <= max, failures: row.failures };
}

/** The wait before the next attempt on an account that has used `attempts` in the window. */
export function accountDelayMs(attempts: number): number {
  const over = attempts - THROTTLE.accountFree;
  if (over <= 0) return 0;
  return Math.min(THROTTLE.accountDelayMs * 2 ** Math.min(over - 1, 20), THROTTLE.accountDelayMaxMs);
}

/**
 * Takes the account's next slot, or says it is not open yet. `lockedUntil` of an `acct:` row is the
 * time the next attempt may come; an attempt before it is not counted and changes nothing (a flood
 * cannot push the slot on), one at or after it is counted and sets the next slot.
 */
export async function reserveAccountSlot(db: Db, email: string, now: number): Promise<boolean> {
  const { accountFree, accountDelayMs: base, accountDelayMaxMs: cap, windowMs } = THROTTLE;
  const fresh = sql<boolean>`(${now} - login_throttle.firstAt > ${windowMs})`;
  const attempts = sql<number>`(login_throttle.failures + 1)`;
  // the doubling of accountDelayMs() in SQL: base * 2^(attempts - free - 1), capped
  const wait = sql<number>`min(${base} * (1 << min(max(${attempts} - ${accountFree} - 1, 0), 20)), ${cap})`;
  const row = await db.insertInto("login_throttle")
    .values({ key: `acct:${email}`, failures: 1, firstAt: now, lockedUntil: 0 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        failures: sql`CASE WHEN ${fresh} THEN 1 ELSE ${attempts} END`,
        firstAt: sql`CASE WHEN ${fresh} THEN ${now} ELSE login_throttle.firstAt END`,
        lockedUntil:
          sql`CASE WHEN ${fresh} OR ${attempts} <= ${accountFree} THEN 0 ELSE ${now} + ${wait} END`,
      }).where("login_throttle.lockedUntil", "<=", now)
    )
    .returning("failures")
    .executeTakeFirst();
  return !!row;
}

/** Whether the account signed in successfully from this address lately (the owner's own address). */
export async function knownAddress(db: Db, email: string, ipAddress: string, now: number): Promise<boolean> {
  const since = new Date(now - THROTTLE.knownAddressMs).toISOString();
  const row = await db.selectFrom("system_logs")
    .innerJoin("users", "users.id", "system_logs.recordId")
    .select("system_logs.id")
    .where("users.email", "=", email).where("system_logs.module", "=", "Session")
    .where("system_logs.activity", "=", "Signed in").where("system_logs.ipAddress", "=", ipAddress)
    .where("system_logs.createdAt", ">=", since).limit(1).executeTakeFirst();
  return !!row;
}

/** The throttle keys of one attempt: the pair, and the address when one is known. */
export function throttleKeys(email: string, ipAddress: string | undefined): ThrottleKey[] {
  // an unknown address is one pair per e-mail, but never one address lock shared by all
  const keys = [{ key: `pair:${ipAddress ?? ""}|${email}`, max: THROTTLE.max }];
  if (ipAddress) keys.push({ key: `ip:${ipAddress}`, max: THROTTLE.max * THROTTLE.ipFactor });
  return keys;
}

/** A right password: its pair starts again, its reservations on the address and account go back. */
export async function handBack(
  db: Db,
  attempt: { email: string; keys: ThrottleKey[]; now: number; accountCounted: boolean },
): Promise<void> {
  const { email, keys, now, accountCounted } = attempt;
  const [pair, address] = keys;
  await db.deleteFrom("login_throttle").where("key", "=", pair.key).execute();
  const back = [...(accountCounted ? [`acct:${email}`] : []), ...(address ? [address.key] : [])];
  if (!back.length) return;
  // an office signs in many users from one address; a locked address stays locked until it lapses
  await db.updateTable("login_throttle").set({ failures: sql`max(failures - 1, 0)` })
    .where("key", "in", back).where((eb) =>
      eb.or([eb("key", "like", "acct:%"), eb("lockedUntil", "<=", now)])
    ).execute();
}
