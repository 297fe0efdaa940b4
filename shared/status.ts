/** Project status codes (part 1, section 4) with labels and badge colours, and the rules between them. */
import { MSG } from "./messages.ts";

export const PROJECT_STATUS = {
  LIVE: 1,
  AWARDED: 2,
  PAUSED: 3,
  READY_TO_INVOICE: 4,
  INVOICED: 5,
  CLOSED: 6,
  ARCHIEVED: 7,
  WAITING: 8,
  TESTING: 9,
} as const;
export type ProjectStatus = (typeof PROJECT_STATUS)[keyof typeof PROJECT_STATUS];

/** The two kinds of project (spec part 1, 7): a group (parent) project and a child under it. */
export const PROJECT_TYPE = { GROUP: 1, CHILD: 2 } as const;
export type ProjectType = (typeof PROJECT_TYPE)[keyof typeof PROJECT_TYPE];

/** Supplier types (spec part 1, 7): a DIY panel or a Local one; pre-screen options say which they show to. */
export const SUPPLIER_TYPE = { DIY: 1, LOCAL: 2 } as const;
export type SupplierType = (typeof SUPPLIER_TYPE)[keyof typeof SUPPLIER_TYPE];

/** Where a new project, and a clone, starts. */
export const NEW_PROJECT_STATUS = PROJECT_STATUS.AWARDED;

/** The one status in which a project takes live respondents (and counts as an active project). */
export const ACTIVE_PROJECT_STATUS = PROJECT_STATUS.LIVE;

/**
 * The statuses of a finished project: closed, on its way to invoicing, invoiced or archived. Not
 * even a supplier's test link enters one.
 */
export const FINISHED_PROJECT_STATUSES: readonly ProjectStatus[] = [
  PROJECT_STATUS.READY_TO_INVOICE,
  PROJECT_STATUS.INVOICED,
  PROJECT_STATUS.CLOSED,
  PROJECT_STATUS.ARCHIEVED,
];
export const isFinishedStatus = (status: number) =>
  (FINISHED_PROJECT_STATUSES as readonly number[]).includes(status);

/** The statuses only a named action sets (Proceed to Invoice, an invoice): never chosen on a form. */
export const ACTION_ONLY_STATUSES: readonly ProjectStatus[] = [
  PROJECT_STATUS.READY_TO_INVOICE,
  PROJECT_STATUS.INVOICED,
];

export const PROJECT_STATUS_LIST: { value: ProjectStatus; label: string; color: string }[] = [
  { value: PROJECT_STATUS.LIVE, label: "Live", color: "green" },
  { value: PROJECT_STATUS.AWARDED, label: "Awarded", color: "blue" },
  { value: PROJECT_STATUS.PAUSED, label: "Paused", color: "amber" },
  { value: PROJECT_STATUS.READY_TO_INVOICE, label: "Ready To Invoice", color: "violet" },
  { value: PROJECT_STATUS.INVOICED, label: "Invoiced", color: "slate" },
  { value: PROJECT_STATUS.CLOSED, label: "Closed", color: "red" },
  { value: PROJECT_STATUS.ARCHIEVED, label: "Archieved", color: "zinc" },
  { value: PROJECT_STATUS.WAITING, label: "Waiting", color: "orange" },
  { value: PROJECT_STATUS.TESTING, label: "Testing", color: "cyan" },
];
/** The restricted list of the add and edit forms omits 4 and 5: only their named actions set those. */
export const EDITABLE_PROJECT_STATUSES = PROJECT_STATUS_LIST.filter((s) =>
  !ACTION_ONLY_STATUSES.includes(s.value)
);

export function projectStatusLabel(value: number): string {
  return PROJECT_STATUS_LIST.find((s) => s.value === value)?.label ?? String(value);
}

export const INVOICE_STATUS = [
  { value: 1, label: "Pending" },
  { value: 2, label: "Paid" },
] as const;

export const isEditableStatus = (status: number) => EDITABLE_PROJECT_STATUSES.some((s) => s.value === status);

