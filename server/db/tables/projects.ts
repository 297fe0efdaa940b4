/** Row types of projects, supplier maps, quotas, exclusions and survey links (migration 0003). */
import type { ColumnType } from "kysely";

/** A column with a database default: optional on insert. */
type D<T> = ColumnType<T, T | undefined, T>;
/**
 * The router's outcome counters: kept on projects, supplier maps and the daily rollup alike, named
 * once here (the migrations that created the columns are frozen and spell them on their own).
 */
export const OUTCOME_COUNTERS = [
  "clicked",
  "complete",
  "terminate",
  "overQuota",
  "qualityTerm",
  "drop",
  "security",
  "preScreenTerminate",
  "preScreenDrop",
] as const;
export type OutcomeCounter = (typeof OUTCOME_COUNTERS)[number];

/** What live and test traffic bump on a project and a supplier map. */
export const LIVE_COUNTERS = [...OUTCOME_COUNTERS, "testClicked"] as const;
export type LiveCounter = (typeof LIVE_COUNTERS)[number];

/**
 * The router's hold counters (migration 0038): `held` live sessions in the client survey now, `sent`
 * live sessions ever sent there, `pastLimit` completes accepted past a limit under a hold.
 */
export const HOLD_COUNTERS = ["held", "sent", "pastLimit"] as const;
export type HoldCounter = (typeof HOLD_COUNTERS)[number];

/**
 * A project's time sums, kept by the router's writer: the seconds of its live completes whose length
 * is known and how many (migration 0034, the measured LOI), and the same of the sessions back from
 * the survey as any other outcome (0040, the holds' time weighting).
 */
export const TIME_SUMS = ["loiSeconds", "loiCompletes", "otherSeconds", "otherTimed"] as const;
export type TimeSum = (typeof TIME_SUMS)[number];

/** Every counter column of projects and supplier maps: the router's, and reconciliation's. */
export const COUNTER_NAMES = [...LIVE_COUNTERS, ...HOLD_COUNTERS, "approved", "rejected"] as const;
export type CounterColumn = (typeof COUNTER_NAMES)[number];

export type Counters = { [K in CounterColumn]: D<number> };

export interface ProjectsTable extends Counters {
  id: string;
  projectType: number;
  parentProjectId: D<string | null>;
  projectCode: string;
  projectName: string;
  projectDescription: D<string>;
  notes: D<string>;
  clientId: string;
  userId: D<string | null>;
  projectStatus: number;
  poNumber: D<string>;
  clientEmail: D<string>;
  projectSpecs: D<string>;
  projectQuestionaire: D<string>;
  averageLOI: D<number>;
  ir: D<number>;
  wid: D<string>;
  categoryId: D<string | null>;
  countryId: D<string | null>;
  regionIds: D<string>;
  cityIds: D<string>;
  zipCodes: D<string>;
  languageId: D<string>;
  currencyId: D<string>;
  cpi: D<number>;
  sampleSize: D<number>;
  sampleSizeInc: D<number>;
  respondentClickQuota: D<number>;
  respondentTestClickQuota: D<number>;
  startDate: D<string | null>;
  endDate: D<string | null>;
  isMultiLinkUrl: D<number>;
  singleLinkUrl: D<string>;
  singleLinkUrlTest: D<string>;
  isDynamicThanksUrl: D<number>;
  isGeoLocation: D<number>;
  isClientUrlProtection: D<number>;
  isPreScreen: D<number>;
  isExclude: D<number>;
  isMobile: D<number>;
  isDesktop: D<number>;
  isTablet: D<number>;
  isSpeeder: D<number>;
  isProxyVpn: D<number>;
  isUniqueIp: D<number>;
  isPii: D<number>;
  isRDLow: D<number>;
  isRDMedium: D<number>;
  isRDHigh: D<number>;
  maxIPCount: D<number>;
  speedTime: D<number>;
  /** Routes its refused respondents and takes routed ones (migration 0039). */
  allowRouting: D<number>;
  provider: D<string | null>;
  providerSurveyId: D<string | null>;
  isDeleted: D<number>;
  createdBy: D<string | null>;
  createdAt: string;
  updatedAt: string;
  statusChangedAt: string;
  /** When the router's writer last moved the counters (migration 0034; null: never). */
  countersAt: D<string | null>;
  /** Seconds of the completes whose length is known, and how many they are: the measured LOI. */
  loiSeconds: D<number>;
  loiCompletes: D<number>;
  /** Seconds in the client survey of the sessions back as anything but a complete, and how many (0040). */
  otherSeconds: D<number>;
  otherTimed: D<number>;
}

export interface ProjectLinksTable {
  id: ColumnType<number, number | undefined, number>;
  projectId: string;
  url: string;
  usedBy: string | null;
}

export interface SupplierMapsTable extends Counters {
  id: string;
  projectId: string;
  supplierId: string;
  supplierCPI: D<number>;
  supplierQuota: D<number>;
  supplierClickQuota: D<number>;
  isPreScreen: D<number>;
  isTestLink: D<number>;
  allowTraffic: D<number>;
  isBoarded: D<number>;
  redirectComplete: D<string>;
  redirectTerminate: D<string>;
  redirectQuotaFull: D<string>;
  redirectQualityTerm: D<string>;
  redirectSurveyClose: D<string>;
  questionnaire: D<string>;
  adminApproved: D<number | null>;
  isDeleted: D<number>;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectQuotasTable {
  id: string;
  projectId: string;
  qualificationId: string;
  /** JSON: an interlocked quota's qualifications in order ("[]": the one qualificationId). */
  qualificationIds: D<string>;
  quotaValue: D<string>;
  isDeleted: D<number>;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectExclusionsTable {
  id: string;
  projectId: string;
  excludedProjectId: string;
  isExcluded: D<number>;
  complete: D<number>;
  terminate: D<number>;
  overQuota: D<number>;
  dropout: D<number>;
  isDeleted: D<number>;
  createdAt: string;
  updatedAt: string;
}

/** A child project its group stopped (Paused, Closed, ...), with the status it had before (migration 0021). */
export interface GroupStatusHoldsTable {
  projectId: string;
  groupId: string;
  statusBefore: number;
  createdAt: string;
}

export interface SequencesTable {
  name: string;
  value: number;
}

export interface ProjectTables {
  sequences: SequencesTable;
  projects: ProjectsTable;
  project_links: ProjectLinksTable;
  supplier_maps: SupplierMapsTable;
  project_quotas: ProjectQuotasTable;
  project_exclusions: ProjectExclusionsTable;
  group_status_holds: GroupStatusHoldsTable;
}
