/** Suppliers area (part 1, 2.8): the list declaration and the record shapes the API answers with. */
import type { ListDecl } from "../../components/data-grid/types.ts";
import { COUNTRIES } from "../common/lookups.ts";

export type SupplierRow = {
  _id: string;
  supplierType: number;
  supplierTypeLabel: string;
  supplierName: string;
  supplierShortCode: string;
  supplierEmail: string;
  countryId: string;
  countryName: string;
  countryCode: string;
  flag: string;
  isActive: boolean;
  totalProjects: number;
  activeProjects: number;
  responded: number;
  completed: number;
  approved: number;
  actualExpense: number;
  expectedExpense: number;
};

export type SupplierRecord = SupplierRow & {
  supplierPhoneNumber: string;
  supplierWebsite: string;
  city: string;
  state: string;
  company: string;
  address1: string;
  address2: string;
  zipCode: string;
  netDays: number;
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
  isEmailNotification: boolean;
  isPreScreen: boolean;
  supplierApprovedHook: string;
};

export const suppliersList: ListDecl<SupplierRow> = {
  id: "suppliers",
  path: "/admin/suppliers",
  rowId: (s) => s._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search name, code or email" },
    { kind: "status" },
    { kind: "select", key: "countries", label: "Countries", multiple: true, source: COUNTRIES },
    { kind: "export" },
  ],
  exportName: "suppliers",
};
