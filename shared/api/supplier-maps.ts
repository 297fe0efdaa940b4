/** Supplier maps (part 1, 7 "Suppliers and supplier maps"): a supplier on a child project. */
import * as v from "valibot";
import { defineCall, returns } from "./contract.ts";
import { searchTerm } from "../list.ts";
import { recordId } from "../schemas/common.ts";
import { SupplierMapForm, SupplierMapToggle } from "../schemas/project.ts";
import type { ProjectCounters } from "./projects.ts";

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
};

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

export const supplierMapDefaultsCall = defineCall({
  method: "GET",
  path: "/admin/supplierMap",
  result: returns<SupplierMapDefaults>(),
});
export const supplierStatsCall = defineCall({
  method: "POST",
  path: "/admin/project/supplier/stat/:projectId",
  ids: { projectId: "Project" },
  result: returns<SupplierStat[]>(),
});
