/** Bulk e-mail to suppliers (part 1, 7 "E-mail": POST /admin/email/supplier/bulk/send). */
import { invalid } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import type { BulkSupplierEmail } from "../../../shared/schemas/email.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { notificationRecipients } from "../suppliers/suppliers.ts";
import { enqueueMails } from "./outbox.ts";
import type { WriteCtx } from "../ctx.ts";

export const EMAIL_MODULE = "E-mail";

/** Queues one mail to every active supplier with e-mail notifications on, and logs it. */
export async function queueBulkSupplierEmail(
  ctx: WriteCtx,
  input: BulkSupplierEmail,
): Promise<{ queued: number; ids: string[] }> {
  const { db, actor, now } = ctx;
  return await db.transaction().execute(async (trx) => {
    const at = dateAt(now);
    const recipients = await notificationRecipients(trx);
    if (!recipients.length) throw invalid(MSG.noEmailRecipients);
    const ids = await enqueueMails(
      trx,
      recipients.map((s) => ({
        to: s.supplierEmail,
        subject: input.subject,
        html: input.emailBody,
        module: EMAIL_MODULE,
        recordId: s.id,
      })),
      at,
    );
    await writeLog(trx, actor, {
      activity: `Queued bulk e-mail "${input.subject}" to ${ids.length} supplier${
        ids.length === 1 ? "" : "s"
      }`,
      module: EMAIL_MODULE,
    }, at);
    return { queued: ids.length, ids };
  });
}
