/** Project e-mails (part 1, 7 "E-mail"): free text to the suppliers, their links, the client report, RFQ. */
import { answer, type Api } from "../http/api.ts";
import * as R from "../../shared/api/project-reports.ts";
import type { Deps } from "../deps.ts";
import { sendClientReport, sendProjectEmail, sendRfq, sendSupplierLinks } from "../domain/projects/emails.ts";
import { entryBaseOf } from "./supplier-maps.ts";
import { emailQueuedMsg } from "../../shared/messages.ts";

function queued(deps: Deps, count: number) {
  deps.services.mail.kick();
  return answer(
    { queued: count, mailServer: !!deps.services.mail.mailer },
    emailQueuedMsg(count, !!deps.services.mail.mailer),
  );
}

export function projectEmailRoutes(api: Api) {
  api.handle(
    R.sendProjectEmailCall,
    async ({ ctx, deps, body }) =>
      queued(deps, await sendProjectEmail(ctx, { projectId: body.projectId, emailBody: body.emailBody })),
  );
  api.handle(
    R.sendSupplierLinksCall,
    async ({ ctx, deps, body, c }) =>
      queued(deps, await sendSupplierLinks(ctx, { projectId: body.projectId, entryBase: entryBaseOf(c) })),
  );
  api.handle(
    R.sendClientReportCall,
    async ({ ctx, deps, body }) => queued(deps, await sendClientReport(ctx, body.projectId)),
  );
  api.handle(
    R.sendRfqCall,
    async ({ ctx, deps, body }) => queued(deps, await sendRfq(ctx, body.projectId)),
  );
}
