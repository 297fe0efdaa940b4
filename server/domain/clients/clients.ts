/** Clients: buyers of completes (part 1: 2.7, entity Client, section 5 and 7 "Clients"). */
import { type Selectable, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { ClientsTable } from "../../db/tables/master.ts";
import { newId } from "../../db/ids.ts";
import { toApi } from "../../db/rows.ts";
import { activeStatus, type AnyQB, escapeLike, inFilter, isTruthyFlag, listSpecOf } from "../../db/list.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import type { ClientForm, ClientUpdate } from "../../../shared/schemas/client.ts";
import {
  CLIENT_SECRET_FIELDS,
  type ClientInvoiceOption,
  type ClientKeys,
  type ClientListItem,
  type ClientOption,
  type ClientRecord,
  clientsList,
} from "../../../shared/api/clients.ts";
import { isMasked, maskFieldsOf, withoutMasked } from "../../../shared/secrets.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { isActiveUserWithRole, userNames } from "../users/users.ts";
import { keepKnownSuppliers } from "../suppliers/lookup.ts";
import {
  countryFields,
  parseJsonList,
  randomKey,
  requireCountry,
  runUpdate,
  type UpdateOutcome,
} from "../common/records.ts";
import { type ClientFigures, clientFigures, ZERO_CLIENT_FIGURES } from "./figures.ts";
import { CLIENT_FIELDS } from "../audit/fields.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

const MODULE = "Clients";
type ClientRow = Selectable<ClientsTable>;

/** Columns of a list row: no API secrets, no long mapping blocks. */
const LIST_COLUMNS = [
  "id",
  "clientName",
  "clientCode",
  "clientContactName",
  "clientEmail",
  "clientPhoneNumber",
  "countryId",
  "city",
  "company",
  "netDays",
  "isApiIntegration",
  "assignedTo",
  "isActive",
  "createdAt",
] as const satisfies readonly (keyof ClientRow)[];
type ClientListRow = Pick<ClientRow, (typeof LIST_COLUMNS)[number]>;

function listItem(row: ClientListRow): ClientListItem {
  return { ...toApi(row), ...countryFields(row.countryId), ...ZERO_CLIENT_FIGURES, assignedToName: "" };
}

/** Adds figures and Assigned To names to one page of clients: two queries per page, none per row. */
export async function enrichClients<T extends { _id: string; assignedTo: string | null }>(
  db: Db,
  rows: T[],
): Promise<(T & ClientFigures & { assignedToName: string })[]> {
  const [figures, names] = await Promise.all([
    clientFigures(db, rows.map((r) => r._id)),
    userNames(db, rows.map((r) => r.assignedTo ?? "")),
  ]);
  return rows.map((r) => ({
    ...r,
    ...(figures.get(r._id) ?? ZERO_CLIENT_FIGURES),
    assignedToName: r.assignedTo ? names.get(r.assignedTo) ?? "" : "",
  }));
}

// ---------------------------------------------------------------- list

export function clientsListQuery(db: Db): AnyQB {
  return db.selectFrom("clients").select(LIST_COLUMNS).where("isDeleted", "=", 0);
}

const upper = (s: string) => s.trim().toUpperCase();

export const clientsListSpec = listSpecOf(clientsList, {
  search: ["clientName", "clientCode", "clientEmail", "clientContactName", "company", "city"],
  filters: {
    countries: inFilter("countryId", upper),
    countryId: inFilter("countryId", upper),
    isApiIntegration: (qb, val) => qb.where("isApiIntegration", "=", isTruthyFlag(val) ? 1 : 0),
    assignedTo: (qb, val) => qb.where("assignedTo", "=", String(val)),
    isActive: (qb, val) => qb.where("isActive", "=", isTruthyFlag(val) ? 1 : 0),
  },
  status: activeStatus(),
  sorts: {
    clientName: "clientName",
    clientCode: "clientCode",
    countryId: "countryId",
    createdAt: "createdAt",
  },
  defaultSort: [["createdAt", "desc"], ["id", "desc"]],
  rowid: "clients.rowid",
});

export const clientListMap = listItem;

// ---------------------------------------------------------------- read

export async function getClient(db: Db, id: string): Promise<ClientRecord> {
  const row = await db.selectFrom("clients").selectAll().where("id", "=", id).where("isDeleted", "=", 0)
    .executeTakeFirst();
  if (!row) throw notFound("Client");
  const { supplierIds, ...rest } = toApi(row);
  const [enriched] = await enrichClients(db, [{ ...rest, ...countryFields(row.countryId) }]);
  // the keys masked (last 4 characters): revealing them is its own call, for their owners
  return maskFieldsOf({ ...enriched, supplierId: parseJsonList(supplierIds) }, CLIENT_SECRET_FIELDS);
}

/** A client's keys, whole, for their owners: the reveal is written to the system log. */
export async function clientKeys(
  ctx: WriteCtx,
  id: string,
): Promise<ClientKeys> {
  const { db, actor, now: clock } = ctx;
  const row = await db.selectFrom("clients").select(["clientName", "clientCode", "apiKey", "clientApiKey"])
    .where("id", "=", id).where("isDeleted", "=", 0).executeTakeFirst();
  if (!row) throw notFound("Client");
  await writeLog(db, actor, {
    activity: `Revealed the API keys of client ${row.clientName} (${row.clientCode})`,
    module: MODULE,
    recordId: id,
  }, dateAt(clock));
  return { apiKey: row.apiKey, clientApiKey: row.clientApiKey };
}

// ---------------------------------------------------------------- write

/** The next generated client code: CL0001, CL0002, ... (never reusing a deleted client's). */
async function nextClientCode(trx: Db): Promise<string> {
  const r = await trx.selectFrom("clients")
    .select(sql<number | null>`max(cast(substr(clientCode, 3) as integer))`.as("n"))
    .where(sql<boolean>`clientCode GLOB 'CL[0-9]*'`).executeTakeFirst();
  return `CL${String((r?.n ?? 0) + 1).padStart(4, "0")}`;
}

async function assertCodeFree(trx: Db, code: string, exceptId?: string) {
  let q = trx.selectFrom("clients").select("id").where(sql<boolean>`clientCode = ${code} COLLATE NOCASE`)
    .where("isDeleted", "=", 0);
  if (exceptId) q = q.where("id", "!=", exceptId);
  if (await q.executeTakeFirst()) {
    throw conflict(MSG.clientCodeTaken, [{ path: "clientCode", message: MSG.clientCodeTaken }]);
  }
}

/**
 * Checks that need the database: country, Assigned To (an active BDE), the supplier list.
 * Assigned To is checked only when it changes (`currentAssignedTo` is the saved value on an edit):
 * a client whose BDE has since left keeps them until someone picks another, and stays editable.
 */
async function checkedColumns(trx: Db, input: ClientForm, currentAssignedTo: string | null = null) {
  requireCountry(input.countryId, MSG.countryRequired);
  const assignedToChanged = !!input.assignedTo && input.assignedTo !== currentAssignedTo;
  if (assignedToChanged && !(await isActiveUserWithRole(trx, input.assignedTo!, "BDE"))) {
    throw invalid(MSG.assignedToInvalid, [{ path: "assignedTo", message: MSG.assignedToInvalid }]);
  }
  const supplierIds = await keepKnownSuppliers(trx, input.supplierId, "supplierId");
  const {
    supplierId: _ids,
    clientCode: _code,
    isApiIntegration,
    isScreenUrlIntegration,
    isActive,
    ...plain
  } = input;
  return {
    ...plain,
    supplierIds: JSON.stringify(supplierIds),
    isApiIntegration: isApiIntegration ? 1 : 0,
    isScreenUrlIntegration: isScreenUrlIntegration ? 1 : 0,
    isActive: isActive ? 1 : 0,
  };
}

export async function createClient(
  ctx: WriteCtx,
  input: ClientForm,
): Promise<ClientRecord> {
  const { db, actor, now: clock } = ctx;
  return await db.transaction().execute(async (trx) => {
    // a masked key (copied from another form) is no key
    const columns = await checkedColumns(trx, {
      ...input,
      apiKey: isMasked(input.apiKey) ? "" : input.apiKey,
    });
    const clientCode = input.clientCode || await nextClientCode(trx);
    await assertCodeFree(trx, clientCode);
    const at = dateAt(clock), now = at.toISOString();
    const id = newId(at.getTime());
    await trx.insertInto("clients").values({
      ...columns,
      id,
      clientCode,
      clientApiKey: randomKey(),
      isDeleted: 0,
      createdAt: now,
      updatedAt: now,
    }).execute();
    await writeLog(trx, actor, {
      activity: `Created client ${input.clientName} (${clientCode})`,
      module: MODULE,
      recordId: id,
    }, at);
    return getClient(trx, id);
  });
}

/** The form, `{isActive}` (the switch) or `{isDeleted: true}` (soft delete). */
export async function updateClient(
  ctx: WriteCtx & Partial<Pick<Ctx, "services">>,
  args: { id: string } & ClientUpdate,
): Promise<{ record: ClientRecord | { _id: string; isDeleted: true }; outcome: UpdateOutcome }> {
  const { db, actor, now: clock } = ctx;
  const { id, ...input } = args;
  const out = await runUpdate<ClientForm, ClientRecord | { _id: string; isDeleted: true }>(db, actor, {
    table: "clients",
    id,
    now: clock,
    what: "Client",
    module: MODULE,
    input,
    fields: CLIENT_FIELDS,
    label: async (trx) => {
      const r = await trx.selectFrom("clients").select("clientName").where("id", "=", id)
        .executeTakeFirstOrThrow();
      return `client ${r.clientName}`;
    },
    saveForm: async (trx, form, now) => {
      const current = await trx.selectFrom("clients").select(["clientCode", "assignedTo"]).where(
        "id",
        "=",
        id,
      )
        .executeTakeFirstOrThrow();
      // a key sent back masked, as the form shows it, is left as it is
      const columns = await checkedColumns(
        trx,
        withoutMasked(form, ["apiKey"]) as ClientForm,
        current.assignedTo,
      );
      const clientCode = form.clientCode || current.clientCode;
      if (clientCode !== current.clientCode) await assertCodeFree(trx, clientCode, id);
      await trx.updateTable("clients").set({ ...columns, clientCode, updatedAt: now }).where("id", "=", id)
        .execute();
      return `Updated client ${form.clientName} (${clientCode})`;
    },
    read: async (trx) => {
      const live = await trx.selectFrom("clients").select("isDeleted").where("id", "=", id)
        .executeTakeFirstOrThrow();
      return live.isDeleted ? { _id: id, isDeleted: true as const } : await getClient(trx, id);
    },
  });
  // after the commit: the router rereads the client's projects (their API integration) at once
  if (ctx.services) {
    const projects = await db.selectFrom("projects").select("id").where("clientId", "=", id).execute();
    ctx.services.changes.project(...projects.map((p) => p.id));
  }
  return out;
}

// ---------------------------------------------------------------- pickers

const PICKER_LIMIT = 1000;

function searchClients<Q extends AnyQB>(q: Q, search?: string): Q {
  const s = search?.trim();
  if (!s) return q;
  const pattern = `%${escapeLike(s)}%`;
  return q.where((eb) =>
    eb.or([
      eb("clientName", "like", sql<string>`${pattern} escape '\\'`),
      eb("clientCode", "like", sql<string>`${pattern} escape '\\'`),
    ])
  ) as Q;
}

/** Active clients for selects: `{_id, label, value, clientName, clientEmail}`, by name. */
export async function clientOptions(
  db: Db,
  opts: { search?: string; isApiIntegration?: boolean | null } = {},
): Promise<ClientOption[]> {
  let q: AnyQB = db.selectFrom("clients").select([
    "id",
    "clientName",
    "clientEmail",
    "clientCode",
    "isApiIntegration",
  ])
    .where("isDeleted", "=", 0).where("isActive", "=", 1);
  if (typeof opts.isApiIntegration === "boolean") {
    q = q.where("isApiIntegration", "=", opts.isApiIntegration ? 1 : 0);
  }
  const rows = await searchClients(q, opts.search).orderBy("clientName").orderBy("id").limit(PICKER_LIMIT)
    .execute() as Pick<ClientRow, "id" | "clientName" | "clientEmail" | "clientCode" | "isApiIntegration">[];
  return rows.map((r) => ({
    _id: r.id,
    label: r.clientName,
    value: r.id,
    clientName: r.clientName,
    clientEmail: r.clientEmail,
    clientCode: r.clientCode,
    isApiIntegration: r.isApiIntegration === 1,
  }));
}

/** Active clients with what an invoice needs (part 2, "Client (for invoicing)"). */
export async function clientInvoiceOptions(db: Db, search?: string): Promise<ClientInvoiceOption[]> {
  const q: AnyQB = db.selectFrom("clients").select([
    "id",
    "clientName",
    "clientEmail",
    "clientPhoneNumber",
    "company",
    "taxId",
    "address1",
    "address2",
    "city",
    "state",
    "zipCode",
    "countryId",
    "netDays",
    "wolfAccount",
  ]).where("isDeleted", "=", 0).where("isActive", "=", 1);
  const rows = await searchClients(q, search).orderBy("clientName").orderBy("id").limit(PICKER_LIMIT)
    .execute() as Pick<
      ClientRow,
      | "id"
      | "clientName"
      | "clientEmail"
      | "clientPhoneNumber"
      | "company"
      | "taxId"
      | "address1"
      | "address2"
      | "city"
      | "state"
      | "zipCode"
      | "countryId"
      | "netDays"
      | "wolfAccount"
    >[];
  return rows.map(({ id, countryId, ...r }) => {
    const c = countryFields(countryId);
    return {
      _id: id,
      label: r.clientName,
      value: id,
      ...r,
      countryId: { _id: countryId, name: c.countryName, code: c.countryCode, flag: c.flag },
    };
  });
}
