/** Suppliers: panels and traffic providers (part 1: 2.8, entity Supplier, sections 5 and 7). */
import { type Selectable, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { SuppliersTable } from "../../db/tables/master.ts";
import { newId } from "../../db/ids.ts";
import { toApi } from "../../db/rows.ts";
import { activeStatus, type AnyQB, escapeLike, inFilter, isTruthyFlag, listSpecOf } from "../../db/list.ts";
import { conflict, notFound } from "../errors.ts";
import type { Deleted } from "../../../shared/api/contract.ts";
import { MSG } from "../../../shared/messages.ts";
import { SUPPLIER_TYPES, type SupplierForm, type SupplierUpdate } from "../../../shared/schemas/supplier.ts";
import {
  SUPPLIER_SECRET_FIELDS,
  type SupplierKeys,
  type SupplierListItem,
  type SupplierOption,
  type SupplierRecord,
  suppliersList,
} from "../../../shared/api/suppliers.ts";
import { isMasked, maskFieldsOf, withoutMasked } from "../../../shared/secrets.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { deactivateSupplierUsers } from "../users/users.ts";
import { keepKnownClients } from "../clients/lookup.ts";
import {
  countryFields,
  parseJsonList,
  randomKey,
  requireCountry,
  runUpdate,
  type UpdateOutcome,
} from "../common/records.ts";
import { type SupplierFigures, supplierFigures, ZERO_SUPPLIER_FIGURES } from "./figures.ts";
import { SUPPLIER_FIELDS } from "../audit/fields.ts";
import { storeInitialKey } from "./api-keys.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

const MODULE = "Suppliers";

type SupplierRow = Selectable<SuppliersTable>;

export const supplierTypeLabel = (t: number) => SUPPLIER_TYPES.find((s) => s.value === t)?.label ?? String(t);

const LIST_COLUMNS = [
  "id",
  "supplierType",
  "supplierName",
  "supplierShortCode",
  "supplierEmail",
  "supplierPhoneNumber",
  "countryId",
  "company",
  "netDays",
  "isEmailNotification",
  "isPreScreen",
  "allowRouting",
  "isActive",
  "createdAt",
] as const satisfies readonly (keyof SupplierRow)[];
type SupplierListRow = Pick<SupplierRow, (typeof LIST_COLUMNS)[number]>;

export type { SupplierListItem, SupplierRecord };

export function supplierListMap(row: SupplierListRow): SupplierListItem {
  return {
    ...toApi(row),
    ...countryFields(row.countryId),
    ...ZERO_SUPPLIER_FIGURES,
    supplierTypeLabel: supplierTypeLabel(row.supplierType),
  };
}

/** Adds the figures to one page of suppliers (one query per page). */
export async function enrichSuppliers<T extends { _id: string }>(
  db: Db,
  rows: T[],
): Promise<(T & SupplierFigures)[]> {
  const figures = await supplierFigures(db, rows.map((r) => r._id));
  return rows.map((r) => ({ ...r, ...(figures.get(r._id) ?? ZERO_SUPPLIER_FIGURES) }));
}

// ---------------------------------------------------------------- list

export function suppliersListQuery(db: Db): AnyQB {
  return db.selectFrom("suppliers").select(LIST_COLUMNS).where("isDeleted", "=", 0);
}

const upper = (s: string) => s.trim().toUpperCase();

export const suppliersListSpec = listSpecOf(suppliersList, {
  search: ["supplierName", "supplierShortCode", "supplierEmail", "company"],
  filters: {
    countries: inFilter("countryId", upper),
    countryId: inFilter("countryId", upper),
    supplierType: inFilter("supplierType", (s) => String(Number(s) || "")),
    isActive: (qb, val) => qb.where("isActive", "=", isTruthyFlag(val) ? 1 : 0),
  },
  status: activeStatus(),
  sorts: {
    supplierName: "supplierName",
    supplierShortCode: "supplierShortCode",
    countryId: "countryId",
    createdAt: "createdAt",
  },
  defaultSort: [["createdAt", "desc"], ["id", "desc"]],
  rowid: "suppliers.rowid",
});

// ---------------------------------------------------------------- read

export async function getSupplier(db: Db, id: string): Promise<SupplierRecord> {
  const row = await db.selectFrom("suppliers").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
    .executeTakeFirst();
  if (!row) throw notFound("Supplier");
  const { clientIds, ...rest } = toApi(row);
  const [withFigures] = await enrichSuppliers(db, [{
    ...rest,
    ...countryFields(row.countryId),
    supplierTypeLabel: supplierTypeLabel(row.supplierType),
  }]);
  // the keys masked (last 4 characters): revealing them is its own call, for their owners
  return maskFieldsOf({ ...withFigures, clientId: parseJsonList(clientIds) }, SUPPLIER_SECRET_FIELDS);
}

/** A supplier's keys, whole, for their owners: the reveal is written to the system log. */
export async function supplierKeys(
  ctx: WriteCtx,
  id: string,
): Promise<SupplierKeys> {
  const { db, actor, now: clock } = ctx;
  const row = await db.selectFrom("suppliers")
    .select(["supplierName", "supplierShortCode", "hashKey", "apiKey", "supplierApiKey"])
    .where("id", "=", id).where("isDeleted", "=", 0).executeTakeFirst();
  if (!row) throw notFound("Supplier");
  await writeLog(db, actor, {
    activity: `Revealed the API keys of supplier ${row.supplierName} (${row.supplierShortCode})`,
    module: MODULE,
    recordId: id,
  }, dateAt(clock));
  return { hashKey: row.hashKey, apiKey: row.apiKey, supplierApiKey: row.supplierApiKey };
}

// ---------------------------------------------------------------- write

async function assertShortCodeFree(trx: Db, code: string, exceptId?: string) {
  let q = trx.selectFrom("suppliers").select("id").where(
    sql<boolean>`supplierShortCode = ${code} COLLATE NOCASE`,
  )
    .where("isDeleted", "=", 0);
  if (exceptId) q = q.where("id", "!=", exceptId);
  if (await q.executeTakeFirst()) {
    throw conflict(MSG.shortcodeTaken, [{ path: "supplierShortCode", message: MSG.shortcodeTaken }]);
  }
}

async function checkedColumns(trx: Db, input: SupplierForm) {
  requireCountry(input.countryId, MSG.supplierCountryRequired);
  const clientIds = await keepKnownClients(trx, input.clientId, "clientId");
  const { clientId: _ids, isEmailNotification, isPreScreen, allowRouting, isActive, hashKey, ...plain } =
    input;
  return {
    ...plain,
    // callbacks are signed under it: a blank one (or a masked one, left out) keeps what is stored;
    // a new supplier without one gets a random one (createSupplier)
    ...(hashKey?.trim() ? { hashKey } : {}),
    clientIds: JSON.stringify(clientIds),
    isEmailNotification: isEmailNotification ? 1 : 0,
    isPreScreen: isPreScreen ? 1 : 0,
    allowRouting: allowRouting ? 1 : 0,
    isActive: isActive ? 1 : 0,
  };
}

export async function createSupplier(
  ctx: WriteCtx,
  input: SupplierForm,
): Promise<SupplierRecord> {
  const { db, actor, now: clock } = ctx;
  return await db.transaction().execute(async (trx) => {
    // a masked key (copied from another form) is no key; a blank or masked hash key becomes a new
    // random one (callbacks are never sent unsigned)
    const hashKey = isMasked(input.hashKey) || !input.hashKey.trim() ? randomKey(32) : input.hashKey;
    const columns = {
      ...await checkedColumns(trx, { ...input, apiKey: isMasked(input.apiKey) ? "" : input.apiKey }),
      hashKey,
    };
    await assertShortCodeFree(trx, input.supplierShortCode);
    const at = dateAt(clock), now = at.toISOString();
    const id = newId(at.getTime());
    const supplierApiKey = randomKey();
    await trx.insertInto("suppliers").values({
      ...columns,
      id,
      supplierApiKey,
      isDeleted: 0,
      createdAt: now,
      updatedAt: now,
    }).execute();
    await storeInitialKey(trx, { supplierId: id, key: supplierApiKey, at, createdBy: actor.name });
    await writeLog(trx, actor, {
      activity: `Created supplier ${input.supplierName} (${input.supplierShortCode})`,
      module: MODULE,
      recordId: id,
    }, at);
    return getSupplier(trx, id);
  });
}

/** The form, `{isActive}` or `{isDeleted: true}`; deleting also signs out the supplier's portal users. */
export async function updateSupplier(
  ctx: WriteCtx & Pick<Ctx, "services">,
  args: { id: string } & SupplierUpdate,
): Promise<{ record: SupplierRecord | Deleted; outcome: UpdateOutcome }> {
  const { db, services, actor, now: clock } = ctx;
  const { id, ...input } = args;
  const out = await runUpdate<SupplierForm, SupplierRecord | { _id: string; isDeleted: true }>(db, actor, {
    table: "suppliers",
    id,
    now: clock,
    what: "Supplier",
    module: MODULE,
    input,
    fields: SUPPLIER_FIELDS,
    label: async (trx) => {
      const r = await trx.selectFrom("suppliers").select(["supplierName", "supplierShortCode"]).where(
        "id",
        "=",
        id,
      )
        .executeTakeFirstOrThrow();
      return `supplier ${r.supplierName} (${r.supplierShortCode})`;
    },
    saveForm: async (trx, form, now) => {
      // keys sent back masked, as the form shows them, are left as they are
      const columns = await checkedColumns(trx, withoutMasked(form, ["hashKey", "apiKey"]) as SupplierForm);
      await assertShortCodeFree(trx, form.supplierShortCode, id);
      // a new hook has not been refused (yet): the old hook's refusal goes with it
      const sameHook = sql<boolean>`supplierApprovedHook = ${columns.supplierApprovedHook}`;
      await trx.updateTable("suppliers").set({
        ...columns,
        approvedHookRefusal: sql`CASE WHEN ${sameHook} THEN approvedHookRefusal ELSE '' END`,
        approvedHookRefusedAt: sql`CASE WHEN ${sameHook} THEN approvedHookRefusedAt END`,
        updatedAt: now,
      }).where("id", "=", id).execute();
      return `Updated supplier ${form.supplierName} (${form.supplierShortCode})`;
    },
    onDelete: async (trx, now) => {
      const n = await deactivateSupplierUsers(trx, id, now);
      return n ? `deactivated ${n} portal user${n === 1 ? "" : "s"}` : undefined;
    },
    read: async (trx) => {
      const r = await trx.selectFrom("suppliers").select("isDeleted").where("id", "=", id)
        .executeTakeFirstOrThrow();
      return r.isDeleted ? { _id: id, isDeleted: true as const } : await getSupplier(trx, id);
    },
  });
  // after the commit: a deleted or deactivated supplier's links close at once
  services.changes.supplier(id);
  return out;
}

// ---------------------------------------------------------------- pickers and recipients

/** Active suppliers for selects: `{_id, label, value, supplierName, supplierShortCode}`, by name. */
export async function supplierOptions(db: Db, search?: string): Promise<SupplierOption[]> {
  let q = db.selectFrom("suppliers").select(["id", "supplierName", "supplierShortCode", "supplierType"])
    .where("isDeleted", "=", 0).where("isActive", "=", 1);
  const s = search?.trim();
  if (s) {
    const pattern = `%${escapeLike(s)}%`;
    q = q.where((eb) =>
      eb.or([
        eb("supplierName", "like", sql<string>`${pattern} escape '\\'`),
        eb("supplierShortCode", "like", sql<string>`${pattern} escape '\\'`),
      ])
    );
  }
  const rows = await q.orderBy("supplierName").orderBy("id").limit(1000).execute();
  return rows.map((r) => ({
    _id: r.id,
    label: r.supplierName,
    value: r.id,
    supplierName: r.supplierName,
    supplierShortCode: r.supplierShortCode,
    supplierType: r.supplierType,
  }));
}

/** Who gets a bulk e-mail: active, live suppliers with e-mail notifications on. */
export async function notificationRecipients(db: Db) {
  return await db.selectFrom("suppliers").select(["id", "supplierName", "supplierEmail"])
    .where("isDeleted", "=", 0).where("isActive", "=", 1).where("isEmailNotification", "=", 1)
    .where("supplierEmail", "!=", "").orderBy("supplierName").execute();
}
