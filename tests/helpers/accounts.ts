/** Projects ready to invoice, with completes and supplier work, for the accounts tests. */
import type { TestApp } from "./app.ts";
import { makeChild, makeClient, makeParent, makeSupplier } from "./fixtures.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { newId } from "../../server/db/ids.ts";

/**
 * A group project of `client` with one child of `complete` completes at `cpi`, `approved` of them
 * approved by the client's reconcile (default: all), moved to Ready To Invoice (the counters set as
 * the router and reconcile would have left them); optionally a supplier mapped to the child with
 * `approved` approved completes at `supplierCPI` (and staff's `adminApproved` count).
 */
export async function readyProject(
  t: TestApp,
  opts: {
    clientId?: string;
    complete?: number;
    approved?: number;
    cpi?: number;
    sampleSize?: number;
    poNumber?: string;
    status?: number;
    supplier?: { _id: string; approved: number; supplierCPI: number; adminApproved?: number | null };
  } = {},
) {
  const clientId = opts.clientId ?? (await makeClient(t))._id;
  const parent = await makeParent(t, { clientId });
  const child = await makeChild(t, parent);
  const db = t.deps.db;
  const status = opts.status ?? PROJECT_STATUS.READY_TO_INVOICE;
  await db.updateTable("projects").set({
    complete: opts.complete ?? 100,
    approved: opts.approved ?? opts.complete ?? 100,
    cpi: opts.cpi ?? 2.5,
    sampleSize: opts.sampleSize ?? 200,
    projectStatus: status,
  }).where("id", "=", child._id).execute();
  await db.updateTable("projects").set({ projectStatus: status, poNumber: opts.poNumber ?? "PO-7788" })
    .where("id", "=", parent._id).execute();
  if (opts.supplier) {
    const stamp = new Date().toISOString();
    await db.insertInto("supplier_maps").values({
      id: newId(),
      projectId: child._id,
      supplierId: opts.supplier._id,
      supplierCPI: opts.supplier.supplierCPI,
      approved: opts.supplier.approved,
      complete: opts.supplier.approved,
      adminApproved: opts.supplier.adminApproved ?? null,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
  }
  const p = await db.selectFrom("projects").select(["projectCode", "projectName"]).where(
    "id",
    "=",
    parent._id,
  )
    .executeTakeFirstOrThrow();
  return { _id: parent._id as string, childId: child._id as string, clientId, ...p };
}

export { makeClient, makeSupplier };

/** Today as the accounts area counts it (+05:30), and days from it. */
export function day(offset = 0): string {
  const d = new Date(Date.now() + 330 * 60_000);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
