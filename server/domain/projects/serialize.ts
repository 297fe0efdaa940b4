/** Project rows to API records (spec part 1 section 3 field names). */
import type { Selectable } from "kysely";
import type { ProjectsTable, SupplierMapsTable } from "../../db/tables/projects.ts";
import { toApi } from "../../db/rows.ts";
import { projectStatusLabel } from "../../../shared/status.ts";
import { countryFields } from "../common/records.ts";
import type { ProjectRow } from "../../../shared/api/projects.ts";
import type { SupplierMapRecord } from "../../../shared/api/supplier-maps.ts";

const parseList = (s: string | null | undefined): string[] => {
  try {
    const v = JSON.parse(s ?? "[]");
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/** A project row of the grids (shared/api/projects.ts). */
export type ProjectRecord = ProjectRow;

export function projectRecord(
  row: Selectable<ProjectsTable> & { clientName?: string | null; managerName?: string | null },
): ProjectRow {
  const { regionIds, cityIds, zipCodes, clientName, managerName, ...rest } = row;
  const base = toApi(rest);
  // a child's country by name and code, from the lookup (a group project has none)
  const country = row.countryId ? countryFields(row.countryId) : { countryName: "", countryCode: "" };
  return {
    ...base,
    countryName: country.countryName,
    countryCode: country.countryCode,
    code: row.projectCode,
    label: `${row.projectCode} - ${row.projectName}`,
    value: row.id,
    projectStatusLabel: projectStatusLabel(row.projectStatus),
    projectLOI: row.averageLOI,
    projectIR: row.ir,
    projectManger: row.userId,
    regionId: parseList(regionIds),
    cityId: parseList(cityIds),
    zipCodeId: parseList(zipCodes),
    clienName: clientName ?? "",
    clientName: clientName ?? "",
    managerName: managerName ?? "",
    totalDisqualified: row.security,
    eRevenue: Math.round(row.complete * row.cpi * 100) / 100,
  };
}

export function supplierMapRecord(
  row: Selectable<SupplierMapsTable> & { supplierName?: string | null },
  entryBase: string,
): SupplierMapRecord {
  const base = toApi(row);
  return {
    ...base,
    supplierMapId: row.id,
    supplierName: row.supplierName ?? "",
    redirectUrl: `${entryBase}/survey/start/${row.id}?sid=[sid]`,
    testUrl: `${entryBase}/survey/test/${row.id}?sid=[sid]`,
    totalResponded: row.clicked,
  };
}
