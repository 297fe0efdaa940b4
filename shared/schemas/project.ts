/** Project forms (part 1 sections 3 and 5): group (parent) project, child project, tabs, actions. */
import * as v from "valibot";
import { MSG, requiredMsg } from "../messages.ts";
import {
  NEW_PROJECT_STATUS,
  PROJECT_STATUS,
  PROJECT_STATUS_LIST,
  PROJECT_TYPE,
  type ProjectType,
} from "../status.ts";
import {
  boolDefault,
  digits,
  isoDate,
  MAX_LEN,
  money,
  optionalEmail,
  optionalId,
  optionalText,
  optionalUrl,
  recordId,
  requiredId,
  requiredText,
  SID_PLACEHOLDERS,
  tooLongMsg,
  UID_PLACEHOLDERS,
} from "./common.ts";
import { emailBody } from "./email.ts";
import { searchTerm } from "../list.ts";

const code = (message: string, max = 20) => requiredText(message, 1, max);
const decimal = (message: string) => money(message);
/** Codes of a pick list (regions, cities, zip codes): bounded in size and number. */
const codeList = (label: string, max: number = MAX_LEN.line) =>
  v.optional(
    v.pipe(
      v.array(v.pipe(v.string(`${label} must be text`), v.trim(), v.maxLength(max, tooLongMsg(label, max)))),
      v.maxLength(10_000, `At most 10000 ${label.toLowerCase()} entries`),
    ),
    [],
  );
const placeholderUrl = (name: "sid" | "uid") =>
  optionalUrl(name === "sid" ? SID_PLACEHOLDERS : UID_PLACEHOLDERS);

const STATUS_VALUES = PROJECT_STATUS_LIST.map((s) => s.value);
const status = v.pipe(
  v.union(
    [v.number(MSG.projectStatusRequired), v.string(MSG.projectStatusRequired)],
    MSG.projectStatusRequired,
  ),
  v.transform(Number),
  v.check((n) => (STATUS_VALUES as number[]).includes(n), MSG.projectStatusRequired),
);
/**
 * The group and child forms take any status code: an edit form sends the project's status as it is,
 * Ready To Invoice and Invoiced included. Which status a project may take is the server's rule: a new
 * one only the restricted list (4 and 5 left out, `isEditableStatus`), an edit only what
 * `statusChangeRefusal` allows from the current status (keeping it is always fine).
 */

export const groupProjectEntries = {
  projectName: requiredText(MSG.projectNameRequired, 4, MAX_LEN.longName),
  projectDescription: optionalText(MAX_LEN.note, "Project description"),
  notes: optionalText(MAX_LEN.note, "Notes"),
  clientId: requiredId(MSG.clientRequired, "Client"),
  userId: requiredId(MSG.managerRequired, "User"),
  isDynamicThanksUrl: boolDefault(true),
  projectStatus: v.optional(status, NEW_PROJECT_STATUS),
  poNumber: optionalText(MAX_LEN.code, "PO Number"),
  averageLOI: digits(requiredMsg("Average LOI")),
  ir: digits(requiredMsg("IR")),
  clientEmail: optionalEmail,
  projectSpecs: optionalText(MAX_LEN.rich, "Project specs"),
};
export const GroupProject = v.pipe(
  v.object(groupProjectEntries),
  v.forward(
    v.partialCheck(
      [["projectStatus"], ["poNumber"]],
      (p) => p.projectStatus !== PROJECT_STATUS.CLOSED || p.poNumber !== "",
      MSG.poNumberRequired,
    ),
    ["poNumber"],
  ),
);
export type GroupProject = v.InferOutput<typeof GroupProject>;

