/** Project e-mails (part 1, 7 "E-mail"): free text to the suppliers, their links, the client report, RFQ. */
import * as v from "valibot";
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { EmailForm, ProjectRef } from "../../shared/schemas/project.ts";
import { kickDelivery } from "../domain/email/deliver.ts";
import { sendClientReport, sendProjectEmail, sendRfq, sendSupplierLinks } from "../domain/projects/emails.ts";
import { entryBaseOf } from "./supplier-maps.ts";
import type { Ctx } from "../http/context.ts";

function queued(c: Ctx, count: number) {
  const deps = c.get("deps");
  kickDelivery(deps);
  const where = deps.mailer ? "and being sent" : "in the outbox: no mail server is configured";
  return ok(
    c,
    { queued: count, mailServer: !!deps.mailer },
    `${count} e-mail${count === 1 ? "" : "s"} queued ${where}`,
  );
}

export function projectEmailRoutes(api: Api) {
  api.post("/admin/email/send", async (c) => {
    const input = await body(c, v.object({ ...EmailForm.entries, ...ProjectRef.entries }));
    return queued(c, await sendProjectEmail(c.get("deps").db, actorOf(c), input.projectId, input.emailBody));
  });
  api.post("/admin/email/send/map", async (c) => {
    const { projectId } = await body(c, ProjectRef);
    return queued(c, await sendSupplierLinks(c.get("deps").db, actorOf(c), projectId, entryBaseOf(c)));
  });
  api.post("/admin/email/send/report", async (c) => {
    const { projectId } = await body(c, ProjectRef);
    return queued(c, await sendClientReport(c.get("deps").db, actorOf(c), projectId));
  });
  api.post("/admin/email/send/quota", async (c) => {
    const { projectId } = await body(c, ProjectRef);
    return queued(c, await sendRfq(c.get("deps").db, actorOf(c), projectId));
  });
}
