/**
 * Supplier finances and purchase orders (part 2: 2 "Finances", "Purchase Order", 3 Supplier finance
 * row and Purchase order). A supplier's reconciled work is its supplier maps on projects past
 * reconcile (Ready To Invoice, Invoiced, Archieved); what it is paid for is the map's accepted count
 * (the admin-approved count where one is set, else the router's approved counter) at its supplier
 * CPI. A purchase order takes every such map not yet on one; a map lands on one purchase order only.
 */
import { type Selectable, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { PurchaseOrdersTable } from "../../db/tables/accounts.ts";
import { newId } from "../../db/ids.ts";
import { type AnyQB, inNumberFilter, listSpecOf } from "../../db/list.ts";
import {
  type PurchaseOrderListItem,
  type PurchaseOrderRecord,
  purchaseOrdersList,
  type RefUploadResult,
  type SupplierFinanceRow,
  supplierFinancesList,
  type SupplierProjectRow,
  supplierProjectsList,
  type SupplierProjectsMeta,
} from "../../../shared/api/accounts.ts";
import { INVOICE_STATUS, PROJECT_STATUS } from "../../../shared/status.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { countryFields } from "../common/records.ts";
import { nextSequence } from "../projects/codes.ts";
import { issuerFor, MODULE } from "./issuers.ts";
import { addDays, businessToday, cents, type Clock } from "./dates.ts";
import { chunks } from "./invoices.ts";
import { applyRefRows, inIds, readRefRows, type RefTarget } from "./refs.ts";
import { MSG } from "../../../shared/messages.ts";
import { mapAccepted } from "../common/accepted.ts";

export const PO_SEQUENCE = "purchaseOrder";
export const PO_CODE_START = 10001;
export const poCodeOf = (n: number) => `PO${n}`;
const poStatusLabel = (s: number) => INVOICE_STATUS.find((x) => x.value === s)?.label ?? String(s);

/** Project statuses past reconcile: their supplier maps are what suppliers get paid for. */
export const RECONCILED_STATUSES = [
  PROJECT_STATUS.READY_TO_INVOICE,
  PROJECT_STATUS.INVOICED,
  PROJECT_STATUS.ARCHIEVED,
];
/** The accepted count of a supplier map: admin-approved where set, else the router's approved counter. */
const accepted = mapAccepted("m");

function reconciledMaps(db: Db) {
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

// ---------------------------------------------------------------- purchase orders

type PoRow = Selectable<PurchaseOrdersTable>;

async function poRecord(db: Db, row: PoRow): Promise<PurchaseOrderRecord> {
  const [supplier, lines, issuer] = await Promise.all([
    db.selectFrom("suppliers").select(["id", "supplierName", "supplierEmail", "countryId"])
      .where("id", "=", row.supplierId).executeTakeFirst(),
    db.selectFrom("purchase_order_lines").selectAll().where("purchaseOrderId", "=", row.id).orderBy(
      "position",
    )
      .execute(),
    db.selectFrom("issuing_companies").selectAll().where("id", "=", row.issuingCompanyId).executeTakeFirst(),
  ]);
  if (!supplier) throw notFound("Supplier");
  if (!issuer) throw notFound("Issuing company");
  const { id: issuerId, createdAt: _c, ...issuerRest } = issuer;
  return {
    _id: row.id,
    poCode: row.poCode,
    supplierId: row.supplierId,
    supplierName: supplier.supplierName,
    supplier: {
      _id: supplier.id,
      supplierName: supplier.supplierName,
      supplierEmail: supplier.supplierEmail,
      countryName: countryFields(supplier.countryId).countryName,
    },
    issuer: { _id: issuerId, ...issuerRest },
    netTerms: row.netTerms,
    poStatus: row.poStatus,
    poStatusLabel: poStatusLabel(row.poStatus),
    currentDate: row.currentDate,
    dueDate: row.dueDate,
    recievedDate: row.recievedDate,
    referenceNo: row.referenceNo,
    comment: row.comment,
    total: row.total,
    projects: lines.map((l) => ({
      _id: l.id,
      supplierMapId: l.supplierMapId,
      projectId: l.projectId,
      projectCode: l.projectCode,
      projectName: l.projectName,
      accepted: l.accepted,
      supplierCPI: l.supplierCPI,
      total: l.total,
    })),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function getPurchaseOrder(db: Db, id: string): Promise<PurchaseOrderRecord> {
  const row = await db.selectFrom("purchase_orders").selectAll().where("id", "=", id).where(
    "isDeleted",
    "=",
    0,
  )
    .executeTakeFirst();
  if (!row) throw notFound("Purchase order");
  return poRecord(db, row);
}

export const PO_MSG = {
  nothingToPay: "This supplier has no reconciled projects waiting for a purchase order",
};

/**
 * POST /admin/invoice/supplier/add {supplierId}: a purchase order for every reconciled supplier map
 * of the supplier not yet on one; due after the supplier's net days. 409 when there is none.
 */
export async function createPurchaseOrder(
  db: Db,
  actor: Actor,
  supplierId: string,
  now: Clock = Date.now,
): Promise<PurchaseOrderRecord> {
  const at = new Date(now()), stamp = at.toISOString();
  const id = newId(at.getTime());
  return await db.transaction().execute(async (trx) => {
    const supplier = await trx.selectFrom("suppliers").select(["id", "supplierName", "netDays"])
      .where("id", "=", supplierId).where("isDeleted", "=", 0).executeTakeFirst();
    if (!supplier) {
      throw invalid(MSG.supplierRequired, [{ path: "supplierId", message: MSG.supplierRequired }]);
    }
    const maps = await reconciledMaps(trx)
      .leftJoin("purchase_order_lines as l", "l.supplierMapId", "m.id")
      .select([
        "m.id",
        "m.projectId",
        "p.projectCode",
        "p.projectName",
        "m.supplierCPI",
        accepted.as("accepted"),
      ])
      .where("m.supplierId", "=", supplierId).where("l.id", "is", null)
      .orderBy("p.projectCode").execute();
    if (!maps.length) throw conflict(PO_MSG.nothingToPay);
    const issuer = await issuerFor(trx, "");
    const poCode = poCodeOf(await nextSequence(trx, PO_SEQUENCE, PO_CODE_START));
    const lines = maps.map((m, i) => {
      const acc = Number(m.accepted ?? 0);
      return {
        id: newId(at.getTime()),
        purchaseOrderId: id,
        position: i + 1,
        supplierMapId: m.id,
        projectId: m.projectId,
        projectCode: m.projectCode,
        projectName: m.projectName,
        accepted: acc,
        supplierCPI: m.supplierCPI,
        total: cents(acc * m.supplierCPI),
      };
    });
    const total = cents(lines.reduce((s, l) => s + l.total, 0));
    const today = businessToday(now);
    const netTerms = Math.max(0, Math.trunc(supplier.netDays ?? 0));
    await trx.insertInto("purchase_orders").values({
      id,
      poCode,
      supplierId,
      issuingCompanyId: issuer._id,
      netTerms,
      currentDate: today,
      dueDate: addDays(today, netTerms),
      total,
      createdBy: actor.userId,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    for (const part of chunks(lines, 100)) {
      await trx.insertInto("purchase_order_lines").values(part).execute();
    }
    await writeLog(trx, actor, {
      activity: `Created purchase order ${poCode} for ${supplier.supplierName} ($${total.toFixed(2)})`,
      module: MODULE,
      recordId: id,
    }, at);
    const row = await trx.selectFrom("purchase_orders").selectAll().where("id", "=", id)
      .executeTakeFirstOrThrow();
    return await poRecord(trx, row);
  });
}

export function purchaseOrdersQuery(db: Db): AnyQB {
  return db.selectFrom("purchase_orders")
    .leftJoin("suppliers", "suppliers.id", "purchase_orders.supplierId")
    .selectAll("purchase_orders")
    .select(["suppliers.supplierName as supplierName"])
    .where("purchase_orders.isDeleted", "=", 0);
}

export const purchaseOrdersSpec = listSpecOf(purchaseOrdersList, {
  search: ["purchase_orders.poCode", "suppliers.supplierName", "purchase_orders.referenceNo"],
  filters: {
    supplierId: inIds("purchase_orders.supplierId"),
    poStatus: inNumberFilter("purchase_orders.poStatus"),
  },
  sorts: {
    poCode: "purchase_orders.poCode",
    dueDate: "purchase_orders.dueDate",
    createdAt: "purchase_orders.createdAt",
  },
  defaultSort: [["purchase_orders.createdAt", "desc"], ["purchase_orders.id", "desc"]],
});

export const purchaseOrderMap = (row: never): PurchaseOrderListItem => {
  const r = row as PoRow & { supplierName: string | null };
  return {
    _id: r.id,
    poCode: r.poCode,
    supplierId: r.supplierId,
    supplierName: r.supplierName ?? "",
    createdAt: r.createdAt,
    currentDate: r.currentDate,
    dueDate: r.dueDate,
    recievedDate: r.recievedDate,
    referenceNo: r.referenceNo,
    comment: r.comment,
    total: r.total,
    poStatus: r.poStatus,
    poStatusLabel: poStatusLabel(r.poStatus),
  };
};

/**
 * POST /admin/invoice/supplier/upload {data: rows, overwrite}: as the invoices' upload
 * (./refs.ts), for purchase orders: each row's PO is marked Paid with its reference.
 */
export async function uploadPurchaseOrderRefs(
  db: Db,
  actor: Actor,
  data: string[][],
  now: Clock = Date.now,
  overwrite = false,
): Promise<RefUploadResult> {
  const refs = readRefRows(data, businessToday(now), "purchase order");
  return await applyRefRows(db, actor, PO_REFS, refs, { overwrite, at: new Date(now()) });
}

const PO_REFS: RefTarget = {
  table: "purchase_orders",
  codeColumn: "poCode",
  statusColumn: "poStatus",
  what: "Purchase order",
  module: MODULE,
};
