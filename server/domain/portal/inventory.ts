/**
 * The supplier's inventory (part 2, "Supplier portal"): the projects open to it that it has not
 * started, and the start that maps it to one.
 *
 * Open: a survey (child) project that is Live and not deleted, to which the supplier has never been
 * mapped. A map staff removed keeps its project out of the inventory (taking a supplier off a
 * project is staff's call, which the supplier cannot undo by starting it again).
 *
 * Starting maps the supplier through the supplier-maps domain (saveSupplierMap), so the router,
 * the audit log and the staff's Suppliers tab see it as any other map: traffic on and boarded, no
 * test link, pre-screen as the project has it, quotas 0 (no limit of its own: the project's sample
 * size still applies) and the CPI the inventory offered.
 */
import * as v from "valibot";
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type AnyQB, listSpecOf } from "../../db/list.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import { countryByCode } from "../lookups/geo.ts";
import { PROJECT_STATUS, PROJECT_TYPE } from "../../../shared/status.ts";
import { SupplierMapForm } from "../../../shared/schemas/project.ts";
import {
  inventoryList,
  type InventoryProject,
  type InventoryStart,
  type PortalProject,
  type SupplierRedirects,
} from "../../../shared/api/portal.ts";
import { type EntryBase, saveSupplierMap } from "../projects/supplier-maps.ts";
import { getMappedProject, type SupplierScope } from "./projects.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

/** The most a supplier is offered of what the client pays per complete. */
export const SUPPLIER_SHARE = 0.6;

/**
 * The CPI a supplier is offered on a project: its own rate (the first figure of its rule CPI, e.g.
 * 2.5 of "2.5|3.4|4|6"), never more than SUPPLIER_SHARE of the project's CPI; to the cent.
 */
export function offeredCpi(projectCpi: number, supplierRuleCPI: string): number {
  const cap = Number(projectCpi) * SUPPLIER_SHARE;
  const rate = supplierRuleCPI.split("|").map((s) => Number(s.trim())).find((n) =>
    Number.isFinite(n) && n > 0
  );
  return Math.round(Math.max(0, Math.min(cap, rate ?? cap)) * 100) / 100;
}

type SupplierRow = { id: string; supplierRuleCPI: string } & SupplierRedirects;

/** The supplier a portal call acts for: active and not deleted, else nothing is open to it. */
async function activeSupplier(db: Db, supplierId: SupplierScope): Promise<SupplierRow | undefined> {
  if (!supplierId) return undefined;
  return await db.selectFrom("suppliers")
    .select([
      "id",
      "supplierRuleCPI",
      "redirectComplete",
      "redirectTerminate",
      "redirectQuotaFull",
      "redirectQualityTerm",
      "redirectSurveyClose",
    ])
    .where("id", "=", supplierId).where("isDeleted", "=", 0).where("isActive", "=", 1)
    .executeTakeFirst();
}

export function inventoryQuery(db: Db, supplierId: SupplierScope): AnyQB {
  const q = db.selectFrom("projects as p")
    .select([
      "p.id",
      "p.projectCode",
      "p.projectName",
      "p.countryId",
      "p.averageLOI",
      "p.ir",
      "p.sampleSize",
      "p.complete",
      "p.isPreScreen",
      "p.cpi",
      "p.createdAt",
    ])
    .where("p.projectType", "=", PROJECT_TYPE.CHILD)
    .where("p.projectStatus", "=", PROJECT_STATUS.LIVE)
    .where("p.isDeleted", "=", 0);
  if (!supplierId) return q.where(sql<boolean>`1 = 0`);
  return q.where((eb) =>
    eb.not(eb.exists(
      eb.selectFrom("supplier_maps as m").select("m.id").whereRef("m.projectId", "=", "p.id")
        .where("m.supplierId", "=", supplierId),
    ))
  );
}

export const inventorySpec = listSpecOf(inventoryList, {
  search: ["p.projectCode", "p.projectName"],
  filters: {},
  sorts: {
    projectCode: "p.projectCode",
    projectName: "p.projectName",
    createdAt: "p.createdAt",
    averageLOI: "p.averageLOI",
    ir: "p.ir",
  },
  defaultSort: [["p.createdAt", "desc"], ["p.id", "desc"]],
  rowid: "p.rowid",
});

