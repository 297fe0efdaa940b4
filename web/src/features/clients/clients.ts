/** Clients area (part 1, 2.7): the list declaration and the record shapes the API answers with. */
import type { ListDecl } from "../../components/data-grid/types.ts";
import { COUNTRIES } from "../common/lookups.ts";

export type ClientRow = {
  _id: string;
  clientName: string;
  clientCode: string;
  clientContactName: string;
  clientEmail: string;
  countryId: string;
  countryName: string;
  countryCode: string;
  flag: string;
  city: string;
  isApiIntegration: boolean;
  assignedToName: string;
  isActive: boolean;
  totalProjects: number;
  activeProjects: number;
  responded: number;
  completed: number;
  approved: number;
  actualRevenue: number;
  expectedRevenue: number;
};

export type ClientRecord = ClientRow & {
  clientPhoneNumber: string;
  clientWebsite: string;
  state: string;
  company: string;
  address1: string;
  address2: string;
  zipCode: string;
  netDays: number;
  wolfAccount: string;
  apiUrl: string;
  apiKey: string;
  apiHeader: string;
  apiFunctionHeader: string;
  apiBody: string;
  apiResponseVar: string;
  apiFunction: string;
  apiParams: string;
  variableMapping: string;
  identifierMapping: string;
  supplierId: string[];
  clientApiKey: string;
  isScreenUrlIntegration: boolean;
  assignedTo: string | null;
};

export const clientsList: ListDecl<ClientRow> = {
  id: "clients",
  path: "/admin/clients",
  rowId: (c) => c._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search clients", hint: "Searches name, code, email and city" },
    { kind: "select", key: "countries", label: "Countries", multiple: true, source: COUNTRIES },
    { kind: "status" },
    { kind: "export" },
  ],
  exportName: "clients",
};
