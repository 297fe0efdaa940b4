/** E-mail actions (part 1, 7 "E-mail"): handlers of shared/api/email.ts; the outbox of Support > E-mail. */
import { answer, type Api } from "../http/api.ts";
import {
  cancelOutboxMailCall,
  getOutboxMailCall,
  listOutboxCall,
  outboxList,
  resendOutboxMailCall,
  sendBulkSupplierEmail,
} from "../../shared/api/email.ts";
import { emailQueuedMsg } from "../../shared/messages.ts";
import { queueBulkSupplierEmail } from "../domain/email/bulk.ts";
import { kickDelivery } from "../domain/email/deliver.ts";
import {
  cancelMail,
  outboxListSpec,
  outboxMessage,
  outboxQuery,
  outboxRowMapper,
  resendMail,
} from "../domain/email/outbox-admin.ts";

export function emailRoutes(api: Api) {
  api.handle(sendBulkSupplierEmail, async ({ ctx, deps, body }) => {
    const { queued } = await queueBulkSupplierEmail(ctx, body);
    // committed: send in the background; the answer does not wait for the mail server
    kickDelivery(deps);
    return answer({ queued, mailServer: !!deps.mailer }, emailQueuedMsg(queued, !!deps.mailer, "supplier"));
  });
  api.list(listOutboxCall, ({ deps }) => {
    const now = deps.now();
    return {
      query: outboxQuery(deps.db, now),
      spec: outboxListSpec(now),
      map: outboxRowMapper(deps),
      list: outboxList,
    };
  });
  api.handle(getOutboxMailCall, ({ deps, params }) => outboxMessage(deps, params.id));
  api.handle(resendOutboxMailCall, async ({ deps, actor, params }) => {
    const mail = await resendMail(deps, actor(), params.id);
    kickDelivery(deps);
    return answer(mail, emailQueuedMsg(1, !!deps.mailer));
  });
  api.handle(cancelOutboxMailCall, async ({ deps, actor, params }) => {
    return answer(await cancelMail(deps, actor(), params.id), "E-mail cancelled: it will not be sent");
  });
}
