/** The reports' small dataset (tests/api/reports_test.ts, tests/cli/report_test.ts, tests/e2e/reports_test.ts). */
import { assertEquals } from "./assert.ts";
import type { TestApp } from "./app.ts";
import { makeSupplier } from "./fixtures.ts";
import { liveProject, panelRedirects } from "./router.ts";
import { addToRouterDaily } from "../../server/domain/router/rollup.ts";
import { saveSupplierMapCall } from "../../shared/api/supplier-maps.ts";

/** 2026-11-20 12:00 UTC: "today" of the dataset. */
export const REPORTS_NOW = Date.UTC(2026, 10, 20, 12);

/**
 * P1 (client A, CPI 2.00, sample 100, pre-screen on) mapped to S1 (CPI 1.25, quota 50) and S2
 * (1.00, quota 20); P2 (client B, CPI 3.50, sample 10) mapped to S1 (2.00, quota 10), 5 approved.
 */
export async function reportDataset(t: TestApp) {
  const s1 = await makeSupplier(t, { supplierName: "Alpha panel" });
  const s2 = await makeSupplier(t, { supplierName: "Beta panel" });
  const p1 = await liveProject(t, { child: { cpi: "2.00" }, supplierId: s1._id, map: { supplierCPI: 1.25 } });
  const m12 = await t.api(saveSupplierMapCall, {
    as: "SUPERADMIN",
    body: { projectId: p1.child._id, supplierId: s2._id, supplierCPI: 1, ...panelRedirects },
  });
  assertEquals(m12.status, 200, m12.text);
  const p2 = await liveProject(t, { child: { cpi: "3.50" }, supplierId: s1._id, map: { supplierCPI: 2 } });
  const row = (date: string, p: typeof p1, supplierId: string, mapId: string, v: Record<string, number>) => ({
    date,
    projectId: p.child._id,
    parentProjectId: p.parent._id,
    supplierId,
    supplierMapId: mapId,
    clientId: p.child.clientId,
    ...v,
  });
  const m12Id = m12.result._id;
  const rows = [
    row("2026-11-20", p1, s1._id, p1.mapId, {
      clicked: 10,
      complete: 4,
      terminate: 3,
      security: 2,
      secIp: 1,
      secGeo: 1,
      revenue: 8,
      cost: 5,
    }),
    row("2026-11-20", p2, s1._id, p2.mapId, {
      clicked: 5,
      complete: 1,
      security: 1,
      secProxy: 1,
      revenue: 3.5,
      cost: 2,
    }),
    row("2026-11-18", p1, s2._id, m12Id, {
      clicked: 6,
      complete: 2,
      drop: 1,
      preScreenTerminate: 1,
      revenue: 4,
      cost: 2,
    }),
    row("2026-10-05", p2, s1._id, p2.mapId, {
      clicked: 20,
      complete: 6,
      overQuota: 2,
      qualityTerm: 1,
      revenue: 21,
      cost: 12,
    }),
    row("2025-12-31", p1, s1._id, p1.mapId, { clicked: 3, complete: 1, revenue: 2, cost: 1.25 }),
  ];
  for (const r of rows) await addToRouterDaily(t.deps.db, [r]);
  const db = t.deps.db;
  await db.updateTable("projects").set({ complete: 7, sampleSize: 100, isPreScreen: 1 })
    .where("id", "=", p1.child._id).execute();
  await db.updateTable("projects").set({ complete: 7, approved: 5, sampleSize: 10 })
    .where("id", "=", p2.child._id).execute();
  await db.updateTable("supplier_maps").set({ complete: 5, supplierQuota: 50 }).where("id", "=", p1.mapId)
    .execute();
  await db.updateTable("supplier_maps").set({ complete: 2, supplierQuota: 20 }).where("id", "=", m12Id)
    .execute();
  await db.updateTable("supplier_maps").set({ complete: 7, approved: 5, supplierQuota: 10 })
    .where("id", "=", p2.mapId).execute();
  return { p1, p2, s1, s2, A: p1.child.clientId as string, B: p2.child.clientId as string };
}
