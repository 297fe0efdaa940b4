/** E-mail actions (part 1, 7 "E-mail"): handlers of shared/api/email.ts. */
import { answer, type Api } from "../http/api.ts";
import { sendBulkSupplierEmail } from "../../shared/api/email.ts";
import { emailQueuedMsg } from "../../shared/messages.ts";
import { queueBulkSupplierEmail } from "../domain/email/bulk.ts";
import { kickDelivery } from "../domain/email/deliver.ts";

export function emailRoutes(api: Api) {
  api.handle(sendBulkSupplierEmail, async ({ deps, actor, body }) => {
    const { queued } = await queueBulkSupplierEmail(deps.db, actor(), body, deps.now);
    // committed: send in the background; the answer does not wait for the mail server
    kickDelivery(deps);
    return answer({ queued, mailServer: !!deps.mailer }, emailQueuedMsg(queued, !!deps.mailer));
  });
}
