/** Business timings of the spec (part 1, section 9): one place, so screens and tests agree. */
export const TIMING = {
  apiTimeoutMs: 20_000,
  loginDelayMs: 800,
  logoutDelayMs: 100,
  formSubmitDelayMs: 200,
  searchDebounceMs: 500,
  toastMs: 4_000,
  copiedIndicatorMs: 1_000,
} as const;
