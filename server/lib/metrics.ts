/**
 * The process's counters and histograms (Prometheus), bumped where things happen at the cost of a
 * map look-up: the request middleware (server/http/metrics.ts), the database dialect (statement
 * timing), the router's writer (one call per flush) and the hook sender. They describe the process,
 * which is what a scrape of GET /metrics asks about, so they are one registry per process, outside
 * the domain; the scrape itself (with the database's gauges) is domain/ops/metrics.ts.
 */

export type Labels = Record<string, string>;

/** `{a="x",b="y"}` with the format's escapes; the key of a series. */
function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) =>
    `${k}="${v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')}"`
  );
  return parts.length ? `{${parts.join(",")}}` : "";
}

export class Counter {
  readonly #series = new Map<string, number>();
  constructor(readonly name: string, readonly help: string) {}
  inc(labels: Labels = {}, by = 1) {
    const key = labelText(labels);
    this.#series.set(key, (this.#series.get(key) ?? 0) + by);
  }
  /** One series, looked up once: its `inc` costs no label formatting. */
  child(labels: Labels): { inc(by?: number): void } {
    const key = labelText(labels), series = this.#series;
    if (!series.has(key)) series.set(key, 0);
    return { inc: (by = 1) => series.set(key, series.get(key)! + by) };
  }
  /** The value of one series (tests, the support page). */
  get(labels: Labels = {}): number {
    return this.#series.get(labelText(labels)) ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [key, n] of this.#series) lines.push(`${this.name}${key} ${n}`);
    return lines.join("\n");
  }
}

type HistogramSeries = { labels: Labels; counts: number[]; sum: number; count: number };

