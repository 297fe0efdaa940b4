/**
 * Projects area (part 1, 2.6 and 2.8): the record shapes the API answers with, the list
 * declarations, the tab strip, status helpers, the shapes of the return links, security stats and
 * pre-screen choices the server answers with, and the lookups the forms pick from.
 */
import { canOpenScreen } from "../../../../shared/permissions.ts";
import { PROJECT_STATUS_LIST, type SecurityFigures } from "../../../../shared/status.ts";
import type { ListDecl, OptionsSource } from "../../components/data-grid/types.ts";
import type { PageTab } from "../../components/layout/PageHeader.tsx";
import type { BadgeTone } from "../../components/ui/badge.tsx";
import { useAuth } from "../../lib/auth.ts";
import { CLIENTS } from "../common/lookups.ts";

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

export type SecurityFlags = {
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
  maxIPCount: number;
  speedTime: number;
};

/** A project (parent or child) as the list and GET /admin/project/:id answer it. */
export type ProjectRow = Counters & SecurityFlags & {
  _id: string;
  projectType: 1 | 2;
  parentProjectId: string | null;
  projectCode: string;
  projectName: string;
  projectDescription: string;
  notes: string;
  clientId: string;
  userId: string | null;
  projectStatus: number;
  projectStatusLabel: string;
  poNumber: string;
  clientEmail: string;
  projectSpecs: string;
  projectQuestionaire: string;
  averageLOI: number;
  ir: number;
  wid: string;
  categoryId: string | null;
  countryId: string | null;
  /** The child's country from the lookup ("" for a group project). */
  countryName: string;
  countryCode: string;
  regionId: string[];
  cityId: string[];
  zipCodeId: string[];
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
  clienName: string;
  managerName: string;
  totalDisqualified: number;
  eRevenue: number;
  createdAt: string;
  /** Parents in the list: how many children their figures sum. */
  childCount?: number;
};

/** GET /admin/project/:id adds the tab badges, the uploaded link count and the Redirects. */
export type ProjectRecord = ProjectRow & ProjectRedirects & {
  questionCount: number;
  supplierCount: number;
  multiLinkCount: number;
};

export type SupplierMapRow = Counters & {
  _id: string;
  supplierMapId: string;
  projectId: string;
  supplierId: string;
  supplierName: string;
  supplierCPI: number;
  supplierQuota: number;
  supplierClickQuota: number;
  isPreScreen: boolean;
  isTestLink: boolean;
  allowTraffic: boolean;
  isBoarded: boolean;
  redirectComplete: string;
  redirectTerminate: string;
  redirectQuotaFull: string;
  redirectQualityTerm: string;
  redirectSurveyClose: string;
  /** The supplier's live entry link (`/survey/start/{mapId}?sid=[sid]`). */
  redirectUrl: string;
  testUrl: string;
  totalResponded: number;
};

export type ChildOption = { _id: string; projectCode: string; projectName: string; projectStatus: number };
export type LogItem = { _id: string; name: string; activity: string; createdAt: string; module: string };
export type SupplierStat = {
  supplierId: string;
  supplierName: string;
  complete: number;
  terminate: number;
  overQuota: number;
  qualityTerm: number;
  drop: number;
  clicked: number;
  security: number;
};

// ---------------------------------------------------------------- lists

export const STATUS_OPTIONS = PROJECT_STATUS_LIST.map((s) => ({ value: String(s.value), label: s.label }));

/** Staff who may manage a project (GET /admin/users/all; supplier logins are left out). */
export const MANAGERS: OptionsSource = {
  path: "/admin/users/all",
  map: (u: { _id?: string; label?: string; role?: string; firstName?: string; lastName?: string }) => ({
    value: u.role === "SUPPLIER" ? "" : String(u._id ?? ""),
    label: String(u.label ?? `${u.firstName ?? ""} ${u.lastName ?? ""}`.trim()),
  }),
};

export const projectsList: ListDecl<ProjectRow> = {
  id: "projects",
  path: "/admin/projects",
  rowId: (p) => p._id,
  defaultPageSize: 20,
  filters: [
    { kind: "search", placeholder: "Search projects" },
    { kind: "select", key: "clientId", label: "Clients", multiple: true, source: CLIENTS },
    { kind: "select", key: "userId", label: "Managers", multiple: true, source: MANAGERS },
    {
      kind: "select",
      key: "projectStatus",
      label: "Status",
      multiple: true,
      numeric: true,
      options: STATUS_OPTIONS,
    },
    { kind: "sortBy" },
    { kind: "dateRange" },
    { kind: "export" },
  ],
  exportName: "projects",
};

