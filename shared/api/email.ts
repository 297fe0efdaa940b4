/** E-mail actions (part 1, 7 "E-mail"): the bulk mail to suppliers; the outbox of Support > E-mail. */
import { defineCall, returns } from "./contract.ts";
import { BulkSupplierEmail } from "../schemas/email.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";

/** How many mails were queued, and whether a mail server is set up to send them. */
export type BulkEmailQueued = { queued: number; mailServer: boolean };

export const sendBulkSupplierEmail = defineCall({
  method: "POST",
  path: "/admin/email/supplier/bulk/send",
  body: BulkSupplierEmail,
  result: returns<BulkEmailQueued>(),
});

/**
 * Where a mail of the outbox stands: `retrying` is a failed attempt that the delivery run will try
 * again at `nextAttemptAt`; `failed` was refused for good (or given up), with the server's answer.
 */
export type EmailState = "queued" | "sending" | "sent" | "retrying" | "failed" | "cancelled";
export const EMAIL_STATES: readonly { value: EmailState; label: string }[] = [
  { value: "queued", label: "Queued" },
  { value: "sending", label: "Sending" },
  { value: "sent", label: "Sent" },
  { value: "retrying", label: "Retrying" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
];
export const emailStateLabel = (s: string) => EMAIL_STATES.find((x) => x.value === s)?.label ?? s;

/** A mail of the outbox (Support > E-mail). */
export type OutboxMail = {
  _id: string;
  toAddress: string;
  subject: string;
  state: EmailState;
  attempts: number;
  /** The mail server's last answer (or why it could not be reached); empty once sent. */
  lastError: string;
  /** When a `retrying` mail is tried again (null in every other state). */
  nextAttemptAt: string | null;
  /** Which area queued it, and for which record. */
  module: string;
  recordId: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
};

/** One mail with its message: both parts as stored, and the names of the files sent with it. */
export type OutboxMessage = OutboxMail & {
  bodyHtml: string;
  bodyText: string;
  attachments: { filename: string; contentType: string }[];
};

export const listOutboxCall = defineCall({
  method: "POST",
  path: "/admin/email/outbox",
  body: ListBody,
  csv: true,
  result: returns<ListResult<OutboxMail>>(),
});
export const getOutboxMailCall = defineCall({
  method: "GET",
  path: "/admin/email/outbox/:id",
  ids: { id: "E-mail" },
  result: returns<OutboxMessage>(),
});
/** Sends a failed or cancelled mail again (the same row, queued now); a sent one as a new copy. */
export const resendOutboxMailCall = defineCall({
  method: "POST",
  path: "/admin/email/outbox/:id/resend",
  ids: { id: "E-mail" },
  result: returns<OutboxMail>(),
});
/** Stops a queued, retrying or failed mail: the delivery run leaves it alone. */
export const cancelOutboxMailCall = defineCall({
  method: "POST",
  path: "/admin/email/outbox/:id/cancel",
  ids: { id: "E-mail" },
  result: returns<OutboxMail>(),
});

/** Support > E-mail: newest first. */
export const outboxList = defineList<OutboxMail>()({
  id: "email-outbox",
  call: listOutboxCall,
  filters: { state: "texts", module: "text", minDate: "date", maxDate: "date" },
  sorts: ["createdAt", "attempts", "toAddress"],
  columns: [
    { key: "createdAt", header: "Queued at", value: (r) => r.createdAt },
    { key: "toAddress", header: "To", value: (r) => r.toAddress },
    { key: "subject", header: "Subject", value: (r) => r.subject },
    { key: "state", header: "State", value: (r) => emailStateLabel(r.state) },
    { key: "attempts", header: "Attempts", value: (r) => r.attempts },
    { key: "nextAttemptAt", header: "Next attempt", value: (r) => r.nextAttemptAt ?? "" },
    { key: "lastError", header: "Server's answer", value: (r) => r.lastError },
    { key: "module", header: "Module", value: (r) => r.module },
    { key: "sentAt", header: "Sent at", value: (r) => r.sentAt ?? "" },
  ],
});
