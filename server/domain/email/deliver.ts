/**
 * Delivery of the outbox: each queued mail is claimed (status `sending`), tried up to
 * `1 + mailer.retryDelaysMs.length` times, and left `sent` or `failed` with its attempts and last
 * error. Requests only enqueue (inside their transaction) and then call `kickDelivery`, which runs
 * `deliverPending` in the background, one run at a time per database.
 */
import { parseAttachments } from "./outbox.ts";
import type { Deps } from "../../deps.ts";
import { isoAt } from "../common/clock.ts";

/** `now` (Deps.now) stamps the claim, the send and the failure, and dates the stale claims. */
export type DeliveryDeps = Pick<Deps, "db" | "log" | "mailer" | "now">;
export type DeliveryReport = { sent: number; failed: number; skipped: boolean };

/** A row left `sending` this long (a crash mid-send) is queued again. */
export const STALE_SENDING_MS = 10 * 60_000;
const BATCH = 50;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function errorText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.slice(0, 1000);
}

/** Sends every queued mail now. Without a mailer nothing happens (mail stays queued). */
export async function deliverPending(deps: DeliveryDeps): Promise<DeliveryReport> {
  const { db, mailer } = deps;
  if (!mailer) return { sent: 0, failed: 0, skipped: true };
  const staleBefore = new Date(deps.now() - STALE_SENDING_MS).toISOString();
  await db.updateTable("email_outbox").set({ status: "queued" }).where("status", "=", "sending")
    .where("updatedAt", "<", staleBefore).execute();

  const maxAttempts = 1 + mailer.retryDelaysMs.length;
  const report: DeliveryReport = { sent: 0, failed: 0, skipped: false };
  const tried = new Set<string>();
  for (;;) {
    const batch = await db.selectFrom("email_outbox").selectAll().where("status", "=", "queued")
      .orderBy("createdAt").orderBy("id").limit(BATCH).execute();
    const fresh = batch.filter((m) => !tried.has(m.id));
    if (!fresh.length) break;
    for (const mail of fresh) {
      tried.add(mail.id);
      // claim it, so a concurrent run (another process) does not send it twice
      const claimed = await db.updateTable("email_outbox").set({
        status: "sending",
        updatedAt: isoAt(deps.now),
      })
        .where("id", "=", mail.id).where("status", "=", "queued").executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      let attempts = mail.attempts;
      const allowed = Math.max(1, maxAttempts - attempts);
      for (let i = 0; i < allowed; i++) {
        if (i > 0) await sleep(mailer.retryDelaysMs[Math.min(i - 1, mailer.retryDelaysMs.length - 1)] ?? 0);
        attempts++;
        try {
          await mailer.send({
            to: mail.toAddress,
            subject: mail.subject,
            html: mail.bodyHtml,
            text: mail.bodyText,
            attachments: parseAttachments(mail.attachments),
          });
          const now = isoAt(deps.now);
          await db.updateTable("email_outbox").set({
            status: "sent",
            attempts,
            lastError: "",
            sentAt: now,
            updatedAt: now,
          })
            .where("id", "=", mail.id).execute();
          report.sent++;
          break;
        } catch (e) {
          const last = i === allowed - 1;
          await db.updateTable("email_outbox").set({
            status: last ? "failed" : "sending",
            attempts,
            lastError: errorText(e),
            updatedAt: isoAt(deps.now),
          }).where("id", "=", mail.id).execute();
          if (last) {
            report.failed++;
            deps.log.warn("e-mail failed", {
              id: mail.id,
              module: mail.module,
              attempts,
              error: errorText(e),
            });
          }
        }
      }
    }
  }
  return report;
}

type RunState = { running: Promise<void> | null; again: boolean };
const runs = new WeakMap<object, RunState>();

/** Starts a background delivery run (or asks the running one to look again); never throws. */
export function kickDelivery(deps: DeliveryDeps): void {
  if (!deps.mailer) return;
  let state = runs.get(deps.db);
  if (!state) runs.set(deps.db, state = { running: null, again: false });
  if (state.running) {
    state.again = true;
    return;
  }
  const s = state;
  s.running = (async () => {
    do {
      s.again = false;
      try {
        await deliverPending(deps);
      } catch (e) {
        deps.log.error("e-mail delivery run failed", { error: errorText(e) });
      }
    } while (s.again);
  })().finally(() => {
    s.running = null;
  });
}

/** Resolves when no background delivery is running (tests, shutdown). */
export async function deliveryIdle(deps: Pick<Deps, "db">): Promise<void> {
  for (let s = runs.get(deps.db); s?.running; s = runs.get(deps.db)) await s.running;
}
