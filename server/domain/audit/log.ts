/** The system log: every change by staff writes one row (who, what, when, IP, device, place, module). */
import { dateAt, wallClock } from "../common/clock.ts";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import type { LogChange } from "../../../shared/audit.ts";

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

export type AuditEntry = {
  activity: string;
  module: string;
  recordId?: string | null;
  /** What an update changed (diffRecord), kept beside the activity text for the screens. */
  changes?: readonly LogChange[];
};

/**
 * The longest value each column of the log keeps: whatever a change names (a record's name, a
 * device string), a log row stays small and its search index cheap. Longer text is cut with "…".
 */
export const LOG_MAX = {
  name: 200,
  activity: 1000,
  module: 100,
  recordId: 64,
  ipAddress: 64,
  device: 300,
  place: 100,
};

/** `s` cut to `max` characters (code points, so no half surrogate), ending in "…" when cut. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const chars = [...s];
  return chars.length <= max ? s : chars.slice(0, max - 1).join("") + "…";
}

/** `at`: the caller's clock (`dateAt(deps.now)`); the real clock only where a caller has none. */
export async function writeLog(db: Db, actor: Actor, entry: AuditEntry, at = dateAt(wallClock)) {
  await db.insertInto("system_logs").values({
    id: newId(at.getTime()),
    createdAt: at.toISOString(),
    userId: actor.userId,
    name: clip(actor.name, LOG_MAX.name),
    activity: clip(entry.activity, LOG_MAX.activity),
    module: clip(entry.module, LOG_MAX.module),
    recordId: entry.recordId == null ? null : clip(entry.recordId, LOG_MAX.recordId),
    ipAddress: clip(actor.ipAddress ?? "", LOG_MAX.ipAddress),
    device: clip(actor.device ?? "", LOG_MAX.device),
    city: clip(actor.city ?? "", LOG_MAX.place),
    country: clip(actor.country ?? "", LOG_MAX.place),
    changes: JSON.stringify((entry.changes ?? []).map(({ label, from, to }) => ({ label, from, to }))),
  }).execute();
}
