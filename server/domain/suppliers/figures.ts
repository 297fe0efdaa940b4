/**
 * Supplier list figures (part 1, 2.8: total projects, active projects, traffic, completed,
 * approved, actual and expected expense), for one page of suppliers at a time.
 *
 * One grouped query over the supplier-map counters (kept by the respondent router), never a live
 * aggregate over sessions (design.md 5a).
 */
import type { Db } from "../../db/connection.ts";
import { sql } from "kysely";
import { ACTIVE_PROJECT_STATUS } from "../../../shared/status.ts";
import type { SupplierFigures } from "../../../shared/api/suppliers.ts";

export type { SupplierFigures };

export const ZERO_SUPPLIER_FIGURES: Readonly<SupplierFigures> = Object.freeze({
  totalProjects: 0,
  activeProjects: 0,
  responded: 0,
  completed: 0,
  approved: 0,
  actualExpense: 0,
  expectedExpense: 0,
});

/** Figures per supplier id, from supplier-map counters (one grouped query); every id asked for is in the map. */
export async function supplierFigures(
  db: Db,
  ids: string[],
): Promise<Map<string, SupplierFigures>> {
  const out = new Map(ids.map((id) => [id, { ...ZERO_SUPPLIER_FIGURES }]));
  if (!ids.length) return out;
  const rows = await db.selectFrom("supplier_maps as m")
    .innerJoin("projects as p", "p.id", "m.projectId")
    .select([
      "m.supplierId",
      sql<number>`count(DISTINCT m.projectId)`.as("totalProjects"),
      sql<number>`count(DISTINCT CASE WHEN p.projectStatus = ${ACTIVE_PROJECT_STATUS} THEN m.projectId END)`
        .as("activeProjects"),
      sql<number>`sum(m.clicked)`.as("responded"),
      sql<number>`sum(m.complete)`.as("completed"),
      sql<number>`sum(m.approved)`.as("approved"),
      sql<number>`sum(m.approved * m.supplierCPI)`.as("actualExpense"),
      sql<number>`sum(m.complete * m.supplierCPI)`.as("expectedExpense"),
    ])
    .where("m.supplierId", "in", ids).where("m.isDeleted", "=", 0).where("p.isDeleted", "=", 0)
    .groupBy("m.supplierId").execute();
  for (const r of rows) {
    out.set(r.supplierId, {
      totalProjects: Number(r.totalProjects),
      activeProjects: Number(r.activeProjects),
      responded: Number(r.responded ?? 0),
      completed: Number(r.completed ?? 0),
      approved: Number(r.approved ?? 0),
      actualExpense: Math.round(Number(r.actualExpense ?? 0) * 100) / 100,
      expectedExpense: Math.round(Number(r.expectedExpense ?? 0) * 100) / 100,
    });
  }
  return out;
}
