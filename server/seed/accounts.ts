/**
 * The demo's accounts, made through the accounts domain as staff would: group projects whose
 * children all reached invoicing proceed to invoice, those with invoiced work get an invoice (the
 * first one paid, a second one archived), and a supplier with reconciled work gets a purchase
 * order. The demo's project set and statuses stay as the seed plans them.
 */
import type { Deps } from "../deps.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import type { Caller } from "../domain/projects/projects.ts";
import { setStatus } from "../domain/projects/status.ts";
import { createInvoice, updateInvoice } from "../domain/accounts/invoices.ts";
import { invoiceProjects } from "../domain/accounts/invoice-projects.ts";
import { createPurchaseOrder } from "../domain/accounts/purchase-orders.ts";
import { RECONCILED_STATUSES } from "../domain/accounts/finances.ts";
import { ensureIssuers } from "../domain/accounts/issuers.ts";
import { addDays, businessToday } from "../domain/accounts/dates.ts";

export async function seedAccounts(
  deps: Pick<Deps, "db" | "services">,
  caller: Caller,
  clock: () => number,
  children: { parentId: string; status: number }[],
): Promise<{ invoices: number; purchaseOrders: number }> {
  const { db } = deps;
  const ctx = { ...deps, actor: caller.actor, now: clock };
  await ensureIssuers(ctx);
  const { READY_TO_INVOICE, INVOICED } = PROJECT_STATUS;
  const byParent = new Map<string, number[]>();
  for (const c of children) byParent.set(c.parentId, [...(byParent.get(c.parentId) ?? []), c.status]);
  const toInvoice: string[] = [];
  for (const [parentId, statuses] of byParent) {
    if (!statuses.every((s) => s === READY_TO_INVOICE || s === INVOICED)) continue;
    await setStatus({ ...deps, now: clock, ...caller }, { id: parentId, action: "proceedToInvoice" });
    if (statuses.includes(INVOICED)) toInvoice.push(parentId);
  }
  let invoices = 0;
  const today = businessToday(clock);
  for (const [i, parentId] of toInvoice.entries()) {
    const p = await db.selectFrom("projects").select(["clientId"]).where("id", "=", parentId)
      .executeTakeFirstOrThrow();
    const client = await db.selectFrom("clients").select("netDays").where("id", "=", p.clientId)
      .executeTakeFirstOrThrow();
    const line = (await invoiceProjects(ctx, { clientId: p.clientId, invoiceId: null })).find((o) =>
      o._id === parentId
    );
    if (!line) continue;
    const inv = await createInvoice(ctx, {
      clientId: p.clientId,
      netTerms: client.netDays,
      invoiceStatus: 1,
      currentDate: today,
      dueDate: addDays(today, client.netDays),
      projects: [{
        projectId: line._id,
        projectCode: line.projectCode,
        projectName: line.projectName,
        poNumber: line.poNumber,
        complete: line.complete,
        cpi: line.cpi,
        total: line.total,
      }],
    });
    invoices++;
    if (i === 0) {
      await updateInvoice(ctx, {
        id: inv._id,
        referenceNo: "UTR-DEMO-0001",
        recievedDate: today,
        comment: "Paid by wire",
        invoiceStatus: 2,
      });
    }
    if (i === 1) await setStatus({ ...deps, now: clock, ...caller }, { id: parentId, action: "archieve" });
  }
  // a purchase order for the first supplier with reconciled work
  const supplier = await db.selectFrom("supplier_maps as m").innerJoin("projects as p", "p.id", "m.projectId")
    .select("m.supplierId").where("p.projectStatus", "in", RECONCILED_STATUSES).where("m.isDeleted", "=", 0)
    .orderBy("m.supplierId").limit(1).executeTakeFirst();
  let purchaseOrders = 0;
  if (supplier) {
    await createPurchaseOrder(ctx, { supplierId: supplier.supplierId });
    purchaseOrders++;
  }
  return { invoices, purchaseOrders };
}
