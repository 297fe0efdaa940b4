/** E-mail actions (part 1, 7 "E-mail"): the bulk mail to suppliers. */
import { defineCall, returns } from "./contract.ts";
import { BulkSupplierEmail } from "../schemas/email.ts";

/** How many mails were queued, and whether a mail server is set up to send them. */
export type BulkEmailQueued = { queued: number; mailServer: boolean };

export const sendBulkSupplierEmail = defineCall({
  method: "POST",
  path: "/admin/email/supplier/bulk/send",
  body: BulkSupplierEmail,
  result: returns<BulkEmailQueued>(),
});
