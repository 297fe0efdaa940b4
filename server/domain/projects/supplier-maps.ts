/**
 * Supplier maps: a supplier attached to a child project, with its CPI, quotas, redirects and toggles.
 * The map id is the supplier's entry link: /survey/start/{mapId}?sid=[sid].
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { newId } from "../../db/ids.ts";
import { toRow } from "../../db/rows.ts";
import { invalid, notFound } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import type { SupplierMapForm } from "../../../shared/schemas/project.ts";
import { writeLog } from "../audit/log.ts";
import { supplierMapRecord } from "./serialize.ts";
import { dateAt, isoAt } from "./projects.ts";
import { PROJECT_TYPE } from "../../../shared/status.ts";
import {
  SUPPLIER_MAP_DEFAULTS,
  type SupplierMapDefaults,
  type SupplierMapRecord,
  type SupplierStat,
} from "../../../shared/api/supplier-maps.ts";
import { supplierReturnUrls } from "../suppliers/lookup.ts";
import { diffRecord, writeChanges } from "../audit/changes.ts";
import { SUPPLIER_MAP_FIELDS } from "../audit/fields.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

/** Where respondents enter: PUBLIC_URL when set, else the address the staff member is using. */
export type EntryBase = string;

function mapsQuery(db: Db) {
  return db.selectFrom("supplier_maps")
    .leftJoin("suppliers", "suppliers.id", "supplier_maps.supplierId")
    .selectAll("supplier_maps")
    .select([
      "suppliers.supplierName as supplierName",
      // the supplier's own return links: the router's fallback where the map has none
      "suppliers.redirectComplete as supplierComplete",
      "suppliers.redirectTerminate as supplierTerminate",
      "suppliers.redirectQuotaFull as supplierQuotaFull",
      "suppliers.redirectQualityTerm as supplierQualityTerm",
      "suppliers.redirectSurveyClose as supplierSurveyClose",
    ])
    .where("supplier_maps.isDeleted", "=", 0);
}

/**
 * The Add Supplier form's defaults ("reset"); for a chosen supplier, its own return links as the new
 * map's (the form shows them, to keep or change).
 */
export async function supplierMapDefaults(
  db: Db,
  supplierId: string | undefined,
): Promise<SupplierMapDefaults> {
  if (!supplierId) return SUPPLIER_MAP_DEFAULTS;
  return { ...SUPPLIER_MAP_DEFAULTS, supplierId, ...await supplierReturnUrls(db, supplierId) };
}

export async function getSupplierMap(db: Db, id: string, entryBase: EntryBase): Promise<SupplierMapRecord> {
  const row = await mapsQuery(db).where("supplier_maps.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Supplier map");
  return supplierMapRecord(row, entryBase);
}

export async function listSupplierMaps(
  db: Db,
  projectId: string,
  search: string,
  entryBase: EntryBase,
): Promise<SupplierMapRecord[]> {
  let q = mapsQuery(db).where("supplier_maps.projectId", "=", projectId);
  if (search.trim()) q = q.where("suppliers.supplierName", "like", `%${search.trim()}%`);
  const rows = await q.orderBy("supplier_maps.createdAt").execute();
  return rows.map((r) => supplierMapRecord(r, entryBase));
}

/** Adds a supplier to a project, or updates its map when the supplier is already mapped (the form is Add/Update). */
export async function saveSupplierMap(
  ctx: WriteCtx & Pick<Ctx, "services">,
  args: { entryBase: EntryBase } & SupplierMapForm,
) {
  const { db, services, actor, now: clock } = ctx;
  const { entryBase, ...input } = args;
  const result = await db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom("projects").select(["id", "projectCode", "projectType"]).where(
      "id",
      "=",
      input.projectId,
    )
      .where("isDeleted", "=", 0).executeTakeFirst();
    if (!project) throw notFound("Project");
    if (project.projectType !== PROJECT_TYPE.CHILD) throw invalid("Suppliers are mapped to child projects");
    const supplier = await trx.selectFrom("suppliers").select(["id", "supplierName", "isActive"]).where(
      "id",
      "=",
      input.supplierId,
    )
      .where("isDeleted", "=", 0).executeTakeFirst();
    if (!supplier) {
      throw invalid(MSG.mapSupplierRequired, [{ path: "supplierId", message: MSG.mapSupplierRequired }]);
    }
    const at = dateAt(clock), now = at.toISOString();
    const fields = toRow({
      supplierCPI: input.supplierCPI,
      supplierQuota: input.supplierQuota,
      supplierClickQuota: input.supplierClickQuota,
      isPreScreen: input.isPreScreen,
      isTestLink: input.isTestLink,
      allowTraffic: input.allowTraffic,
      isBoarded: input.isBoarded,
      redirectComplete: input.redirectComplete,
      redirectTerminate: input.redirectTerminate,
      redirectQuotaFull: input.redirectQuotaFull,
      redirectQualityTerm: input.redirectQualityTerm,
      redirectSurveyClose: input.redirectSurveyClose,
    });
    const existing = await trx.selectFrom("supplier_maps").selectAll().where(
      "projectId",
      "=",
      input.projectId,
    )
      .where("supplierId", "=", input.supplierId).where("isDeleted", "=", 0).executeTakeFirst();
    let id: string;
    if (existing) {
      id = existing.id;
      await trx.updateTable("supplier_maps").set({ ...fields, updatedAt: now }).where("id", "=", id)
        .execute();
      const changes = await diffRecord(trx, SUPPLIER_MAP_FIELDS, existing, fields);
      await writeChanges(trx, actor, {
        head: `Updated supplier ${supplier.supplierName} on ${project.projectCode}`,
        changes,
        module: "Projects",
        recordId: project.id,
      }, dateAt(clock));
    } else {
      id = newId(clock());
      await trx.insertInto("supplier_maps").values({
        id,
        projectId: input.projectId,
        supplierId: input.supplierId,
        ...(fields as object),
        createdAt: now,
        updatedAt: now,
      } as never).execute();
      await writeLog(trx, actor, {
        activity: `Mapped supplier ${supplier.supplierName} to ${project.projectCode}`,
        module: "Projects",
        recordId: project.id,
      }, dateAt(clock));
    }
    return { id, record: await getSupplierMap(trx, id, entryBase), created: !existing };
  });
  services.changes.supplierMap(result.id);
  return result;
}

