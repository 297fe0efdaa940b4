/**
 * Supplier list figures (part 1, 2.8: total projects, active projects, traffic, completed,
 * approved, actual and expected expense), for one page of suppliers at a time.
 *
 * Supplier maps do not exist yet, so every supplier has zeros. The projects issue replaces the body
 * of `supplierFigures` with ONE grouped query over the supplier-map counters, e.g.:
 *
 *   SELECT m.supplierId, count(DISTINCT m.projectId) totalProjects,
 *          count(DISTINCT CASE WHEN p.projectStatus = 1 THEN m.projectId END) activeProjects,
 *          sum(m.totalResponded) responded, sum(m.complete) completed, sum(m.approved) approved,
 *          sum(m.approved * m.supplierCPI) actualExpense, sum(m.complete * m.supplierCPI) expectedExpense
 *   FROM supplier_maps m JOIN projects p ON p.id = m.projectId
 *   WHERE m.isDeleted = 0 AND m.supplierId IN (:ids) GROUP BY m.supplierId
 *
 * Keep the signature: the suppliers list merges the map into each page (no query per row).
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/types.ts";

export type SupplierFigures = {
  totalProjects: number;
  activeProjects: number;
  responded: number;
  completed: number;
  approved: number;
  actualExpense: number;
  expectedExpense: number;
};

export const ZERO_SUPPLIER_FIGURES: Readonly<SupplierFigures> = Object.freeze({
  totalProjects: 0,
  activeProjects: 0,
  responded: 0,
  completed: 0,
  approved: 0,
  actualExpense: 0,
  expectedExpense: 0,
});

/** Figures per supplier id; every id asked for is in the map. */
export function supplierFigures(_db: Kysely<Database>, ids: string[]): Promise<Map<string, SupplierFigures>> {
  return Promise.resolve(new Map(ids.map((id) => [id, { ...ZERO_SUPPLIER_FIGURES }])));
}
