/**
 * Supplier finances (part 2: 2 "Finances", 3 Supplier finance row): a supplier's reconciled work is
 * its supplier maps on projects past reconcile (Ready To Invoice, Invoiced, Archieved); what it is
 * paid for is the map's accepted count (the admin-approved count where one is set, else the
 * router's approved counter) at its supplier CPI. The Finances grid, a supplier's projects page,
 * and the maps a purchase order takes (./purchase-orders.ts).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type AnyQB, listSpecOf } from "../../db/list.ts";
import {
  type SupplierFinanceRow,
  supplierFinancesList,
  type SupplierProjectRow,
  supplierProjectsList,
  type SupplierProjectsMeta,
} from "../../../shared/api/accounts.ts";
import { PROJECT_STATUS } from "../../../shared/status.ts";
import { notFound } from "../errors.ts";
import { mapAccepted } from "../common/accepted.ts";
import { cents } from "./dates.ts";
import { inIds } from "./refs.ts";

/** Project statuses past reconcile: their supplier maps are what suppliers get paid for. */
export const RECONCILED_STATUSES = [
  PROJECT_STATUS.READY_TO_INVOICE,
  PROJECT_STATUS.INVOICED,
  PROJECT_STATUS.ARCHIEVED,
];
/** The accepted count of a supplier map: admin-approved where set, else the router's approved counter. */
export const accepted = mapAccepted("m");

export function reconciledMaps(db: Db) {
  return db.selectFrom("supplier_maps as m")
    .innerJoin("projects as p", "p.id", "m.projectId")
    .where("m.isDeleted", "=", 0).where("p.isDeleted", "=", 0)
    .where("p.projectStatus", "in", RECONCILED_STATUSES);
}

// ---------------------------------------------------------------- finances

export function financesQuery(db: Db): AnyQB {
  const sums = reconciledMaps(db)
    .select([
      "m.supplierId",
      sql<number>`count(distinct m.projectId)`.as("projects"),
      sql<number>`sum(${accepted})`.as("totalAccepted"),
      sql<number>`sum(${accepted} * m.supplierCPI)`.as("totalCost"),
    ])
    .groupBy("m.supplierId");
  return db.selectFrom("suppliers")
    .innerJoin(sums.as("f"), "f.supplierId", "suppliers.id")
    .select([
      "suppliers.id",
      "suppliers.supplierName",
      "suppliers.supplierShortCode",
      "f.projects",
      "f.totalAccepted",
      "f.totalCost",
    ])
    .where("suppliers.isDeleted", "=", 0);
}

export const financesSpec = listSpecOf(supplierFinancesList, {
  search: ["suppliers.supplierName", "suppliers.supplierShortCode"],
  filters: {},
  sorts: { supplierName: "suppliers.supplierName" },
  defaultSort: [["suppliers.supplierName", "asc"], ["suppliers.id", "asc"]],
});

export const financeMap = (row: never): SupplierFinanceRow => {
  const r = row as {
    id: string;
    supplierName: string;
    supplierShortCode: string;
    projects: number;
    totalAccepted: number;
    totalCost: number;
  };
  return {
    _id: r.id,
    supplierName: r.supplierName,
    supplierCode: r.supplierShortCode,
    projects: Number(r.projects ?? 0),
    totalAccepted: Number(r.totalAccepted ?? 0),
    totalCost: cents(Number(r.totalCost ?? 0)),
  };
};

/** POST /admin/project/reconsile/supplier/:supplierId: that supplier's reconciled projects. */
export function supplierProjectsQuery(db: Db, supplierId: string): AnyQB {
  return reconciledMaps(db)
    .leftJoin("projects as g", "g.id", "p.parentProjectId")
    .leftJoin("clients as c", "c.id", "p.clientId")
    .leftJoin("purchase_order_lines as l", "l.supplierMapId", "m.id")
    .leftJoin("purchase_orders as o", "o.id", "l.purchaseOrderId")
    .leftJoin("suppliers as s", "s.id", "m.supplierId")
    .select([
      "m.id",
      "s.supplierName",
      "p.id as projectId",
      "p.projectCode",
      "p.projectName",
      "c.clientName",
      "m.supplierCPI",
      accepted.as("totalAccepted"),
      "o.poCode",
      "o.isDeleted as poDeleted",
    ])
    .where("m.supplierId", "=", supplierId);
}

/** Whose a supplier projects page is: its name and short code (the page title, the CSV's name). */
export async function supplierProjectsMeta(db: Db, supplierId: string): Promise<SupplierProjectsMeta> {
  const s = await db.selectFrom("suppliers").select(["supplierName", "supplierShortCode"])
    .where("id", "=", supplierId).executeTakeFirst();
  if (!s) throw notFound("Supplier");
  return { supplierName: s.supplierName, supplierCode: s.supplierShortCode };
}

export const supplierProjectsSpec = listSpecOf(supplierProjectsList, {
  search: ["p.projectCode", "p.projectName", "c.clientName"],
  multiSearch: ["p.projectCode"],
  filters: {
    clientId: inIds("p.clientId"),
    userId: (qb, val) => inIds("coalesce(g.userId, p.userId)")(qb, val),
  },
  sorts: { projectCode: "p.projectCode" },
  defaultSort: [["p.projectCode", "desc"], ["m.id", "desc"]],
});

export const supplierProjectMap = (row: never): SupplierProjectRow => {
  const r = row as {
    id: string;
    supplierName: string | null;
    projectId: string;
    projectCode: string;
    projectName: string;
    clientName: string | null;
    supplierCPI: number;
    totalAccepted: number;
    poCode: string | null;
    poDeleted: number | null;
  };
  const acc = Number(r.totalAccepted ?? 0);
  return {
    _id: r.id,
    supplierName: r.supplierName ?? "",
    projectId: r.projectId,
    projectCode: r.projectCode,
    projectName: r.projectName,
    clientName: r.clientName ?? "",
    supplierCPI: r.supplierCPI,
    totalAccepted: acc,
    totalCost: cents(acc * r.supplierCPI),
    poCode: r.poDeleted === 0 ? r.poCode ?? "" : "",
  };
};
