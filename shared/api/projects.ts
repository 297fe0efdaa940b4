/**
 * Projects (part 1: 2.6, 2.8, section 7 "Projects"): the calls on projects themselves, the records
 * they answer with (a project row of the grids, the project as the edit screens read it with its
 * Redirects), and the two grids (projects, child projects) with their CSV columns.
 */
import { defineCall, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import {
  CloneOptions,
  ClosePo,
  ProjectAddBody,
  ProjectOptionsQuery,
  ProjectPatch,
} from "../schemas/project.ts";

/** The router's counters of a project (or a supplier map). */
export type ProjectCounters = {
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
  /** In the client survey now (counted against the limits by the router's holds). */
  held: number;
  /** Ever sent to the client survey (the base of the measured conversion). */
  sent: number;
  /** Completes accepted past a limit under a hold (the overshoot holds allowed). */
  pastLimit: number;
  approved: number;
  rejected: number;
};

/** The Project Securities tab's checks and the live URL kind. */
export type ProjectSecurityFlags = {
  isMultiLinkUrl: boolean;
  isDynamicThanksUrl: boolean;
  isGeoLocation: boolean;
  isClientUrlProtection: boolean;
  isPreScreen: boolean;
  isExclude: boolean;
  isMobile: boolean;
  isDesktop: boolean;
  isTablet: boolean;
  isSpeeder: boolean;
  isProxyVpn: boolean;
  isUniqueIp: boolean;
  isPii: boolean;
  isRDLow: boolean;
  isRDMedium: boolean;
  isRDHigh: boolean;
  /** Routes its refused respondents to the next survey and takes routed ones. */
  allowRouting: boolean;
  maxIPCount: number;
  speedTime: number;
};

/** A project (group = type 1, child = type 2) as the grids answer it (spec part 1 section 3 names). */
export type ProjectRow =
  & ProjectCounters
  & ProjectSecurityFlags
  & {
    _id: string;
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
    languageId: string;
    currencyId: string;
    cpi: number;
    sampleSize: number;
    sampleSizeInc: number;
    respondentClickQuota: number;
    respondentTestClickQuota: number;
    startDate: string | null;
    endDate: string | null;
    singleLinkUrl: string;
    singleLinkUrlTest: string;
    provider: string | null;
    providerSurveyId: string | null;
    isDeleted: boolean;
    createdBy: string | null;
    createdAt: string;
    updatedAt: string;
    statusChangedAt: string;
    /** The child's country from the lookup ("" for a group project). */
    countryName: string;
    countryCode: string;
    code: string;
    label: string;
    value: string;
    projectStatusLabel: string;
    projectLOI: number;
    projectIR: number;
    projectManger: string | null;
    regionId: string[];
    cityId: string[];
    zipCodeId: string[];
    /** The client's name under the legacy key, and under its own. */
    clienName: string;
    clientName: string;
    managerName: string;
    totalDisqualified: number;
    eRevenue: number;
    /** Parents in the list: how many children their figures sum. */
    childCount?: number;
  };

/** A project with its tab badges and uploaded link count (what saving a project answers). */
export type ProjectDetail = ProjectRow & {
  questionCount: number;
  supplierCount: number;
  multiLinkCount: number;
};

/** A child project whose status moved with its group's change (stopped with it, or back with it). */
export type ChildStatusChange = { _id: string; projectCode: string; from: number; to: number };
/** A child project that kept its own status through its group's change. */
export type ChildStatusKept = { _id: string; projectCode: string; projectStatus: number };
/**
 * What a group project's status change did to its children: those that moved with it, and those
 * that kept a status other than the group's (a child paused on its own stays paused when the group
 * reopens). The message of the call says the same in words.
 */
export type ChildStatusOutcome = { changed: ChildStatusChange[]; kept: ChildStatusKept[] };
/** A project after a change of its status, with what the change did to its children (group projects). */
export type StatusChanged = ProjectDetail & { childStatus?: ChildStatusOutcome };

/** What an update that soft-deleted the project answers: the row as it was, flagged deleted. */
export type DeletedProject = ProjectRow & { isDeleted: true };

/** A return link as the router builds it. */
export type ReturnLink = { label: string; url: string };

export type SigningKey = {
  projectId: string;
  projectCode: string;
  /** Whether the router requires a signature on this child's returns (its Secured Url). */
  secured: boolean;
  /**
   * The key masked (its last 4 characters: `shared/secrets.ts`), or null when the caller may not
   * reveal it (or the child is not secured). The whole key comes only from `revealSigningKeyCall`.
   */
  key: string | null;
};

/** A child project's signing key, whole: what `revealSigningKeyCall` answers. */
export type RevealedSigningKey = { projectId: string; projectCode: string; key: string };

/** The Redirects dialog: the return links and how a secured project's returns are signed. */
export type ProjectRedirects = {
  redirects: ReturnLink[];
  signing: {
    /** Secured Url of the project itself. */
    required: boolean;
    method: string;
    /** Whether the caller's role may reveal the keys (the roles of `revealSigningKeyCall`). */
    keysShown: boolean;
    keys: SigningKey[];
  };
};

/** GET /admin/project/:id: the project with its Redirects. */
export type ProjectRecord = ProjectDetail & ProjectRedirects;

/** The projects list metadata: the toolbar's 'url' and 'notify' links. */
export type ProjectsListMeta = { postBacks?: ReturnLink[]; notifyUrls?: ReturnLink[] };

/** A project in a picker (GET /admin/projects/all). */
export type ProjectOption = {
  id: string;
  _id: string;
  projectCode: string;
  projectName: string;
  projectType: number;
  parentProjectId: string | null;
  projectStatus: number;
  label: string;
  value: string;
};

/** A child of a parent, in the child switcher and the selection drawer. */
export type ChildOption = {
  id: string;
  _id: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
  label: string;
  value: string;
};

// ---------------------------------------------------------------- calls

export const listProjects = defineCall({
  method: "POST",
  path: "/admin/projects",
  body: ListBody,
  csv: true,
  result: returns<ListResult<ProjectRow> & { metadata: ProjectsListMeta }>(),
});
export const projectOptionsCall = defineCall({
  method: "GET",
  path: "/admin/projects/all",
  query: ProjectOptionsQuery,
  result: returns<ProjectOption[]>(),
});
/** Every child project (the children of any parent), paged: at most 100 rows a page. */
export const searchChildProjects = defineCall({
  method: "POST",
  path: "/admin/project/childs/search/all",
  body: ListBody,
  csv: true,
  result: returns<ListResult<ProjectRow>>(),
});
export const listChildProjects = defineCall({
  method: "POST",
  path: "/admin/project/childs/:id",
  ids: { id: "Project" },
  body: ListBody,
  csv: true,
  result: returns<ListResult<ProjectRow>>(),
});
export const childOptionsCall = defineCall({
  method: "GET",
  path: "/admin/project/child/all/:parentProjectId",
  ids: { parentProjectId: "Project" },
  result: returns<ChildOption[]>(),
});
/** Adds a group project, or a child project when the body names its parent (`parentProjectId`). */
export const addProject = defineCall({
  method: "POST",
  path: "/admin/project/add",
  body: ProjectAddBody,
  result: returns<ProjectDetail>(),
});
export const updateProjectCall = defineCall({
  method: "PUT",
  path: "/admin/project/update/:id",
  ids: { id: "Project" },
  body: ProjectPatch,
  result: returns<StatusChanged | DeletedProject>(),
});
export const getProjectCall = defineCall({
  method: "GET",
  path: "/admin/project/:id",
  ids: { id: "Project" },
  result: returns<ProjectRecord>(),
});
/**
 * Reveals one child project's signing key whole (the project record shows it masked) to those who may
 * edit projects; written to the system log. A group project has no key of its own: each child has one.
 */
export const revealSigningKeyCall = defineCall({
  method: "POST",
  path: "/admin/project/:id/signing-key",
  ids: { id: "Project" },
  result: returns<RevealedSigningKey>(),
});
/** Closes a project by its code with the client's PO number. */
export const closeProjectByCode = defineCall({
  method: "PUT",
  path: "/admin/project/code/update/:projectCode",
  body: ClosePo,
  result: returns<StatusChanged>(),
});
export const cloneProjectCall = defineCall({
  method: "POST",
  path: "/admin/project/clone/:projectId",
  ids: { projectId: "Project" },
  body: CloneOptions,
  result: returns<{ parentProjectId: string }>(),
});

// ---------------------------------------------------------------- grids

const PROJECT_FILTERS = {
  clientId: "texts",
  userId: "texts",
  projectStatus: "numbers",
  countryId: "texts",
  parentProjectId: "text",
  sortDate: "number",
  minDate: "date",
  maxDate: "date",
} as const;

type Col = { key: string; header: string; value: (p: ProjectRow) => unknown };
const projectColumns: Col[] = [
  { key: "projectCode", header: "Project code", value: (p) => p.projectCode },
  { key: "projectName", header: "Project name", value: (p) => p.projectName },
  { key: "clienName", header: "Client", value: (p) => p.clienName },
  { key: "managerName", header: "Manager", value: (p) => p.managerName },
  { key: "projectStatusLabel", header: "Status", value: (p) => p.projectStatusLabel },
  { key: "complete", header: "Complete", value: (p) => p.complete },
  { key: "sampleSize", header: "Sample size", value: (p) => p.sampleSize },
  { key: "terminate", header: "Terminate (ST)", value: (p) => p.terminate },
  { key: "overQuota", header: "Over quota (OQ)", value: (p) => p.overQuota },
  { key: "qualityTerm", header: "Quality term (QT)", value: (p) => p.qualityTerm },
  { key: "drop", header: "Drop (DO)", value: (p) => p.drop },
  { key: "totalDisqualified", header: "Security", value: (p) => p.totalDisqualified },
  { key: "clicked", header: "Clicked", value: (p) => p.clicked },
  { key: "cpi", header: "CPI", value: (p) => p.cpi },
  { key: "poNumber", header: "PO number", value: (p) => p.poNumber },
  { key: "createdAt", header: "Created", value: (p) => p.createdAt },
];
/** The child grid's export: the project columns with each child's country after its name. */
const childColumns: Col[] = [
  ...projectColumns.slice(0, 2),
  { key: "countryName", header: "Country", value: (p) => p.countryName },
  ...projectColumns.slice(2),
];

/** The projects grid (2.6): group projects with their children's figures. */
export const projectsList = defineList<ProjectRow>()({
  id: "projects",
  call: listProjects,
  filters: PROJECT_FILTERS,
  sorts: ["projectCode", "projectName", "createdAt"],
  columns: projectColumns,
});

/** The child projects grid of a parent (2.8). */
export const childProjectsList = defineList<ProjectRow>()({
  id: "child-projects",
  call: listChildProjects,
  filters: PROJECT_FILTERS,
  sorts: ["projectCode", "createdAt"],
  columns: childColumns,
});

/** Every child project, the same grid across parents. */
export const childSearchList = defineList<ProjectRow>()({
  ...childProjectsList,
  call: searchChildProjects,
});
