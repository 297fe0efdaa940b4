/**
 * The guards of a remote write. On a remote primary (sqld, a managed libSQL service) a batch is
 * read first (one round trip) and then written as ONE atomic batch (one round trip), not in an
 * interactive transaction that holds the write lock across a round trip per statement. Between the
 * read and the write another instance may have written, so the write batch starts with guard
 * statements: each inserts into router_guard (migration 0014, `CHECK (ok = 1)`) whether a fact the
 * batch decided on still holds. A stale one inserts 0, the CHECK fails, the whole batch rolls back
 * and the writer reads again and decides again (writer.ts). The batch ends by emptying the table.
 *
 * The facts: every limited counter an admission counted on still has room for the batch
 * (Changes.need), and so have the limits an admission under holds counted on, sessions in the
 * survey included (Changes.needHold); the sessions the batch changes are as read; no one else let in a respondent the
 * batch lets in; IP counts, free client links, quota cells and other projects' sessions (exclusion
 * rules) are as read.
 */
import type { Statement } from "../rollup.ts";
import { type BatchState, priorQuery } from "./load.ts";
import type { Changes } from "./write.ts";

/** The message of a batch refused by a guard (the CHECK's name). */
export const STALE = /router_guard_stale|CHECK constraint failed|UNIQUE constraint failed: sessions\./i;

const guard = (condition: string, args: unknown[]): Statement => ({
  sql: `INSERT INTO router_guard (ok) SELECT ${condition}`,
  args,
});

export function guardStatements(state: BatchState, changes: Changes): Statement[] {
  const out: Statement[] = [];
  for (const n of changes.needs.values()) {
    // the limit as it is now (staff may have changed it), 0 being no limit
    out.push({
      sql: `INSERT INTO router_guard (ok) SELECT "${n.limit}" <= 0 OR "${n.counter}" + ? <= "${n.limit}"
        FROM ${n.table} WHERE id = ?`,
      args: [n.over, n.id],
    });
  }
  for (const n of changes.holdNeeds.values()) {
    if (n.kind === "counter") {
      out.push({
        sql:
          `INSERT INTO router_guard (ok) SELECT "${n.limit}" <= 0 OR complete + ? * (held + ?) < "${n.limit}"
        FROM ${n.table} WHERE id = ?`,
        args: [n.p, n.over, n.id],
      });
    } else {
      out.push(guard(
        `? + ? * (coalesce((SELECT held FROM quota_cell_holds WHERE quotaId = ? AND quotaOptionId = ?), 0) + ?) < ?`,
        [n.completes, n.p, n.quotaId, n.quotaOptionId, n.over, n.size],
      ));
    }
  }
  for (const id of changes.dirty.keys()) {
    const read = state.base.sessions.get(id);
    if (!read) continue; // new in this batch
    out.push(guard(`coalesce((SELECT status = ? AND updatedAt = ? FROM sessions WHERE id = ?), 0)`, [
      read.status,
      read.updatedAt,
      id,
    ]));
  }
  // one guard per project for the respondents it lets in (the (projectId, sid) index answers it)
  const sidsBy = new Map<string, string[]>();
  for (const e of changes.newEntries) sidsBy.set(e.projectId, [...(sidsBy.get(e.projectId) ?? []), e.sid]);
  for (const [projectId, sids] of sidsBy) {
    for (let i = 0; i < sids.length; i += 500) {
      const chunk = sids.slice(i, i + 500);
      out.push(guard(
        `NOT EXISTS (SELECT 1 FROM sessions WHERE projectId = ? AND sid IN (${chunk.map(() => "?").join(",")})
          AND isTest = 0 AND status NOT IN ('closed', 'duplicate'))`,
        [projectId, ...chunk],
      ));
    }
  }
  for (const [key, n] of state.base.ips) {
    const [projectId, ip] = key.split("\u0000");
    out.push(guard(`coalesce((SELECT n FROM project_ip_counts WHERE projectId = ? AND ip = ?), 0) = ?`, [
      projectId,
      ip,
      n,
    ]));
  }
  for (const l of changes.usedLinks) {
    out.push(guard(`coalesce((SELECT usedBy IS NULL FROM project_links WHERE id = ?), 0)`, [l.id]));
  }
  for (const [id, q] of state.quotas) {
    out.push(guard(`coalesce((SELECT quotaValue = ? FROM project_quotas WHERE id = ?), 0)`, [q.text, id]));
  }
  const prior = state.base.prior;
  if (prior) {
    const q = priorQuery(prior.other, prior.sids);
    out.push(guard(
      `coalesce((SELECT group_concat(id || ':' || status, ',') FROM (${q.sql})), '') = ?`,
      [...q.args, prior.fingerprint],
    ));
  }
  return out;
}
