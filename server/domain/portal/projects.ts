/**
 * The supplier portal's reads (part 2, "Supplier portal"), every one scoped to one supplier: the
 * projects it is mapped to (its maps, their entry links and live counts) and the supplier report of
 * one of its maps. Another supplier's map or project is a 404, whatever ids are sent.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type AnyQB, inNumberFilter, listSpecOf } from "../../db/list.ts";
import { notFound } from "../errors.ts";
import { countryByCode } from "../lookups/geo.ts";
import { conversionOf, mappedProjectsList, type PortalProject } from "../../../shared/api/portal.ts";
import { type ReportMap, supplierReportMap } from "../projects/identifiers-report.ts";

/** The supplier a portal call is scoped to; a supplier user without one reaches nothing. */
export type SupplierScope = string | null | undefined;

/** No row matches: the scope of a user tied to no supplier. */
const NOTHING = sql<boolean>`1 = 0`;

export const MAPPED_COLUMNS = [
  "m.id",
  "m.projectId",
  "p.projectCode",
  "p.projectName",
  "p.projectStatus",
  "p.countryId",
  "p.averageLOI",
  "p.ir",
  "m.supplierCPI",
  "m.supplierQuota",
  "m.supplierClickQuota",
  "m.allowTraffic",
  "m.isBoarded",
  "m.isTestLink",
  "m.clicked",
  "m.complete",
  "m.terminate",
  "m.overQuota",
  "m.qualityTerm",
  "m.drop",
  "m.security",
  "m.approved",
  "m.createdAt",
] as const;

/** The supplier's live maps on projects that still exist (every status: a supplier keeps its history). */
export function mappedProjectsQuery(db: Db, supplierId: SupplierScope): AnyQB {
  const q = db.selectFrom("supplier_maps as m")
    .innerJoin("projects as p", "p.id", "m.projectId")
    .select(MAPPED_COLUMNS)
    .where("m.isDeleted", "=", 0)
    .where("p.isDeleted", "=", 0);
  return supplierId ? q.where("m.supplierId", "=", supplierId) : q.where(NOTHING);
}

export const mappedProjectsSpec = listSpecOf(mappedProjectsList, {
  search: ["p.projectCode", "p.projectName"],
  filters: { projectStatus: inNumberFilter("p.projectStatus") },
  sorts: {
    projectCode: "p.projectCode",
    projectName: "p.projectName",
    createdAt: "m.createdAt",
    clicked: "m.clicked",
    complete: "m.complete",
    supplierCPI: "m.supplierCPI",
  },
  defaultSort: [["m.createdAt", "desc"], ["m.id", "desc"]],
  rowid: "m.rowid",
});

type MappedRow = {
  id: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
  countryId: string | null;
  averageLOI: number;
  ir: number;
  supplierCPI: number;
  supplierQuota: number;
  supplierClickQuota: number;
  allowTraffic: number;
  isBoarded: number;
  isTestLink: number;
  clicked: number;
  complete: number;
  terminate: number;
  overQuota: number;
  qualityTerm: number;
  drop: number;
  security: number;
  approved: number;
  createdAt: string;
};

/** A row of the mapped projects, with its entry links on `entryBase`. */
export const mappedProject = (entryBase: string) => (r: MappedRow): PortalProject => ({
  _id: r.id,
  supplierMapId: r.id,
  projectId: r.projectId,
  projectCode: r.projectCode,
  projectName: r.projectName,
  projectStatus: Number(r.projectStatus),
  countryId: r.countryId ?? "",
  countryName: countryByCode(r.countryId)?.label ?? r.countryId ?? "",
  averageLOI: Number(r.averageLOI),
  ir: Number(r.ir),
  supplierCPI: Number(r.supplierCPI),
  supplierQuota: Number(r.supplierQuota),
  supplierClickQuota: Number(r.supplierClickQuota),
  allowTraffic: !!r.allowTraffic,
  isBoarded: !!r.isBoarded,
  redirectUrl: `${entryBase}/survey/start/${r.id}?sid=[sid]`,
  testUrl: r.isTestLink ? `${entryBase}/survey/test/${r.id}?sid=[sid]` : null,
  clicked: Number(r.clicked),
  complete: Number(r.complete),
  terminate: Number(r.terminate),
  overQuota: Number(r.overQuota),
  qualityTerm: Number(r.qualityTerm),
  drop: Number(r.drop),
  security: Number(r.security),
  approved: Number(r.approved),
  conversion: conversionOf(Number(r.complete), Number(r.clicked)),
  createdAt: r.createdAt,
});

/** One of the supplier's mapped projects (404 when the map is not the supplier's, or removed). */
export async function getMappedProject(
  db: Db,
  supplierId: SupplierScope,
  mapId: string,
  entryBase: string,
): Promise<PortalProject> {
  const row = await mappedProjectsQuery(db, supplierId).where("m.id", "=", mapId).executeTakeFirst();
  if (!row) throw notFound("Supplier map");
  return mappedProject(entryBase)(row as MappedRow);
}

/**
 * The map a supplier report covers: one of the supplier's own maps (a removed one still reports: its
 * respondents stay), on the project named (its survey project or that one's group). Anything else
 * is a 404 that says nothing about other suppliers' maps or projects.
 */
export async function supplierPortalReportMap(
  db: Db,
  supplierId: SupplierScope,
  projectId: string,
  supplierMapId: string,
): Promise<ReportMap> {
  if (!supplierId) throw notFound("Supplier map");
  const own = await db.selectFrom("supplier_maps as m")
    .innerJoin("projects as p", "p.id", "m.projectId")
    .select(["m.projectId", "p.parentProjectId"])
    .where("m.id", "=", supplierMapId).where("m.supplierId", "=", supplierId)
    .executeTakeFirst();
  if (!own) throw notFound("Supplier map");
  if (projectId !== own.projectId && projectId !== own.parentProjectId) throw notFound("Project");
  return (await supplierReportMap(db, projectId, supplierMapId)).map;
}
