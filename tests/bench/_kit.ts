/**
 * What benchmark modules share: the row type run.ts prints, and timing helpers. (A separate file:
 * run.ts imports the bench modules, so they must not import run.ts back.)
 */

/** One line of the table. `ratio` is against a baseline measured in the same run (say which in `note`). */
export type BenchRow = {
  measure: string;
  /** A single figure (a size, a count, a duration). */
  value?: number;
  median?: number;
  p95?: number;
  unit: string;
  /** e.g. 3.2 for "3.2x the baseline"; shown as `3.20x`. */
  ratio?: number;
  note?: string;
  /**
   * Set on the few rows that answer an issue's target: run.ts gathers them, under this label, in
   * the summary table printed after the full one (e.g. "router entries, 2 instances on sqld").
   */
  summary?: string;
};
export type BenchModule = { bench?: () => Promise<BenchRow[]> | BenchRow[] };

/** Median and 95th percentile of samples (nearest-rank). */
export function summarize(samples: number[]): { median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  const rank = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
  return { median: rank(0.5), p95: rank(0.95) };
}

/** Runs `fn` `warmup` times unmeasured, then `runs` times, returning milliseconds per run. */
export async function timeRuns(
  fn: () => Promise<unknown> | unknown,
  runs: number,
  warmup = 3,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}
