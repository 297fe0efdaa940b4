/**
 * Projects area (part 1, 2.6 and 2.8): the record shapes the API answers with, the list
 * declarations, the tab strip, status helpers, the shapes of the return links, security stats and
 * pre-screen choices the server answers with, and the lookups the forms pick from.
 */
import { canOpenScreen } from "../../../../shared/permissions.ts";
import { PROJECT_STATUS_LIST } from "../../../../shared/status.ts";
import {
  childProjectsList,
  type ProjectCounters,
  projectOptionsCall,
  type ProjectRow,
  projectsList as projects,
} from "../../../../shared/api/projects.ts";
import type { ListDecl, OptionsSource } from "../../components/data-grid/types.ts";
import type { PageTab } from "../../components/layout/PageHeader.tsx";
import type { BadgeTone } from "../../components/ui/badge.tsx";
import { useAuth } from "../../lib/auth.ts";
import { CLIENTS } from "../../lib/lookups.ts";
import { userOptionsCall } from "../../../../shared/api/users.ts";
import { currenciesCall } from "../../../../shared/api/lookups.ts";
import { categoryOptionsCall } from "../../../../shared/api/library.ts";

export type {
  ChildOption,
  ProjectCounters as Counters,
  ProjectRecord,
  ProjectRedirects,
  ProjectRow,
  ProjectSecurityFlags as SecurityFlags,
  ProjectsListMeta,
  ReturnLink,
  SigningKey,
} from "../../../../shared/api/projects.ts";
export type {
  SupplierMapRecord as SupplierMapRow,
  SupplierStat,
} from "../../../../shared/api/supplier-maps.ts";
export type { GroupQuestion, SecurityStats } from "../../../../shared/api/project-reports.ts";
/** A row of the project's Logs dialog (the system log's project timeline). */
export type { ProjectLogEntry as LogItem } from "../../../../shared/api/system-log.ts";

// ---------------------------------------------------------------- lists

export const STATUS_OPTIONS = PROJECT_STATUS_LIST.map((s) => ({ value: String(s.value), label: s.label }));

/** Staff who may manage a project (supplier logins are left out). */
export const MANAGERS: OptionsSource = {
  call: userOptionsCall,
  map: (u: { _id?: string; label?: string; role?: string; firstName?: string; lastName?: string }) => ({
    value: u.role === "SUPPLIER" ? "" : String(u._id ?? ""),
    label: String(u.label ?? `${u.firstName ?? ""} ${u.lastName ?? ""}`.trim()),
  }),
};

type ProjectFilter = "clientId" | "userId" | "projectStatus" | "countryId" | "parentProjectId";

export const projectsList: ListDecl<ProjectRow, ProjectFilter> = {
  list: projects,
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
};

/** A parent's children: the declared child list, its parent as the call's id and a fixed filter. */
export function childsList(parentId: string): ListDecl<ProjectRow, ProjectFilter> {
  return {
    list: childProjectsList,
    params: { id: parentId },
    // also names the parent in the cache key: each parent's pages are their own
    fixedFilter: { parentProjectId: parentId },
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
export function incidence(p: Pick<ProjectCounters, "complete" | "terminate">): number | null {
  const base = p.complete + p.terminate;
  return base > 0 ? Math.round((p.complete / base) * 100) : null;
}

/** Completes over clicks, as a whole percent; null before any click. */
export function conversion(p: Pick<ProjectCounters, "complete" | "clicked">): number | null {
  return p.clicked > 0 ? Math.round((p.complete / p.clicked) * 100) : null;
}

// ---------------------------------------------------------------- lookups of the forms

type Named = { _id?: string; value?: string; label?: string };
const named = (r: Named) => ({ value: String(r._id ?? r.value ?? ""), label: String(r.label ?? r._id) });

export { LANGUAGES } from "../../lib/lookups.ts";
export const CURRENCIES: OptionsSource = { call: currenciesCall, map: named };
export const CATEGORIES: OptionsSource = {
  call: categoryOptionsCall,
  map: (c: Named & { categoryTitle?: string }) => ({
    value: String(c._id ?? ""),
    label: String(c.categoryTitle ?? c.label ?? c._id),
  }),
};
/** Parent projects to add a child under (GET /admin/projects/all?type=1). */
export const PARENT_PROJECTS: OptionsSource = {
  call: projectOptionsCall,
  query: { type: "1" },
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