export class Histogram {
  readonly #series = new Map<string, HistogramSeries>();
  constructor(readonly name: string, readonly help: string, readonly buckets: readonly number[]) {}
  observe(value: number, labels: Labels = {}) {
    const key = labelText(labels);
    let s = this.#series.get(key);
    if (!s) {
      s = { labels, counts: new Array(this.buckets.length).fill(0), sum: 0, count: 0 };
      this.#series.set(key, s);
    }
    // counts are per bucket here and made cumulative when rendered
    const i = this.buckets.findIndex((b) => value <= b);
    if (i >= 0) s.counts[i]++;
    s.sum += value;
    s.count++;
  }
  /**
   * One series, looked up once: its `observe` costs no label formatting (the database's statement
   * timing and the request middleware keep these per fixed label set).
   */
  child(labels: Labels): { observe(value: number): void } {
    const key = labelText(labels);
    let s = this.#series.get(key);
    if (!s) {
      this.#series.set(key, s = { labels, counts: new Array(this.buckets.length).fill(0), sum: 0, count: 0 });
    }
    const series = s, buckets = this.buckets;
    return {
      observe(value: number) {
        let i = 0;
        while (i < buckets.length && value > buckets[i]) i++;
        if (i < buckets.length) series.counts[i]++;
        series.sum += value;
        series.count++;
      },
    };
  }
  count(labels: Labels = {}): number {
    return this.#series.get(labelText(labels))?.count ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.#series.values()) {
      let running = 0;
      this.buckets.forEach((b, i) => {
        running += s.counts[i];
        lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: String(b) })} ${running}`);
      });
      lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: "+Inf" })} ${s.count}`);
      lines.push(`${this.name}_sum${labelText(s.labels)} ${round(s.sum)}`);
      lines.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return lines.join("\n");
  }
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function gauge(name: string, help: string, series: [Labels, number][]): string {
  return [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} gauge`,
    ...series.map(([labels, n]) => `${name}${labelText(labels)} ${n}`),
  ].join("\n");
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DB_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000];

/** Route groups of the request metrics. */
export type RouteGroup = "api" | "survey" | "static" | "ops";

export const metrics = {
  requests: new Counter(
    "samplex_http_requests_total",
    "HTTP requests answered, by route group, method, route template (never the raw path) and status class (2xx, 3xx, 4xx, 5xx).",
  ),
  latency: new Histogram(
    "samplex_http_request_duration_seconds",
    "Time to answer an HTTP request, by route group, method and route template.",
    LATENCY_BUCKETS,
  ),
  statements: new Histogram(
    "samplex_db_statement_duration_seconds",
    "Time of one database statement, by kind (select, insert, update, delete, other).",
    DB_BUCKETS,
  ),
  routerEvents: new Counter(
    "samplex_router_events_total",
    "Respondent router events written (entry, prescreen, return, sweep), by the outcome: the session's status after it, or retried/repeat/unknown.",
  ),
  routerDropsSwept: new Counter(
    "samplex_router_swept_drops_total",
    "Sessions the drop sweep counted as drops.",
  ),
  writerBatch: new Histogram(
    "samplex_router_writer_batch_events",
    "Events per router writer transaction.",
    BATCH_BUCKETS,
  ),
  writerFlush: new Histogram(
    "samplex_router_writer_flush_seconds",
    "Time of one router writer transaction (load, decide, write, commit).",
    LATENCY_BUCKETS,
  ),
  backups: new Counter("samplex_backups_total", "Scheduled backups run, by result (ok, failed)."),
  callbackAttempts: new Counter(
    "samplex_callback_attempts_total",
    "Supplier callback (approved hook) delivery attempts, by result: delivered, retry (failed, tried again later), failed (given up), refused (an address the outbound policy refuses).",
  ),
};

/** The result of one callback delivery attempt. */
export type CallbackResult = "delivered" | "retry" | "failed" | "refused";
// one series per result, looked up once (a callback's answer costs no label formatting; each starts at 0)
const CALLBACK_SERIES = Object.fromEntries(
  (["delivered", "retry", "failed", "refused"] as const).map((result) => [
    result,
    metrics.callbackAttempts.child({ result }),
  ]),
) as Record<CallbackResult, { inc(by?: number): void }>;
export function recordCallbackAttempt(result: CallbackResult, n = 1) {
  CALLBACK_SERIES[result].inc(n);
}

/** Statement kinds of the database timing: a small fixed set, never the SQL itself. */
export type StatementKind = "select" | "insert" | "update" | "delete" | "other";
const STATEMENT_SERIES = Object.fromEntries(
  (["select", "insert", "update", "delete", "other"] as const).map((
    kind,
  ) => [kind, metrics.statements.child({ kind })]),
) as Record<StatementKind, { observe(value: number): void }>;
const NODE_KIND: Record<string, StatementKind> = {
  SelectQueryNode: "select",
  InsertQueryNode: "insert",
  UpdateQueryNode: "update",
  DeleteQueryNode: "delete",
};

/** The lower-case letter at `i` (ASCII letters only; anything else is left as it is). */
const lower = (text: string, i: number) => text.charCodeAt(i) | 32;
const [A, C, E, L, P] = ["a", "c", "e", "l", "p"].map((ch) => ch.charCodeAt(0));

/**
 * The kind of a statement from its query node, or from the first letters of a raw one: a few char
 * reads, no string made (the router's writer runs raw statements through here).
 */
export function statementKind(nodeKind: string, text: string): StatementKind {
  const known = NODE_KIND[nodeKind];
  if (known) return known;
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  switch (lower(text, i)) {
    case 115: // s: select, not savepoint
      return lower(text, i + 1) === E && lower(text, i + 2) === L ? "select" : "other";
    case 119: // with ... select (a CTE)
      return "select";
    case 105: // insert
      return "insert";
    case 117: // update
      return "update";
    case 100: // d: delete, not drop
      return lower(text, i + 1) === E ? "delete" : "other";
    case 114: // r: replace, not release or rollback
      return lower(text, i + 1) === E && lower(text, i + 2) === P && lower(text, i + 3) === L &&
          lower(text, i + 4) === A && lower(text, i + 5) === C
        ? "insert"
        : "other";
    default:
      return "other";
  }
}

/** One database statement's time (the dialect's executeQuery): a property read and a few adds. */
export function recordStatement(kind: StatementKind, seconds: number) {
  STATEMENT_SERIES[kind].observe(seconds);
}

/** What the router's writer reports after each committed batch: one call, a few map bumps. */
export type RouterBatchEvent = { kind: string };
export type RouterBatchOutcome = {
  session: { status: string } | null;
  counted: boolean;
  retried?: boolean;
  swept?: number;
};
export function recordRouterBatch(
  events: readonly RouterBatchEvent[],
  outcomes: readonly RouterBatchOutcome[],
  seconds: number,
) {
  metrics.writerBatch.observe(events.length);
  metrics.writerFlush.observe(seconds);
  for (let i = 0; i < events.length; i++) {
    const kind = events[i].kind, out = outcomes[i];
    if (kind === "sweep") {
      if (out?.swept) metrics.routerDropsSwept.inc({}, out.swept);
      continue;
    }
    const outcome = !out?.session
      ? "unknown"
      : out.retried
      ? "retried"
      : out.counted
      ? out.session.status
      : "repeat";
    metrics.routerEvents.inc({ kind, outcome });
  }
}