/** Menu entries of the project list and of a child project (part 1, section 4). */
export const LIST_STATUS_MENU = [
  PROJECT_STATUS.TESTING,
  PROJECT_STATUS.LIVE,
  PROJECT_STATUS.PAUSED,
  PROJECT_STATUS.WAITING,
] as const;
export const CHILD_STATUS_MENU = [PROJECT_STATUS.LIVE, PROJECT_STATUS.PAUSED] as const;

/**
 * What a project's status menu offers (part 1, 4): a group project any of Testing, Live, Paused and
 * Waiting other than its current status, and always Closed (last; on a Closed project it asks the PO
 * number again, to correct it); a child project Live or Paused other than its current status.
 * The inline menu and the row action Edit Status both show exactly this.
 */
export function statusMenuChoices(current: number, projectType: number): number[] {
  if (projectType === PROJECT_TYPE.CHILD) return CHILD_STATUS_MENU.filter((s) => s !== current);
  return [...LIST_STATUS_MENU.filter((s) => s !== current), PROJECT_STATUS.CLOSED];
}

/**
 * The named status actions and the statuses they apply to (part 1, 4; part 2, 4): Proceed to
 * Invoice (4) a Closed project; Archieve (7) a Closed, Ready To Invoice or Invoiced one; an invoice
 * makes a Ready To Invoice project Invoiced (5). The spec leaves other transitions open.
 */
export const STATUS_ACTIONS = {
  proceedToInvoice: { to: PROJECT_STATUS.READY_TO_INVOICE, from: [PROJECT_STATUS.CLOSED] },
  archieve: {
    to: PROJECT_STATUS.ARCHIEVED,
    from: [PROJECT_STATUS.CLOSED, PROJECT_STATUS.READY_TO_INVOICE, PROJECT_STATUS.INVOICED],
  },
  invoice: { to: PROJECT_STATUS.INVOICED, from: [PROJECT_STATUS.READY_TO_INVOICE] },
} as const satisfies Record<string, { to: ProjectStatus; from: readonly ProjectStatus[] }>;
export type StatusAction = keyof typeof STATUS_ACTIONS;
export const actionApplies = (action: StatusAction, current: number) =>
  (STATUS_ACTIONS[action].from as readonly number[]).includes(current);

/**
 * Why the project update call (PUT /admin/project/update/:id: the edit forms, the status menus,
 * Proceed to Invoice and Archieve) may not move a project from `from` to `to`, or null if it may.
 * Keeping the current status is always fine; any status of the restricted list may be set; Ready To
 * Invoice only by Proceed to Invoice on a Closed project (else a conflict); Invoiced never (an
 * invoice sets it).
 */
export function statusChangeRefusal(
  from: number,
  to: number,
): { kind: "invalid" | "conflict"; message: string } | null {
  if (from === to || isEditableStatus(to)) return null;
  if (to === STATUS_ACTIONS.proceedToInvoice.to) {
    return actionApplies("proceedToInvoice", from) ? null : {
      kind: "conflict",
      message: `Proceed to Invoice needs a Closed project; this one is ${projectStatusLabel(from)}`,
    };
  }
  return { kind: "invalid", message: MSG.projectStatusNotEditable };
}

/**
 * How far along its life a status is. A group project's Paused, Closed, Ready To Invoice, Invoiced
 * or Archieved reaches down to each child that is not as far along (so no child keeps taking
 * respondents under a stopped group, and none is moved back); Live, Testing, Waiting and Awarded
 * leave the children as they are.
 */
const STAGE: Record<number, number> = {
  [PROJECT_STATUS.LIVE]: 0,
  [PROJECT_STATUS.AWARDED]: 0,
  [PROJECT_STATUS.WAITING]: 0,
  [PROJECT_STATUS.TESTING]: 0,
  [PROJECT_STATUS.PAUSED]: 1,
  [PROJECT_STATUS.CLOSED]: 2,
  [PROJECT_STATUS.READY_TO_INVOICE]: 3,
  [PROJECT_STATUS.INVOICED]: 4,
  [PROJECT_STATUS.ARCHIEVED]: 5,
};
export const childFollowsGroup = (groupStatus: number, childStatus: number) =>
  (STAGE[groupStatus] ?? 0) > 0 && (STAGE[childStatus] ?? 0) < STAGE[groupStatus];

