/** The client form (part 1: 2.7, entity Client, rules in section 5). */
import * as v from "valibot";
import { MSG } from "../messages.ts";
import { searchTerm } from "../list.ts";
import {
  boolDefault,
  countryCode,
  idList,
  MAX_LEN,
  numberChoice,
  optionalBlock,
  optionalEmail,
  optionalPhone,
  optionalText,
  requiredText,
  withStatusPatch,
} from "./common.ts";

export const CLIENT_NET_DAYS = [30, 45, 60, 90] as const;

export const ClientForm = v.object({
  clientName: requiredText(MSG.clientNameRequired, 4, MAX_LEN.name),
  /** Left blank, the server gives the next code (CL0001, CL0002, ...). */
  clientCode: v.pipe(
    optionalText(32, "Client code"),
    v.check(
      (s) => s === "" || /^[A-Za-z0-9_-]+$/.test(s),
      MSG.clientCodeInvalid,
    ),
  ),
  clientContactName: optionalText(MAX_LEN.name, "Contact name"),
  clientPhoneNumber: optionalPhone,
  clientEmail: optionalEmail,
  clientWebsite: optionalText(MAX_LEN.url, "Website"),
  countryId: countryCode(MSG.countryRequired),
  city: optionalText(MAX_LEN.name, "City"),
  state: optionalText(MAX_LEN.name, "State"),
  company: optionalText(MAX_LEN.longName, "Company"),
  /** The client's tax id (VAT, GSTIN, EIN, ...), printed on its invoices. */
  taxId: optionalText(MAX_LEN.code, "Tax ID"),
  address1: optionalText(MAX_LEN.line, "Address 1"),
  address2: optionalText(MAX_LEN.line, "Address 2"),
  zipCode: optionalText(32, "Zip code"),
  netDays: numberChoice(CLIENT_NET_DAYS, MSG.clientNetDaysInvalid, 30),
  /** Account marker for invoicing: 'wcanada' invoices from the Canadian entity. */
  wolfAccount: optionalText(MAX_LEN.code, "Account"),
  // API integration
  isApiIntegration: boolDefault(false),
  isScreenUrlIntegration: boolDefault(false),
  apiUrl: optionalText(MAX_LEN.url, "API URL"),
  apiKey: optionalText(1024, "API key"),
  apiHeader: optionalBlock(MAX_LEN.block, "API header"),
  apiFunctionHeader: optionalBlock(MAX_LEN.block, "API function header"),
  /** A JSON template (the router fills variables in its texts; server/domain/router/client-api.ts). */
  apiBody: v.pipe(
    optionalBlock(MAX_LEN.block, "API body"),
    v.check((s) => s.trim() === "" || isJson(s), "API body must be JSON"),
  ),
  apiResponseVar: optionalText(1024, "API response variable"),
  apiFunction: optionalText(1024, "API function"),
  apiParams: optionalBlock(MAX_LEN.block, "API parameters"),
  variableMapping: optionalBlock(MAX_LEN.block, "Variable mapping"),
  identifierMapping: optionalBlock(MAX_LEN.block, "Identifier mapping"),
  supplierId: idList(MSG.supplierNotFound, "Supplier"),
  /** A user with role BDE. */
  assignedTo: v.pipe(
    v.optional(v.nullable(v.string()), null),
    v.transform((s) => (s ?? "").trim() || null),
    v.check((s) => s === null || /^[0-9a-f]{24}$/.test(s), MSG.assignedToInvalid),
  ),
  isActive: boolDefault(true),
});
export type ClientForm = v.InferOutput<typeof ClientForm>;

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Full form, or `{isActive}` alone (the switch), or `{isDeleted: true}` alone (soft delete). */
export const ClientUpdate = withStatusPatch(ClientForm);
export type ClientUpdate = v.InferOutput<typeof ClientUpdate>;

/** POST /admin/clients/filter/all: clients with (or without) API integration. */
export const ClientFilterBody = v.object({
  isApiIntegration: v.optional(v.nullable(v.boolean("isApiIntegration must be true or false"))),
  search: searchTerm,
});
