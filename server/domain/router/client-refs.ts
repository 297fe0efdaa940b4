/**
 * Returns that carry the client's identifier instead of our uid (API-integrated clients whose
 * identifier mapping names one; client-api.ts): the session is found by sessions.clientRef, and it
 * counts only when the identifier came in the parameter the mapping names for that client.
 */
import type { Db } from "../../db/connection.ts";
import type { RouterConfig } from "./config.ts";
import { returnParam } from "./client-api.ts";

/** Parameters of a return looked at, at most, and the longest identifier taken. */
const MAX_OFFERED = 8;
const MAX_REF = 128;

/** The identifiers a return offers: its uid, and its other parameters (not status or sig). */
export function offeredRefs(uid: string, params: Record<string, string> = {}): [string, string][] {
  const out: [string, string][] = [];
  const add = (param: string, raw: string) => {
    const value = raw.trim();
    if (value && value.length <= MAX_REF && out.length < MAX_OFFERED) out.push([param, value]);
  };
  add("uid", uid);
  for (const [k, v] of Object.entries(params)) {
    if (k !== "uid" && k !== "status" && k !== "sig" && typeof v === "string") add(k, v);
  }
  return out;
}

/**
 * The session a return names by the client's identifier: `uid` is the session, `ref` the identifier
 * (what a signed return signs). A session still open wins over an ended one; then the newest.
 */
export async function sessionByClientRef(
  sources: Db[],
  config: RouterConfig,
  offered: [string, string][],
): Promise<{ uid: string; ref: string } | null> {
  if (!offered.length) return null;
  const values = [...new Set(offered.map(([, v]) => v))];
  for (const db of sources) {
    // through the partial index of the sessions that have one (an ORDER BY here would scan by date)
    const rows =
      (await db.selectFrom("sessions").select(["id", "projectId", "clientRef", "status", "createdAt"])
        .where("clientRef", "!=", "").where("clientRef", "in", values).limit(20).execute())
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    let ended: { uid: string; ref: string } | null = null;
    for (const r of rows) {
      const project = await config.project(r.projectId);
      const param = project?.clientApi ? returnParam(project.clientApi) : null;
      if (!param || !offered.some(([k, v]) => k === param && v === r.clientRef)) continue;
      if (r.status === "redirected" || r.status === "drop") return { uid: r.id, ref: r.clientRef };
      ended ??= { uid: r.id, ref: r.clientRef };
    }
    if (ended) return ended;
  }
  return null;
}
