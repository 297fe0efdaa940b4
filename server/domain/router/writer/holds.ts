/**
 * In-progress holds (issue 24 item 2). A limit (a quota cell, the project's sample size, the supplier
 * map's quota) counts, besides its completes, the sessions in the client survey now ("held": sent
 * there, neither back nor timed out), each weighted by the conversion measured so far on the project:
 *
 *   refused as over quota when  completes + p x held >= limit
 *
 * p = (completes + W x prior) / (finished + W), finished = sessions sent to the client survey that
 * came back or timed out (counters `sent - held`), a Beta prior worth W = 20 sessions whose mean is
 * the project's stated incidence (IR, percent); a project without one starts at 1 (every respondent
 * in progress counted as a complete until data says otherwise: it may under-send at first, never
 * overshoot). As sessions come back p moves to the measured rate; a drop or a terminate releases
 * its hold, so the limit opens again. Under holds a complete past a limit stays a complete (the
 * client has the data), counted in `pastLimit`; with holds off (ROUTER_HOLDS=off) the router keeps
 * today's rule: refused on completes alone, a complete past a limit turned over-quota at return.
 */

/** How many sessions the prior is worth. */
export const PRIOR_SESSIONS = 20;

/** What the measured conversion is computed from: a project's counters and stated incidence. */
export type ConversionBase = { complete: number; sent: number; held: number; ir: number };

/** The project's conversion so far (0..1): completes per finished session, under the IR prior. */
export function conversion(c: ConversionBase): number {
  const prior = c.ir > 0 ? Math.min(1, c.ir / 100) : 1;
  const finished = Math.max(0, c.sent - c.held);
  const p = (Math.max(0, c.complete) + PRIOR_SESSIONS * prior) / (finished + PRIOR_SESSIONS);
  return Math.min(1, Math.max(0, p));
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
