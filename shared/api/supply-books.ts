/**
 * The supply API's books (issue 23 items 2 and 4, issue 24 item 1): a supplier's transactions and
 * stats, and the erase of one of its members' profile. Every call is scoped by the key's supplier:
 * another supplier's sessions are never seen. Paths are relative to SUPPLY_BASE (`/supply/v1`).
 */
import * as v from "valibot";
import { returns } from "./contract.ts";
import { defineSupplyCall } from "./supply.ts";

/** The most rows a transactions page holds (`limit`), and the page size without one. */
export const TRANSACTIONS_MAX_LIMIT = 1000;
export const TRANSACTIONS_DEFAULT_LIMIT = 100;
/** The longest stats range, in days (`from` to `to`, both included). */
export const STATS_MAX_DAYS = 366;
/** The stats range without `from`: the last this many days to `to` (today, UTC). */
export const STATS_DEFAULT_DAYS = 30;

/**
 * A session's outcome as the supply API names it: the router's statuses, with the two states of a
 * session under way (in the pre-screen, in the client's survey) as `inProgress`.
 */
export const SUPPLY_OUTCOMES = [
  "inProgress",
  "complete",
  "terminate",
  "overQuota",
  "qualityTerm",
  "drop",
  "security",
  "preScreenTerminate",
  "preScreenDrop",
  "closed",
  "duplicate",
] as const;
export type SupplyOutcome = (typeof SUPPLY_OUTCOMES)[number];

/** A complete's reconciliation: `pending` until the client's reconcile approves or rejects it. */
export type ReconcileState = "pending" | "approved" | "rejected";

export const SINCE_MSG =
  "since must be an ISO 8601 date or time with its zone, like 2026-11-26 or 2026-11-26T10:00:00Z";
export const STATUS_MSG = `status must be one of ${SUPPLY_OUTCOMES.join(", ")}`;
export const CURSOR_MSG = "cursor must be a nextCursor this API gave";
export const LIMIT_MSG = `limit must be a whole number from 1 to ${TRANSACTIONS_MAX_LIMIT}`;
export const GROUP_MSG = "group must be survey or day";
export const STATS_DATE_MSG = (name: string) => `${name} must be a date like 2026-11-26`;
export const STATS_ORDER_MSG = "from must not be after to";
export const STATS_RANGE_MSG = `The range from from to to must be at most ${STATS_MAX_DAYS} days`;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A cursor: 48 base64url characters (a sealed position, server/domain/supply/cursor.ts). */
const CURSOR = /^[A-Za-z0-9_-]{48}$/;

const validDate = (s: string) =>
  !Number.isNaN(Date.parse(s)) && new Date(Date.parse(s)).toISOString().startsWith(s);

export const TransactionsQuery = v.object({
  since: v.optional(
    v.pipe(
      v.string(SINCE_MSG),
      v.check(
        (s) => ISO_TIME.test(s) && !Number.isNaN(Date.parse(s)) && (s.length > 10 || validDate(s)),
        SINCE_MSG,
      ),
      v.transform((s) => new Date(Date.parse(s)).toISOString()),
    ),
  ),
  status: v.optional(v.picklist(SUPPLY_OUTCOMES, STATUS_MSG)),
  cursor: v.optional(v.pipe(v.string(CURSOR_MSG), v.regex(CURSOR, CURSOR_MSG))),
  limit: v.optional(
    v.pipe(
      v.string(LIMIT_MSG),
      v.regex(/^\d{1,4}$/, LIMIT_MSG),
      v.transform(Number),
      v.check((n) => n >= 1 && n <= TRANSACTIONS_MAX_LIMIT, LIMIT_MSG),
    ),
    String(TRANSACTIONS_DEFAULT_LIMIT),
  ),
});
export type TransactionsQuery = v.InferOutput<typeof TransactionsQuery>;

/** One session of the supplier, as its books need it. */
export type SupplyTransaction = {
  /** The session's id: the `uid` the client's survey link carried. */
  id: string;
  /** The supplier's member id: the `sid` it sent on the entry link. */
  memberId: string;
  /** The survey (the child project) the member entered. */
  surveyId: string;
  outcome: SupplyOutcome;
  /** Why the router ended or refused the session (empty when it did not). */
  reason: string;
  /** The CPI this supplier earns for a complete of this survey. */
  cpi: number;
  /** What this session earns: the CPI for a complete not rejected by reconciliation, else 0. */
  earned: number;
  /** A complete's reconciliation; null for every other outcome. */
  reconcile: ReconcileState | null;
  /**
   * The routing chain the session belongs to: the id of the chain's first session (the member's
   * entry on your link), the session's own id when it was not routed. Each hop is a row of its own.
   */
  chainId: string;
  /** The session's place in its chain: 1 for your entry, 2 and 3 for the surveys it was routed to. */
  hop: number;
  /** When the member arrived (ISO 8601, UTC). */
  enteredAt: string;
  /** When the member was sent to the client's survey (null: never). */
  redirectedAt: string | null;
  /** When the session ended (null: still under way, or refused at entry). */
  endedAt: string | null;
  /** The last change of the session's outcome. */
  updatedAt: string;
};

/** A transaction's fields in order: the JSON row's keys and the CSV download's columns alike. */
export const TRANSACTION_FIELDS = [
  "id",
  "memberId",
  "surveyId",
  "outcome",
  "reason",
  "cpi",
  "earned",
  "reconcile",
  "chainId",
  "hop",
  "enteredAt",
  "redirectedAt",
  "endedAt",
  "updatedAt",
] as const satisfies readonly (keyof SupplyTransaction)[];

