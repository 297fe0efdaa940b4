/** Clients (part 1: 2.7, section 7 "Clients"): the calls, the records they answer with, the list. */
import * as v from "valibot";
import { defineCall, type Deleted, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import { ClientFilterBody, ClientForm, ClientUpdate } from "../schemas/client.ts";
import { moneyCell as money } from "../format.ts";

/** The client list figures, from the router's counters (part 1, 2.7). */
export type ClientFigures = {
  totalProjects: number;
  activeProjects: number;
  responded: number;
  completed: number;
  approved: number;
  actualRevenue: number;
  expectedRevenue: number;
};

export type CountryFields = { countryName: string; countryCode: string; flag: string };

/** A row of the clients grid: no API secrets, no long mapping blocks. */
export type ClientListItem =
  & {
    _id: string;
    clientName: string;
    clientCode: string;
    clientContactName: string;
    clientEmail: string;
    clientPhoneNumber: string;
    countryId: string;
    city: string;
    company: string;
    netDays: number;
    isApiIntegration: boolean;
    assignedTo: string | null;
    assignedToName: string;
    isActive: boolean;
    createdAt: string;
  }
  & CountryFields
  & ClientFigures;

/** A whole client, as the edit form reads it. */
export type ClientRecord = ClientListItem & {
  clientWebsite: string;
  /** The client's tax id, printed on its invoices. */
  taxId: string;
  state: string;
  address1: string;
  address2: string;
  zipCode: string;
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
  isDeleted: boolean;
  updatedAt: string;
};

/** A client in a select. */
export type ClientOption = {
  _id: string;
  label: string;
  value: string;
  clientName: string;
  clientEmail: string;
  clientCode: string;
  isApiIntegration: boolean;
};

/** A client with what an invoice needs (part 2, "Client (for invoicing)"). */
export type ClientInvoiceOption = {
  _id: string;
  label: string;
  value: string;
  clientName: string;
  clientEmail: string;
  clientPhoneNumber: string;
  company: string;
  taxId: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipCode: string;
  netDays: number;
  wolfAccount: string;
  countryId: { _id: string; name: string; code: string; flag: string };
};

/** `?search=` of the client pickers. */
export const PickerQuery = v.object({ search: v.optional(v.string()) });

export const listClients = defineCall({
  method: "POST",
  path: "/admin/clients",
  body: ListBody,
  csv: true,
  result: returns<ListResult<ClientListItem>>(),
});
export const clientOptionsCall = defineCall({
  method: "GET",
  path: "/admin/clients/all",
  query: PickerQuery,
  result: returns<ClientOption[]>(),
});
export const clientInvoiceOptionsCall = defineCall({
  method: "GET",
  path: "/admin/clients/invoice/all",
  query: PickerQuery,
  result: returns<ClientInvoiceOption[]>(),
});
export const filterClients = defineCall({
  method: "POST",
  path: "/admin/clients/filter/all",
  body: ClientFilterBody,
  result: returns<ClientOption[]>(),
});
export const addClient = defineCall({
  method: "POST",
  path: "/admin/client/add",
  body: ClientForm,
  result: returns<ClientRecord>(),
  // the router calls it for every respondent of an API-integrated client
  outboundUrls: ["apiUrl"],
});
export const updateClientCall = defineCall({
  method: "PUT",
  path: "/admin/client/update/:id",
  ids: { id: "Client" },
  body: ClientUpdate,
  result: returns<ClientRecord | Deleted>(),
  outboundUrls: ["apiUrl"],
});
/** A client's API keys, whole (the record shows them masked: last 4 characters). */
export type ClientKeys = { apiKey: string; clientApiKey: string };
/** The secret fields of a client record, masked in every answer but `revealClientKeysCall`'s. */
export const CLIENT_SECRET_FIELDS = ["apiKey", "clientApiKey"] as const;
/** Reveals a client's keys to their owners (SUPERADMIN, ADMIN); written to the system log. */
export const revealClientKeysCall = defineCall({
  method: "POST",
  path: "/admin/client/:id/keys",
  ids: { id: "Client" },
  result: returns<ClientKeys>(),
});
export const getClientCall = defineCall({
  method: "GET",
  path: "/admin/client/:id",
  ids: { id: "Client" },
  result: returns<ClientRecord>(),
});

/** The clients grid (2.7). */
export const clientsList = defineList<ClientListItem>()({
  id: "clients",
  call: listClients,
  filters: {
    countries: "texts",
    countryId: "texts",
    isApiIntegration: "flag",
    assignedTo: "text",
    isActive: "flag",
  },
  sorts: ["clientName", "clientCode", "countryId", "createdAt"],
  columns: [
    { key: "clientName", header: "Client name", value: (r) => r.clientName },
    { key: "clientCode", header: "Client code", value: (r) => r.clientCode },
    { key: "region", header: "Region", value: (r) => r.countryName },
    { key: "countryCode", header: "Country code", value: (r) => r.countryCode },
    { key: "totalProjects", header: "Total projects", value: (r) => r.totalProjects },
    { key: "activeProjects", header: "Active projects", value: (r) => r.activeProjects },
    { key: "responded", header: "Traffic", value: (r) => r.responded },
    { key: "completed", header: "Complete", value: (r) => r.completed },
    { key: "approved", header: "Approved", value: (r) => r.approved },
    { key: "actualRevenue", header: "Actual revenue ($)", value: (r) => money(r.actualRevenue) },
    { key: "expectedRevenue", header: "Expected revenue ($)", value: (r) => money(r.expectedRevenue) },
    { key: "clientEmail", header: "Email", value: (r) => r.clientEmail },
    { key: "assignedToName", header: "Assigned to", value: (r) => r.assignedToName },
    { key: "isActive", header: "Status", value: (r) => (r.isActive ? "Active" : "Inactive") },
  ],
});
