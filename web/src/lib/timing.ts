/**
 * Business timings of the spec (part 1, section 9): one place, so screens and tests agree. The login
 * (800 ms), form (200 ms) and logout (100 ms) delays are gone: they copied timers of the old front end, not a
 * need; submits run at the click, with their loading state, and a double click still sends once.
 */
export const TIMING = {
  apiTimeoutMs: 20_000,
  searchDebounceMs: 500,
  toastMs: 4_000,
  copiedIndicatorMs: 1_000,
} as const;
