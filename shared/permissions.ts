/**
 * The one permission table: every screen route and every API call of both spec parts, with the
 * roles allowed. The server refuses (403) any call whose role is not listed; the web app uses the
 * same table for its routes (a wrong role goes to /404) and its navigation.
 */
import type { Role } from "./roles.ts";

const R = {
  ALL_STAFF: ["SUBSCRIBER", "APIMANAGER", "SUPERADMIN", "ADMIN", "MANAGER", "ACCOUNTANT", "BDE"],
  PROJECT_LIST: ["SUBSCRIBER", "APIMANAGER", "SUPERADMIN", "ADMIN", "MANAGER", "BDE"],
  PROJECT_FETCH: ["SUBSCRIBER", "SUPERADMIN", "ADMIN", "MANAGER"],
  API_IMPORT: ["APIMANAGER"],
  PROJECT_EDIT: ["SUPERADMIN", "ADMIN", "APIMANAGER", "MANAGER"],
  MASTER_DATA: ["SUPERADMIN", "ADMIN", "ACCOUNTANT"],
  REPORTS: ["SUBSCRIBER", "ACCOUNTANT", "SUPERADMIN", "ADMIN", "MANAGER"],
  RECONCILE: ["SUPERADMIN", "ADMIN", "APIMANAGER", "MANAGER", "ACCOUNTANT"],
  ACCOUNTS: ["SUPERADMIN", "ADMIN", "ACCOUNTANT"],
  USERS: ["SUPERADMIN", "ADMIN"],
  /** Who may see a client's or supplier's API keys whole (everyone else sees them masked). */
  KEY_OWNERS: ["SUPERADMIN", "ADMIN"],
  LIBRARY_HOME: ["SUPERADMIN", "ADMIN", "MANAGER"],
  LIBRARY_ADMIN: ["SUPERADMIN", "ADMIN"],
  SUPPORT_HOME: ["SUBSCRIBER", "APIMANAGER", "SUPERADMIN", "ACCOUNTANT", "ADMIN", "MANAGER"],
  SUPPORT_SHORTCODE: ["SUBSCRIBER", "SUPERADMIN", "ACCOUNTANT", "ADMIN", "MANAGER"],
  SUPPORT_LOG: ["SUPERADMIN", "ACCOUNTANT", "ADMIN"],
  SUPPORT_JOB: ["SUPERADMIN", "ACCOUNTANT", "ADMIN", "MANAGER"],
  API_DOCS: ["APIMANAGER", "SUPERADMIN"],
  SUPPLIER: ["SUPPLIER"],
  /** Anyone signed in, staff or supplier. */
  ANY: ["SUBSCRIBER", "APIMANAGER", "SUPERADMIN", "ADMIN", "MANAGER", "ACCOUNTANT", "SUPPLIER", "BDE"],
} as const satisfies Record<string, readonly Role[]>;
export const ROLE_GROUPS = R;

/** Project data is read by list roles and by everyone who edits projects or works on them downstream. */
const PROJECT_READ = [...new Set([...R.PROJECT_LIST, ...R.PROJECT_EDIT, ...R.RECONCILE, ...R.REPORTS])];

// ---------------------------------------------------------------- screens
export type ScreenRule = { path: string; roles: readonly Role[] };

