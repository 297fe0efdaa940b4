/** A repeated entry: a retry of the same one (its response lost), or a duplicate. */
import type { EntryEvent, SessionRow } from "./types.ts";

/** How long after an entry the same respondent's repeat of it is taken as a retry. */
export const RETRY_WINDOW_MS = 2 * 60_000;

/**
 * A repeat of an entry is the same entry, retried after its response was lost, when it comes on
 * the same supplier map from the same client address and user agent within RETRY_WINDOW_MS of the
 * first, before any return (and before a time-out made it a drop). Anything else is a duplicate;
 * so is a repeat whose address is unknown (an empty one proves nothing).
 */
export function isRetry(e: EntryEvent, first: SessionRow): boolean {
  const since = e.now - Date.parse(first.createdAt);
  return first.supplierMapId === e.map.id && e.ip !== "" && first.ip === e.ip &&
    first.userAgent === e.userAgent && since >= 0 && since <= RETRY_WINDOW_MS && first.returnedBy === "" &&
    first.status !== "drop" && first.status !== "preScreenDrop";
}
