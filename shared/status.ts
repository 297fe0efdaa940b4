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
