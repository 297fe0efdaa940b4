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
    deps.services.mail.kick();
    return answer(
      { queued, mailServer: !!deps.services.mail.mailer },
      emailQueuedMsg(queued, !!deps.services.mail.mailer, "supplier"),
    );
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
  api.handle(resendOutboxMailCall, async ({ ctx, deps, params }) => {
    const mail = await resendMail(ctx, params.id);
    deps.services.mail.kick();
    return answer(mail, emailQueuedMsg(1, !!deps.services.mail.mailer));
  });
  api.handle(cancelOutboxMailCall, async ({ ctx, params }) => {
    return answer(await cancelMail(ctx, params.id), "E-mail cancelled: it will not be sent");
  });
}
