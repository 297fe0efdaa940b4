/** Support area (part 2, Support): its tab strip and the grids' declarations. */
import { canOpenScreen } from "../../../../shared/permissions.ts";
import {
  type IdentifierMatch,
  identifiersList as identifiers,
  jobsList as jobs,
  type ScheduledJob,
} from "../../../../shared/api/support.ts";
import { SESSION_STATUS_LIST } from "../../../../shared/status.ts";
import type { ListDecl } from "../../components/data-grid/types.ts";
import type { PageTab } from "../../components/layout/PageHeader.tsx";
import { useAuth } from "../../lib/auth.ts";
import { systemLogList, type SystemLogRow } from "../../../../shared/api/system-log.ts";
import { EMAIL_STATES, outboxList, type OutboxMail } from "../../../../shared/api/email.ts";

export type { IdentifierMatch, ScheduledJob, ShortCodeRow } from "../../../../shared/api/support.ts";

const SUPPORT_TABS: PageTab[] = [
  { label: "Identifiers", to: "/admin/support", end: true },
  { label: "ShortCodes", to: "/admin/support/shortcode" },
  { label: "System Logs", to: "/admin/support/log" },
  { label: "Scheduled Jobs", to: "/admin/support/job" },
  { label: "E-mail", to: "/admin/support/email" },
];

/** The tab strip; a role sees only the tabs it may open. */
export function useSupportTabs(): PageTab[] {
  const role = useAuth((s) => s.admin?.role);
  return role ? SUPPORT_TABS.filter((t) => canOpenScreen(role, t.to)) : [];
}

export const SUPPORT_DESCRIPTION =
  "Tools for answering questions about respondents, links, changes and jobs.";

/** Support > Identifiers: 100 a page, the export is every match. */
export const identifiersGrid: ListDecl<IdentifierMatch, "outcome"> = {
  list: identifiers,
  rowId: (r) => r._id,
  defaultPageSize: 100,
  pageSizes: [100],
  filters: [
    // the page's own box sends it (filter.multiSearch); the toolbar leaves it out
    { kind: "multiSearch", label: "Identifiers" },
    {
      kind: "select",
      key: "outcome",
      label: "Status",
      multiple: true,
      options: SESSION_STATUS_LIST.map((s) => ({ value: s.value, label: s.label })),
    },
    { kind: "export" },
  ],
};

/** Support > Scheduled Jobs: 10 a page. */
export const jobsGrid: ListDecl<ScheduledJob, "isSoft"> = {
  list: jobs,
  rowId: (r) => r._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search jobs", hint: "Searches project number, name and comment" },
    { kind: "status" },
  ],
};

export type { SystemLogRow };

/** Support > System Logs, 10 a page. */
export const systemLogsGrid: ListDecl<SystemLogRow, "module" | "minDate" | "maxDate"> = {
  list: systemLogList,
  rowId: (r) => r._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search logs", hint: "Searches user, activity, module and IP address" },
    {
      kind: "select",
      key: "module",
      label: "Module",
      options: [
        "Projects",
        "Clients",
        "Suppliers",
        "Users",
        "Categories",
        "Questions",
        "Qualifications",
        "Supplier Rules",
        "E-mail",
        "Scheduled Jobs",
        "Session",
      ].map((m) => ({ value: m, label: m })),
    },
    { kind: "dateRange" },
    { kind: "export" },
  ],
};

export type { OutboxMail };

/** Support > E-mail: the outbox, newest first, 20 a page. */
export const outboxGrid: ListDecl<OutboxMail, "state" | "minDate" | "maxDate"> = {
  list: outboxList,
  rowId: (r) => r._id,
  defaultPageSize: 20,
  filters: [
    { kind: "search", placeholder: "Search e-mails", hint: "Searches recipient, subject and module" },
    {
      kind: "select",
      key: "state",
      label: "State",
      multiple: true,
      options: EMAIL_STATES.map((s) => ({ value: s.value, label: s.label })),
    },
    { kind: "dateRange" },
    { kind: "export" },
  ],
};
