/**
 * In-progress holds (issue 24 item 2). A limit (a quota cell, the project's sample size, the supplier
 * map's quota) counts, besides its completes, the sessions in the client survey now ("held": sent
 * there, neither back nor timed out), each weighted by the conversion measured so far on the project:
 *
 *   refused as over quota when  completes + p x held >= limit
 *
 * p is the completes' share among the sessions in the survey now (conversion()): an upper bound of
 * the conversion q (its Beta posterior's mean plus MARGIN_SD sd; the mean is (completes + W x prior) /
 * (finished + W), finished = sessions sent to the client survey that came back or timed out,
 * counters `sent - held`, a prior worth W = 20 sessions whose mean is the project's stated incidence
 * (IR, percent), or 1 without one), weighted by time: terminates come back sooner than completes,
 * so more of those still in the survey will complete than of those back (completes q r / (q r + 1 -
 * q), r: how many times longer a complete stays, from the time sums the writer keeps, migration
 * 0040). Then raised for the chance in the held sessions' own outcome (heldConversion(): z = 2.33
 * above p x held). As sessions come back p moves to the measured rate; a drop or a terminate
 * releases its hold, so the limit opens again. Under holds a complete past a limit stays a complete
 * (the client has the data), counted in `pastLimit`; with holds off (ROUTER_HOLDS=off) the router
 * keeps today's rule: refused on completes alone, a complete past a limit turned over-quota at return.
 */

import { type BatchState, cellKey, type MapCounts, type ProjectCounts, type SurveyTime } from "./load.ts";
import { REASON } from "../outcomes.ts";
import type { Changes } from "./write.ts";
import type { QuotaCellRef } from "../prescreen.ts";

/** How many sessions the prior is worth. */
export const PRIOR_SESSIONS = 20;
/**
 * How many standard deviations of the conversion's posterior above its mean the holds count at: the
 * rate measured on few sessions is uncertain. With the time weighting, 2 kept the marketplace bench
 * (10,000 members, 50 surveys) at 0.3% of completes past a limit for the same completes as 3.
 */
export const MARGIN_SD = 2;

/**
 * What the measured conversion is computed from: a project's counters and stated incidence, and the
 * time its sessions spent in the survey (absent: completes and the rest taken as equally long).
 */
export type ConversionBase =
  & { complete: number; sent: number; held: number; ir: number }
  & Partial<SurveyTime>;

/**
 * The posterior of the project's conversion (completes per session back from the survey): a Beta
 * prior worth PRIOR_SESSIONS with the stated IR as its mean (1 without one), updated by the
 * completes among the sessions back; its mean and the count of sessions it stands on.
 */
export function meanConversion(c: ConversionBase): { mean: number; n: number } {
  const prior = c.ir > 0 ? Math.min(1, c.ir / 100) : 1;
  const n = Math.max(0, c.sent - c.held) + PRIOR_SESSIONS;
  return { mean: Math.min(1, (Math.max(0, c.complete) + PRIOR_SESSIONS * prior) / n), n };
}

/**
 * How many times longer a complete stays in the survey than a session that comes back otherwise:
 * the ratio of their mean times, each mean drawn toward the two's common mean as if PRIOR_SESSIONS
 * sessions of that length were added; 1 before either is known.
 */
export function lengthRatio(c: Partial<SurveyTime>): number {
  const cs = c.loiSeconds ?? 0, cn = c.loiCompletes ?? 0, os = c.otherSeconds ?? 0, on = c.otherTimed ?? 0;
  if (cn + on === 0 || cs + os <= 0) return 1;
  const pooled = (cs + os) / (cn + on);
  const complete = (cs + PRIOR_SESSIONS * pooled) / (cn + PRIOR_SESSIONS);
  const other = (os + PRIOR_SESSIONS * pooled) / (on + PRIOR_SESSIONS);
  return other > 0 ? complete / other : 1;
}

/**
 * The conversion the holds count each session in the survey at: q, MARGIN_SD above the posterior's
 * mean, then weighted by time. A session still in the survey is one of those coming back: in a
 * steady flow, completes are q of them and stay r = lengthRatio() times as long as the rest, so of
 * those in the survey now q r / (q r + 1 - q) will complete (terminates, back sooner, are fewer
 * among them than among the sessions already back). At most 1.
 */
