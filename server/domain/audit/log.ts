/** The system log: every change by staff writes one row (who, what, when, IP, device, place, module). */
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";

/** Who did it and from where; the CLI passes a system actor. */
export type Actor = {
  userId: string | null;
  name: string;
  ipAddress?: string;
  device?: string;
  city?: string;
  country?: string;
  /** The acting session's token id (a user changing their own password keeps that session). */
  sessionId?: string;
};

export const SYSTEM_ACTOR: Actor = { userId: null, name: "System", device: "server" };
export const cliActor = (): Actor => ({ userId: null, name: "CLI", device: "command line" });

export type AuditEntry = { activity: string; module: string; recordId?: string | null };

export async function writeLog(db: Db, actor: Actor, entry: AuditEntry, at = new Date()) {
  await db.insertInto("system_logs").values({
    id: newId(at.getTime()),
    createdAt: at.toISOString(),
    userId: actor.userId,
    name: actor.name,
    activity: entry.activity,
    module: entry.module,
    recordId: entry.recordId ?? null,
    ipAddress: actor.ipAddress ?? "",
    device: actor.device ?? "",
    city: actor.city ?? "",
    country: actor.country ?? "",
  }).execute();
}
