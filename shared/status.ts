/** Project status codes (part 1, section 4) with labels and badge colours. */
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
/** The restricted list used when editing omits 4 and 5. */
export const EDITABLE_PROJECT_STATUSES = PROJECT_STATUS_LIST.filter((s) => s.value !== 4 && s.value !== 5);

export function projectStatusLabel(value: number): string {
  return PROJECT_STATUS_LIST.find((s) => s.value === value)?.label ?? String(value);
}

export const INVOICE_STATUS = [
  { value: 1, label: "Pending" },
  { value: 2, label: "Paid" },
] as const;

/**
 * Allowed status changes. The list menu offers Testing, Live, Paused, Waiting (other than the
 * current) and Closed; Proceed to Invoice (4), Invoiced (5, by an invoice) and Archieve (7) follow
 * closing; Revoke returns a closed project to Live.
 */
export const STATUS_TRANSITIONS: Record<number, number[]> = {
  1: [3, 6, 8, 9],
  2: [1, 3, 6, 8, 9],
  3: [1, 6, 8, 9],
  8: [1, 3, 6, 9],
  9: [1, 3, 6, 8],
  6: [1, 3, 4, 7],
  4: [5, 6, 7],
  5: [7],
  7: [],
};
export const canChangeStatus = (from: number, to: number) =>
  from === to || (STATUS_TRANSITIONS[from] ?? []).includes(to);
/** Menu entries of the project list (part 1, section 4). */
export const LIST_STATUS_MENU = [9, 1, 3, 8] as const;
export const CHILD_STATUS_MENU = [1, 3] as const;

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
