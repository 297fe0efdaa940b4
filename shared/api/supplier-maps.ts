/** Supplier maps (part 1, 7 "Suppliers and supplier maps"): a supplier on a child project. */
import * as v from "valibot";
import { defineCall, returns } from "./contract.ts";
import { searchTerm } from "../list.ts";
import { recordId } from "../schemas/common.ts";
import { SupplierMapForm, SupplierMapToggle } from "../schemas/project.ts";
import type { ProjectCounters } from "./projects.ts";
import { MSG } from "../messages.ts";

/** A supplier map, with the supplier's entry links. */
export type SupplierMapRecord = ProjectCounters & {
  _id: string;
  supplierMapId: string;
  projectId: string;
  supplierId: string;
  supplierName: string;
  supplierCPI: number;
  supplierQuota: number;
  supplierClickQuota: number;
  isPreScreen: boolean;
  isTestLink: boolean;
  allowTraffic: boolean;
  isBoarded: boolean;
  redirectComplete: string;
  redirectTerminate: string;
  redirectQuotaFull: string;
  redirectQualityTerm: string;
  redirectSurveyClose: string;
  questionnaire: string;
  adminApproved: number | null;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
  /** The supplier's live entry link (`/survey/start/{mapId}?sid=[sid]`). */
  redirectUrl: string;
  testUrl: string;
  totalResponded: number;
  /**
   * The statuses (labels of RETURN_URL_FIELDS) for which neither the map nor its supplier has a
   * return link: respondents with that outcome end on Samplex's own page, not back at their panel.
   */
  returnUrlsMissing: string[];
};

/**
 * The five return links of a map (and of a supplier's record), in the form's order. Where a map
 * leaves one empty, the router sends the respondent to the supplier's link for that status.
 */
export const RETURN_URL_FIELDS = [
  { name: "redirectComplete", label: "Complete" },
  { name: "redirectTerminate", label: "Terminate" },
  { name: "redirectQuotaFull", label: "Over Quota" },
  { name: "redirectQualityTerm", label: "Quality Term" },
  { name: "redirectSurveyClose", label: "Survey Close" },
] as const;
export type ReturnUrlField = (typeof RETURN_URL_FIELDS)[number]["name"];

/** Where a respondent goes back to for one status: the map's link, else the supplier's own ("": neither). */
export const returnUrlOf = (map: string, supplier: string | null | undefined) =>
  map.trim() || (supplier ?? "").trim();

/** The Add Supplier form's defaults ("reset"). */
export type SupplierMapDefaults = {
  supplierId: string;
  supplierCPI: number;
  supplierQuota: number;
  supplierClickQuota: number;
  allowTraffic: boolean;
  isBoarded: boolean;
  isTestLink: boolean;
  isPreScreen: boolean;
  redirectComplete: string;
  redirectTerminate: string;
  redirectQuotaFull: string;
  redirectQualityTerm: string;
  redirectSurveyClose: string;
};

/** A supplier's figures on a project (child or parent): the Supplier Stats dialog. */
export type SupplierStat = {
  supplierId: string;
  supplierName: string;
  complete: number;
  terminate: number;
  overQuota: number;
  qualityTerm: number;
  drop: number;
  clicked: number;
  security: number;
};

export const listSupplierMapsCall = defineCall({
  method: "POST",
  path: "/admin/supplierMaps",
  body: v.object({
    projectId: recordId("Project is required", "Project"),
    search: searchTerm,
  }),
  result: returns<SupplierMapRecord[]>(),
});
/** Maps a supplier to a child project, or updates its map when already mapped. */
export const saveSupplierMapCall = defineCall({
  method: "POST",
  path: "/admin/supplierMap/add",
  body: SupplierMapForm,
  result: returns<SupplierMapRecord>(),
});
/** One toggle, or `{ isDeleted: true }` (answers null) to take the supplier off the project. */
export const updateSupplierMapCall = defineCall({
  method: "PUT",
  path: "/admin/supplierMap/update/:id",
  ids: { id: "Supplier map" },
  body: SupplierMapToggle,
  result: returns<SupplierMapRecord | null>(),
});
export const getSupplierMapCall = defineCall({
  method: "GET",
  path: "/admin/supplierMap/:id",
  ids: { id: "Supplier map" },
  result: returns<SupplierMapRecord>(),
});
/** The spec's defaults of a new supplier map: what the "reset" call answers and the form starts from. */
export const SUPPLIER_MAP_DEFAULTS: SupplierMapDefaults = {
  supplierId: "",
  supplierCPI: 0,
  supplierQuota: 0,
  supplierClickQuota: 0,
  allowTraffic: true,
  isBoarded: true,
  isTestLink: false,
  isPreScreen: false,
  redirectComplete: "",
  redirectTerminate: "",
  redirectQuotaFull: "",
  redirectQualityTerm: "",
  redirectSurveyClose: "",
};

/**
 * "reset": the empty form with the spec's defaults; with `?supplierId=`, a new map of that supplier,
 * whose return links start as the supplier's own (404 for an unknown or deleted supplier).
 */
export const supplierMapDefaultsCall = defineCall({
  method: "GET",
  path: "/admin/supplierMap",
  query: v.object({ supplierId: v.optional(recordId(MSG.supplierNotFound)) }),
  result: returns<SupplierMapDefaults>(),
});
export const supplierStatsCall = defineCall({
  method: "POST",
  path: "/admin/project/supplier/stat/:projectId",
  ids: { projectId: "Project" },
  result: returns<SupplierStat[]>(),
});