/**
 * Whether a group project moving to `groupStatus` reopens: Live, Testing, Waiting or Awarded. Each
 * child its Paused or Closed stopped (and only those) then gets back the status it had before.
 */
export const groupReopens = (groupStatus: number) => (STAGE[groupStatus] ?? 0) === 0;

/**
 * Whether a change stops the live traffic of a project: a Live project set to anything else. The
 * status menus ask for confirmation before such a change.
 */
export const stopsLiveTraffic = (from: number, to: number) =>
  from === PROJECT_STATUS.LIVE && to !== PROJECT_STATUS.LIVE;

/**
 * Where a respondent's session stands (the router's session statuses), in the order reports list
 * them: final outcomes first, then those still in progress, then refused arrivals.
 */
export const SESSION_STATUS_LIST = [
  { value: "complete", label: "Complete" },
  { value: "terminate", label: "Terminate" },
  { value: "overQuota", label: "Over Quota" },
  { value: "qualityTerm", label: "Quality Term" },
  { value: "security", label: "Security Terminate" },
  { value: "duplicate", label: "Duplicate" },
  { value: "drop", label: "Drop" },
  { value: "preScreenTerminate", label: "Prescreen Terminate" },
  { value: "preScreenDrop", label: "Prescreen Drop" },
  { value: "redirected", label: "In Survey" },
  { value: "prescreen", label: "In Prescreen" },
  { value: "closed", label: "Survey Closed" },
] as const;
export type SessionStatusValue = (typeof SESSION_STATUS_LIST)[number]["value"];

export function sessionStatusLabel(value: string): string {
  return SESSION_STATUS_LIST.find((s) => s.value === value)?.label ?? value;
}

/** The Security stats of a project (POST /admin/project/security/stat/:id), per reason. */
export type SecurityFigures = {
  clicked: number;
  /** duplicate + ipAddress + geoLocation + device + proxyVpn + rd: the Security (ST) count. */
  security: number;
  duplicate: number;
  ipAddress: number;
  geoLocation: number;
  device: number;
  proxyVpn: number;
  rd: number;
  /** Quality terms for speed (faster than speedTime). */
  speeder: number;
  /** Quality terms the client reported. */
  qualityTerm: number;
  /** Refused by an exclusion or inclusion rule. */
  excluded: number;
  preScreenTerminate: number;
  preScreenDrop: number;
};

/** The reasons of the Security stats, in the order shown, with a short column name and what each means. */
export const SECURITY_REASONS: { key: keyof SecurityFigures; label: string; short: string; hint: string }[] =
  [
    {
      key: "duplicate",
      label: "Duplicate",
      short: "Dup",
      hint: "The same respondent id again on the project",
    },
    {
      key: "ipAddress",
      label: "IP address",
      short: "IP",
      hint: "More arrivals from one address than Unique IP allows",
    },
    {
      key: "geoLocation",
      label: "Geo location",
      short: "Geo",
      hint: "Connecting from another country than the project's",
    },
    { key: "device", label: "Device", short: "Device", hint: "A device type the project does not take" },
    { key: "proxyVpn", label: "Proxy/VPN", short: "VPN", hint: "A proxy, VPN or hosting network" },
    { key: "rd", label: "RD", short: "RD", hint: "Research-defender score above the project's level" },
    {
      key: "speeder",
      label: "Speeder",
      short: "Speed",
      hint: "Completed faster than the speed time: quality terminate",
    },
    {
      key: "qualityTerm",
      label: "Quality terminate",
      short: "QT",
      hint: "Flagged by the client's survey (status f)",
    },
    { key: "excluded", label: "Excluded", short: "Excl", hint: "Refused by the Exclude/Include rules" },
    {
      key: "preScreenTerminate",
      label: "Prescreen terminate",
      short: "PT",
      hint: "Failed the pre-screen questions",
    },
    { key: "preScreenDrop", label: "Prescreen dropped", short: "PD", hint: "Left the pre-screen unanswered" },
  ];

/** Every figure of the Security stats: clicks, the security total, then each reason. */
export const SECURITY_FIGURES: (keyof SecurityFigures)[] = [
  "clicked",
  "security",
  ...SECURITY_REASONS.map((r) => r.key),
];
