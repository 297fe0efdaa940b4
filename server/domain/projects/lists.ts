/**
 * The project grids. Parents are paged on their own indexed columns; the figures of one page come
 * from one GROUP BY over that page's children's counters (never an OFFSET into an aggregated join).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { type Clock, dateAt } from "../common/clock.ts";
import {
  type AnyQB,
  escapeLike,
  type FilterFn,
  inNumberFilter,
  type ListSpec,
  listSpecOf,
} from "../../db/list.ts";
import { COUNTER_NAMES, TIME_SUMS } from "../../db/tables/projects.ts";
import { projectRecord } from "./serialize.ts";
import type { ProjectType } from "../../../shared/status.ts";
import type { ProjectOptionsQuery } from "../../../shared/schemas/project.ts";
import { childProjectsList, type ProjectRow, projectsList } from "../../../shared/api/projects.ts";

const inList = (val: unknown) => (Array.isArray(val) ? val.map(String) : [String(val)]);

export function projectsQuery(db: Db, projectType: ProjectType): AnyQB {
  return db.selectFrom("projects")
    .leftJoin("clients", "clients.id", "projects.clientId")
    .leftJoin("users", "users.id", "projects.userId")
    .selectAll("projects")
    .select([
      "clients.clientName as clientName",
      sql<string>`users.firstName || ' ' || users.lastName`.as("managerName"),
    ])
    .where("projects.projectType", "=", projectType)
    .where("projects.isDeleted", "=", 0);
}

/**
 * Every column of projects but `cpi`, as the projects grids read them: a page's rows cross from
 * SQLite as JSON text (projectsListQuery). `cpi` (REAL) is read as a column: JSON writes a real
 * with 15 digits. A test holds this list to the table's columns.
 */
export const PROJECT_JSON_COLUMNS = [
  "id",
  "projectType",
  "parentProjectId",
  "projectCode",
  "projectName",
  "projectDescription",
  "notes",
  "clientId",
  "userId",
  "projectStatus",
  "poNumber",
  "clientEmail",
  "projectSpecs",
  "projectQuestionaire",
  "averageLOI",
  "ir",
  "wid",
  "categoryId",
  "countryId",
  "regionIds",
  "cityIds",
  "zipCodes",
  "languageId",
  "currencyId",
  "sampleSize",
  "sampleSizeInc",
  "respondentClickQuota",
  "respondentTestClickQuota",
  "startDate",
  "endDate",
  "isMultiLinkUrl",
  "singleLinkUrl",
  "singleLinkUrlTest",
  "isDynamicThanksUrl",
  "isGeoLocation",
  "isClientUrlProtection",
  "isPreScreen",
  "isExclude",
  "isMobile",
  "isDesktop",
  "isTablet",
  "isSpeeder",
  "isProxyVpn",
  "isUniqueIp",
  "isPii",
  "isRDLow",
  "isRDMedium",
  "isRDHigh",
  "allowRouting",
  "maxIPCount",
  "speedTime",
  "provider",
  "providerSurveyId",
  "isDeleted",
  "createdBy",
  "createdAt",
  "updatedAt",
  "statusChangedAt",
  // the supply API's measured LOI sums and change stamp (migration 0034)
  "countersAt",
  // and the holds' time weighting (0040)
  ...TIME_SUMS,
  ...COUNTER_NAMES,
] as const;

/** A function takes at most 127 arguments in SQLite: the row's JSON is built in parts of 50 columns. */
const JSON_PARTS = Array.from(
  { length: Math.ceil(PROJECT_JSON_COLUMNS.length / 50) },
  (_, i) => PROJECT_JSON_COLUMNS.slice(i * 50, i * 50 + 50),
);
const JSON_PART = "__json";

/**
 * The projects grids' query (projectsQuery's rows and filters): a driver row of 70 columns costs
 * more to hand over than SQLite takes to find it, so each row's columns come as JSON text (a few
 * parts), `cpi` beside them; mapProject reads either shape.
 */