export const childProjectEntries = {
  projectName: requiredText(MSG.projectNameRequired, 4, MAX_LEN.longName),
  projectDescription: optionalText(MAX_LEN.note, "Project description"),
  clientId: requiredId(MSG.clientRequired, "Client"),
  parentProjectId: requiredId(requiredMsg("Parent project"), "Project"),
  wid: optionalText(MAX_LEN.name, "WID"),
  categoryId: v.pipe(optionalId("Unknown category", "Category"), v.transform((s) => s || null)),
  countryId: code(requiredMsg("Country"), 8),
  regionId: codeList("Region"),
  cityId: codeList("City"),
  zipCodeId: codeList("Zip code", 20),
  languageId: v.optional(code(MSG.languageRequired, 8), "en"),
  averageLOI: digits(requiredMsg("Average LOI")),
  ir: digits(requiredMsg("IR")),
  sampleSize: digits(requiredMsg("Sample size")),
  respondentClickQuota: digits(requiredMsg("Respondent click quota")),
  respondentTestClickQuota: v.optional(digits(requiredMsg("Respondent test click quota")), 5),
  currencyId: v.optional(code(requiredMsg("Currency"), 8), "USD"),
  cpi: decimal(requiredMsg("CPI")),
  startDate: isoDate(requiredMsg("Start date")),
  endDate: isoDate(requiredMsg("End date")),
  projectStatus: v.optional(status, NEW_PROJECT_STATUS),
  poNumber: optionalText(MAX_LEN.code, "PO Number"),
  /** Routes its refused respondents and takes routed ones: on for a new project. */
  allowRouting: v.optional(v.boolean("allowRouting must be true or false"), true),
};
export const ChildProject = v.pipe(
  v.object(childProjectEntries),
  v.forward(
    v.partialCheck(
      [["startDate"], ["endDate"]],
      (p) => p.endDate >= p.startDate,
      "End date must not be before start date",
    ),
    ["endDate"],
  ),
  v.forward(
    v.partialCheck(
      [["projectStatus"], ["poNumber"]],
      (p) => p.projectStatus !== PROJECT_STATUS.CLOSED || p.poNumber !== "",
      MSG.poNumberRequired,
    ),
    ["poNumber"],
  ),
);
export type ChildProject = v.InferOutput<typeof ChildProject>;

export const projectSecurityEntries = {
  isMultiLinkUrl: v.optional(v.boolean()),
  isDynamicThanksUrl: v.optional(v.boolean()),
  isGeoLocation: v.optional(v.boolean()),
  isClientUrlProtection: v.optional(v.boolean()),
  isPreScreen: v.optional(v.boolean()),
  isExclude: v.optional(v.boolean()),
  isMobile: v.optional(v.boolean()),
  isDesktop: v.optional(v.boolean()),
  isTablet: v.optional(v.boolean()),
  isSpeeder: v.optional(v.boolean()),
  isProxyVpn: v.optional(v.boolean()),
  isUniqueIp: v.optional(v.boolean()),
  isPii: v.optional(v.boolean()),
  isRDLow: v.optional(v.boolean()),
  isRDMedium: v.optional(v.boolean()),
  isRDHigh: v.optional(v.boolean()),
  allowRouting: v.optional(v.boolean()),
  maxIPCount: v.optional(digits("Max IP count must be a number")),
  speedTime: v.optional(digits("Speed time must be a number")),
};
export const ProjectSecurity = v.object(projectSecurityEntries);

/** The on/off settings of the Security tab (part 1, 2.6), in the tab's order. */
export const SECURITY_FLAGS = [
  "isDynamicThanksUrl",
  "isClientUrlProtection",
  "isGeoLocation",
  "isPreScreen",
  "isExclude",
  "isMobile",
  "isDesktop",
  "isTablet",
  "isSpeeder",
  "isProxyVpn",
  "isUniqueIp",
  "isPii",
  "isRDLow",
  "isRDMedium",
  "isRDHigh",
  "allowRouting",
] as const satisfies readonly (keyof typeof projectSecurityEntries)[];

