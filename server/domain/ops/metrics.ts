/**
 * The process's metrics, in the Prometheus text format (GET /metrics): the counters and histograms
 * of server/lib/metrics.ts, then the gauges that belong to the database (outbox depth, hooks
 * pending, database size), read when scraped.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { commitOf, VERSION } from "./version.ts";
import { outboxDepth } from "../email/outbox-admin.ts";
import { type Clock, wallClock } from "../common/clock.ts";
import { gauge, type Labels, metrics } from "../../lib/metrics.ts";

export {
  type CallbackResult,
  Counter,
  Histogram,
  metrics,
  recordCallbackAttempt,
  recordRouterBatch,
  recordStatement,
  type RouteGroup,
  type RouterBatchEvent,
  type RouterBatchOutcome,
  type StatementKind,
  statementKind,
} from "../../lib/metrics.ts";

/** The outbox states the depth gauge reports, each always present (0 when none). */
const OUTBOX_STATES = ["queued", "sending", "retrying", "failed", "cancelled"] as const;

/** Figures read from the database at scrape time. */
async function databaseGauges(db: Db, now: number): Promise<string[]> {
  const out: string[] = [];
  const mail = await outboxDepth(db, now);
  const states = OUTBOX_STATES.map((state) => [{ state }, mail.get(state) ?? 0] as [Labels, number]);
  out.push(gauge(
    "samplex_email_outbox_mails",
    "E-mails in the outbox by state: queued, sending, retrying (failed, tried again later), failed (refused for good or given up), cancelled. Sent ones are not counted.",
    states,
  ));
  out.push(gauge(
    "samplex_email_outbox_depth",
    "E-mails still to be sent: queued, being sent, or retrying after a failed attempt.",
    [[{}, (mail.get("queued") ?? 0) + (mail.get("sending") ?? 0) + (mail.get("retrying") ?? 0)]],
  ));
  out.push(gauge(
    "samplex_email_outbox_failed",
    "E-mails that failed for good: refused by the mail server or given up after retrying (not tried again).",
    [[{}, mail.get("failed") ?? 0]],
  ));
  const hooks = await db.selectFrom("router_hooks").select(["status", sql<number>`count(*)`.as("n")])
    .where("status", "in", ["queued", "sending", "failed"]).groupBy("status").execute();
  const h = new Map(hooks.map((r) => [r.status, Number(r.n)]));
  // outcome callbacks claimed at birth are on their way from their write batch's claim (migration 0042)
  const claimed = await db.selectFrom("router_hook_claims")
    .select(sql<number>`coalesce(sum(json_array_length(rows)), 0)`.as("n")).executeTakeFirst();
  h.set("sending", (h.get("sending") ?? 0) + Number(claimed?.n ?? 0));
  out.push(gauge(
    "samplex_callback_deliveries",
    "Supplier callbacks (approved hooks) by delivery state: queued (due or waiting to retry), sending (claimed by a sender), failed (given up or refused). Delivered ones are counted by samplex_callback_attempts_total.",
    (["queued", "sending", "failed"] as const).map((state) =>
      [{ state }, h.get(state) ?? 0] as [Labels, number]
    ),
  ));
  out.push(gauge("samplex_hook_deliveries_pending", "Approved-complete hooks not yet delivered.", [[
    {},
    (h.get("queued") ?? 0) + (h.get("sending") ?? 0),
  ]]));
  out.push(
    gauge("samplex_hook_deliveries_failed", "Hooks given up after every retry.", [[
      {},
      h.get("failed") ?? 0,
    ]]),
  );
  out.push(
    gauge("samplex_database_size_bytes", "Size of the database (pages times page size).", [[
      {},
      await databaseBytes(db),
    ]]),
  );
  return out;
}

/** page_count * page_size; 0 where the database server does not answer these pragmas. */
export async function databaseBytes(db: Db): Promise<number> {
  try {
    const pc = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    const ps = await sql<{ page_size: number }>`pragma page_size`.execute(db);
    return Number(pc.rows[0]?.page_count ?? 0) * Number(ps.rows[0]?.page_size ?? 0);
  } catch {
    return 0;
  }
}

/** The whole scrape: process, request and router series, then the database's figures. */
export async function renderMetrics(db: Db, now: Clock = wallClock): Promise<string> {
  const mem = Deno.memoryUsage();
  const parts = [
    gauge("samplex_build_info", "The running release.", [[{ version: VERSION, commit: commitOf() }, 1]]),
    gauge("process_resident_memory_bytes", "Resident memory of the process.", [[{}, mem.rss]]),
    gauge("process_heap_used_bytes", "JavaScript heap in use.", [[{}, mem.heapUsed]]),
    gauge("process_heap_total_bytes", "JavaScript heap reserved.", [[{}, mem.heapTotal]]),
    gauge("process_uptime_seconds", "Seconds since the process started.", [[
      {},
      Math.round(performance.now() / 1000),
    ]]),
    ...Object.values(metrics).map((m) => m.render()),
  ];
  try {
    parts.push(...await databaseGauges(db, now()));
    parts.push(gauge("samplex_database_up", "1 when the database answered the scrape's queries.", [[{}, 1]]));
  } catch {
    parts.push(gauge("samplex_database_up", "1 when the database answered the scrape's queries.", [[{}, 0]]));
  }
  return parts.join("\n") + "\n";
}
