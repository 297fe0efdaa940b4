/**
 * Support > E-mail (issue 25): the outbox as people read it. Every mail with its state, the mail
 * server's last answer and when it is tried again; its message; resend and cancel. The state of a
 * row is one SQL expression (`stateOf`), so the list, its filter and the metrics count alike.
 */
import { type Expression, type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { Deps } from "../../deps.ts";
import { type AnyQB, dateRangeFilters, type ListSpec, listSpecOf } from "../../db/list.ts";
import { conflict, notFound } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt, isoAt } from "../common/clock.ts";
import {
  EMAIL_STATES,
  type EmailState,
  outboxList,
  type OutboxMail,
  type OutboxMessage,
} from "../../../shared/api/email.ts";
import { DEFAULT_RETRY_DELAYS_MS } from "./mailer.ts";
import { GIVE_UP_AFTER_MS, PERMANENT, retryDelayMs } from "./deliver.ts";
import { enqueueMails, type OutboxRow, parseAttachments } from "./outbox.ts";
import { EMAIL_MODULE } from "./bulk.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

/** Failed mails queued after this are tried again (unless refused for good): the delivery run's rule. */
export const retryCutoff = (now: number) => new Date(now - GIVE_UP_AFTER_MS).toISOString();

/** A row's state: a failed mail the delivery run will try again is `retrying`, else its status. */
export function stateOf(now: number): RawBuilder<EmailState> {
  return sql<EmailState>`(case when ${sql.ref("status")} = 'failed' and ${sql.ref("lastError")} not like ${
    PERMANENT + "%"
  } and ${sql.ref("createdAt")} > ${retryCutoff(now)} then 'retrying' else ${sql.ref("status")} end)`;
}

const KNOWN_STATES: ReadonlySet<string> = new Set<string>(EMAIL_STATES.map((s) => s.value));

const COLUMNS = [
  "id as _id",
  "toAddress",
  "subject",
  "attempts",
  "lastError",
  "module",
  "recordId",
  "createdAt",
  "updatedAt",
  "sentAt",
] as const;

export function outboxQuery(db: Db, now: number): AnyQB {
  return db.selectFrom("email_outbox").select([...COLUMNS, stateOf(now).as("state")]);
}

export function outboxListSpec(now: number): ListSpec {
  const state: Expression<unknown> = stateOf(now);
  return listSpecOf(outboxList, {
    search: ["toAddress", "subject", "module"],
    rowid: "email_outbox.rowid",
    filters: {
      state: (qb, val) => {
        const list = (Array.isArray(val) ? val : [val]).map(String).filter((s) => KNOWN_STATES.has(s));
        return list.length ? qb.where(state, "in", list) : qb;
      },
      module: (qb, val) => qb.where("module", "=", String(val)),
      ...dateRangeFilters("createdAt"),
    },
    sorts: { createdAt: "createdAt", attempts: "attempts", toAddress: "toAddress" },
    defaultSort: [["createdAt", "desc"], ["id", "desc"]],
  });
}

/** Attempts one delivery run makes (the mailer's, or the default when no mail server is set up). */
const attemptsPerRun = (deps: Pick<Deps, "services">) =>
  1 + (deps.services.mail.mailer?.retryDelaysMs.length ?? DEFAULT_RETRY_DELAYS_MS.length);

type ListedRow = Omit<OutboxMail, "nextAttemptAt">;

/** The row as listed: a retrying mail says when it is tried next. */
export function outboxRowMapper(deps: Pick<Deps, "services">) {
  const perRun = attemptsPerRun(deps);
  return (r: ListedRow): OutboxMail => ({
    ...r,
    attempts: Number(r.attempts),
    nextAttemptAt: r.state === "retrying"
      ? new Date(Date.parse(r.updatedAt) + retryDelayMs(Number(r.attempts), perRun)).toISOString()
      : null,
  });
}

type StoredMail = ListedRow & Pick<OutboxRow, "status" | "bodyHtml" | "bodyText" | "attachments">;

async function readMail(db: Db, id: string, now: number): Promise<StoredMail> {
  const row = await db.selectFrom("email_outbox")
    .select([...COLUMNS, "status", "bodyHtml", "bodyText", "attachments", stateOf(now).as("state")])
    .where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("E-mail");
  return row as StoredMail;
}