/** The Security tab's label of each on/off setting (the tab and the audit log both read these). */
export const SECURITY_LABELS: Readonly<Record<(typeof SECURITY_FLAGS)[number], string>> = {
  isDynamicThanksUrl: "Secured Url",
  isClientUrlProtection: "Client URL protection",
  isGeoLocation: "Geo location",
  isPreScreen: "Pre-screen",
  isExclude: "Exclusions",
  isMobile: "Mobile",
  isDesktop: "Desktop",
  isTablet: "Tablet",
  isSpeeder: "Speeder",
  isProxyVpn: "Proxy / VPN",
  isUniqueIp: "Unique IP",
  isPii: "PII",
  isRDLow: "RD low",
  isRDMedium: "RD medium",
  isRDHigh: "RD high",
  allowRouting: "Routing",
};

/** A multi-link project's client URLs: each a URL of bounded length, at most 100,000 of them. */
const multiLinkUrls = () =>
  v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(MSG.invalidUrl),
          v.trim(),
          v.maxLength(MAX_LEN.url, tooLongMsg("URL", MAX_LEN.url)),
          v.url(MSG.invalidUrl),
        ),
      ),
      v.maxLength(100_000, "At most 100000 links"),
    ),
  );

export const ProjectUrls = v.object({
  isMultiLinkUrl: v.optional(v.boolean()),
  singleLinkUrl: placeholderUrl("uid"),
  singleLinkUrlTest: placeholderUrl("uid"),
  multiLinkUrls: multiLinkUrls(),
});

/**
 * PUT /admin/project/update/:id takes any tab's fields: every field optional but validated as on
 * its form; the server checks the combined rules (PO number for Closed, dates) on the merged record.
 */
/**
 * POST /admin/project/add: a child project when the body names its parent (`parentProjectId`), else
 * a group project. Declared as the call's body, so the registrar checks the ids either form names.
 */
export const ProjectAddBody = v.lazy((input: unknown) =>
  input && typeof input === "object" && (input as { parentProjectId?: unknown }).parentProjectId
    ? ChildProject
    : GroupProject
);

export const ProjectPatch = v.object({
  ...v.partial(v.object({ ...groupProjectEntries, ...childProjectEntries })).entries,
  // any code: keeping a Ready To Invoice or Invoiced status, and Proceed to Invoice, are fine here
  projectStatus: v.optional(status),
  ...projectSecurityEntries,
  singleLinkUrl: v.optional(placeholderUrl("uid")),
  singleLinkUrlTest: v.optional(placeholderUrl("uid")),
  multiLinkUrls: multiLinkUrls(),
  /** The Suppliers tab's 'Add Questionaire' panel (rich text). */
  projectQuestionaire: v.optional(
    v.pipe(v.string(), v.maxLength(MAX_LEN.rich, tooLongMsg("Questionnaire", MAX_LEN.rich))),
  ),
  sampleSizeInc: v.optional(digits("Sample size increment must be a number")),
  isDeleted: v.optional(v.literal(true)),
  sendEmail: v.optional(v.boolean()),
});
export type ProjectPatch = v.InferOutput<typeof ProjectPatch>;

/**
 * The query of GET /admin/projects/all: `type` 1 (group projects) or 2 (child projects), absent or
 * blank for both; `search` a part of the code or name.
 */
export const ProjectOptionsQuery = v.object({
  type: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.check(
      (t) => t === "" || t === String(PROJECT_TYPE.GROUP) || t === String(PROJECT_TYPE.CHILD),
      "type must be 1 (group projects) or 2 (child projects)",
    ),
    v.transform((t) => (t === "" ? undefined : Number(t) as ProjectType)),
  ),
  search: v.pipe(searchTerm, v.trim()),
});
export type ProjectOptionsQuery = v.InferOutput<typeof ProjectOptionsQuery>;

export const ClosePo = v.object({ poNumber: requiredText(MSG.poNumberRequired, 1, MAX_LEN.code) });

