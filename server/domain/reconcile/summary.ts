/**
 * The supplier summary of a project (POST /admin/suppliers/summary): one row per supplier map of the
 * project (a group project: of its children), with its completes, reconciled approved and rejected
 * counts, the admin's own approved count, the supplier CPI, what is accepted and what it costs. The
 * supplier CPI and the admin-approved count are edited here (POST /admin/suppliers/approve/summary).
 */
import type { Db } from "../../db/connection.ts";
import { writeLog } from "../audit/log.ts";
import { notFound } from "../errors.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import type { SupplierSummaryRow } from "../../../shared/api/reconcile.ts";
import type { ApproveSummaryBody } from "../../../shared/schemas/reconcile.ts";
import { inList, MODULE, reconcileTarget } from "./scope.ts";

const round2 = (n: number) => Math.round(n * 100) / 100;

type MapRow = {
  supplierId: string;
  supplierName: string | null;
  complete: number;
  approved: number;
  rejected: number;
  adminApproved: number | null;
  supplierCPI: number;
};

function toRow(m: MapRow): SupplierSummaryRow {
  const totalAccepted = m.adminApproved ?? m.approved;
  return {
    supplierId: m.supplierId,
    supplierName: m.supplierName ?? "",
    complete: m.complete,
    approved: m.approved,
    rejected: m.rejected,
    adminApproved: m.adminApproved,
    supplierCPI: m.supplierCPI,
    totalAccepted,
    cost: round2(totalAccepted * m.supplierCPI),
  };
}

function mapsOf(db: Db, projectIds: string[]) {
  return db.selectFrom("supplier_maps as m").leftJoin("suppliers as s", "s.id", "m.supplierId")
    .select([
      "m.id",
      "m.projectId",
      "m.supplierId",
      "s.supplierName",
      "m.complete",
      "m.approved",
      "m.rejected",
      "m.adminApproved",
      "m.supplierCPI",
    ])
    .where("m.projectId", "in", inList(projectIds)).where("m.isDeleted", "=", 0);
}

/**
 * One row per supplier: a supplier mapped on several children of a group has its counts summed; its
 * accepted count is the sum of each map's (the admin's count where set, else the reconciled one),
 * its cost the sum of each map's accepted x CPI, its CPI the highest of them.
 */
export async function supplierSummary(
  ctx: Pick<Ctx, "db">,
  projectId: string,
): Promise<SupplierSummaryRow[]> {
  const db = ctx.db;
  const target = await reconcileTarget(db, projectId);
  const maps = await mapsOf(db, target.childIds).orderBy("s.supplierName").execute();
  const by = new Map<string, SupplierSummaryRow>();
  for (const m of maps) {
    const row = toRow(m);
    const cur = by.get(m.supplierId);
    if (!cur) {
      by.set(m.supplierId, row);
      continue;
    }
    cur.complete += row.complete;
    cur.approved += row.approved;
    cur.rejected += row.rejected;
    cur.adminApproved = cur.adminApproved === null && row.adminApproved === null
      ? null
      : cur.totalAccepted + row.totalAccepted;
    cur.totalAccepted += row.totalAccepted;
    cur.supplierCPI = Math.max(cur.supplierCPI, row.supplierCPI);
    cur.cost = round2(cur.cost + row.cost);
  }
  return [...by.values()];
}

/**
 * Sets a supplier's CPI or admin-approved count on the project (on each of its maps there: a
 * group's children alike), logs it, and answers the supplier's summary row.
 */
export async function updateSupplierSummary(
  ctx: WriteCtx & Pick<Ctx, "services">,
  body: ApproveSummaryBody,
): Promise<SupplierSummaryRow> {
  const { db, actor, now, services } = ctx;
  const target = await reconcileTarget(db, body.projectId);
  await db.transaction().execute(async (trx) => {
    const maps = await mapsOf(trx, target.childIds).where("m.supplierId", "=", body.supplierId).execute();
    if (!maps.length) throw notFound("Supplier map");
    const at = new Date(now());
    const set = "supplierCPI" in body
      ? { supplierCPI: body.supplierCPI }
      : { adminApproved: body.adminApproved };
    await trx.updateTable("supplier_maps").set({ ...set, updatedAt: at.toISOString() })
      .where("id", "in", maps.map((m) => m.id)).execute();
    const what = "supplierCPI" in body
      ? `supplier CPI to ${body.supplierCPI}`
      : body.adminApproved === null
      ? "admin-approved count back to the reconciled count"
      : `admin-approved count to ${body.adminApproved}`;
    await writeLog(trx, actor, {
      activity: `Set ${maps[0].supplierName ?? body.supplierId}'s ${what} on ${target.projectCode}`,
      module: MODULE,
      recordId: target.id,
    }, at);
  });
  // the router caches map settings (the CPI goes into each complete's cost)
  services.changes.project(...target.childIds);
  const rows = await supplierSummary(ctx, target.id);
  const row = rows.find((r) => r.supplierId === body.supplierId);
  if (!row) throw notFound("Supplier map");
  return row;
}
