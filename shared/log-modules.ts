/**
 * The modules that write the system log (Support > System Logs' module filter, part 2). One
 * declaration: `writeLog` takes only these names (a type error otherwise), and the filter lists them,
 * so a module that starts writing cannot be missing from the filter again.
 */
export const LOG_MODULES = [
  "Projects",
  "Api Projects",
  "Clients",
  "Suppliers",
  "Accounts",
  "Reconcile",
  "Users",
  "Categories",
  "Questions",
  "Qualifications",
  "Supplier Rules",
  "E-mail",
  "Scheduled Jobs",
  "Session",
] as const;

export type LogModule = (typeof LOG_MODULES)[number];