export const CloneOptions = v.object({
  isPreScreen: v.optional(v.boolean(), false),
  isSupplier: v.optional(v.boolean(), false),
  isLiveUrl: v.optional(v.boolean(), false),
  isQuota: v.optional(v.boolean(), false),
  countryId: code(MSG.cloneCountryRequired, 8),
  languageId: code(MSG.languageRequired, 8),
});

export const SupplierMapForm = v.object({
  projectId: requiredId(MSG.projectRequired, "Project"),
  supplierId: requiredId(MSG.mapSupplierRequired, "Supplier"),
  supplierCPI: v.optional(decimal(MSG.mapCpiRequired), 0),
  supplierQuota: v.optional(digits(MSG.mapQuotaRequired), 0),
  supplierClickQuota: v.optional(digits(MSG.mapClickQuotaRequired), 0),
  isPreScreen: v.optional(v.boolean(), false),
  isTestLink: v.optional(v.boolean(), false),
  allowTraffic: v.optional(v.boolean(), true),
  isBoarded: v.optional(v.boolean(), true),
  redirectComplete: placeholderUrl("sid"),
  redirectTerminate: placeholderUrl("sid"),
  redirectQuotaFull: placeholderUrl("sid"),
  redirectQualityTerm: placeholderUrl("sid"),
  redirectSurveyClose: placeholderUrl("sid"),
});
export type SupplierMapForm = v.InferOutput<typeof SupplierMapForm>;

export const SupplierMapToggle = v.union([
  v.strictObject({ allowTraffic: v.boolean("allowTraffic must be true or false") }),
  v.strictObject({ isTestLink: v.boolean("isTestLink must be true or false") }),
  v.strictObject({ isPreScreen: v.boolean("isPreScreen must be true or false") }),
  v.strictObject({ isBoarded: v.boolean("isBoarded must be true or false") }),
  v.strictObject({ isDeleted: v.literal(true, "isDeleted can only be true") }),
], "Send one of allowTraffic, isTestLink, isPreScreen, isBoarded (true or false) or isDeleted (true)");

export const EmailForm = v.object({
  type: v.optional(v.pipe(v.string(), v.maxLength(MAX_LEN.code, tooLongMsg("Type", MAX_LEN.code)))),
  projectId: v.optional(
    v.union([v.literal(""), recordId(MSG.projectRequired, "Project")], MSG.projectRequired),
  ),
  emailBody,
});

export const ExclusionForm = v.object({
  projectId: requiredId(MSG.projectRequired, "Project"),
  excludedProjectId: requiredId(MSG.projectRequired, "Project"),
  isExcluded: v.optional(v.boolean(), true),
  complete: v.optional(v.boolean(), true),
  terminate: v.optional(v.boolean(), true),
  overQuota: v.optional(v.boolean(), true),
  dropout: v.optional(v.boolean(), true),
});

/** Exclusion flags alone, or `{isDeleted: true}`. */
export const ExclusionUpdate = v.union([
  v.strictObject({ isDeleted: v.literal(true) }),
  v.pipe(
    v.strictObject({
      isExcluded: v.optional(v.boolean()),
      complete: v.optional(v.boolean()),
      terminate: v.optional(v.boolean()),
      overQuota: v.optional(v.boolean()),
      dropout: v.optional(v.boolean()),
    }),
    v.check((o) => Object.keys(o).length > 0, "Nothing to change"),
  ),
], "Send flags (complete, terminate, overQuota, dropout, isExcluded) or isDeleted");

export const QuotaAdd = v.object({ quotaId: requiredId("Qualification is required", "Qualification") });
export const QuotaUpdate = v.union([
  v.strictObject({ isDeleted: v.literal(true) }),
  v.strictObject({ quotaOptionId: v.array(v.string("Unknown option"), "Choose the quota's options") }),
], "Send the chosen options (quotaOptionId) or isDeleted");
export const QuotaSizes = v.object({
  quotaValue: v.array(
    v.object({ quotaOptionId: v.string("Unknown option"), quotaSize: digits("Quota size is required") }),
    "Send the sizes as quotaValue",
  ),
});

