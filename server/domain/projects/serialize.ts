/** Project rows to API records (spec part 1 section 3 field names). */
import type { Selectable } from "kysely";
import type { ProjectsTable, SupplierMapsTable } from "../../db/tables/projects.ts";
import { toApi } from "../../db/rows.ts";
import { projectStatusLabel } from "../../../shared/status.ts";
import { countryFields } from "../common/records.ts";
import type { ProjectRow } from "../../../shared/api/projects.ts";
import {
  RETURN_URL_FIELDS,
  type ReturnUrlField,
  returnUrlOf,
  type SupplierMapRecord,
} from "../../../shared/api/supplier-maps.ts";

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

/** A supplier's own return links beside its map's row (null: the supplier row is gone). */
type SupplierReturns = {
  supplierComplete: string | null;
  supplierTerminate: string | null;
  supplierQuotaFull: string | null;
  supplierQualityTerm: string | null;
  supplierSurveyClose: string | null;
};
const SUPPLIER_RETURN_OF: Record<ReturnUrlField, keyof SupplierReturns> = {
  redirectComplete: "supplierComplete",
  redirectTerminate: "supplierTerminate",
  redirectQuotaFull: "supplierQuotaFull",
  redirectQualityTerm: "supplierQualityTerm",
  redirectSurveyClose: "supplierSurveyClose",
};

export function supplierMapRecord(
  row: Selectable<SupplierMapsTable> & { supplierName?: string | null } & SupplierReturns,
  entryBase: string,
): SupplierMapRecord {
  const {
    supplierComplete: _c,
    supplierTerminate: _t,
    supplierQuotaFull: _q,
    supplierQualityTerm: _f,
    supplierSurveyClose: _s,
    ...map
  } = row;
  return {
    ...toApi(map),
    supplierMapId: row.id,
    supplierName: row.supplierName ?? "",
    redirectUrl: `${entryBase}/survey/start/${row.id}?sid=[sid]`,
    testUrl: `${entryBase}/survey/test/${row.id}?sid=[sid]`,
    totalResponded: row.clicked,
    returnUrlsMissing: RETURN_URL_FIELDS.filter((f) =>
      !returnUrlOf(row[f.name], row[SUPPLIER_RETURN_OF[f.name]])
    )
      .map((f) => f.label),
  };
}