/** Screen routes (react-router patterns). Order matters only for readability. */
export const SCREENS: ScreenRule[] = [
  { path: "/admin/dashboard", roles: R.ALL_STAFF },
  // projects
  { path: "/admin/project", roles: R.PROJECT_LIST },
  { path: "/admin/project/fetch", roles: R.PROJECT_FETCH },
  { path: "/admin/project/add", roles: R.PROJECT_EDIT },
  { path: "/admin/project/:projectid/edit", roles: R.PROJECT_EDIT },
  { path: "/admin/project/:projectid/childs", roles: R.PROJECT_EDIT },
  { path: "/admin/project/child/add", roles: R.PROJECT_EDIT },
  { path: "/admin/project/child/:projectid/add", roles: R.PROJECT_EDIT },
  { path: "/admin/project/child/:id/edit", roles: R.PROJECT_EDIT },
  // api import
  { path: "/admin/api", roles: R.API_IMPORT },
  { path: "/admin/api/logit", roles: R.API_IMPORT },
  { path: "/admin/api/toluna", roles: R.API_IMPORT },
  { path: "/admin/api/circle", roles: R.API_IMPORT },
  { path: "/admin/api/mrkt", roles: R.API_IMPORT },
  { path: "/admin/api/mappings", roles: R.API_IMPORT },
  // clients, suppliers
  { path: "/admin/client", roles: R.MASTER_DATA },
  { path: "/admin/client/add", roles: R.MASTER_DATA },
  { path: "/admin/client/:id/edit", roles: R.MASTER_DATA },
  { path: "/admin/supplier", roles: R.MASTER_DATA },
  { path: "/admin/supplier/add", roles: R.MASTER_DATA },
  { path: "/admin/supplier/:supplierid/edit", roles: R.MASTER_DATA },
  // reports, reconcile
  { path: "/admin/report", roles: R.REPORTS },
  { path: "/admin/reconcile", roles: R.RECONCILE },
  { path: "/admin/reconcile/add", roles: R.RECONCILE },
  { path: "/admin/reconcile/:reconcileid/edit", roles: R.RECONCILE },
  // accounts
  { path: "/admin/invoice", roles: R.ACCOUNTS },
  { path: "/admin/invoice/archieved", roles: R.ACCOUNTS },
  { path: "/admin/invoice/list", roles: R.ACCOUNTS },
  { path: "/admin/invoice/supplier", roles: R.ACCOUNTS },
  { path: "/admin/invoice/supplier/list", roles: R.ACCOUNTS },
  { path: "/admin/invoice/supplier/:supplierid/list", roles: R.ACCOUNTS },
  { path: "/admin/invoice/generate", roles: R.ACCOUNTS },
  { path: "/admin/invoice/generate/manual", roles: R.ACCOUNTS },
  { path: "/admin/invoice/generate/:id/edit", roles: R.ACCOUNTS },
  { path: "/admin/invoice/add", roles: R.ACCOUNTS },
  { path: "/admin/invoice/:projectid/edit", roles: R.ACCOUNTS },
  { path: "/admin/invoice/view/:invoiceid", roles: R.ACCOUNTS },
  { path: "/admin/invoice/status/:invoiceid/edit", roles: R.ACCOUNTS },
  { path: "/admin/invoice/companies", roles: ["SUPERADMIN"] },
  // users
  { path: "/admin/user", roles: R.USERS },
  { path: "/admin/user/supplier", roles: R.USERS },
  { path: "/admin/user/add", roles: R.USERS },
  { path: "/admin/user/:id/edit", roles: R.USERS },
  // library
  { path: "/admin/library", roles: R.LIBRARY_HOME },
  { path: "/admin/library/category/add", roles: R.LIBRARY_HOME },
  { path: "/admin/library/category/:catid/edit", roles: R.LIBRARY_HOME },
  { path: "/admin/support/category/:id/edit", roles: R.LIBRARY_HOME },
  { path: "/admin/library/question", roles: R.LIBRARY_ADMIN },
  { path: "/admin/library/question/add", roles: R.LIBRARY_ADMIN },
  { path: "/admin/library/question/:questionid/edit", roles: R.LIBRARY_ADMIN },
  { path: "/admin/library/rule", roles: R.LIBRARY_ADMIN },
  { path: "/admin/library/rule/add", roles: R.LIBRARY_ADMIN },
  { path: "/admin/library/rule/:ruleid/edit", roles: R.LIBRARY_ADMIN },
  { path: "/admin/library/qualification", roles: R.LIBRARY_ADMIN },
  // support
  { path: "/admin/support", roles: R.SUPPORT_HOME },
  { path: "/admin/support/shortcode", roles: R.SUPPORT_SHORTCODE },
  { path: "/admin/support/log", roles: R.SUPPORT_LOG },
  { path: "/admin/support/job", roles: R.SUPPORT_JOB },
  { path: "/admin/support/job/add", roles: R.SUPPORT_JOB },
  { path: "/admin/support/job/:jobid/edit", roles: R.SUPPORT_JOB },
  { path: "/admin/support/job/:jobid", roles: R.SUPPORT_JOB },
  // operations (issue 16): scheduled backups, the API reference
  { path: "/admin/support/backups", roles: R.SUPPORT_LOG },
  { path: "/admin/support/email", roles: R.SUPPORT_LOG },
  { path: "/admin/support/api-reference", roles: R.API_DOCS },
  // supplier portal
  { path: "/supplier/project", roles: R.SUPPLIER },
  { path: "/supplier/inventory", roles: R.SUPPLIER },
  { path: "/supplier/api", roles: R.SUPPLIER },
];