type InventoryRow = {
  id: string;
  projectCode: string;
  projectName: string;
  countryId: string | null;
  averageLOI: number;
  ir: number;
  sampleSize: number;
  complete: number;
  isPreScreen: number;
  cpi: number;
  createdAt: string;
};

const inventoryItem = (supplierRuleCPI: string) => (r: InventoryRow): InventoryProject => ({
  _id: r.id,
  projectCode: r.projectCode,
  projectName: r.projectName,
  countryId: r.countryId ?? "",
  countryName: countryByCode(r.countryId)?.label ?? r.countryId ?? "",
  averageLOI: Number(r.averageLOI),
  ir: Number(r.ir),
  sampleSize: Number(r.sampleSize),
  remaining: Math.max(0, Number(r.sampleSize) - Number(r.complete)),
  isPreScreen: !!r.isPreScreen,
  supplierCPI: offeredCpi(Number(r.cpi), supplierRuleCPI),
  createdAt: r.createdAt,
});

const NO_REDIRECTS: SupplierRedirects = {
  redirectComplete: "",
  redirectTerminate: "",
  redirectQuotaFull: "",
  redirectQualityTerm: "",
  redirectSurveyClose: "",
};
const redirectsOf = (s: SupplierRedirects): SupplierRedirects => ({
  redirectComplete: s.redirectComplete,
  redirectTerminate: s.redirectTerminate,
  redirectQuotaFull: s.redirectQuotaFull,
  redirectQualityTerm: s.redirectQualityTerm,
  redirectSurveyClose: s.redirectSurveyClose,
});

/** The inventory list's parts: its query, row mapping (with the supplier's CPI) and saved links. */
export async function inventoryListParts(db: Db, supplierId: SupplierScope) {
  const supplier = await activeSupplier(db, supplierId);
  return {
    query: inventoryQuery(db, supplier?.id),
    map: inventoryItem(supplier?.supplierRuleCPI ?? ""),
    redirects: supplier ? redirectsOf(supplier) : NO_REDIRECTS,
  };
}

/**
 * Starts an inventory project: the supplier is mapped to it (through saveSupplierMap) with the links
 * sent (`isUrlUpdated`) or its own saved ones, and the new mapped project is answered. A project not
 * open to the supplier is a 404; one it already started a 409.
 */
export async function startInventoryProject(
  ctx: WriteCtx & Pick<Ctx, "services">,
  args: { supplierId: SupplierScope; projectId: string; entryBase: EntryBase } & InventoryStart,
): Promise<PortalProject> {
  const { db, services, actor, now: clock } = ctx;
  const { supplierId, projectId, entryBase, ...input } = args;
  const supplier = await activeSupplier(db, supplierId);
  if (!supplier) throw notFound("Project");
  const project = await db.selectFrom("projects")
    .select(["id", "cpi", "isPreScreen"])
    .where("id", "=", projectId).where("projectType", "=", PROJECT_TYPE.CHILD)
    .where("projectStatus", "=", PROJECT_STATUS.LIVE).where("isDeleted", "=", 0)
    .executeTakeFirst();
  if (!project) throw notFound("Project");
  const existing = await db.selectFrom("supplier_maps").select("isDeleted")
    .where("projectId", "=", projectId).where("supplierId", "=", supplier.id)
    .orderBy("isDeleted").executeTakeFirst();
  if (existing && !existing.isDeleted) throw conflict("You have already started this project");
  if (existing) throw notFound("Project");

  const links = input.isUrlUpdated ? redirectsOf(input) : redirectsOf(supplier);
  const form = v.safeParse(SupplierMapForm, {
    projectId: project.id,
    supplierId: supplier.id,
    supplierCPI: offeredCpi(project.cpi, supplier.supplierRuleCPI),
    isPreScreen: !!project.isPreScreen,
    ...links,
  });
  if (!form.success) {
    // only the supplier's saved links can get here (the body's were checked by the same schema)
    const errors = form.issues.map((i) => ({
      path: i.path?.map((p) => String(p.key)).join(".") ?? "",
      message: i.message,
    }));
    throw invalid(errors[0]?.message ?? "Invalid Url", errors);
  }
  const { id } = await saveSupplierMap({ db, services, actor, now: clock }, { ...form.output, entryBase });
  return getMappedProject(db, supplier.id, id, entryBase);
}
