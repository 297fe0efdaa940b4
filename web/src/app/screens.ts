/**
 * Every screen route of the permission table (shared/permissions.ts SCREENS) with its title and the
 * lazy module that renders it.
 */
import type { ComponentType } from "react";
import { SCREENS } from "../../../shared/permissions.ts";

type Loader = () => Promise<{ default: ComponentType }>;
/** A screen: its title, its area, and the module that renders it. */
export type ScreenDef = { title: string; area: string; load: Loader };

const usersList: Loader = () => import("../features/users/UsersListPage.tsx");
const userForm: Loader = () => import("../features/users/UserFormPage.tsx");
const clientsList: Loader = () => import("../features/clients/ClientsListPage.tsx");
const clientForm: Loader = () => import("../features/clients/ClientFormPage.tsx");
const suppliersList: Loader = () => import("../features/suppliers/SuppliersListPage.tsx");
const supplierForm: Loader = () => import("../features/suppliers/SupplierFormPage.tsx");
const categoriesList: Loader = () => import("../features/library/CategoriesListPage.tsx");
const categoryForm: Loader = () => import("../features/library/CategoryFormPage.tsx");
const questionsPage: Loader = () => import("../features/library/QuestionsPage.tsx");
const questionForm: Loader = () => import("../features/library/QuestionFormPage.tsx");
const projectsList: Loader = () => import("../features/projects/ProjectsListPage.tsx");
const externalProjects: Loader = () => import("../features/projects/ExternalProjectsPage.tsx");
const groupProjectForm: Loader = () => import("../features/projects/GroupProjectFormPage.tsx");
const childProjects: Loader = () => import("../features/projects/ChildProjectsPage.tsx");
const childProjectAdd: Loader = () => import("../features/projects/ChildProjectAddPage.tsx");
const childProjectEdit: Loader = () => import("../features/projects/ChildProjectEditPage.tsx");
const readyToInvoice: Loader = () => import("../features/accounts/AccountProjectsPage.tsx");
const invoiceForm: Loader = () => import("../features/accounts/InvoiceFormPage.tsx");
const manualProject: Loader = () => import("../features/accounts/ManualProjectPage.tsx");
const rulesList: Loader = () => import("../features/library/RulesListPage.tsx");
const reconcileList: Loader = () => import("../features/reconcile/ReconcileListPage.tsx");
const reconcileForm: Loader = () => import("../features/reconcile/ReconcileFormPage.tsx");
const ruleForm: Loader = () => import("../features/library/RuleFormPage.tsx");
const providerOffers: Loader = () => import("../features/imports/ProviderOffersPage.tsx");
const jobForm: Loader = () => import("../features/support/JobFormPage.tsx");

