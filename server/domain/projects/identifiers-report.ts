/**
 * Respondent identifiers of a project, for the child report (a child's sessions, or all of a
 * parent's children) and the supplier report (one supplier map's sessions), with the Support
 * Identifiers columns (part 2, section 2).
 *
 * Read for streaming, a page at a time: every read is a keyset range on the sessions'
 * (supplierMapId, status) index, `rowid > last` within one map and status, so a deep page costs
 * what the first one does and nothing is built in memory. Rows come grouped by child project,
 * supplier and status (outcomes first), in arrival order within each group. Test entries are left
 * out; deleted child projects and removed suppliers stay in (reports keep what happened).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { invalid, notFound } from "../errors.ts";
import { PROJECT_TYPE, SESSION_STATUS_LIST, sessionStatusLabel } from "../../../shared/status.ts";
import { REASON_LABEL } from "../router/outcomes.ts";
import { countryByCode } from "../lookups/geo.ts";
import type { CsvColumn } from "../../../shared/list.ts";
import { getProject } from "./projects.ts";

export const REPORT_PAGE_SIZE = 1000;

export type ReportProject = { id: string; projectCode: string; projectName: string };
export type ReportMap = {
  id: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  supplierId: string;
  supplierName: string;
};

/** The project (404 when unknown or deleted) and the child projects a report on it covers. */
export async function reportProjects(db: Db, projectId: string) {
  const project = await getProject(db, projectId);
  const children: ReportProject[] = project.projectType === PROJECT_TYPE.CHILD
    ? [{ id: project._id, projectCode: project.projectCode, projectName: project.projectName }]
    : await db.selectFrom("projects").select(["id", "projectCode", "projectName"])
      .where("parentProjectId", "=", project._id).orderBy("projectCode").execute();
  return { project, children };
}

/** Every supplier map of these child projects (removed ones too), by project code and supplier name. */
export async function reportMaps(db: Db, childIds: string[]): Promise<ReportMap[]> {
  if (!childIds.length) return [];
  const rows = await db.selectFrom("supplier_maps as m")
    .innerJoin("projects as p", "p.id", "m.projectId")
    .leftJoin("suppliers as s", "s.id", "m.supplierId")
    .select([
      "m.id",
      "m.projectId",
      "m.supplierId",
      "p.projectCode",
      "p.projectName",
      "s.supplierName",
    ])
    .where("m.projectId", "in", childIds)
    .orderBy("p.projectCode").orderBy("s.supplierName").orderBy("m.createdAt").execute();
  return rows.map((r) => ({ ...r, supplierName: r.supplierName ?? "" }));
}

/**
 * The maps a project's identifiers report covers: every map of its children, or only one supplier's
 * (`supplierId`; unknown supplier: 404, a supplier who sent no one here: no rows).
 */
export async function projectIdentifierMaps(db: Db, projectId: string, supplierId: string) {
  const { project, children } = await reportProjects(db, projectId);
  const maps = await reportMaps(db, children.map((ch) => ch.id));
  if (!supplierId) return { project, maps, supplierName: null };
  const supplier = await db.selectFrom("suppliers").select("supplierName").where("id", "=", supplierId)
    .executeTakeFirst();
  if (!supplier) throw notFound("Supplier");
  return {
    project,
    maps: maps.filter((m) => m.supplierId === supplierId),
    supplierName: supplier.supplierName,
  };
}

/**
 * The one map a supplier report covers. The map must be on the project (or on one of its children);
 * a removed map still reports, its respondents stay.
 */
export async function supplierReportMap(db: Db, projectId: string, supplierMapId: string) {
  const { project, children } = await reportProjects(db, projectId);
  const maps = await reportMaps(db, children.map((c) => c.id));
  const map = maps.find((m) => m.id === supplierMapId);
  if (!map) {
    const exists = await db.selectFrom("supplier_maps").select("id").where("id", "=", supplierMapId)
      .executeTakeFirst();
    if (!exists) throw notFound("Supplier map");
    const message = `The supplier map is not on project ${project.projectCode}`;
    throw invalid(message, [{ path: "supplierMapId", message }]);
  }
  return { project, map };
}

export type IdentifierRow = {
  projectCode: string;
  projectName: string;
  supplierName: string;
  sid: string;
  uid: string;
  createdAt: string;
  updatedAt: string;
  country: string;
  ip: string;
  deviceType: string;
  browser: string;
  status: string;
  reason: string;
};

const STATUS_ORDER = SESSION_STATUS_LIST.map((s) => s.value);

/** The sessions of these maps, page by page (at most `pageSize` rows a page). */
export async function* identifierPages(
  db: Db,
  maps: ReportMap[],
  pageSize = REPORT_PAGE_SIZE,
): AsyncGenerator<IdentifierRow[]> {
  for (const m of maps) {
    for (const status of STATUS_ORDER) {
      let after = 0;
      for (;;) {
        const rows = await db.selectFrom("sessions")
          .select([
            "id",
            "sid",
            "createdAt",
            "updatedAt",
            "country",
            "ip",
            "deviceType",
            "browser",
            "status",
            "reason",
            sql<number>`rowid`.as("rn"),
          ])
          .where("supplierMapId", "=", m.id).where("status", "=", status).where(
            sql<number>`rowid`,
            ">",
            after,
          )
          .where("isTest", "=", 0)
          .orderBy(sql`rowid`).limit(pageSize).execute();
        if (rows.length) {
          yield rows.map((r) => ({
            projectCode: m.projectCode,
            projectName: m.projectName,
            supplierName: m.supplierName,
            sid: r.sid,
            uid: r.id,
            createdAt: r.createdAt,
            updatedAt: r.updatedAt,
            country: r.country,
            ip: r.ip,
            deviceType: r.deviceType,
            browser: r.browser,
            status: r.status,
            reason: r.reason,
          }));
        }
        if (rows.length < pageSize) break;
        after = Number(rows[rows.length - 1].rn);
      }
    }
  }
}

const pad = (n: number) => String(n).padStart(2, "0");

/** DD/MM/YYYY HH:mm:ss in UTC (the identifiers' date format, part 2 section 9). */
export function reportDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${
    pad(d.getUTCMinutes())
  }:${pad(d.getUTCSeconds())}`;
}

const DEVICE_LABEL: Record<string, string> = { desktop: "Desktop", mobile: "Mobile", tablet: "Tablet" };

/** The Support Identifiers columns, then why a respondent ended as they did. */
export const identifierColumns: CsvColumn<IdentifierRow>[] = [
  { header: "Project code", value: (r) => r.projectCode },
  { header: "Project name", value: (r) => r.projectName },
  { header: "Supplier name", value: (r) => r.supplierName },
  { header: "Supplier identifier", value: (r) => r.sid },
  { header: "User identifier", value: (r) => r.uid },
  { header: "Start (UTC)", value: (r) => reportDateTime(r.createdAt) },
  { header: "End (UTC)", value: (r) => reportDateTime(r.updatedAt) },
  { header: "Country", value: (r) => countryByCode(r.country)?.label ?? r.country },
  { header: "IP address", value: (r) => r.ip },
  { header: "Device type", value: (r) => DEVICE_LABEL[r.deviceType] ?? r.deviceType },
  { header: "Browser detail", value: (r) => r.browser },
  { header: "Status", value: (r) => sessionStatusLabel(r.status) },
  { header: "Reason", value: (r) => (r.reason ? REASON_LABEL[r.reason] ?? r.reason : "") },
];
