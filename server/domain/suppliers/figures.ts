/**
 * Supplier list figures (part 1, 2.8: total projects, active projects, traffic, completed,
 * approved, actual and expected expense), for one page of suppliers at a time.
 *
 * One grouped query over the supplier-map counters (kept by the respondent router), never a live
 * aggregate over sessions (design.md 5a).
 */
import type { Db } from "../../db/connection.ts";
import { partyFigures } from "../common/party-figures.ts";
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
export async function supplierFigures(db: Db, ids: string[]): Promise<Map<string, SupplierFigures>> {
  const figures = await partyFigures(db, "supplier", ids);
  return new Map(
    [...figures].map(([id, { actual, expected, ...f }]) => [id, {
      ...f,
      actualExpense: actual,
      expectedExpense: expected,
    }]),
  );
}
