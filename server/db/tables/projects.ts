/** Row types of projects, supplier maps, quotas, exclusions and survey links (migration 0003). */
export type Counters = {
  clicked: number;
  complete: number;
  terminate: number;
  overQuota: number;
  qualityTerm: number;
  drop: number;
  security: number;
  preScreenTerminate: number;
  preScreenDrop: number;
  testClicked: number;
  approved: number;
  rejected: number;
};
export const COUNTER_NAMES: (keyof Counters)[] = [
  "clicked",
  "complete",
  "terminate",
  "overQuota",
  "qualityTerm",
  "drop",
  "security",
  "preScreenTerminate",
  "preScreenDrop",
  "testClicked",
  "approved",
  "rejected",
];

export interface ProjectsTable extends Counters {
  id: string;
  projectType: number;
  parentProjectId: string | null;
  projectCode: string;
  projectName: string;
  projectDescription: string;
  notes: string;
  clientId: string;
  userId: string | null;
  projectStatus: number;
  poNumber: string;
  clientEmail: string;
  projectSpecs: string;
  projectQuestionaire: string;
  averageLOI: number;
  ir: number;
  wid: string;
  categoryId: string | null;
  countryId: string | null;
  regionIds: string;
  cityIds: string;
  zipCodes: string;
  languageId: string;
  currencyId: string;
  cpi: number;
  sampleSize: number;
  sampleSizeInc: number;
  respondentClickQuota: number;
  respondentTestClickQuota: number;
  startDate: string | null;
  endDate: string | null;
  isMultiLinkUrl: number;
  singleLinkUrl: string;
  singleLinkUrlTest: string;
  isDynamicThanksUrl: number;
  isGeoLocation: number;
  isClientUrlProtection: number;
  isPreScreen: number;
  isExclude: number;
  isMobile: number;
  isDesktop: number;
  isTablet: number;
  isSpeeder: number;
  isProxyVpn: number;
  isUniqueIp: number;
  isPii: number;
  isRDLow: number;
  isRDMedium: number;
  isRDHigh: number;
  maxIPCount: number;
  speedTime: number;
  provider: string | null;
  providerSurveyId: string | null;
  isDeleted: number;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  statusChangedAt: string;
}

export interface ProjectLinksTable {
  id: number;
  projectId: string;
  url: string;
  usedBy: string | null;
}

export interface SupplierMapsTable extends Counters {
  id: string;
  projectId: string;
  supplierId: string;
  supplierCPI: number;
  supplierQuota: number;
  supplierClickQuota: number;
  isPreScreen: number;
  isTestLink: number;
  allowTraffic: number;
  isBoarded: number;
  redirectComplete: string;
  redirectTerminate: string;
  redirectQuotaFull: string;
  redirectQualityTerm: string;
  redirectSurveyClose: string;
  questionnaire: string;
  adminApproved: number | null;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectQuotasTable {
  id: string;
  projectId: string;
  qualificationId: string;
  quotaValue: string;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectExclusionsTable {
  id: string;
  projectId: string;
  excludedProjectId: string;
  isExcluded: number;
  complete: number;
  terminate: number;
  overQuota: number;
  dropout: number;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
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
}
