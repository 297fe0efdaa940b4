/** Supplier rules (part 2: Library > Supplier Rules): the CPI band a supplier is paid within. */
import { type Selectable, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { SupplierRulesTable } from "../../db/tables/master.ts";
import { newId } from "../../db/ids.ts";
import { toApi } from "../../db/rows.ts";
import { activeStatus, type AnyQB, listSpecOf } from "../../db/list.ts";
import { notFound } from "../errors.ts";
import type { SupplierRuleForm, SupplierRuleUpdate } from "../../../shared/schemas/library.ts";
import { type SupplierRuleRecord, supplierRulesList } from "../../../shared/api/library.ts";
import type { Deleted } from "../../../shared/api/contract.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { runUpdate } from "../common/records.ts";
import { SUPPLIER_RULE_FIELDS } from "../audit/fields.ts";
import type { WriteCtx } from "../ctx.ts";

const MODULE = "Supplier Rules";
const COLUMNS = [
  "id",
  "minSupplierCpi",
  "maxSupplierCpi",
  "categoryTitle",
  "isActive",
  "createdAt",
  "updatedAt",
] as const;
type RuleRow = Pick<Selectable<SupplierRulesTable>, (typeof COLUMNS)[number]>;
export type { SupplierRuleRecord };
export const supplierRuleRecord = (r: RuleRow): SupplierRuleRecord => toApi(r);

export function supplierRulesListQuery(db: Db): AnyQB {
  return db.selectFrom("supplier_rules").select(COLUMNS).where("isDeleted", "=", 0);
}

export const supplierRulesListSpec = listSpecOf(supplierRulesList, {
  filters: {},
  // "2.5" finds rules whose minimum or maximum reads 2.5
  search: ["categoryTitle", sql`cast(minSupplierCpi as text)`, sql`cast(maxSupplierCpi as text)`],
  status: activeStatus(),
  sorts: { minSupplierCpi: "minSupplierCpi", maxSupplierCpi: "maxSupplierCpi", createdAt: "createdAt" },
  defaultSort: [["createdAt", "desc"], ["id", "desc"]],
  rowid: "supplier_rules.rowid",
});

export async function getSupplierRule(db: Db, id: string): Promise<SupplierRuleRecord> {
  const row = await db.selectFrom("supplier_rules").select(COLUMNS).where("id", "=", id).where(
    "isDeleted",
    "=",
    0,
  )
    .executeTakeFirst();
  if (!row) throw notFound("Supplier rule");
  return supplierRuleRecord(row);
}

const band = (r: SupplierRuleForm) => `${r.minSupplierCpi}-${r.maxSupplierCpi}`;

export async function createSupplierRule(
  ctx: WriteCtx,
  input: SupplierRuleForm,
): Promise<SupplierRuleRecord> {
  const { db, actor, now: clock } = ctx;
  return await db.transaction().execute(async (trx) => {
    const at = dateAt(clock), now = at.toISOString();
    const id = newId(at.getTime());
    await trx.insertInto("supplier_rules").values({
      id,
      minSupplierCpi: input.minSupplierCpi,
      maxSupplierCpi: input.maxSupplierCpi,
      categoryTitle: input.categoryTitle,
      isActive: input.isActive ? 1 : 0,
      isDeleted: 0,
      createdAt: now,
      updatedAt: now,
    }).execute();
    await writeLog(trx, actor, {
      activity: `Created supplier rule CPI ${band(input)}`,
      module: MODULE,
      recordId: id,
    }, at);
    return getSupplierRule(trx, id);
  });
}

export async function updateSupplierRule(
  ctx: WriteCtx,
  args: { id: string } & SupplierRuleUpdate,
) {
  const { db, actor, now: clock } = ctx;
  const { id, ...input } = args;
  return await runUpdate<SupplierRuleForm, SupplierRuleRecord | Deleted>(db, actor, {
    table: "supplier_rules",
    id,
    now: clock,
    what: "Supplier rule",
    module: MODULE,
    input,
    fields: SUPPLIER_RULE_FIELDS,
    label: async (trx) => {
      const r = await trx.selectFrom("supplier_rules").select(["minSupplierCpi", "maxSupplierCpi"]).where(
        "id",
        "=",
        id,
      )
        .executeTakeFirstOrThrow();
      return `supplier rule CPI ${r.minSupplierCpi}-${r.maxSupplierCpi}`;
    },
    saveForm: async (trx, form, now) => {
      await trx.updateTable("supplier_rules").set({
        minSupplierCpi: form.minSupplierCpi,
        maxSupplierCpi: form.maxSupplierCpi,
        categoryTitle: form.categoryTitle,
        isActive: form.isActive ? 1 : 0,
        updatedAt: now,
      }).where("id", "=", id).execute();
      return `Updated supplier rule CPI ${band(form)}`;
    },
    read: async (trx) => {
      const r = await trx.selectFrom("supplier_rules").select("isDeleted").where("id", "=", id)
        .executeTakeFirstOrThrow();
      return r.isDeleted ? { _id: id, isDeleted: true as const } : await getSupplierRule(trx, id);
    },
  });
}