export function projectsListQuery(db: Db, projectType: ProjectType): AnyQB {
  return db.selectFrom("projects")
    .leftJoin("clients", "clients.id", "projects.clientId")
    .leftJoin("users", "users.id", "projects.userId")
    .select([
      ...JSON_PARTS.map((cols, i) =>
        sql<string>`json_object(${sql.raw(cols.map((c) => `'${c}', projects."${c}"`).join(", "))}${
          i === 0
            ? sql.raw(
              `, 'clientName', clients.clientName, 'managerName', users.firstName || ' ' || users.lastName`,
            )
            : sql``
        })`.as(`${JSON_PART}${i}`)
      ),
      "projects.cpi as cpi",
    ])
    .where("projects.projectType", "=", projectType)
    .where("projects.isDeleted", "=", 0) as AnyQB;
}

/**
 * GET /admin/projects/all: the pickers' projects (newest first, at most 500), of one kind or both,
 * whose code or name contains the search term.
 */
export async function projectOptions(db: Db, query: ProjectOptionsQuery) {
  let q = db.selectFrom("projects").select([
    "id",
    "projectCode",
    "projectName",
    "projectType",
    "parentProjectId",
    "projectStatus",
  ])
    .where("isDeleted", "=", 0);
  if (query.type !== undefined) q = q.where("projectType", "=", query.type);
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    q = q.where((eb) =>
      eb.or([
        eb("projectCode", "like", sql<string>`${pattern} escape '\\'`),
        eb("projectName", "like", sql<string>`${pattern} escape '\\'`),
      ])
    );
  }
  const rows = await q.orderBy("createdAt", "desc").limit(500).execute();
  return rows.map((r) => ({ ...r, _id: r.id, label: `${r.projectCode} - ${r.projectName}`, value: r.id }));
}

/** GET /admin/project/child/all/:parentProjectId: a group's live children, by code. */
export async function childOptions(db: Db, parentProjectId: string) {
  const rows = await db.selectFrom("projects").select(["id", "projectCode", "projectName", "projectStatus"])
    .where("parentProjectId", "=", parentProjectId).where("isDeleted", "=", 0).orderBy("projectCode")
    .execute();
  return rows.map((r) => ({ ...r, _id: r.id, label: r.projectCode, value: r.id }));
}

/** Date windows of the "sort by" filter: Today=1, Last 7 Days=2, This Month=3 (on creation date). */
export function sinceFor(sortDate: number, now: Date): string | null {
  const d = new Date(now);
  if (sortDate === 1) d.setUTCHours(0, 0, 0, 0);
  else if (sortDate === 2) d.setUTCDate(d.getUTCDate() - 7);
  else if (sortDate === 3) d.setUTCDate(1), d.setUTCHours(0, 0, 0, 0);
  else return null;
  return d.toISOString();
}

/** The list filters; `sortDate` windows end at the request's clock (`Deps.now`). */
const commonFiltersAt = (now: Clock) =>
  ({
    clientId: (qb, val) => qb.where("projects.clientId", "in", inList(val)),
    userId: (qb, val) => qb.where("projects.userId", "in", inList(val)),
    projectStatus: inNumberFilter("projects.projectStatus"),
    countryId: (qb, val) => qb.where("projects.countryId", "in", inList(val)),
    parentProjectId: (qb, val) => qb.where("projects.parentProjectId", "=", String(val)),
    sortDate: (qb, val) => {
      const since = sinceFor(Number(val), dateAt(now));
      return since ? qb.where("projects.createdAt", ">=", since) : qb;
    },
    minDate: (qb, val) => qb.where("projects.createdAt", ">=", String(val)),
    maxDate: (qb, val) => qb.where("projects.createdAt", "<", `${String(val).slice(0, 10)}T23:59:59.999Z`),
  }) satisfies Record<string, FilterFn>;

