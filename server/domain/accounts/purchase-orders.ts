/**
 * Purchase orders (part 2: 2 "Purchase Order", 3 Purchase order): what a supplier is paid for its
 * reconciled work (./finances.ts). A purchase order takes every reconciled supplier map not yet on
 * one; a map lands on one purchase order only. Its grid and Upload Ref. No. are the invoices'
 * (./documents.ts).
 */
import type { Selectable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { PurchaseOrdersTable } from "../../db/tables/accounts.ts";
import { newId } from "../../db/ids.ts";
import { type AnyQB, listSpecOf } from "../../db/list.ts";
import {
  type PurchaseOrderListItem,
  type PurchaseOrderRecord,
  purchaseOrdersList,
  type RefUploadResult,
} from "../../../shared/api/accounts.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import { countryFields } from "../common/records.ts";
import { nextSequence } from "../projects/codes.ts";
import { issuerFor, MODULE } from "./issuers.ts";
import { addDays, businessToday, cents } from "./dates.ts";
import { chunks } from "./invoice-projects.ts";
import { MSG } from "../../../shared/messages.ts";
import { accepted, reconciledMaps } from "./finances.ts";
import {
  documentDates,
  documentIssuer,
  documentsQuery,
  documentsSpec,
  documentStatusLabel,
  PURCHASE_ORDERS,
  uploadRefs,
} from "./documents.ts";

export const PO_SEQUENCE = "purchaseOrder";
export const PO_CODE_START = 10001;
export const poCodeOf = (n: number) => `PO${n}`;
const poStatusLabel = documentStatusLabel;

type PoRow = Selectable<PurchaseOrdersTable>;

async function poRecord(db: Db, row: PoRow): Promise<PurchaseOrderRecord> {
  const [supplier, lines, issuer] = await Promise.all([
    db.selectFrom("suppliers").select(["id", "supplierName", "supplierEmail", "countryId"])
      .where("id", "=", row.supplierId).executeTakeFirst(),
    db.selectFrom("purchase_order_lines").selectAll().where("purchaseOrderId", "=", row.id).orderBy(
      "position",
    )
      .execute(),
    documentIssuer(db, row.issuingCompanyId),
  ]);
  if (!supplier) throw notFound("Supplier");
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
    issuer,
    netTerms: row.netTerms,
    poStatus: row.poStatus,
    poStatusLabel: poStatusLabel(row.poStatus),
    ...documentDates(row),
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

export async function getPurchaseOrder(ctx: Pick<Ctx, "db">, id: string): Promise<PurchaseOrderRecord> {
  const db = ctx.db;
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
  ctx: WriteCtx,
  input: { supplierId: string },
): Promise<PurchaseOrderRecord> {
  const { db, actor, now } = ctx, supplierId = input.supplierId;
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
    const issuer = await issuerFor({ db: trx, now }, "");
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

export const purchaseOrdersQuery = (db: Db): AnyQB => documentsQuery(db, PURCHASE_ORDERS);

export const purchaseOrdersSpec = listSpecOf(purchaseOrdersList, documentsSpec(PURCHASE_ORDERS));

export const purchaseOrderMap = (row: never): PurchaseOrderListItem => {
  const r = row as PoRow & { supplierName: string | null };
  return {
    _id: r.id,
    poCode: r.poCode,
    supplierId: r.supplierId,
    supplierName: r.supplierName ?? "",
    createdAt: r.createdAt,
    ...documentDates(r),
    poStatus: r.poStatus,
    poStatusLabel: poStatusLabel(r.poStatus),
  };
};

/** POST /admin/invoice/supplier/upload {data: rows, overwrite}: each row's PO is marked Paid with its reference. */
export function uploadPurchaseOrderRefs(
  ctx: WriteCtx,
  input: { data: string[][]; overwrite?: boolean },
): Promise<RefUploadResult> {
  return uploadRefs(ctx, PURCHASE_ORDERS, input);
}
