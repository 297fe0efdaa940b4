/**
 * The fields each record kind's log names when an update changes them, by column, with the label
 * its form shows and how its value reads (server/domain/audit/changes.ts). A column not declared
 * here is not named (counters, timestamps, generated keys the form does not edit).
 */
import type { Kysely } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { FieldDecl, FieldDecls } from "./changes.ts";
import { countryByCode, regionById } from "../lookups/geo.ts";
import { languageByCode } from "../lookups/languages.ts";
import { PROJECT_STATUS_LIST, SUPPLIER_TYPE } from "../../../shared/status.ts";
import { SECURITY_LABELS } from "../../../shared/schemas/project.ts";
import { ROLE_LABELS } from "../../../shared/roles.ts";
import { CALLBACK_URL_LABELS } from "../../../shared/schemas/supplier.ts";

/** The name of a related record: `column` of `table` by id (the id itself when it is gone). */
function nameIn(table: string, column: string): FieldDecl["name"] {
  return async (db: Db, id: string) => {
    // deno-lint-ignore no-explicit-any
    const row = await (db as Kysely<any>).selectFrom(table).select(column).where("id", "=", id)
      .executeTakeFirst() as Record<string, string> | undefined;
    return row?.[column];
  };
}

const userName: FieldDecl["name"] = async (db, id) => {
  const u = await db.selectFrom("users").select(["firstName", "lastName"]).where("id", "=", id)
    .executeTakeFirst();
  return u ? `${u.firstName} ${u.lastName}`.trim() : undefined;
};
const clientName = nameIn("clients", "clientName");
const supplierName = nameIn("suppliers", "supplierName");
const country: FieldDecl = {
  label: "Country",
  name: (_db, code) => Promise.resolve(countryByCode(code)?.label),
};
const text = (label: string): FieldDecl => ({ label });
const long = (label: string): FieldDecl => ({ label, kind: "long" });
const bool = (label: string): FieldDecl => ({ label, kind: "bool" });
const num = (label: string, unit?: string): FieldDecl => ({ label, kind: "number", unit });
const secret = (label: string): FieldDecl => ({ label, kind: "secret" });

/** The five return links of a supplier and of a supplier map (their forms' labels). */
const REDIRECTS = {
  redirectComplete: text("Complete"),
  redirectTerminate: text("Terminate"),
  redirectQuotaFull: text("Over Quota"),
  redirectQualityTerm: text("Quality Term"),
  redirectSurveyClose: text("Survey Close"),
};

/** Postal address of clients and suppliers. */
const ADDRESS = {
  countryId: country,
  state: text("State"),
  city: text("City"),
  zipCode: text("Zip code"),
  address1: text("Address line 1"),
  address2: text("Address line 2"),
  netDays: num("Net days", "days"),
};

/** A project's columns, as PUT /admin/project/update writes them (the status has its own log line). */
export const PROJECT_FIELDS: FieldDecls = {
  projectName: text("Project name"),
  projectDescription: long("Description"),
  notes: long("Notes"),
  clientId: { label: "Client", name: clientName },
  userId: { label: "Project manager", name: userName },
  poNumber: text("PO Number"),
  clientEmail: text("Client email"),
  projectSpecs: long("Project specs"),
  projectQuestionaire: long("Questionnaire"),
  averageLOI: num("Average LOI", "min"),
  ir: num("IR", "%"),
  wid: text("WID"),
  categoryId: { label: "Category", name: nameIn("categories", "categoryTitle") },
  countryId: country,
  regionIds: { label: "Regions", kind: "list", name: (_db, id) => Promise.resolve(regionById(id)?.label) },
  cityIds: { label: "Cities", kind: "list", name: (_db, id) => Promise.resolve(id.split(":").pop()) },
  zipCodes: { label: "Zip codes", kind: "list" },
  languageId: { label: "Language", name: (_db, code) => Promise.resolve(languageByCode(code)?.label) },
  currencyId: text("Currency"),
  cpi: num("CPI"),
  sampleSize: num("Sample size"),
  sampleSizeInc: num("Sample size increment"),
  respondentClickQuota: num("Respondent click quota"),
  respondentTestClickQuota: num("Respondent test click quota"),
  startDate: { label: "Start date", kind: "date" },
  endDate: { label: "End date", kind: "date" },
  isMultiLinkUrl: bool("Multi-link"),
  singleLinkUrl: text("Live URL"),
  singleLinkUrlTest: text("Test URL"),
  ...Object.fromEntries(Object.entries(SECURITY_LABELS).map(([k, label]) => [k, bool(label)])),
  maxIPCount: num("Max IP count"),
  speedTime: num("Speed time", "s"),
};

/** The project status as a manager reads it ("Live", "Paused"). */
export const PROJECT_STATUS_FIELD: FieldDecl = {
  label: "Status",
  kind: "number",
  options: Object.fromEntries(PROJECT_STATUS_LIST.map((s) => [s.value, s.label])),
};

/** A supplier on a child project (the Add/Update Supplier form and the grid's switches). */
export const SUPPLIER_MAP_FIELDS: FieldDecls = {
  supplierCPI: num("CPI"),
  supplierQuota: num("Quota"),
  supplierClickQuota: num("Click quota"),
  isPreScreen: bool("Pre-screen"),
  isTestLink: bool("Test link"),
  allowTraffic: bool("Allow traffic"),
  isBoarded: bool("Boarded"),
  ...REDIRECTS,
};

