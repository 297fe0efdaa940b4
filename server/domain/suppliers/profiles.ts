/**
 * Staff actions on respondent profiles (issue 24 item 1; the router keeps them, see
 * domain/router/profiles.ts): the expiry setting ("profile answers expire after N days") and
 * erasing one of a supplier's members. Both are written to the system log.
 */
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { notFound } from "../errors.ts";
import type { Db } from "../../db/connection.ts";
import type { WriteCtx } from "../ctx.ts";
import { expiryDays, PROFILE_EXPIRY_KEY } from "../router/profiles.ts";
import type { ProfileSettings } from "../../../shared/api/suppliers.ts";

const MODULE = "Suppliers";

export async function profileSettings(db: Db): Promise<ProfileSettings> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", PROFILE_EXPIRY_KEY)
    .executeTakeFirst();
  return { expiryDays: expiryDays(row?.value) };
}

export async function updateProfileSettings(ctx: WriteCtx, input: ProfileSettings): Promise<ProfileSettings> {
  const { db, actor, now: clock } = ctx;
  return await db.transaction().execute(async (trx) => {
    const before = await profileSettings(trx);
    await trx.insertInto("settings").values({ key: PROFILE_EXPIRY_KEY, value: String(input.expiryDays) })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: String(input.expiryDays) })).execute();
    await writeLog(trx, actor, {
      activity: `Set profile answers to expire after ${input.expiryDays} days`,
      module: MODULE,
      changes: [{
        label: "Profile answers expire after (days)",
        from: String(before.expiryDays),
        to: String(input.expiryDays),
      }],
    }, dateAt(clock));
    return profileSettings(trx);
  });
}

/** Removes every known answer of a supplier's member; the log names the supplier and the member id. */
export async function eraseMemberProfile(
  ctx: WriteCtx,
  input: { supplierId: string; memberId: string },
): Promise<{ erased: number }> {
  const { db, actor, now: clock } = ctx;
  return await db.transaction().execute(async (trx) => {
    const supplier = await trx.selectFrom("suppliers").select(["supplierName", "supplierShortCode"])
      .where("id", "=", input.supplierId).executeTakeFirst();
    if (!supplier) throw notFound("Supplier");
    const out = await trx.deleteFrom("member_profiles").where("supplierId", "=", input.supplierId)
      .where("memberId", "=", input.memberId).executeTakeFirst();
    const erased = Number(out.numDeletedRows);
    await writeLog(trx, actor, {
      activity:
        `Erased the profile of member ${input.memberId} of supplier ${supplier.supplierName} (${supplier.supplierShortCode}): ${erased} answer(s)`,
      module: MODULE,
      recordId: input.supplierId,
    }, dateAt(clock));
    return { erased };
  });
}
