/**
 * The supply side of a member's erase (issue 24 item 1, `POST /supply/v1/members/:memberId/erase`):
 * the staff action's own domain function (suppliers/profiles.ts eraseMemberProfile), acted by the
 * API key, so the system log names the supplier (in the activity) and the key (as who acted).
 */
import type { Actor } from "../audit/log.ts";
import type { WriteCtx } from "../ctx.ts";
import { eraseMemberProfile } from "../suppliers/profiles.ts";

/** The key as the system log's actor: its name, prefix and id, with where the call came from. */
export async function keyActor(
  ctx: Pick<WriteCtx, "db">,
  input: { keyId: string; from: Pick<Actor, "ipAddress" | "device" | "city" | "country"> },
): Promise<Actor> {
  const key = await ctx.db.selectFrom("supplier_api_keys").select(["name", "prefix"])
    .where("id", "=", input.keyId).executeTakeFirst();
  const name = key ? `API key "${key.name}" (${key.prefix}…, ${input.keyId})` : `API key ${input.keyId}`;
  return { userId: null, ...input.from, name };
}

export async function supplyEraseMember(
  ctx: Omit<WriteCtx, "actor"> & { from: Pick<Actor, "ipAddress" | "device" | "city" | "country"> },
  input: { supplierId: string; keyId: string; memberId: string },
): Promise<{ memberId: string; erased: number }> {
  const actor = await keyActor(ctx, { keyId: input.keyId, from: ctx.from });
  const { erased } = await eraseMemberProfile({ db: ctx.db, now: ctx.now, actor }, input);
  return { memberId: input.memberId, erased };
}
