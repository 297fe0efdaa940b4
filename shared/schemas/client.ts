/** The client form (part 1: 2.7, entity Client, rules in section 5). */
import * as v from "valibot";
import { MSG } from "../messages.ts";
import {
  boolDefault,
  countryCode,
  idList,
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
  clientName: requiredText(MSG.clientNameRequired, 4),
  /** Left blank, the server gives the next code (CL0001, CL0002, ...). */
  clientCode: v.pipe(
    optionalText(32),
    v.check(
      (s) => s === "" || /^[A-Za-z0-9_-]+$/.test(s),
      MSG.clientCodeInvalid,
    ),
  ),
  clientContactName: optionalText(),
  clientPhoneNumber: optionalPhone,
  clientEmail: optionalEmail,
  clientWebsite: optionalText(2048),
  countryId: countryCode(MSG.countryRequired),
  city: optionalText(),
  state: optionalText(),
  company: optionalText(),
  address1: optionalText(),
  address2: optionalText(),
  zipCode: optionalText(32),
  netDays: numberChoice(CLIENT_NET_DAYS, MSG.clientNetDaysInvalid, 30),
  /** Account marker for invoicing: 'wcanada' invoices from the Canadian entity. */
  wolfAccount: optionalText(64),
  // API integration
  isApiIntegration: boolDefault(false),
  isScreenUrlIntegration: boolDefault(false),
  apiUrl: optionalText(2048),
  apiKey: optionalText(1024),
  apiHeader: optionalBlock(),
  apiFunctionHeader: optionalBlock(),
  apiBody: optionalBlock(),
  apiResponseVar: optionalText(1024),
  apiFunction: optionalText(1024),
  apiParams: optionalBlock(),
  variableMapping: optionalBlock(),
  identifierMapping: optionalBlock(),
  supplierId: idList(MSG.supplierNotFound),
  /** A user with role BDE. */
  assignedTo: v.pipe(
    v.optional(v.nullable(v.string()), null),
    v.transform((s) => (s ?? "").trim() || null),
    v.check((s) => s === null || /^[0-9a-f]{24}$/.test(s), MSG.assignedToInvalid),
  ),
  isActive: boolDefault(true),
});
export type ClientForm = v.InferOutput<typeof ClientForm>;

/** Full form, or `{isActive}` alone (the switch), or `{isDeleted: true}` alone (soft delete). */
export const ClientUpdate = withStatusPatch(ClientForm);
export type ClientUpdate = v.InferOutput<typeof ClientUpdate>;

/** POST /admin/clients/filter/all: clients with (or without) API integration. */
export const ClientFilterBody = v.object({
  isApiIntegration: v.optional(v.nullable(v.boolean("isApiIntegration must be true or false"))),
  search: v.optional(v.string(), ""),
});