export type TransactionsPage = {
  data: SupplyTransaction[];
  /**
   * The position after the last row of this page (with no row: the position the page started
   * from). Pass it as `cursor` for the next page, or keep it to ask later for what came since.
   */
  nextCursor: string;
  /** Ask again with `nextCursor`: this page had not reached the supplier's last session when it was read. */
  hasMore: boolean;
};

/**
 * `GET /supply/v1/transactions?since=&status=&cursor=&limit=`: the supplier's sessions, oldest first,
 * in pages of `limit` (1 to 1000, default 100).
 *
 * Order and cursor: rows come in the order the sessions were written (each session has a sequence
 * number the database gives it when its row is committed, never reused, always above every row
 * already there). `cursor` is an opaque position in that order: a page holds the rows after it.
 * A cursor is sealed and bound to the supplier: one made up, changed or another supplier's is a 400.
 * So a walk from page to page never skips a row (a session written meanwhile takes a position
 * above every row already there, so it comes on a later page) and never repeats one (a row's
 * position never changes, whatever happens to its outcome later). Each row shows the session as it
 * was when its page was read: a session that changes after its page was read (a return, a drop, a
 * reconciliation) shows its new state the next time it is read. `nextCursor` is given on every page,
 * the last included: keep it and ask again later to get only the sessions written since.
 *
 * `since` (ISO 8601 date or time with zone; a date is its midnight UTC): only sessions that entered
 * at or after it. To refresh outcomes and reconciliations, walk again with `since` a little before
 * the oldest session not final on your side. `status`: only sessions with that outcome; such a page
 * looks at 20,000 of the supplier's sessions at most, so it may hold fewer rows than `limit`, even
 * none, with `hasMore` true: follow `hasMore`, not the page's length. A cursor is a position: it
 * may be used with any filter.
 *
 * With `Accept: text/csv` the same rows stream as one CSV (header line first), from the cursor to
 * the last session there when the download began (no `limit`); the `X-Next-Cursor` header carries
 * the position to ask from next. 400 for a bad `since`, `status`, `cursor` or `limit`.
 */
export const supplyTransactionsCall = defineSupplyCall({
  method: "GET",
  path: "/transactions",
  doc: "Every session of your members, oldest first, in cursor pages that never skip or repeat a row while " +
    "traffic goes on: member id (your `sid`), survey, outcome, reason, CPI and what it earned, the reconcile " +
    "state and the times. Pass `nextCursor` back as `cursor` until `hasMore` is false (a page under a " +
    "`status` filter may hold fewer rows than `limit`, even none); keep the last one to ask later for what " +
    "came since. `since`: only sessions that entered at or after it. With `Accept: text/csv`, the rows " +
    "from the cursor to the last session there as one CSV, the next cursor in `X-Next-Cursor`.",
  csv: true,
  query: TransactionsQuery,
  result: returns<TransactionsPage>(),
});

const statsDate = (name: string) =>
  v.optional(
    v.pipe(
      v.string(STATS_DATE_MSG(name)),
      v.check((s) => DATE.test(s) && validDate(s), STATS_DATE_MSG(name)),
    ),
  );

export const StatsQuery = v.pipe(
  v.object({
    from: statsDate("from"),
    to: statsDate("to"),
    group: v.optional(v.picklist(["survey", "day"], GROUP_MSG), "survey"),
  }),
);
export type StatsQuery = v.InferOutput<typeof StatsQuery>;

/** The figures of a group (a survey, a day) or of the whole range. */
export type SupplyFigures = {
  /** Members who entered (refused entries not counted). */
  entries: number;
  completes: number;
  /** Terminated by the client's survey or by the pre-screen. */
  terminates: number;
  overQuota: number;
  /** Quality terminates. */
  quality: number;
  /** Sessions that never came back (from the client's survey or the pre-screen). */
  drops: number;
  /** Refused by a security check. */
  security: number;
  /** Completes approved and rejected by reconciliation so far. */
  approved: number;
  rejected: number;
  /** Completes per entry (0 to 1, 4 decimals; 0 without entries). */
  conversion: number;
  /** What the completes earned (CPI x completes, as counted when they completed). */
  earnings: number;
  /** Earnings per click: earnings per entry (4 decimals; 0 without entries). */
  epc: number;
};

export type SupplyStatsRow = SupplyFigures & { surveyId?: string; date?: string };

export type SupplyStats = {
  from: string;
  to: string;
  group: "survey" | "day";
  /** One row per survey (by survey id) or per day with traffic (by date), in order. */
  rows: SupplyStatsRow[];
  totals: SupplyFigures;
};

/**
 * `GET /supply/v1/stats?from=&to=&group=survey|day`: the supplier's figures per survey or per day
 * (UTC days), from the router's daily rollup (what the staff reports count). `from` and `to` are
 * dates (both included, at most 366 days apart; default: the 30 days to today); 400 otherwise.
 */
export const supplyStatsCall = defineSupplyCall({
  method: "GET",
  path: "/stats",
  doc: "Your figures per survey or per day (UTC) from `from` to `to` (dates, at most 366 days; default the " +
    "last 30 days): entries, completes, terminates, over quota, quality, drops, security, approved and " +
    "rejected completes, conversion, earnings and earnings per click.",
  query: StatsQuery,
  result: returns<SupplyStats>(),
});

/**
 * `POST /supply/v1/members/:memberId/erase`: forgets every known answer of one of the supplier's
 * members (the `sid` it sends): the member is asked again on the next entry. Written to the system
 * log naming the supplier and the key. `erased`: the answers removed (0 when none were known).
 */
export const supplyEraseMemberCall = defineSupplyCall({
  method: "POST",
  path: "/members/:memberId/erase",
  doc: "Forgets every answer Samplex knows of one of your members (your `sid`): the member is asked the " +
    "pre-screen again on the next entry. Written to the system log with your key.",
  result: returns<{ memberId: string; erased: number }>(),
});