export function conversion(c: ConversionBase): number {
  const { mean, n } = meanConversion(c);
  const q = Math.min(1, mean + MARGIN_SD * Math.sqrt((mean * (1 - mean)) / (n + 1)));
  const r = lengthRatio(c);
  return q >= 1 ? 1 : (q * r) / (q * r + 1 - q);
}

/**
 * How many standard deviations of the held sessions' own outcome the holds keep free: even at the
 * right conversion p, `held` sessions complete p x held on average, and half the time more. 2.33
 * passes a limit about once in 100 (counting the average alone, the 10,000-member marketplace bench
 * counted 14% of its completes past a limit).
 */
export const OUTCOME_Z = 2.33;

/**
 * The conversion a limit counts its `held` sessions at: p raised so that completes + it x held is
 * the OUTCOME_Z upper bound of what they will complete (p x held + z x sqrt(held p (1 - p))). The
 * remote write's guard counts the sessions held at write time at the same rate: a little more
 * careful than this when another instance let some in meanwhile, never less.
 */
export function heldConversion(p: number, held: number): number {
  return held > 0 ? Math.min(1, p + OUTCOME_Z * Math.sqrt((p * (1 - p)) / held)) : p;
}

/**
 * The detail of a refusal the holds made (the completes alone leave room): "8 of 10 completes, 4
 * in progress held at 52% conversion". Null when the holds leave room (or there is no limit, or
 * nothing is held).
 */
export function heldRefusal(complete: number, held: number, limit: number, p: number): string | null {
  if (limit <= 0 || held <= 0 || complete >= limit) return null;
  if (complete + p * held < limit) return null;
  return `${complete} of ${limit} completes, ${held} in progress held at ${Math.round(p * 100)}% conversion`;
}

/**
 * The holds' checks of one batch's decisions (off: they refuse nothing and record nothing). Each
 * admission a check lets through is recorded (Changes.needHold) so that, on a remote primary, the
 * write is refused and decided again if other instances filled the room meanwhile.
 */
export class HoldChecks {
  constructor(
    private readonly on: boolean,
    private readonly state: BatchState,
    private readonly changes: Changes,
  ) {}

  /** The project's sample size or the supplier map's quota (`at`: its row and limit column). */
  limit(
    ps: ProjectCounts,
    at: { table: "projects" | "supplier_maps"; id: string; limit: string },
    c: { complete: number; held: number },
    limit: number,
  ): string | null {
    if (!this.on || limit <= 0) return null;
    const p = heldConversion(conversion(ps), c.held), out = heldRefusal(c.complete, c.held, limit, p);
    if (!out) this.changes.needHold({ kind: "counter", ...at, p }, c.held);
    return out;
  }

  /** The project's sample size, then the supplier map's quota: the first the holds fill, as a refusal. */
  project(ps: ProjectCounts, ms: MapCounts, projectId: string, mapId: string) {
    const onProject = this.limit(
      ps,
      { table: "projects", id: projectId, limit: "sampleSize" },
      ps,
      ps.sampleSize,
    );
    if (onProject) return { reason: REASON.sampleFull, detail: onProject };
    const onMap = this.limit(ps, { table: "supplier_maps", id: mapId, limit: "supplierQuota" }, ms, ms.quota);
    return onMap ? { reason: REASON.supplierQuotaFull, detail: onMap } : null;
  }

  /** A quota cell with `done` completes of `size`, its sessions in the survey as the batch sees them. */
  cell(ps: ProjectCounts, ref: QuotaCellRef, done: number, size: number): string | null {
    if (!this.on) return null;
    const inSurvey = this.state.cellHolds.get(cellKey(ref.quotaId, ref.quotaOptionId)) ?? 0;
    const p = heldConversion(conversion(ps), inSurvey);
    const out = heldRefusal(done, inSurvey, size, p);
    if (out) return `quota option ${ref.quotaOptionId}: ${out}`;
    this.changes.needHold({ kind: "cell", ...ref, completes: done, size, p }, inSurvey);
    return null;
  }
}