export const CLIENT_FIELDS: FieldDecls = {
  clientName: text("Client name"),
  clientCode: text("Client code"),
  clientContactName: text("Contact name"),
  company: text("Company"),
  taxId: text("Tax ID"),
  clientEmail: text("Email"),
  clientPhoneNumber: text("Phone number"),
  clientWebsite: text("Website"),
  assignedTo: { label: "Assigned To", name: userName },
  isActive: bool("Active"),
  ...ADDRESS,
  wolfAccount: text("Invoicing account"),
  supplierIds: { label: "Suppliers", kind: "list", name: supplierName },
  variableMapping: long("Variable mapping"),
  identifierMapping: long("Identifier mapping"),
  isApiIntegration: bool("API integration"),
  isScreenUrlIntegration: bool("Screen URL integration"),
  apiUrl: text("API URL"),
  apiKey: secret("API key"),
  apiFunction: text("API function"),
  apiResponseVar: text("Response variable"),
  apiParams: text("Parameters"),
  apiHeader: long("Headers"),
  apiFunctionHeader: long("Function headers"),
  apiBody: long("Body"),
};

export const SUPPLIER_FIELDS: FieldDecls = {
  supplierType: {
    label: "Supplier type",
    kind: "number",
    options: { [SUPPLIER_TYPE.DIY]: "DIY", [SUPPLIER_TYPE.LOCAL]: "Local" },
  },
  supplierName: text("Supplier name"),
  supplierShortCode: text("Short code"),
  supplierEmail: text("Email"),
  supplierPhoneNumber: text("Phone number"),
  supplierWebsite: text("Website"),
  company: text("Company"),
  supplierPanelSize: num("Panel size"),
  isActive: bool("Active"),
  ...ADDRESS,
  supplierRuleCPI: text("Supplier rule CPI"),
  clientIds: { label: "Clients", kind: "list", name: clientName },
  ...REDIRECTS,
  supplierApprovedHook: text("Approved hook"),
  callbackTerminate: text(CALLBACK_URL_LABELS.callbackTerminate),
  callbackOverQuota: text(CALLBACK_URL_LABELS.callbackOverQuota),
  callbackQualityTerm: text(CALLBACK_URL_LABELS.callbackQualityTerm),
  callbackReconcile: text(CALLBACK_URL_LABELS.callbackReconcile),
  isEmailNotification: bool("E-mail notifications"),
  isPreScreen: bool("Pre-screen"),
  allowRouting: bool("Routing"),
  apiClientId: text("API client id"),
  hashKey: secret("Hash key"),
  apiUrl: text("API URL"),
  apiKey: secret("Secret key"),
  apiHeader: long("Headers"),
  apiBody: long("Body"),
  variableMapping: long("Variable mapping"),
  identifierMapping: long("Identifier mapping"),
};

export const USER_FIELDS: FieldDecls = {
  firstName: text("First name"),
  lastName: text("Last name"),
  email: text("Email"),
  phoneNumber: text("Phone number"),
  role: { label: "Role", options: ROLE_LABELS },
  supplierId: { label: "Supplier", name: supplierName },
  isActive: bool("Active"),
  password: secret("Password"),
};

/** An issuing company of Accounts (its form's labels); bank details and blocks of text as "changed". */
export const ISSUER_FIELDS: FieldDecls = {
  companyName: text("Company name"),
  address: long("Address"),
  email: text("Email"),
  phone: text("Phone"),
  taxNumber: text("Tax number"),
  taxLines: long("Tax lines"),
  serviceDescription: long("Service description"),
  bankUs: long("US bank details"),
  bankInternational: long("International bank details"),
};

/** A scheduled job of Support > Jobs. */
export const JOB_FIELDS: FieldDecls = {
  projectId: { label: "Project Code", name: nameIn("projects", "projectCode") },
  interval: num("Interval", "min"),
  comment: long("Comment"),
  isSoft: bool("Soft"),
  isActive: bool("Active"),
};

export const CATEGORY_FIELDS: FieldDecls = {
  categoryTitle: text("Title"),
  categoryDesc: long("Description"),
  isActive: bool("Active"),
};

export const SUPPLIER_RULE_FIELDS: FieldDecls = {
  minSupplierCpi: num("Minimum CPI"),
  maxSupplierCpi: num("Maximum CPI"),
  categoryTitle: text("Category"),
  isActive: bool("Active"),
};

export const QUALIFICATION_FIELDS: FieldDecls = {
  qualificationName: text("Name"),
  qualificationKey: text("Key"),
  qualificationIcon: text("Icon"),
  isActive: bool("Active"),
  options: { label: "Options", kind: "list" },
};

export const QUESTION_FIELDS: FieldDecls = {
  languageId: { label: "Language", name: (_db, code) => Promise.resolve(languageByCode(code)?.label) },
  questionTitle: text("Title"),
  translations: long("Translations"),
  questionType: text("Type"),
  questionOption: { label: "Options", kind: "list" },
  isActive: bool("Active"),
};
