/** The e-mail outbox: every mail is a row first (inside the caller's transaction), sent after commit. */
import type { Db } from "../../db/connection.ts";
import type { Selectable } from "kysely";
import type { EmailOutboxTable } from "../../db/tables/master.ts";
import { newId } from "../../db/ids.ts";
import { dateAt, wallClock } from "../common/clock.ts";
import type { MailAttachment } from "./mailer.ts";
import { htmlToText } from "../../../shared/html.ts";
import { safeEmailHtml } from "./sanitize.ts";

export type NewMail = {
  to: string;
  subject: string;
  html: string;
  /** Plain-text part; derived from the HTML when absent. */
  text?: string;
  /** Which area queued it, and for which record (the audit trail of a mail). */
  module: string;
  recordId?: string | null;
  /** Files sent with it (a report image). */
  attachments?: MailAttachment[];
};

export type OutboxRow = Selectable<EmailOutboxTable>;

/** Queues mails in one multi-row insert per 500; returns their ids. */
export async function enqueueMails(
  db: Db,
  mails: NewMail[],
  /** When they are queued: the caller's clock (`dateAt(deps.now)`); the real one only without deps. */
  at: Date = dateAt(wallClock),
): Promise<string[]> {
  const now = at.toISOString();
  const rows = mails.map((m) => {
    const html = safeEmailHtml(m.html);
    return {
      id: newId(at.getTime()),
      toAddress: m.to,
      subject: m.subject,
      bodyHtml: html,
      bodyText: m.text ?? htmlToText(html),
      status: "queued" as const,
      attempts: 0,
      lastError: "",
      module: m.module,
      recordId: m.recordId ?? null,
      createdAt: now,
      updatedAt: now,
      sentAt: null,
      attachments: JSON.stringify(m.attachments ?? []),
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    await db.insertInto("email_outbox").values(rows.slice(i, i + 500)).execute();
  }
  return rows.map((r) => r.id);
}

export async function outboxByIds(db: Db, ids: string[]): Promise<OutboxRow[]> {
  if (!ids.length) return [];
  return await db.selectFrom("email_outbox").selectAll().where("id", "in", ids).orderBy("toAddress")
    .execute();
}

/** The attachments stored with an outbox row (none for a row of before migration 0008). */
export function parseAttachments(raw: string | null | undefined): MailAttachment[] {
  try {
    const list = JSON.parse(raw || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}