/** Top navigation (part 1, 2.2): shown when the role may open the entry's screen. */
export type NavEntry = { label: string; path: string; visible: boolean };
export const NAVIGATION: NavEntry[] = [
  { label: "Dashboard", path: "/admin/dashboard", visible: true },
  { label: "Projects", path: "/admin/project", visible: true },
  { label: "Api Projects", path: "/admin/api", visible: true },
  { label: "Clients", path: "/admin/client", visible: true },
  { label: "Suppliers", path: "/admin/supplier", visible: true },
  { label: "Reports", path: "/admin/report", visible: true },
  { label: "Reconciles", path: "/admin/reconcile", visible: true },
  { label: "Accounts", path: "/admin/invoice", visible: true },
  { label: "Users", path: "/admin/user", visible: true },
  { label: "Library", path: "/admin/library", visible: true },
  { label: "Support", path: "/admin/support", visible: true },
  { label: "Projects", path: "/supplier/project", visible: true },
  { label: "Inventory", path: "/supplier/inventory", visible: true },
  { label: "API", path: "/supplier/api", visible: true },
];

function patternMatches(pattern: string, path: string): boolean {
  const a = pattern.split("/").filter(Boolean);
  const b = path.split("?")[0].split("/").filter(Boolean);
  if (a.length !== b.length) return false;
  return a.every((seg, i) => seg.startsWith(":") ? b[i].length > 0 : seg === b[i]);
}

/** The screen rule for a concrete path, preferring literal segments over parameters. */
export function screenRuleFor(path: string): ScreenRule | undefined {
  const hits = SCREENS.filter((s) => patternMatches(s.path, path));
  hits.sort((x, y) => (x.path.match(/:/g)?.length ?? 0) - (y.path.match(/:/g)?.length ?? 0));
  return hits[0];
}

export function canOpenScreen(role: Role, path: string): boolean {
  const rule = screenRuleFor(path);
  return !!rule && rule.roles.includes(role);
}

export function navigationFor(role: Role): NavEntry[] {
  return NAVIGATION.filter((n) => n.visible && canOpenScreen(role, n.path));
}

