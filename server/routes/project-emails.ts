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
    async ({ deps, db, body, actor }) =>
      queued(deps, await sendProjectEmail(db, actor(), body.projectId, body.emailBody, deps.now)),
  );
  api.handle(
    R.sendSupplierLinksCall,
    async ({ deps, db, body, actor, c }) =>
      queued(deps, await sendSupplierLinks(db, actor(), body.projectId, entryBaseOf(c), deps.now)),
  );
  api.handle(
    R.sendClientReportCall,
    async ({ deps, db, body, actor }) =>
      queued(deps, await sendClientReport(db, actor(), body.projectId, deps.now)),
  );
  api.handle(
    R.sendRfqCall,
    async ({ deps, db, body, actor }) => queued(deps, await sendRfq(db, actor(), body.projectId, deps.now)),
  );
}