/** The parent list spec, built per request with the request's clock. */
export const parentListSpecAt = (now: Clock): ListSpec =>
  listSpecOf(projectsList, {
    searchWhere: (qb, pattern) =>
      qb.where((eb) =>
        eb.or([
          eb("projects.projectCode", "like", sql<string>`${pattern} escape '\\'`),
          eb("projects.projectName", "like", sql<string>`${pattern} escape '\\'`),
          eb("clients.clientName", "like", sql<string>`${pattern} escape '\\'`),
          eb.exists(
            eb.selectFrom("projects as c").select("c.id").whereRef("c.parentProjectId", "=", "projects.id")
              .where("c.isDeleted", "=", 0)
              .where((e2) =>
                e2.or([
                  e2("c.projectCode", "like", sql<string>`${pattern} escape '\\'`),
                  e2("c.projectName", "like", sql<string>`${pattern} escape '\\'`),
                ])
              ),
          ),
        ])
      ),
    multiSearch: ["projects.projectCode"],
    filters: commonFiltersAt(now),
    status: inNumberFilter("projects.projectStatus"),
    sorts: {
      projectCode: "projects.projectCode",
      projectName: "projects.projectName",
      createdAt: "projects.createdAt",
    },
    defaultSort: [["projects.createdAt", "desc"], ["projects.id", "desc"]],
    rowid: "projects.rowid",
  });

/** The child list spec, built per request with the request's clock. */
export const childListSpecAt = (now: Clock): ListSpec =>
  listSpecOf(childProjectsList, {
    search: ["projects.projectCode", "projects.projectName"],
    multiSearch: ["projects.projectCode"],
    filters: commonFiltersAt(now),
    status: inNumberFilter("projects.projectStatus"),
    sorts: { projectCode: "projects.projectCode", createdAt: "projects.createdAt" },
    defaultSort: [["projects.projectCode", "asc"]],
    rowid: "projects.rowid",
  });

/** A projects grid's row (projectsListQuery's JSON parts, or projectsQuery's columns) as the API's. */
export const mapProject = (row: never): ProjectRow => {
  const r = row as Record<string, unknown>;
  if (typeof r[`${JSON_PART}0`] !== "string") return projectRecord(row);
  let full: Record<string, unknown> = {};
  for (let i = 0; i < JSON_PARTS.length; i++) {
    full = { ...full, ...JSON.parse(r[`${JSON_PART}${i}`] as string) };
  }
  return projectRecord({ ...full, cpi: r.cpi } as never);
};

/** A parent's figures are the sums of its children's counters, sample sizes and revenue. */
export function parentFigures(db: Db) {
  return async (rows: ProjectRow[]): Promise<ProjectRow[]> => {
    if (!rows.length) return rows;
    const ids = rows.map((r) => r._id);
    const sums = await db.selectFrom("projects")
      .select([
        "parentProjectId",
        sql<number>`count(*)`.as("childCount"),
        sql<number>`sum(sampleSize)`.as("sampleSize"),
        sql<number>`sum(complete * cpi)`.as("eRevenue"),
        sql<number>`max(cpi)`.as("cpi"),
        ...COUNTER_NAMES.map((k) => sql<number>`sum(${sql.ref(k)})`.as(k)),
      ])
      .where("parentProjectId", "in", ids).where("isDeleted", "=", 0)
      .groupBy("parentProjectId").execute();
    const byParent = new Map(sums.map((s) => [s.parentProjectId, s]));
    return rows.map((r) => {
      const s = byParent.get(r._id) as Record<string, number> | undefined;
      const figures = Object.fromEntries(COUNTER_NAMES.map((k) => [k, Number(s?.[k] ?? 0)]));
      return {
        ...r,
        ...figures,
        childCount: Number(s?.childCount ?? 0),
        sampleSize: Number(s?.sampleSize ?? 0),
        cpi: Number(s?.cpi ?? r.cpi),
        totalDisqualified: Number(s?.security ?? 0),
        eRevenue: Math.round(Number(s?.eRevenue ?? 0) * 100) / 100,
      } as ProjectRow;
    });
  };
}