/** Project pre-screen question: the library question form plus its project (or a library question to copy). */
export const ProjectQuestionCopy = v.object({
  projectId: requiredId(MSG.projectRequired, "Project"),
  questionId: requiredId("Question is required"),
});

// ---------------------------------------------------------------- per-project reports

/** `{projectId}` of the project calls (reports, e-mails, stats). */
export const ProjectRef = v.object({ projectId: requiredId(MSG.projectRequired, "Project") });

/** POST /admin/project/supplier/report: one supplier map's respondents on the project. */
export const SupplierReportRequest = v.object({
  supplierMapId: requiredId(MSG.supplierMapRequired, "Supplier map"),
  projectId: requiredId(MSG.projectRequired, "Project"),
});

/**
 * POST /admin/project/identifiers/report: the respondents of a project (a child, or every child of
 * a parent), or only those one supplier sent when `supplier` names one (empty or absent: all).
 */
export const ProjectIdentifiersRequest = v.object({
  projectData: requiredId(MSG.projectRequired, "Project"),
  supplier: v.pipe(
    v.optional(v.nullable(v.string("Unknown supplier")), ""),
    v.transform((s) => (s ?? "").trim()),
    v.check((s) => s === "" || /^[0-9a-f]{24}$/.test(s), "Unknown supplier"),
  ),
});

/** The most hash identifiers one prescreen download may name. */
export const MAX_REPORT_IDENTIFIERS = 10_000;
const UID_RE = /^[0-9a-f]{24}$/;

/**
 * Hash identifiers (respondent uids) pasted one per line or separated by commas, spaces or
 * semicolons: trimmed, lower-cased, without duplicates, in the order given.
 */
export function parseIdentifiers(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((s) => s.trim().toLowerCase()).filter(Boolean))];
}

/** The entries of `parseIdentifiers(text)` that are not uids. */
export function invalidIdentifiers(text: string): string[] {
  return parseIdentifiers(text).filter((s) => !UID_RE.test(s));
}

/**
 * Prescreen Data (part 1, 3 "Prescreen report form"): hash identifiers to limit the rows (blank:
 * every respondent) and the questions to show (values of GET /admin/project/questions/group; none:
 * every question).
 */
export const PrescreenReportForm = v.object({
  projectId: requiredId(MSG.projectRequired, "Project"),
  userIdentifier: v.pipe(
    v.optional(v.nullable(v.string(MSG.identifiersInvalid)), ""),
    v.transform((s) => s ?? ""),
    v.maxLength(MAX_REPORT_IDENTIFIERS * 30, MSG.tooManyIdentifiers),
    v.check((s) => parseIdentifiers(s).length <= MAX_REPORT_IDENTIFIERS, MSG.tooManyIdentifiers),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const bad = invalidIdentifiers(dataset.value);
      if (bad.length) {
        const shown = bad.slice(0, 3).map((s) => (s.length > 30 ? `${s.slice(0, 30)}…` : s)).join(", ");
        addIssue({
          message: `${MSG.identifiersInvalid}: ${shown}${
            bad.length > 3 ? ` and ${bad.length - 3} more` : ""
          }`,
        });
      }
    }),
  ),
  questionIndex: v.pipe(
    v.optional(
      v.nullable(
        v.array(
          v.pipe(
            v.union(
              [v.string(MSG.questionIndexInvalid), v.number(MSG.questionIndexInvalid)],
              MSG.questionIndexInvalid,
            ),
            v.transform(String),
            v.regex(/^\d{1,5}$/, MSG.questionIndexInvalid),
          ),
          MSG.questionIndexInvalid,
        ),
      ),
      [],
    ),
    v.transform((list) => [...new Set(list ?? [])]),
  ),
});
export type PrescreenReportForm = v.InferOutput<typeof PrescreenReportForm>;