export const SCREEN_DEFS: Record<string, ScreenDef> = {
  "/admin/dashboard": {
    title: "Dashboard",
    area: "Dashboard",
    load: () => import("../features/dashboard/DashboardPage.tsx"),
  },
  // projects
  "/admin/project": { title: "Projects", area: "Projects", load: projectsList },
  "/admin/project/fetch": { title: "Projects External", area: "Projects", load: externalProjects },
  "/admin/project/add": { title: "Add Project", area: "Projects", load: groupProjectForm },
  "/admin/project/:projectid/edit": { title: "Edit Project", area: "Projects", load: groupProjectForm },
  "/admin/project/:projectid/childs": { title: "Child Projects", area: "Projects", load: childProjects },
  "/admin/project/child/add": { title: "Add Child Project", area: "Projects", load: childProjectAdd },
  "/admin/project/child/:projectid/add": {
    title: "Add Child Project",
    area: "Projects",
    load: childProjectAdd,
  },
  "/admin/project/child/:id/edit": { title: "Edit Child Project", area: "Projects", load: childProjectEdit },
  // api import
  "/admin/api": { title: "Precision", area: "Api Projects", load: providerOffers },
  "/admin/api/logit": { title: "Logit", area: "Api Projects", load: providerOffers },
  "/admin/api/toluna": { title: "Toulna", area: "Api Projects", load: providerOffers },
  "/admin/api/circle": { title: "Circle", area: "Api Projects", load: providerOffers },
  "/admin/api/mrkt": { title: "UniMrkt", area: "Api Projects", load: providerOffers },
  "/admin/api/mappings": {
    title: "Mappings",
    area: "Api Projects",
    load: () => import("../features/imports/MappingsPage.tsx"),
  },
  // clients, suppliers
  "/admin/client": { title: "Clients", area: "Clients", load: clientsList },
  "/admin/client/add": { title: "Add Client", area: "Clients", load: clientForm },
  "/admin/client/:id/edit": { title: "Edit Client", area: "Clients", load: clientForm },
  "/admin/supplier": { title: "Suppliers", area: "Suppliers", load: suppliersList },
  "/admin/supplier/add": { title: "Add Supplier", area: "Suppliers", load: supplierForm },
  "/admin/supplier/:supplierid/edit": { title: "Edit Supplier", area: "Suppliers", load: supplierForm },
  // reports, reconcile
  "/admin/report": {
    title: "Reports",
    area: "Reports",
    load: () => import("../features/reports/ReportsPage.tsx"),
  },
  "/admin/reconcile": { title: "Reconcile", area: "Reconciles", load: reconcileList },
  "/admin/reconcile/add": { title: "Add Reconcile", area: "Reconciles", load: reconcileForm },
  "/admin/reconcile/:reconcileid/edit": { title: "Edit Reconcile", area: "Reconciles", load: reconcileForm },
  // accounts
  "/admin/invoice": { title: "Ready To Invoice", area: "Accounts", load: readyToInvoice },
  "/admin/invoice/archieved": {
    title: "Archieved",
    area: "Accounts",
    load: () => import("../features/accounts/ArchievedPage.tsx"),
  },
  "/admin/invoice/list": {
    title: "Invoices",
    area: "Accounts",
    load: () => import("../features/accounts/InvoicesListPage.tsx"),
  },
  "/admin/invoice/supplier": {
    title: "Finances",
    area: "Accounts",
    load: () => import("../features/accounts/FinancesPage.tsx"),
  },
  "/admin/invoice/supplier/list": {
    title: "Purchase Order",
    area: "Accounts",
    load: () => import("../features/accounts/PurchaseOrdersPage.tsx"),
  },
  "/admin/invoice/supplier/:supplierid/list": {
    title: "Supplier Projects",
    area: "Accounts",
    load: () => import("../features/accounts/SupplierProjectsPage.tsx"),
  },
  "/admin/invoice/generate": { title: "Generate Invoice", area: "Accounts", load: invoiceForm },
  "/admin/invoice/generate/manual": {
    title: "Generate Invoice Manual",
    area: "Accounts",
    load: manualProject,
  },
  "/admin/invoice/generate/:id/edit": { title: "Edit Invoice", area: "Accounts", load: invoiceForm },
  "/admin/invoice/add": { title: "Add Invoice", area: "Accounts", load: manualProject },
  "/admin/invoice/:projectid/edit": {
    title: "Edit Invoice",
    area: "Accounts",
    load: () => import("../features/accounts/ProjectInvoicePage.tsx"),
  },
  "/admin/invoice/view/:invoiceid": {
    title: "Invoice",
    area: "Accounts",
    load: () => import("../features/accounts/InvoiceViewPage.tsx"),
  },
  "/admin/invoice/status/:invoiceid/edit": {
    title: "Edit Invoice",
    area: "Accounts",
    load: () => import("../features/accounts/InvoiceStatusPage.tsx"),
  },
  "/admin/invoice/companies": {
    title: "Issuing companies",
    area: "Accounts",
    load: () => import("../features/accounts/IssuingCompaniesPage.tsx"),
  },
  // users
  "/admin/user": { title: "Users", area: "Users", load: usersList },
  "/admin/user/supplier": { title: "Users", area: "Users", load: usersList },
  "/admin/user/add": { title: "Add User", area: "Users", load: userForm },
  "/admin/user/:id/edit": { title: "Edit User", area: "Users", load: userForm },
  // library
  "/admin/library": { title: "Categories", area: "Library", load: categoriesList },
  "/admin/library/category/add": { title: "Add Category", area: "Library", load: categoryForm },
  "/admin/library/category/:catid/edit": { title: "Edit Category", area: "Library", load: categoryForm },
  "/admin/support/category/:id/edit": { title: "Edit Category", area: "Library", load: categoryForm },
  "/admin/library/question": { title: "Questions", area: "Library", load: questionsPage },
  "/admin/library/question/add": { title: "Add Question", area: "Library", load: questionForm },
  "/admin/library/question/:questionid/edit": { title: "Edit Question", area: "Library", load: questionForm },
  "/admin/library/rule": { title: "Supplier Rules", area: "Library", load: rulesList },
  "/admin/library/rule/add": { title: "Add Supplier Rule", area: "Library", load: ruleForm },
  "/admin/library/rule/:ruleid/edit": { title: "Edit Supplier Rule", area: "Library", load: ruleForm },
  "/admin/library/qualification": {
    title: "Qualfications",
    area: "Library",
    load: () => import("../features/library/QualificationsPage.tsx"),
  },
  // support
  "/admin/support": {
    title: "Identifiers",
    area: "Support",
    load: () => import("../features/support/IdentifiersPage.tsx"),
  },
  "/admin/support/shortcode": {
    title: "ShortCodes",
    area: "Support",
    load: () => import("../features/support/ShortCodesPage.tsx"),
  },
  "/admin/support/log": {
    title: "System Logs",
    area: "Support",
    load: () => import("../features/support/SystemLogsPage.tsx"),
  },
  "/admin/support/job": {
    title: "Scheduled Jobs",
    area: "Support",
    load: () => import("../features/support/JobsListPage.tsx"),
  },
  "/admin/support/email": {
    title: "E-mail",
    area: "Support",
    load: () => import("../features/support/EmailOutboxPage.tsx"),
  },
  "/admin/support/job/add": { title: "Add Schedule Job", area: "Support", load: jobForm },
  "/admin/support/job/:jobid/edit": { title: "Edit Schedule Job", area: "Support", load: jobForm },
  "/admin/support/job/:jobid": { title: "Schedule Job", area: "Support", load: jobForm },
  "/admin/support/backups": {
    title: "Backups",
    area: "Support",
    load: () => import("../features/apidocs/BackupsPage.tsx"),
  },
  "/admin/support/api-reference": {
    title: "API reference",
    area: "Support",
    load: () => import("../features/apidocs/ApiReferencePage.tsx"),
  },
  // supplier portal
  "/supplier/project": {
    title: "Projects",
    area: "Supplier portal",
    load: () => import("../features/portal/SupplierProjectsPage.tsx"),
  },
  "/supplier/inventory": {
    title: "Inventory",
    area: "Supplier portal",
    load: () => import("../features/portal/InventoryPage.tsx"),
  },
  "/supplier/api": {
    title: "API",
    area: "Supplier portal",
    load: () => import("../features/portal/ApiPage.tsx"),
  },
};

/** The screens of one area ("/admin" or "/supplier"), each with its definition. */
export function screensUnder(prefix: "/admin" | "/supplier") {
  return SCREENS.filter((s) => s.path.startsWith(prefix + "/")).map((s) => ({
    ...s,
    def: SCREEN_DEFS[s.path] ?? { title: "Samplex", area: "" },
  }));
}
