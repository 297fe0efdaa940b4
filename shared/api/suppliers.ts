/** Suppliers (part 1: 2.8, section 7 "Suppliers"): the calls, the records they answer with, the list. */
import * as v from "valibot";
import { defineCall, type Deleted, returns } from "./contract.ts";
import type { CountryFields } from "./clients.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import {
  CALLBACK_URL_KEYS,
  MemberProfileErase,
  ProfileSettingsForm,
  SupplierForm,
  SupplierUpdate,
} from "../schemas/supplier.ts";
import { moneyCell as money } from "../format.ts";

/** The supplier list figures, from the supplier-map counters (part 1, 2.8). */
export type SupplierFigures = {
  totalProjects: number;
  activeProjects: number;
  responded: number;
  completed: number;
  approved: number;
  actualExpense: number;
  expectedExpense: number;
};

/** A row of the suppliers grid: no API secrets, no redirects. */
export type SupplierListItem =
  & {
    _id: string;
    /** 1 DIY, 2 Local. */
    supplierType: number;
    supplierTypeLabel: string;
    supplierName: string;
    supplierShortCode: string;
    supplierEmail: string;
    supplierPhoneNumber: string;
    countryId: string;
    company: string;
    netDays: number;
    isEmailNotification: boolean;
    isPreScreen: boolean;
    /** Routes its refused respondents to the next survey (it opted in). */
    allowRouting: boolean;
    isActive: boolean;
    createdAt: string;
  }
  & CountryFields
  & SupplierFigures;

/** A whole supplier, as the edit form reads it. */
export type SupplierRecord = SupplierListItem & {
  supplierWebsite: string;
  city: string;
  state: string;
  address1: string;
  address2: string;
  zipCode: string;
  apiClientId: string;
  hashKey: string;
  supplierPanelSize: number | null;
  supplierRuleCPI: string;
  supplierApiKey: string;
  apiBody: string;
  apiKey: string;
  apiUrl: string;
  apiHeader: string;
  variableMapping: string;
  identifierMapping: string;
  redirectComplete: string;
  redirectQuotaFull: string;
  redirectTerminate: string;
  redirectQualityTerm: string;
  redirectSurveyClose: string;
  clientId: string[];
  supplierApprovedHook: string;
  /** Why the server refused to call the approved hook ('' when it has not), and since when. */
  approvedHookRefusal: string;
  approvedHookRefusedAt: string | null;
  callbackTerminate: string;
  callbackOverQuota: string;
  callbackQualityTerm: string;
  callbackReconcile: string;
  isDeleted: boolean;
  updatedAt: string;
};

/** An active supplier in a select. */
export type SupplierOption = {
  _id: string;
  label: string;
  value: string;
  supplierName: string;
  supplierShortCode: string;
  supplierType: number;
};

/** `?search=` of the supplier picker (name or short code). */
export const SupplierPickerQuery = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(200, "search is too long"))),
});

export const listSuppliers = defineCall({
  method: "POST",
  path: "/admin/suppliers",
  body: ListBody,
  csv: true,
  result: returns<ListResult<SupplierListItem>>(),
});
export const supplierOptionsCall = defineCall({
  method: "GET",
  path: "/admin/suppliers/all",
  query: SupplierPickerQuery,
  result: returns<SupplierOption[]>(),
});
export const addSupplier = defineCall({
  method: "POST",
  path: "/admin/supplier/add",
  body: SupplierForm,
  outboundUrls: CALLBACK_URL_KEYS,
  result: returns<SupplierRecord>(),
});
export const updateSupplierCall = defineCall({
  method: "PUT",
  path: "/admin/supplier/update/:id",
  ids: { id: "Supplier" },
  body: SupplierUpdate,
  outboundUrls: CALLBACK_URL_KEYS,
  result: returns<SupplierRecord | Deleted>(),
});
/** A supplier's keys, whole (the record shows them masked: last 4 characters). */
export type SupplierKeys = { hashKey: string; apiKey: string; supplierApiKey: string };
/** The secret fields of a supplier record, masked in every answer but `revealSupplierKeysCall`'s. */
export const SUPPLIER_SECRET_FIELDS = ["hashKey", "apiKey", "supplierApiKey"] as const;
/** Reveals a supplier's keys to their owners (SUPERADMIN, ADMIN); written to the system log. */
export const revealSupplierKeysCall = defineCall({
  method: "POST",
  path: "/admin/supplier/:id/keys",
  ids: { id: "Supplier" },
  result: returns<SupplierKeys>(),
});
/** The spec reads one supplier with a POST (empty body). */
export const getSupplierCall = defineCall({
  method: "POST",
  path: "/admin/supplier/:id",
  ids: { id: "Supplier" },
  result: returns<SupplierRecord>(),
});

/** Respondent profiles: how long a member's known answers count before they are asked again. */
export type ProfileSettings = { expiryDays: number };
export const profileSettingsCall = defineCall({
  method: "GET",
  path: "/admin/supplier/profile/settings",
  result: returns<ProfileSettings>(),
});
/** Sets the profile answers' expiry; written to the system log. */
export const updateProfileSettingsCall = defineCall({
  method: "PUT",
  path: "/admin/supplier/profile/settings",
  body: ProfileSettingsForm,
  result: returns<ProfileSettings>(),
});
/**
 * Erases every known answer of one of a supplier's members (the `sid` it sends): the member is asked
 * again on the next entry. Written to the system log; `erased` answers were removed.
 */
export const eraseMemberProfileCall = defineCall({
  method: "POST",
  path: "/admin/supplier/:id/profile/erase",
  ids: { id: "Supplier" },
  body: MemberProfileErase,
  result: returns<{ erased: number }>(),
});

/** The suppliers grid (2.8). */
export const suppliersList = defineList<SupplierListItem>()({
  id: "suppliers",
  call: listSuppliers,
  filters: {
    countries: "texts",
    countryId: "texts",
    supplierType: "texts",
    isActive: "flag",
  },
  sorts: ["supplierName", "supplierShortCode", "countryId", "createdAt"],
  columns: [
    { key: "supplierName", header: "Supplier name", value: (r) => r.supplierName },
    { key: "supplierShortCode", header: "Short code", value: (r) => r.supplierShortCode },
    { key: "supplierTypeLabel", header: "Type", value: (r) => r.supplierTypeLabel },
    { key: "countryName", header: "Country", value: (r) => r.countryName },
    { key: "countryCode", header: "Country code", value: (r) => r.countryCode },
    { key: "totalProjects", header: "Total projects", value: (r) => r.totalProjects },
    { key: "activeProjects", header: "Active projects", value: (r) => r.activeProjects },
    { key: "responded", header: "Traffic", value: (r) => r.responded },
    { key: "completed", header: "Completed", value: (r) => r.completed },
    { key: "approved", header: "Approved", value: (r) => r.approved },
    { key: "actualExpense", header: "Actual expense ($)", value: (r) => money(r.actualExpense) },
    { key: "expectedExpense", header: "Expected expense ($)", value: (r) => money(r.expectedExpense) },
    { key: "supplierEmail", header: "Email", value: (r) => r.supplierEmail },
    { key: "isActive", header: "Status", value: (r) => (r.isActive ? "Active" : "Inactive") },
  ],
});
