/** Row types of the respondent router's tables (migration 0004). */
import { OUTCOME_COUNTERS } from "./projects.ts";
import type { ColumnType } from "kysely";

/** A column with a database default: optional on insert. */
type D<T> = ColumnType<T, T | undefined, T>;

/** Where a respondent's session stands. */
export type SessionStatus =
  | "prescreen"
  | "redirected"
  | "complete"
  | "terminate"
  | "overQuota"
  | "qualityTerm"
  | "drop"
  | "security"
  | "preScreenTerminate"
  | "preScreenDrop"
  | "closed"
  | "duplicate";

export interface SessionsTable {
  /** The respondent's uid. */
  id: string;
  projectId: string;
  parentProjectId: string | null;
  clientId: string;
  supplierMapId: string;
  supplierId: string;
  sid: string;
  status: SessionStatus;
  reason: D<string>;
  detail: D<string>;
  isTest: D<number>;
  ip: D<string>;
  country: D<string>;
  deviceType: D<string>;
  browser: D<string>;
  userAgent: D<string>;
  rdScore: D<number | null>;
  clientUrl: D<string>;
  /** The client platform's identifier of the respondent (API-integrated clients; migration 0037), or "". */
  clientRef: D<string>;
  quotaCells: D<string>;
  rawStatus: D<string>;
  returnedBy: D<string>;
  createdAt: string;
  updatedAt: string;
  redirectedAt: D<string | null>;
  endedAt: D<string | null>;
  dropAt: D<string | null>;
  seconds: D<number | null>;
  /** A routed session: the uid of its chain's first session (the first itself: null). */
  chainId: D<string | null>;
  /** Its place in the chain: 1 for the session the supplier sent, 2 and 3 for routed hops. */
  hop: D<number>;
}

/** Sessions in the client survey per quota cell (migration 0038), kept by the router's writer. */
export interface QuotaCellHoldsTable {
  quotaId: string;
  quotaOptionId: string;
  held: number;
}

export interface ProjectIpCountsTable {
  projectId: string;
  ip: string;
  n: number;
}

/** A member's answer to a library question (member_profiles; issue 24 profiles). No personal data. */
export interface MemberProfilesTable {
  supplierId: string;
  /** The sid the supplier sent. */
  memberId: string;
  /** The library question's id. */
  questionId: string;
  /** JSON: a list of the library's answer (option) ids, or {"text": ...} for a TEXT question. */
  answer: string;
  answeredAt: string;
  source: "prescreen" | "link";
}

export interface PrescreenAnswersTable {
  id: ColumnType<number, number | undefined, number>;
  sessionId: string;
  projectId: string;
  supplierId: string;
  questionId: string;
  answer: string;
  answerText: string;
  passed: number;
  createdAt: string;
}

export const ROLLUP_COUNTERS = [
  ...OUTCOME_COUNTERS,
  "secDuplicate",
  "secIp",
  "secDevice",
  "secGeo",
  "secProxy",
  "secRd",
  "speeder",
] as const;
export type RollupCounter = (typeof ROLLUP_COUNTERS)[number];

/** Routed traffic kept apart (hops 2 and 3 of a chain, migration 0039): entries, completes, revenue. */
export const ROUTED_COLUMNS = ["routedEntry", "routedComplete", "routedRevenue"] as const;
export type RoutedColumn = (typeof ROUTED_COLUMNS)[number];

export type RouterDailyTable =
  & {
    date: string;
    projectId: string;
    supplierId: string;
    supplierMapId: string;
    parentProjectId: string | null;
    clientId: string;
    revenue: D<number>;
    cost: D<number>;
  }
  & { [K in RollupCounter | RoutedColumn]: D<number> };

/** router_daily summed per day over every project and supplier, written with it (domain/router/rollup.ts). */
export type RouterDailyTotalsTable =
  & { date: string; revenue: D<number>; cost: D<number> }
  & { [K in RollupCounter | RoutedColumn]: D<number> };

export interface ProjectSecretsTable {
  projectId: string;
  secret: string;
  createdAt: string;
}

export interface RouterHooksTable {
  id: ColumnType<number, number | undefined, number>;
  sessionId: string;
  supplierId: string;
  url: string;
  /** sending: claimed by a sender until nextAt (its lease). */
  status: D<"queued" | "sending" | "sent" | "failed">;
  attempts: D<number>;
  lastError: D<string>;
  nextAt: string;
  createdAt: string;
  updatedAt: string;
  /** The callback's event (migration 0036): complete, terminate, overquota, quality, reconcile, approved. */
  event: D<string>;
  /** JSON of the values its URL and body are filled with when sent; null: a URL filled when queued. */
  vars: D<string | null>;
  /** How often staff or the supplier queued it again. */
  redeliveries: D<number>;
  /** The supplier's last answer ("HTTP 200") or the last error; '' before any attempt. */
  lastAnswer: D<string>;
}

/**
 * A write batch's outcome callbacks, claimed at birth for its sender (migration 0042): moved into
 * router_hooks when answered, or by a scan once `lease` has passed.
 */
export interface RouterHookClaimsTable {
  id: ColumnType<number, number | undefined, number>;
  lease: string;
  /** JSON: [[sessionId, supplierId, url, event, hookKey, vars], ...] (vars: JSON text). */
  rows: string;
  createdAt: string;
}

export interface RouterTables {
  sessions: SessionsTable;
  quota_cell_holds: QuotaCellHoldsTable;
  prescreen_answers: PrescreenAnswersTable;
  member_profiles: MemberProfilesTable;
  project_ip_counts: ProjectIpCountsTable;
  router_daily: RouterDailyTable;
  router_daily_totals: RouterDailyTotalsTable;
  project_secrets: ProjectSecretsTable;
  router_hooks: RouterHooksTable;
  router_hook_claims: RouterHookClaimsTable;
}
