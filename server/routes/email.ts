/** E-mail actions (part 1, 7 "E-mail"): the bulk mail to suppliers. */
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { BulkSupplierEmail } from "../../shared/schemas/email.ts";
import { emailQueuedMsg } from "../../shared/messages.ts";
import { queueBulkSupplierEmail } from "../domain/email/bulk.ts";
import { kickDelivery } from "../domain/email/deliver.ts";

export function emailRoutes(api: Api) {
  api.post("/admin/email/supplier/bulk/send", async (c) => {
    const input = await body(c, BulkSupplierEmail);
    const deps = c.get("deps");
    const { queued } = await queueBulkSupplierEmail(deps.db, actorOf(c), input);
    // committed: send in the background; the answer does not wait for the mail server
    kickDelivery(deps);
    return ok(c, { queued, mailServer: !!deps.mailer }, emailQueuedMsg(queued, !!deps.mailer));
  });
}
