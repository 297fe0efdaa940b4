/** Every area's routes, registered on one Api (each call checked against shared/permissions.ts). */
import type { Api } from "../http/api.ts";
import { lookupRoutes } from "./lookups.ts";
import { sessionRoutes } from "./session.ts";
import { userRoutes } from "./users.ts";
import { clientRoutes } from "./clients.ts";
import { supplierRoutes } from "./suppliers.ts";
import { libraryRoutes } from "./library.ts";
import { emailRoutes } from "./email.ts";
import { projectRoutes } from "./projects.ts";
import { supplierMapRoutes } from "./supplier-maps.ts";
import { systemLogRoutes } from "./system-log.ts";
import { projectPartRoutes } from "./project-parts.ts";
import { projectEmailRoutes } from "./project-emails.ts";
import { projectReportRoutes } from "./project-reports.ts";
import { dashboardRoutes } from "./dashboard.ts";
import { supportRoutes } from "./support.ts";
import { opsRoutes } from "./ops.ts";
import { reconcileRoutes } from "./reconcile.ts";
import { accountRoutes } from "./accounts.ts";
import { providerRoutes } from "./providers.ts";
import { reportRoutes } from "./reports.ts";
import { portalRoutes } from "./portal.ts";
import { supplierApiKeyRoutes } from "./supplier-api-keys.ts";

export function registerRoutes(api: Api) {
  sessionRoutes(api);
  userRoutes(api);
  clientRoutes(api);
  libraryRoutes(api);
  supplierRoutes(api);
  emailRoutes(api);
  lookupRoutes(api);
  projectRoutes(api);
  supplierMapRoutes(api);
  systemLogRoutes(api);
  projectPartRoutes(api);
  projectEmailRoutes(api);
  projectReportRoutes(api);
  dashboardRoutes(api);
  supportRoutes(api);
  opsRoutes(api);
  reconcileRoutes(api);
  accountRoutes(api);
  providerRoutes(api);
  reportRoutes(api);
  portalRoutes(api);
  supplierApiKeyRoutes(api);
}