/** GET /admin/email/outbox/:id: the mail, both parts of its message, its files' names. */
export async function outboxMessage(
  deps: Pick<Deps, "db" | "services" | "now">,
  id: string,
): Promise<OutboxMessage> {
  const row = await readMail(deps.db, id, deps.now());
  return {
    ...outboxRowMapper(deps)(pick(row)),
    bodyHtml: row.bodyHtml,
    bodyText: row.bodyText,
    attachments: parseAttachments(row.attachments).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
    })),
  };
}

/** The listed fields of a mail read whole. */
function pick(row: StoredMail): ListedRow {
  const { status: _status, bodyHtml: _html, bodyText: _text, attachments: _files, ...listed } = row;
  return listed;
}

const quoted = (m: { subject: string; toAddress: string }) => `"${m.subject}" to ${m.toAddress}`;

/**
 * POST /admin/email/outbox/:id/resend: a failed (or retrying) or cancelled mail is queued again,
 * its attempts counted afresh; a sent one is queued as a new copy (the sent row stays as it was).
 * A mail queued or being sent already is a 409.
 */
export async function resendMail(
  ctx: WriteCtx & Pick<Ctx, "services">,
  id: string,
): Promise<OutboxMail> {
  const deps = ctx;
  const { actor } = ctx;
  const now = deps.now();
  const newId = await deps.db.transaction().execute(async (trx) => {
    const mail = await readMail(trx, id, now);
    if (mail.state === "queued") throw conflict("This e-mail is already queued");
    if (mail.state === "sending") throw conflict("This e-mail is being sent now");
    const at = dateAt(deps.now);
    if (mail.state === "sent") {
      const [copy] = await enqueueMails(trx, [{
        to: mail.toAddress,
        subject: mail.subject,
        html: mail.bodyHtml,
        text: mail.bodyText,
        module: mail.module,
        recordId: mail.recordId,
        attachments: parseAttachments(mail.attachments),
      }], at);
      await writeLog(trx, actor, {
        activity: `Queued a copy of the sent e-mail ${quoted(mail)}`,
        module: EMAIL_MODULE,
        recordId: copy,
      }, at);
      return copy;
    }
    const moved = await trx.updateTable("email_outbox").set({
      status: "queued",
      attempts: 0,
      lastError: "",
      updatedAt: isoAt(deps.now),
    }).where("id", "=", id).where("status", "=", mail.status).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw conflict("This e-mail changed meanwhile: look again");
    const before = mail.state === "cancelled"
      ? "it was cancelled"
      : `${mail.attempts} failed attempt${mail.attempts === 1 ? "" : "s"}`;
    await writeLog(trx, actor, {
      activity: `Queued the e-mail ${quoted(mail)} again (after ${before})`,
      module: EMAIL_MODULE,
      recordId: id,
    }, at);
    return id;
  });
  return outboxRowMapper(deps)(pick(await readMail(deps.db, newId, deps.now())));
}

/** POST /admin/email/outbox/:id/cancel: a queued, retrying or failed mail is left alone from now on. */
export async function cancelMail(
  ctx: WriteCtx & Pick<Ctx, "services">,
  id: string,
): Promise<OutboxMail> {
  const deps = ctx;
  const { actor } = ctx;
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    const mail = await readMail(trx, id, now);
    if (mail.state === "sent") throw conflict("This e-mail was sent already");
    if (mail.state === "sending") throw conflict("This e-mail is being sent now and cannot be cancelled");
    if (mail.state === "cancelled") throw conflict("This e-mail is cancelled already");
    const moved = await trx.updateTable("email_outbox").set({
      status: "cancelled",
      updatedAt: isoAt(deps.now),
    })
      .where("id", "=", id).where("status", "=", mail.status).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw conflict("This e-mail changed meanwhile: look again");
    await writeLog(trx, actor, {
      activity: `Cancelled the e-mail ${quoted(mail)} (${mail.state})`,
      module: EMAIL_MODULE,
      recordId: id,
    }, dateAt(deps.now));
  });
  return outboxRowMapper(deps)(pick(await readMail(deps.db, id, deps.now())));
}

/** Mails sitting in the outbox, by state (sent ones are history, not depth): the metrics' gauge. */
export async function outboxDepth(db: Db, now: number): Promise<Map<EmailState, number>> {
  const rows = await db.selectFrom("email_outbox").select([
    stateOf(now).as("state"),
    sql<number>`count(*)`.as("n"),
  ])
    .where("status", "in", ["queued", "sending", "failed", "cancelled"]).groupBy("state").execute();
  return new Map(rows.map((r) => [r.state as EmailState, Number(r.n)]));
}
