/**
 * Which callback a session's outcome queues: the outcome's event (by the redirect it sends the
 * respondent to: complete, terminate, over quota, quality), when the supplier has a URL for it. A
 * test session, or an outcome with no callback (the survey closed to them), queues none. The row is
 * one more tuple of the batch's INSERT into router_hooks, in the write transaction of the outcome.
 */
import type { CallbackEvent } from "../../../shared/callbacks.ts";
import type { MapConfig } from "./config.ts";
import { type FinalStatus, redirectKind } from "./outcomes.ts";
import { outcomeCallbackValues } from "./shortcodes.ts";
import type { SessionRow } from "./writer/types.ts";
import type { HookRow } from "./writer/write.ts";

const EVENT_OF: Partial<Record<ReturnType<typeof redirectKind>, [CallbackEvent, FinalStatus]>> = {
  complete: ["complete", "complete"],
  terminate: ["terminate", "terminate"],
  quotaFull: ["overquota", "overQuota"],
  qualityTerm: ["quality", "qualityTerm"],
};

/** The URL a map's supplier set for an outcome event ('' none). */
function urlOf(map: MapConfig, event: CallbackEvent): string {
  if (event === "complete") return map.approvedHook;
  if (event === "terminate" || event === "overquota" || event === "quality") return map.callbacks[event];
  return "";
}

/** The callback a session's (final) outcome queues, or null. */
export function outcomeCallback(
  s: Pick<SessionRow, "id" | "sid" | "status" | "supplierId" | "isTest">,
  projectCode: string,
  map: MapConfig,
): HookRow | null {
  if (s.isTest) return null;
  const hit = EVENT_OF[redirectKind(s.status)];
  if (!hit) return null;
  const [event, status] = hit;
  const url = urlOf(map, event);
  if (!url) return null;
  const vars = outcomeCallbackValues({ sid: s.sid, uid: s.id, projectCode }, status);
  return { sessionId: s.id, supplierId: s.supplierId, url, event, key: vars.key, vars: JSON.stringify(vars) };
}