/** One toggle (allowTraffic, isTestLink, isPreScreen, isBoarded) or {isDeleted: true}. */
export async function updateSupplierMap(
  ctx: WriteCtx & Pick<Ctx, "services">,
  input: { id: string; patch: Record<string, boolean>; entryBase: EntryBase },
) {
  const { db, services, actor, now: clock } = ctx;
  const { id, patch, entryBase } = input;
  const record = await db.transaction().execute(async (trx) => {
    const m = await mapsQuery(trx).where("supplier_maps.id", "=", id).executeTakeFirst();
    if (!m) throw notFound("Supplier map");
    const project = await trx.selectFrom("projects").select(["id", "projectCode"]).where(
      "id",
      "=",
      m.projectId,
    ).executeTakeFirstOrThrow();
    const [key, value] = Object.entries(patch)[0];
    await trx.updateTable("supplier_maps").set({
      ...toRow({ [key]: value }),
      updatedAt: isoAt(clock),
    })
      .where("id", "=", id).execute();
    if (key === "isDeleted") {
      await writeLog(trx, actor, {
        activity: `Removed supplier ${m.supplierName} from ${project.projectCode}`,
        module: "Projects",
        recordId: project.id,
      }, dateAt(clock));
    } else {
      await writeChanges(trx, actor, {
        head: `Updated supplier ${m.supplierName} on ${project.projectCode}`,
        changes: await diffRecord(trx, SUPPLIER_MAP_FIELDS, m, { [key]: value }),
        module: "Projects",
        recordId: project.id,
      }, dateAt(clock));
    }
    if (key === "isDeleted") return null;
    return getSupplierMap(trx, id, entryBase);
  });
  services.changes.supplierMap(id);
  return record;
}

/** Supplier Stats dialog: completes, terminates and over quota per supplier of a project (child or parent). */
export async function supplierStats(db: Db, projectId: string): Promise<SupplierStat[]> {
  const rows = await db.selectFrom("supplier_maps")
    .innerJoin("projects", "projects.id", "supplier_maps.projectId")
    .leftJoin("suppliers", "suppliers.id", "supplier_maps.supplierId")
    .select([
      "supplier_maps.supplierId",
      "suppliers.supplierName",
      sql<number>`sum(supplier_maps.complete)`.as("complete"),
      sql<number>`sum(supplier_maps.terminate)`.as("terminate"),
      sql<number>`sum(supplier_maps.overQuota)`.as("overQuota"),
      sql<number>`sum(supplier_maps.qualityTerm)`.as("qualityTerm"),
      sql<number>`sum(supplier_maps."drop")`.as("drop"),
      sql<number>`sum(supplier_maps.clicked)`.as("clicked"),
      sql<number>`sum(supplier_maps.security)`.as("security"),
    ])
    .where((eb) => eb.or([eb("projects.id", "=", projectId), eb("projects.parentProjectId", "=", projectId)]))
    .where("supplier_maps.isDeleted", "=", 0)
    .groupBy(["supplier_maps.supplierId", "suppliers.supplierName"])
    .orderBy("suppliers.supplierName").execute();
  return rows.map((r) => ({
    supplierId: r.supplierId,
    supplierName: r.supplierName ?? "",
    complete: Number(r.complete),
    terminate: Number(r.terminate),
    overQuota: Number(r.overQuota),
    qualityTerm: Number(r.qualityTerm),
    drop: Number(r.drop),
    clicked: Number(r.clicked),
    security: Number(r.security),
  }));
}
