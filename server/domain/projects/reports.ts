/** Per-project CSV reports, read page by page for streaming. */
import type { Db } from "../../db/connection.ts";
import { OUTCOME_COUNTERS, type OutcomeCounter } from "../../db/tables/projects.ts";
import { PROJECT_TYPE, projectStatusLabel } from "../../../shared/status.ts";
import { countryByCode } from "../lookups/geo.ts";

type ChildRow = {
  projectCode: string;
  projectName: string;
  countryId: string | null;
  projectStatus: number;
  sampleSize: number;
  cpi: number;
} & Record<OutcomeCounter, number>;

/** The children of a parent (or the child itself) with their counts. */
export async function* groupReportPages(db: Db, projectId: string): AsyncGenerator<ChildRow[]> {
  const rows = await db.selectFrom("projects")
    .select([
      "projectCode",
      "projectName",
      "countryId",
      "projectStatus",
      "sampleSize",
      "cpi",
      ...OUTCOME_COUNTERS,
    ])
    .where((eb) => eb.or([eb("id", "=", projectId), eb("parentProjectId", "=", projectId)]))
    .where("projectType", "=", PROJECT_TYPE.CHILD).where("isDeleted", "=", 0).orderBy("projectCode")
    .execute();
  yield rows;
}

const ir = (r: { complete: number; terminate: number }) =>
  r.complete + r.terminate ? `${Math.round((r.complete / (r.complete + r.terminate)) * 1000) / 10}%` : "";

export const groupReportColumns = [
  { header: "Project code", value: (r: ChildRow) => r.projectCode },
  { header: "Project name", value: (r: ChildRow) => r.projectName },
  { header: "Country", value: (r: ChildRow) => countryByCode(r.countryId)?.label ?? r.countryId ?? "" },
  { header: "Status", value: (r: ChildRow) => projectStatusLabel(r.projectStatus) },
  { header: "Sample size", value: (r: ChildRow) => r.sampleSize },
  { header: "CPI", value: (r: ChildRow) => r.cpi.toFixed(2) },
  { header: "Clicked", value: (r: ChildRow) => r.clicked },
  { header: "Complete", value: (r: ChildRow) => r.complete },
  { header: "Terminate (ST)", value: (r: ChildRow) => r.terminate },
  { header: "Over quota (OQ)", value: (r: ChildRow) => r.overQuota },
  { header: "Quality term (QT)", value: (r: ChildRow) => r.qualityTerm },
  { header: "Drop (DO)", value: (r: ChildRow) => r.drop },
  { header: "Security", value: (r: ChildRow) => r.security },
  { header: "Prescreen terminate (PT)", value: (r: ChildRow) => r.preScreenTerminate },
  { header: "Prescreen drop (PD)", value: (r: ChildRow) => r.preScreenDrop },
  { header: "Incidence", value: ir },
];

type MapRow = ChildRow & {
  mapId: string;
  supplierName: string | null;
  supplierCPI: number;
  supplierQuota: number;
  supplierClickQuota: number;
  allowTraffic: number;
  isBoarded: number;
  entry: string;
};

export async function* supplierMapReportPages(
  db: Db,
  projectId: string,
  entryBase: string,
): AsyncGenerator<MapRow[]> {
  const rows = await db.selectFrom("supplier_maps as m")
    .innerJoin("projects as p", "p.id", "m.projectId")
    .leftJoin("suppliers as s", "s.id", "m.supplierId")
    .select([
      "m.id as mapId",
      "s.supplierName",
      "m.supplierCPI",
      "m.supplierQuota",
      "m.supplierClickQuota",
      "m.allowTraffic",
      "m.isBoarded",
      "p.projectCode",
      "p.projectName",
      "p.countryId",
      "p.projectStatus",
      "p.sampleSize",
      "p.cpi",
      "m.clicked",
      "m.complete",
      "m.terminate",
      "m.overQuota",
      "m.qualityTerm",
      "m.drop",
      "m.security",
      "m.preScreenTerminate",
      "m.preScreenDrop",
    ])
    .where((eb) => eb.or([eb("p.id", "=", projectId), eb("p.parentProjectId", "=", projectId)]))
    .where("m.isDeleted", "=", 0).where("p.isDeleted", "=", 0).orderBy("p.projectCode").orderBy(
      "s.supplierName",
    ).execute();
  yield rows.map((r) => ({ ...r, entry: `${entryBase}/survey/start/${r.mapId}?sid=[sid]` }));
}

export const supplierMapReportColumns = [
  { header: "Project code", value: (r: MapRow) => r.projectCode },
  { header: "Supplier", value: (r: MapRow) => r.supplierName ?? "" },
  { header: "Entry link", value: (r: MapRow) => r.entry },
  { header: "Supplier CPI", value: (r: MapRow) => r.supplierCPI.toFixed(2) },
  { header: "Supplier quota", value: (r: MapRow) => r.supplierQuota },
  { header: "Click quota", value: (r: MapRow) => r.supplierClickQuota },
  { header: "Traffic", value: (r: MapRow) => (r.allowTraffic ? "Active" : "InActive") },
  { header: "Boarded", value: (r: MapRow) => (r.isBoarded ? "Active" : "InActive") },
  ...groupReportColumns.slice(6),
];