// ---------------------------------------------------------------- API calls
/** Key: "METHOD /path" relative to /api/v1, with Hono-style :params. */
export const API: Record<string, readonly Role[]> = {
  // session
  "POST /admin/logout": R.ANY,
  // who is signed in: staff under /admin, supplier users under /supplier (they reach no other /admin call)
  "GET /admin/me": R.ALL_STAFF,
  "GET /supplier/me": R.SUPPLIER,
  // dashboard
  "POST /admin/dashboard/box/data": R.ALL_STAFF,
  "POST /admin/dashboard/routed/data": R.ALL_STAFF,
  "POST /admin/dashboard/pm/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/list/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/list/security/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/invoice/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/status/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/revenue/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/expense/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/traffic/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/security/data": R.ALL_STAFF,
  "POST /admin/dashboard/project/expense/revenue/data": R.ALL_STAFF,
  // live figures: a ticket (authenticated POST), then the event stream opened with it
  "POST /admin/dashboard/live/ticket": R.ALL_STAFF,
  "GET /admin/dashboard/live": R.ALL_STAFF,
  // lookups
  "GET /admin/countries": R.ALL_STAFF,
  "GET /admin/languages": R.ALL_STAFF,
  "GET /admin/currencies": R.ALL_STAFF,
  "POST /admin/regions": R.ALL_STAFF,
  "POST /admin/cities": R.ALL_STAFF,
  "GET /admin/users/role/bde": R.ALL_STAFF,
  "GET /admin/users/all": R.ALL_STAFF,
  "GET /admin/usersall": R.ALL_STAFF,
  // projects
  "POST /admin/projects": R.PROJECT_LIST,
  "GET /admin/projects/all": PROJECT_READ,
  "POST /admin/archieved/projects": R.ACCOUNTS,
  "POST /admin/invoice/projects": R.ACCOUNTS,
  "POST /admin/invoice/projects/all": R.ACCOUNTS,
  "POST /admin/project/childs/:id": PROJECT_READ,
  "POST /admin/project/childs/search/all": PROJECT_READ,
  "GET /admin/project/child/all/:parentProjectId": PROJECT_READ,
  "POST /admin/project/report/data": PROJECT_READ,
  "POST /admin/project/report/totals": PROJECT_READ,
  "POST /admin/project/prescreen/report": PROJECT_READ,
  "POST /admin/project/group/report": PROJECT_READ,
  "POST /admin/project/suppliermap/report": PROJECT_READ,
  "POST /admin/project/group/prescreen/report": PROJECT_READ,
  "POST /admin/project/child/report": PROJECT_READ,
  "GET /admin/project/questions/group/:projectId": PROJECT_READ,
  "POST /admin/project/excluded/:id": R.PROJECT_EDIT,
  "POST /admin/project/exclude/add": R.PROJECT_EDIT,
  "PUT /admin/project/exclude/update/:id": R.PROJECT_EDIT,
  "POST /admin/project/add": R.PROJECT_EDIT,
  "PUT /admin/project/update/:id": R.PROJECT_EDIT,
  "GET /admin/project/:id": PROJECT_READ,
  /** A child's signing key whole, for those who may edit projects (the record shows it masked). */
  "POST /admin/project/:id/signing-key": R.PROJECT_EDIT,
  "PUT /admin/project/code/update/:projectCode": R.PROJECT_EDIT,
  "POST /admin/project/clone/:projectId": R.PROJECT_EDIT,
  "POST /admin/project/supplier/stat/:projectId": PROJECT_READ,
  "POST /admin/project/security/stat/:projectId": PROJECT_READ,
  "GET /admin/project/progress/:projectId": PROJECT_READ,
  "POST /admin/system/log": [...new Set([...PROJECT_READ, ...R.SUPPORT_LOG])],
  "GET /admin/quotas/all/:projectId": R.PROJECT_EDIT,
  "POST /admin/quota/add/:projectId": R.PROJECT_EDIT,
  "PUT /admin/quota/update/:quotaId/:projectId": R.PROJECT_EDIT,
  "PUT /admin/quota/sample/update/:quotaId/:projectId": R.PROJECT_EDIT,
  "GET /admin/project/questions/:projectId": R.PROJECT_EDIT,
  "POST /admin/project/question/add": R.PROJECT_EDIT,
  "PUT /admin/survey/question/update/:questionId": R.PROJECT_EDIT,
  "PUT /admin/survey/question/update/all/:id": R.PROJECT_EDIT,
  // supplier maps
  "POST /admin/supplierMaps": R.PROJECT_EDIT,
  "POST /admin/supplierMap/add": R.PROJECT_EDIT,
  "PUT /admin/supplierMap/update/:id": R.PROJECT_EDIT,
  "GET /admin/supplierMap/:id": R.PROJECT_EDIT,
  "GET /admin/supplierMap": R.PROJECT_EDIT,
  "POST /admin/project/supplier/report": PROJECT_READ,
  "POST /admin/suppliers/summary": [...new Set([...R.RECONCILE, ...PROJECT_READ])],
  "POST /admin/suppliers/approve/summary": R.RECONCILE,
  // e-mail
  "POST /admin/email/supplier/bulk/send": R.MASTER_DATA,
  "POST /admin/email/send": R.PROJECT_EDIT,
  "POST /admin/email/send/map": R.PROJECT_EDIT,
  "POST /admin/email/send/report": R.PROJECT_EDIT,
  "POST /admin/email/send/quota": R.PROJECT_EDIT,
  // clients
  "POST /admin/clients": R.MASTER_DATA,
  "GET /admin/clients/all": R.ALL_STAFF,
  "GET /admin/clients/invoice/all": R.ACCOUNTS,
  "POST /admin/clients/filter/all": R.ALL_STAFF,
  "POST /admin/client/add": R.MASTER_DATA,
  "PUT /admin/client/update/:id": R.MASTER_DATA,
  "GET /admin/client/:id": R.MASTER_DATA,
  "POST /admin/client/:id/keys": R.KEY_OWNERS,
  // suppliers
  "POST /admin/suppliers": R.MASTER_DATA,
  "GET /admin/suppliers/all": R.ALL_STAFF,
  "POST /admin/supplier/finances/all": R.ACCOUNTS,
  "POST /admin/supplier/add": R.MASTER_DATA,
  "PUT /admin/supplier/update/:id": R.MASTER_DATA,
  "POST /admin/supplier/:id": R.MASTER_DATA,
  "POST /admin/supplier/:id/keys": R.KEY_OWNERS,
  // a supplier's API keys for /supply/v1 (issue 23): whoever edits suppliers
  "GET /admin/supplier/:id/api-keys": R.MASTER_DATA,
  "POST /admin/supplier/:id/api-keys": R.MASTER_DATA,
  "PUT /admin/supplier/:id/api-keys/:keyId": R.MASTER_DATA,
  "POST /admin/supplier/:id/api-keys/:keyId/revoke": R.MASTER_DATA,
  "POST /admin/supplier/:id/callbacks": R.MASTER_DATA,
  "POST /admin/supplier/:id/callbacks/:callbackId/redeliver": R.MASTER_DATA,
  // respondent profiles: the suppliers' and support's staff (the same roles)
  "GET /admin/supplier/profile/settings": R.MASTER_DATA,
  "PUT /admin/supplier/profile/settings": R.MASTER_DATA,
  "POST /admin/supplier/:id/profile/erase": R.MASTER_DATA,
  // accounts
  "POST /admin/invoices": R.ACCOUNTS,
  "POST /admin/invoices/supplier": R.ACCOUNTS,
  "POST /admin/invoice/add": R.ACCOUNTS,
  "POST /admin/invoice/download/:id": R.ACCOUNTS,
  "PUT /admin/invoice/update/:id": R.ACCOUNTS,
  "GET /admin/invoice/code/get": R.ACCOUNTS,
  "GET /admin/invoice/:id": R.ACCOUNTS,
  "GET /admin/invoice/project/:projectId": R.ACCOUNTS,
  "POST /admin/invoice/upload": R.ACCOUNTS,
  "POST /admin/invoice/supplier/upload": R.ACCOUNTS,
  "POST /admin/invoice/supplier/add": R.ACCOUNTS,
  "POST /admin/invoice/supplier/download/:id": R.ACCOUNTS,
  "POST /admin/project/reconsile/supplier/:supplierId": R.ACCOUNTS,
  "POST /admin/invoice/manual/add": R.ACCOUNTS,
  // the issuing companies invoices and POs come from: everyone in accounts reads, a SUPERADMIN edits
  "GET /admin/issuing-companies": R.ACCOUNTS,
  "PUT /admin/issuing-company/update/:id": ["SUPERADMIN"],
  // reconcile
  "POST /admin/reconcile/projects": R.RECONCILE,
  "POST /admin/project/revoke/:id": R.RECONCILE,
  "POST /admin/project/reconsile/undo/:id": R.RECONCILE,
  "POST /admin/project/reconsile/:id": R.RECONCILE,
  "GET /admin/reconcile/unknown/:id": R.RECONCILE,
  "PUT /admin/project/reconsile/update/:id": R.RECONCILE,
  // reports
  "POST /admin/supplier/report/data": R.REPORTS,
  "POST /admin/supplier/report/totals": R.REPORTS,
  "POST /admin/project/identifiers/report": [...new Set([...R.REPORTS, ...R.SUPPORT_HOME])],
  "POST /admin/identifiers/report": R.SUPPORT_HOME,
  // library
  "POST /admin/supplier/rules/data": R.LIBRARY_ADMIN,
  "POST /admin/supplier/rule/add": R.LIBRARY_ADMIN,
  "PUT /admin/supplier/rule/update/:id": R.LIBRARY_ADMIN,
  "GET /admin/supplier/rule/:id": R.LIBRARY_ADMIN,
  "POST /admin/categories": R.LIBRARY_HOME,
  "GET /admin/categories/all": R.ALL_STAFF,
  "POST /admin/category/add": R.LIBRARY_HOME,
  "PUT /admin/category/update/:id": R.LIBRARY_HOME,
  "GET /admin/category/:id": R.LIBRARY_HOME,
  "GET /admin/questions/temp": [...new Set([...R.LIBRARY_ADMIN, ...R.PROJECT_EDIT])],
  "POST /admin/question/temp/add": R.LIBRARY_ADMIN,
  "PUT /admin/survey/question/temp/update/:id": R.LIBRARY_ADMIN,
  "PUT /admin/question/temp/reorder": R.LIBRARY_ADMIN,
  "GET /admin/question/temp/:id": R.LIBRARY_ADMIN,
  "GET /admin/qualifications/all": [...new Set([...R.LIBRARY_ADMIN, ...R.PROJECT_EDIT])],
  "POST /admin/qualification/add": R.LIBRARY_ADMIN,
  "PUT /admin/qualification/update/:id": R.LIBRARY_ADMIN,
  // support
  "POST /admin/projects/identifier": R.SUPPORT_HOME,
  "POST /admin/shortcode": R.SUPPORT_SHORTCODE,
  "POST /admin/schedule/jobs": R.SUPPORT_JOB,
  "POST /admin/schedule/job/add": R.SUPPORT_JOB,
  "PUT /admin/schedule/job/update/:id": R.SUPPORT_JOB,
  "GET /admin/schedule/job/:id": R.SUPPORT_JOB,
  // operations (issue 16)
  "GET /admin/support/backups": R.SUPPORT_LOG,
  // Support > E-mail: the outbox (issue 25), for whoever reads the System Logs
  "POST /admin/email/outbox": R.SUPPORT_LOG,
  "GET /admin/email/outbox/:id": R.SUPPORT_LOG,
  "POST /admin/email/outbox/:id/resend": R.SUPPORT_LOG,
  "POST /admin/email/outbox/:id/cancel": R.SUPPORT_LOG,
  "GET /admin/support/api-reference": R.API_DOCS,
  // users
  "POST /admin/users": R.USERS,
  "POST /admin/users/supplier": R.USERS,
  "POST /admin/user/add": R.USERS,
  "PUT /admin/user/update/:id": R.USERS,
  "GET /admin/user/:id": R.USERS,
  // external providers
  "POST /admin/project/api/precision/request": R.API_IMPORT,
  "POST /admin/project/api/circle/request": R.API_IMPORT,
  "POST /admin/project/api/logit/request": R.API_IMPORT,
  "POST /admin/project/api/toluna/request": R.API_IMPORT,
  "POST /admin/project/api/mrkt/request": R.API_IMPORT,
  "POST /admin/project/api/logit/quota/all": R.API_IMPORT,
  "POST /admin/project/api/toluna/quota/all": R.API_IMPORT,
  "POST /admin/project/api/toluna/questions/all": R.API_IMPORT,
  "POST /admin/project/api/mrkt/quota/all": R.API_IMPORT,
  // the provider answer <-> library option mappings (seen and corrected by API managers)
  "POST /admin/project/api/mappings/list": R.API_IMPORT,
  "PUT /admin/project/api/mappings/:id": R.API_IMPORT,
  "POST /admin/project/precision/api/add": R.API_IMPORT,
  "POST /admin/project/logit/api/add": R.API_IMPORT,
  "POST /admin/project/circle/api/add": R.API_IMPORT,
  "POST /admin/project/mrkt/api/add": R.API_IMPORT,
  "POST /admin/project/toluna/api/add": R.API_IMPORT,
  "POST /admin/project/external/list": R.PROJECT_FETCH,
  "POST /admin/project/external/add": R.PROJECT_FETCH,
  "POST /admin/project/external/offers": R.PROJECT_FETCH,
  "POST /admin/project/external/quotas": R.PROJECT_FETCH,
  // supplier portal
  "POST /supplier/project/mapped": R.SUPPLIER,
  "POST /supplier/project/inventory": R.SUPPLIER,
  "PUT /supplier/project/inventory/:id/update": R.SUPPLIER,
  "POST /supplier/project/supplier/report": R.SUPPLIER,
  // the supplier dashboard at the top of the portal (its own figures only)
  "POST /supplier/dashboard/data": R.SUPPLIER,
  // the portal's API page: the supplier's own keys
  "GET /supplier/api-keys": R.SUPPLIER,
  "POST /supplier/api-keys": R.SUPPLIER,
  "PUT /supplier/api-keys/:keyId": R.SUPPLIER,
  "POST /supplier/api-keys/:keyId/revoke": R.SUPPLIER,
  "POST /supplier/callbacks": R.SUPPLIER,
  "POST /supplier/callbacks/:callbackId/redeliver": R.SUPPLIER,
  "GET /supplier/callback-urls": R.SUPPLIER,
  "PUT /supplier/callback-urls": R.SUPPLIER,
  "POST /supplier/callback-secret": R.SUPPLIER,
  "POST /supplier/callback-secret/rotate": R.SUPPLIER,
};

export function apiRoles(key: string): readonly Role[] {
  const roles = API[key];
  if (!roles) throw new Error(`No permission entry for "${key}": add it to shared/permissions.ts`);
  return roles;
}
