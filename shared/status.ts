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

/** Project types: a group (parent) project holds child projects; respondents enter child projects only. */
export const PROJECT_TYPE = { GROUP: 1, CHILD: 2 } as const;

export const PROJECT_STATUS_LIST: { value: ProjectStatus; label: string; color: string }[] = [
  { value: 1, label: "Live", color: "green" },
  { value: 2, label: "Awarded", color: "blue" },
  { value: 3, label: "Paused", color: "amber" },
  { value: 4, label: "Ready To Invoice", color: "violet" },
  { value: 5, label: "Invoiced", color: "slate" },
  { value: 6, label: "Closed", color: "red" },
  { value: 7, label: "Archieved", color: "zinc" },
  { value: 8, label: "Waiting", color: "orange" },
  { value: 9, label: "Testing", color: "cyan" },
];
/** The restricted list of the add and edit forms omits 4 and 5: only their named actions set those. */
export const EDITABLE_PROJECT_STATUSES = PROJECT_STATUS_LIST.filter((s) => s.value !== 4 && s.value !== 5);

export function projectStatusLabel(value: number): string {
  return PROJECT_STATUS_LIST.find((s) => s.value === value)?.label ?? String(value);
}

export const INVOICE_STATUS = [
  { value: 1, label: "Pending" },
  { value: 2, label: "Paid" },
] as const;

export const isEditableStatus = (status: number) => EDITABLE_PROJECT_STATUSES.some((s) => s.value === status);

/** Menu entries of the project list and of a child project (part 1, section 4). */
export const LIST_STATUS_MENU = [9, 1, 3, 8] as const;
export const CHILD_STATUS_MENU = [1, 3] as const;

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
const STAGE: Record<number, number> = { 1: 0, 2: 0, 8: 0, 9: 0, 3: 1, 6: 2, 4: 3, 5: 4, 7: 5 };
export const childFollowsGroup = (groupStatus: number, childStatus: number) =>
  (STAGE[groupStatus] ?? 0) > 0 && (STAGE[childStatus] ?? 0) < STAGE[groupStatus];

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
