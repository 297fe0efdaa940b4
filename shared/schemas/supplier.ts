/** The supplier form (part 1: 2.8, entity Supplier, rules in section 5). */
import * as v from "valibot";
import { MSG } from "../messages.ts";
import { SUPPLIER_TYPE } from "../status.ts";
import {
  boolDefault,
  countryCode,
  idList,
  MAX_COUNT,
  MAX_LEN,
  numberChoice,
  numberish,
  optionalBlock,
  optionalPhone,
  optionalText,
  optionalUrl,
  requiredEmail,
  requiredText,
  SID_PLACEHOLDERS,
  withStatusPatch,
} from "./common.ts";

export const SUPPLIER_TYPES = [
  { value: SUPPLIER_TYPE.DIY, label: "DIY" },
  { value: SUPPLIER_TYPE.LOCAL, label: "Local" },
] as const;
export const SUPPLIER_NET_DAYS = [30, 45, 60] as const;

/** 'a|b|c': numbers separated by |, e.g. 2.5|3.4|4|6. */
export const SUPPLIER_RULE_CPI = /^\s*\d+(\.\d+)?(\s*\|\s*\d+(\.\d+)?)*\s*$/;

/** A redirect back to the supplier: blank, or a URL carrying its respondent id placeholder ([sid]). */
export const supplierRedirect = optionalUrl(SID_PLACEHOLDERS);

/** A callback URL: blank (none), else http(s), at most MAX_LEN.url characters. */
const callbackUrl = (label: string) => optionalUrl(undefined, `${label} must be an http(s) URL`, label);

/**
 * The callback URL per event besides the complete's (`supplierApprovedHook`, the complete and
 * approval callback): signed callbacks, shared/callbacks.ts.
 */
export const CALLBACK_URL_LABELS = {
  supplierApprovedHook: "Complete callback URL",
  callbackTerminate: "Terminate callback URL",
  callbackOverQuota: "Over quota callback URL",
  callbackQualityTerm: "Quality term callback URL",
  callbackReconcile: "Reconcile callback URL",
} as const;
/** The fields of {@link CallbackUrlsForm}, each checked against the outbound policy when saved. */
export const CALLBACK_URL_KEYS = Object.keys(CALLBACK_URL_LABELS) as (keyof typeof CALLBACK_URL_LABELS)[];

export const CALLBACK_URL_FIELDS = {
  callbackTerminate: callbackUrl(CALLBACK_URL_LABELS.callbackTerminate),
  callbackOverQuota: callbackUrl(CALLBACK_URL_LABELS.callbackOverQuota),
  callbackQualityTerm: callbackUrl(CALLBACK_URL_LABELS.callbackQualityTerm),
  callbackReconcile: callbackUrl(CALLBACK_URL_LABELS.callbackReconcile),
};

/** A supplier's callback URLs as its portal edits them: the complete's and one per other event. */
export const CallbackUrlsForm = v.object({
  supplierApprovedHook: callbackUrl(CALLBACK_URL_LABELS.supplierApprovedHook),
  ...CALLBACK_URL_FIELDS,
});
export type CallbackUrlsForm = v.InferOutput<typeof CallbackUrlsForm>;