export function childsList(parentId: string): ListDecl<ProjectRow> {
  return {
    id: "child-projects",
    path: `/admin/project/childs/${parentId}`,
    rowId: (p) => p._id,
    defaultPageSize: 20,
    filters: [
      { kind: "search", placeholder: "Search code or name" },
      {
        kind: "select",
        key: "projectStatus",
        label: "Status",
        multiple: true,
        numeric: true,
        options: STATUS_OPTIONS,
      },
      { kind: "export" },
    ],
    exportName: "child-projects",
  };
}

const PROJECT_TABS: PageTab[] = [
  { label: "Projects", to: "/admin/project" },
  { label: "Projects External", to: "/admin/project/fetch" },
];

/** Projects and Projects External; a role sees only the tabs it may open. */
export function useProjectTabs(): PageTab[] {
  const role = useAuth((s) => s.admin?.role);
  return role ? PROJECT_TABS.filter((t) => canOpenScreen(role, t.to)) : [];
}

// ---------------------------------------------------------------- status

export const STATUS_TONES: Record<string, BadgeTone> = Object.fromEntries(
  PROJECT_STATUS_LIST.map((s) => [s.value, s.color as BadgeTone]),
);

// ---------------------------------------------------------------- figures

/** Completes over finished outcomes (complete, terminate), as a whole percent; null before any. */
export function incidence(p: Pick<Counters, "complete" | "terminate">): number | null {
  const base = p.complete + p.terminate;
  return base > 0 ? Math.round((p.complete / base) * 100) : null;
}

/** Completes over clicks, as a whole percent; null before any click. */
export function conversion(p: Pick<Counters, "complete" | "clicked">): number | null {
  return p.clicked > 0 ? Math.round((p.complete / p.clicked) * 100) : null;
}

// ---------------------------------------------------------------- return links, security, pre-screen

/** A return link as the server builds it (the router's own builder). */
export type ReturnLink = { label: string; url: string };

/** The projects list metadata: the toolbar's 'url' and 'notify' links. */
export type ProjectsListMeta = { postBacks?: ReturnLink[]; notifyUrls?: ReturnLink[] };

export type SigningKey = { projectId: string; projectCode: string; secured: boolean; key: string | null };

/** GET /admin/project/:id: the Redirects grid and how a secured project's returns are signed. */
export type ProjectRedirects = {
  redirects: ReturnLink[];
  signing: { required: boolean; method: string; keysShown: boolean; keys: SigningKey[] };
};

/** POST /admin/project/security/stat/:id: the figures per reason, in total and per child and supplier. */
export type SecurityStats = {
  total: SecurityFigures;
  rows: (SecurityFigures & {
    projectId: string;
    projectCode: string;
    supplierId: string;
    supplierName: string;
  })[];
  checks: { projectId: string; projectCode: string; checks: string[]; devices: string[] }[];
};

/** GET /admin/project/questions/group/:id: the Prescreen Data question choices. */
export type GroupQuestion = { value: string; label: string; projectId: string; projectCode: string };

// ---------------------------------------------------------------- lookups of the forms

type Named = { _id?: string; value?: string; label?: string };
const named = (r: Named) => ({ value: String(r._id ?? r.value ?? ""), label: String(r.label ?? r._id) });

export { LANGUAGES } from "../common/lookups.ts";
export const CURRENCIES: OptionsSource = { path: "/admin/currencies", map: named };
export const CATEGORIES: OptionsSource = {
  path: "/admin/categories/all",
  map: (c: Named & { categoryTitle?: string }) => ({
    value: String(c._id ?? ""),
    label: String(c.categoryTitle ?? c.label ?? c._id),
  }),
};
/** Parent projects to add a child under (GET /admin/projects/all?type=1). */
export const PARENT_PROJECTS: OptionsSource = {
  path: "/admin/projects/all?type=1",
  map: (p: Named & { projectCode?: string; projectName?: string }) => ({
    value: String(p._id ?? ""),
    label: `${p.projectCode} - ${p.projectName}`,
  }),
};

/** Cache keys shared by the screens. */
export const projectKey = (id: string | undefined) => ["project", id] as const;
export const childrenKey = (parentId: string | null | undefined) => ["project-children", parentId] as const;
export const supplierMapsKey = (projectId: string) => ["supplier-maps", projectId] as const;

/** Date helpers of the child form: today and a month later as yyyy-MM-dd (local time). */
export function isoDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${
    String(d.getDate()).padStart(2, "0")
  }`;
}
export function monthAfter(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  const next = new Date(y, m, d); // month index m = the next month
  // 31 January -> 28/29 February, not 2/3 March
  if (next.getDate() !== d) next.setDate(0);
  return isoDay(next);
}
