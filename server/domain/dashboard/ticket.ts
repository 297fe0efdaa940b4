/**
 * Tickets for the dashboard's live stream. A browser's EventSource cannot send an Authorization
 * header, and a session token in a URL would end up in logs and history; so a signed-in user asks
 * for a ticket with an authenticated POST and opens the stream with `?ticket=`. A ticket:
 * - is an HS256 JWT signed with the session key, with its own audience (a session token is not a
 *   ticket, and a ticket has no `jti`, so it is never accepted as a session token);
 * - lives 60 seconds (it only opens the stream), names the user and the session it came from;
 * - is refused once that session is signed out, or the user deactivated, deleted or given a role
 *   the stream's permission entry does not list.
 */
import { jwtVerify, SignJWT } from "jose";
import type { Deps } from "../../deps.ts";
import { forbidden, unauthenticated } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import { isRole, type Role } from "../../../shared/roles.ts";
import { authenticate } from "../auth/session.ts";

export const LIVE_TICKET_SECONDS = 60;
const AUDIENCE = "samplex:dashboard-live";

/** A ticket for the user of session `jti`. */
export async function issueLiveTicket(deps: Deps, user: { id: string; jti: string }): Promise<string> {
  const now = Math.floor(deps.now() / 1000);
  return await new SignJWT({ sid: user.jti })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + LIVE_TICKET_SECONDS)
    .sign(deps.jwtKey);
}

/** The ticket's user when it is valid and the user may open the stream; else 401 (or 403 for the role). */
export async function verifyLiveTicket(
  deps: Deps,
  ticket: string | undefined,
  roles: readonly Role[],
): Promise<{ id: string; role: Role }> {
  if (!ticket) throw unauthenticated(MSG.unauthorized);
  let payload;
  try {
    ({ payload } = await jwtVerify(ticket, deps.jwtKey, {
      algorithms: ["HS256"],
      audience: AUDIENCE,
      currentDate: new Date(deps.now()),
    }));
  } catch {
    throw unauthenticated(MSG.unauthorized);
  }
  const sub = payload.sub, sid = payload.sid;
  if (!sub || typeof sid !== "string" || !sid) throw unauthenticated(MSG.unauthorized);
  const revoked = await deps.db.selectFrom("revoked_tokens").select("jti").where("jti", "=", sid)
    .executeTakeFirst();
  if (revoked) throw unauthenticated(MSG.unauthorized);
  const user = await deps.db.selectFrom("users").select(["id", "role", "isActive", "isDeleted"])
    .where("id", "=", sub).executeTakeFirst();
  if (!user || !user.isActive || user.isDeleted || !isRole(user.role)) {
    throw unauthenticated(MSG.unauthorized);
  }
  if (!roles.includes(user.role)) throw forbidden(MSG.forbidden);
  return { id: user.id, role: user.role };
}

/**
 * Who opens the live stream: the ticket's user, or (for clients that can send headers) the bearer
 * token's; neither is 401, a role the stream's entry does not list 403.
 */
export async function liveViewer(
  deps: Deps,
  credentials: { ticket?: string; bearer?: string },
  roles: readonly Role[],
): Promise<{ id: string; role: Role }> {
  if (credentials.ticket || !credentials.bearer) {
    return await verifyLiveTicket(deps, credentials.ticket, roles);
  }
  const user = await authenticate(deps, credentials.bearer);
  if (!roles.includes(user.role)) throw forbidden(MSG.forbidden);
  return { id: user.id, role: user.role };
}