export const SupplierForm = v.object({
  supplierType: numberChoice([SUPPLIER_TYPE.DIY, SUPPLIER_TYPE.LOCAL] as const, MSG.supplierTypeRequired),
  supplierName: requiredText(MSG.supplierNameRequired, 4, MAX_LEN.name),
  supplierShortCode: v.pipe(
    requiredText(MSG.shortcodeRequired, 1, 16),
    v.regex(/^[A-Za-z0-9_-]+$/, MSG.shortcodeInvalid),
  ),
  supplierPhoneNumber: optionalPhone,
  supplierEmail: requiredEmail(MSG.supplierEmailRequired),
  supplierWebsite: optionalText(MAX_LEN.url, "Website"),
  countryId: countryCode(MSG.supplierCountryRequired),
  city: optionalText(MAX_LEN.name, "City"),
  state: optionalText(MAX_LEN.name, "State"),
  company: optionalText(MAX_LEN.longName, "Company"),
  address1: optionalText(MAX_LEN.line, "Address 1"),
  address2: optionalText(MAX_LEN.line, "Address 2"),
  zipCode: optionalText(32, "Zip code"),
  netDays: numberChoice(SUPPLIER_NET_DAYS, MSG.supplierNetDaysInvalid, 30),
  apiClientId: optionalText(MAX_LEN.line, "API client id"),
  hashKey: optionalText(512, "Hash key"),
  supplierPanelSize: v.pipe(
    v.optional(v.nullable(v.union([v.number(), v.string()], MSG.panelSizeInvalid)), null),
    v.transform((x) => (x === null || (typeof x === "string" && x.trim() === "") ? null : Number(x))),
    v.check((n) => n === null || (Number.isInteger(n) && n >= 0 && n <= MAX_COUNT), MSG.panelSizeInvalid),
  ),
  supplierRuleCPI: v.pipe(
    requiredText(MSG.supplierRuleRequired, 1, 255),
    v.regex(SUPPLIER_RULE_CPI, MSG.supplierRuleInvalid),
    v.transform((s) => s.split("|").map((x) => x.trim()).join("|")),
  ),
  apiBody: optionalBlock(MAX_LEN.block, "API body"),
  /** Labelled 'Secret key' on the form. */
  apiKey: optionalText(1024, "Secret key"),
  apiUrl: optionalText(MAX_LEN.url, "API URL"),
  apiHeader: optionalBlock(MAX_LEN.block, "API header"),
  variableMapping: optionalBlock(MAX_LEN.block, "Variable mapping"),
  identifierMapping: optionalBlock(MAX_LEN.block, "Identifier mapping"),
  redirectComplete: supplierRedirect,
  redirectQuotaFull: supplierRedirect,
  redirectTerminate: supplierRedirect,
  redirectQualityTerm: supplierRedirect,
  redirectSurveyClose: supplierRedirect,
  clientId: idList(MSG.clientNotFound, "Client"),
  isEmailNotification: boolDefault(true),
  isPreScreen: boolDefault(false),
  /** The supplier opts in to routing its refused respondents to the next survey (off by default). */
  allowRouting: boolDefault(false),
  supplierApprovedHook: optionalUrl(),
  ...CALLBACK_URL_FIELDS,
  isActive: boolDefault(true),
});
export type SupplierForm = v.InferOutput<typeof SupplierForm>;

export const SupplierUpdate = withStatusPatch(SupplierForm);
export type SupplierUpdate = v.InferOutput<typeof SupplierUpdate>;

/** The parsed supplierRuleCPI: the CPI steps a supplier accepts. */
export function parseSupplierRuleCpi(rule: string): number[] {
  return rule.split("|").map((x) => Number(x.trim())).filter((n) => Number.isFinite(n));
}

// ---------------------------------------------------------------- respondent profiles (issue 24)

/** Erasing a member's profile: the member id is the `sid` the supplier sends (1-128 characters). */
export const MemberProfileErase = v.object({
  memberId: requiredText("Member id is required", 1, 128),
});
export type MemberProfileErase = v.InferOutput<typeof MemberProfileErase>;

/** "Profile answers expire after N days" (1 to 3650; default 90). */
export const ProfileSettingsForm = v.object({
  expiryDays: v.pipe(
    numberish("Expiry days is required", "Expiry days must be a number"),
    v.integer("Expiry days must be a whole number"),
    v.minValue(1, "Expiry days must be at least 1"),
    v.maxValue(3650, "Expiry days must be at most 3650"),
  ),
});
export type ProfileSettingsForm = v.InferOutput<typeof ProfileSettingsForm>;
