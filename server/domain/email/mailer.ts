/**
 * The mail transport: nodemailer over SMTP (SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://...).
 * Without SMTP_URL there is no mailer and mail waits in the outbox.
 */
import nodemailer from "nodemailer";

/** A file sent with a mail; `content` is base64. */
export type MailAttachment = { filename: string; contentType: string; content: string };
export type OutgoingMail = {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
};

export interface Mailer {
  /** The From header (SMTP_FROM). */
  readonly from: string;
  /** Waits before the 2nd, 3rd, ... attempt of one message; attempts = length + 1. */
  readonly retryDelaysMs: readonly number[];
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export type SmtpOptions = { retryDelaysMs?: readonly number[]; timeoutMs?: number };

export const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000] as const;

export function createSmtpMailer(url: string, from: string, opts: SmtpOptions = {}): Mailer {
  const timeout = opts.timeoutMs ?? 15_000;
  const transport = nodemailer.createTransport(
    {
      url,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout * 2,
    } as Parameters<typeof nodemailer.createTransport>[0],
  );
  return {
    from,
    retryDelaysMs: opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    async send(mail) {
      const info = await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        attachments: (mail.attachments ?? []).map((a) => ({ ...a, encoding: "base64" })),
      });
      const rejected = (info.rejected ?? []).map(String);
      if (rejected.length) throw new Error(`Recipient rejected: ${rejected.join(", ")}`);
    },
    close() {
      transport.close();
    },
  };
}
