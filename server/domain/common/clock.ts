/**
 * The domain's one way to read the time. Every domain function that stamps a row takes a `Clock`:
 * `Deps.now` from the routes and the CLI, the seed's own clock, or (as a trailing default) the real
 * one. tests/unit/clock_guard_test.ts keeps `Date.now()` and `new Date()` out of server/domain.
 */

/** Milliseconds since epoch. */
export type Clock = () => number;
/** The real clock: the default where a caller has no deps (the seed, scripts). */
export const wallClock: Clock = Date.now;
/** The clock's time as stored in the rows. */
export const isoAt = (now: Clock) => new Date(now()).toISOString();
/** The clock's time as the Date the log and outbox take. */
export const dateAt = (now: Clock) => new Date(now());
