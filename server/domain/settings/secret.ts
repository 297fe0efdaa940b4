/** The JWT key: JWT_SECRET when set, else one generated on first start and kept in the database. */
import type { Db } from "../../db/connection.ts";

export async function jwtKeyFor(db: Db, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const row = await db.selectFrom("settings").select("value").where("key", "=", "jwt_secret")
    .executeTakeFirst();
  if (row) return new TextEncoder().encode(row.value);
  const bytes = crypto.getRandomValues(new Uint8Array(48));
  const value = btoa(String.fromCharCode(...bytes));
  await db.insertInto("settings").values({ key: "jwt_secret", value }).onConflict((oc) => oc.doNothing())
    .execute();
  const kept = await db.selectFrom("settings").select("value").where("key", "=", "jwt_secret")
    .executeTakeFirstOrThrow();
  return new TextEncoder().encode(kept.value);
}
