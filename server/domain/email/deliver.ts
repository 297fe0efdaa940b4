/**
 * Delivery of the outbox: each queued mail is claimed (status `sending`), tried up to
 * `1 + mailer.retryDelaysMs.length` times, and left `sent` or `failed` with its attempts and last
 * error. Requests only enqueue (inside their transaction) and then kick the app's MailDelivery
 * (deps.services.mail), which runs `deliverPending` in the background, one run at a time per app.
 *
 * A mail server that is down (or answers "try later", a 4xx) does not lose mail: a `failed` mail is
 * queued again by a later run once `retryDelayMs(attempts)` has passed since its last attempt (1
 * minute, doubling, at most an hour; the server kicks a run every minute), for up to
 * GIVE_UP_AFTER_MS after it was queued. Only a refusal that trying again cannot change (a 5xx reply,
 * a rejected recipient) is final at once; its error is kept with the PERMANENT prefix. A run that
 * cannot reach the server stops there: the mails behind it stay queued, untouched, for the next run.
 */
import { parseAttachments } from "./outbox.ts";
import { safeEmailHtml } from "./sanitize.ts";
import type { Db } from "../../db/connection.ts";
import type { Logger } from "../../logger.ts";
import type { Mailer } from "./mailer.ts";
import { isoAt } from "../common/clock.ts";

/**
 * The database, the log and the mail server (none: mail waits in the outbox); `now` (Deps.now)
 * stamps the claim, the send and the failure, and dates the stale claims.
 */
export type DeliveryDeps = { db: Db; log: Logger; mailer?: Mailer; now: () => number };
export type DeliveryReport = { sent: number; failed: number; skipped: boolean };

/** A row left `sending` this long (a crash mid-send) is queued again. */
export const STALE_SENDING_MS = 10 * 60_000;
const BATCH = 50;
/** A failed mail is tried again after this, doubling with each further attempt, up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 60_000;
export const RETRY_MAX_MS = 60 * 60_000;
/** A mail still not sent this long after it was queued stays failed. */
export const GIVE_UP_AFTER_MS = 3 * 86_400_000;
/** How the last error of a mail refused for good begins: it is not tried again. */
export const PERMANENT = "Refused for good: ";

/** How long after its last attempt a failed mail with `attempts` so far is tried again. */
export function retryDelayMs(attempts: number, perRun: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, Math.min(20, attempts - perRun)));
}

type SmtpError = { responseCode?: number; code?: string; message?: string };

/** A refusal that trying again does not change: a permanent (5xx) reply, a rejected recipient. */
function isPermanent(e: unknown): boolean {
  const err = (e ?? {}) as SmtpError;
  return (typeof err.responseCode === "number" && err.responseCode >= 500) ||
    /^Recipient rejected/.test(String(err.message ?? ""));
}

/** The mail server could not be reached at all (refused, timed out, no such host, connection lost). */
function isUnreachable(e: unknown): boolean {
  const err = (e ?? {}) as SmtpError;
  if (typeof err.responseCode === "number") return false;
  return ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS"].includes(String(err.code)) ||
    /ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|ECONNRESET/.test(String(err.message ?? ""));
}

/** Failed mails whose retry is due go back to the queue (not those refused for good or given up). */
async function requeueFailed(deps: DeliveryDeps, perRun: number) {
  const now = deps.now();
  const failed = await deps.db.selectFrom("email_outbox").select(["id", "attempts", "updatedAt"])
    .where("status", "=", "failed").where("createdAt", ">", new Date(now - GIVE_UP_AFTER_MS).toISOString())
    .where("lastError", "not like", `${PERMANENT}%`).orderBy("createdAt").limit(500).execute();
  const due = failed.filter((m) => Date.parse(m.updatedAt) + retryDelayMs(m.attempts, perRun) <= now)
    .map((m) => m.id);
  if (due.length) {
    await deps.db.updateTable("email_outbox").set({ status: "queued" }).where("id", "in", due)
      .where("status", "=", "failed").execute();
  }
}

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
  await requeueFailed(deps, maxAttempts);
  const report: DeliveryReport = { sent: 0, failed: 0, skipped: false };
  const tried = new Set<string>();
  let reachable = true;
  while (reachable) {
    const batch = await db.selectFrom("email_outbox").selectAll().where("status", "=", "queued")
      .orderBy("createdAt").orderBy("id").limit(BATCH).execute();
    const fresh = batch.filter((m) => !tried.has(m.id));
    if (!fresh.length) break;
    for (const mail of fresh) {
      if (!reachable) break;
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
            html: safeEmailHtml(mail.bodyHtml),
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
          const permanent = isPermanent(e);
          const last = i === allowed - 1 || permanent;
          await db.updateTable("email_outbox").set({
            status: last ? "failed" : "sending",
            attempts,
            lastError: (permanent ? PERMANENT : "") + errorText(e),
            updatedAt: isoAt(deps.now),
          }).where("id", "=", mail.id).execute();
          if (last) {
            // the server is down: the mails behind this one wait in the queue for the next run
            if (isUnreachable(e)) reachable = false;
            report.failed++;
            deps.log.warn("e-mail failed", {
              id: mail.id,
              module: mail.module,
              attempts,
              error: errorText(e),
              retried: !permanent,
            });
            break;
          }
        }
      }
    }
  }
  return report;
}

/**
 * The app's outbox delivery (deps.services.mail): its mail server, and one background run at a
 * time, which a kick during it asks to look again.
 */
export class MailDelivery {
  #running: Promise<void> | null = null;
  #again = false;

  constructor(private readonly deps: DeliveryDeps) {}

  /** The SMTP transport, when SMTP_URL is set; without it mail waits in the outbox. */
  get mailer(): Mailer | undefined {
    return this.deps.mailer;
  }

  /** Sends every queued mail now (deliverPending with this app's deps). */
  deliver(): Promise<DeliveryReport> {
    return deliverPending(this.deps);
  }

  /** Starts a background delivery run (or asks the running one to look again); never throws. */
  kick(): void {
    if (!this.deps.mailer) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        try {
          await deliverPending(this.deps);
        } catch (e) {
          this.deps.log.error("e-mail delivery run failed", { error: errorText(e) });
        }
      } while (this.#again);
    })().finally(() => {
      this.#running = null;
    });
  }

  /** Resolves when no background delivery is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Closes the mail server's connection (a run under way finishes its current mail first). */
  close() {
    this.deps.mailer?.close();
  }
}
