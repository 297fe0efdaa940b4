/** What the router's writer is handed (events), what it answers (outcomes), and the session row. */
import type { SessionStatus } from "../../../db/tables/router.ts";
import type { MapConfig, ProjectConfig } from "../config.ts";
import type { AnswerRow, QuotaCellRef } from "../prescreen.ts";
import type { SecurityRefusal } from "../security.ts";
import type { FinalStatus } from "../outcomes.ts";
import type { ProfileRow } from "../profiles.ts";

export type SessionRow = {
  id: string;
  projectId: string;
  parentProjectId: string | null;
  clientId: string;
  supplierMapId: string;
  supplierId: string;
  sid: string;
  status: SessionStatus;
  reason: string;
  detail: string;
  isTest: number;
  ip: string;
  country: string;
  deviceType: string;
  browser: string;
  userAgent: string;
  rdScore: number | null;
  clientUrl: string;
  /** The client platform's identifier of the respondent (its return may carry it instead of the uid), or "". */
  clientRef: string;
  quotaCells: string;
  rawStatus: string;
  returnedBy: string;
  createdAt: string;
  updatedAt: string;
  redirectedAt: string | null;
  endedAt: string | null;
  dropAt: string | null;
  seconds: number | null;
  /** A routed hop: its chain's first session's uid (the first itself: null). */
  chainId: string | null;
  /** Its place in the chain (1: the session the supplier sent). */
  hop: number;
};

export type EntryEvent = {
  kind: "entry";
  now: number;
  isTest: boolean;
  project: ProjectConfig;
  map: MapConfig;
  sid: string;
  ip: string;
  country: string;
  deviceType: string;
  browser: string;
  userAgent: string;
  rdScore: number | null;
  /** Refused before any count: survey not live, traffic off, not boarded, test link off. */
  closed: { reason: string; detail: string } | null;
  /** A request-only security check (device, geo, proxy, RD) that failed. */
  security: SecurityRefusal | null;
  /** Show the pre-screen questions before the survey. */
  prescreen: boolean;
  /** The survey link comes from the client's API (a LinkEvent), not from the project's links. */
  clientApi?: boolean;
  /** Answers the entry link carried, kept in the member's profile (source "link"). */
  profiles?: ProfileRow[];
  /** A routed hop (routing.ts): the chain's first session and this hop's number. */
  chain?: { id: string; hop: number };
  /**
   * The pre-screen as the member's known answers settle it (screening.ts): applied in the same
   * decision when the entry is let in to its pre-screen, so it costs no write of its own.
   */
  screen?: Screen;
};
/** What settles a pre-screen: passed or not, the answers, the quota cells, the answers kept. */
export type Screen = Pick<PrescreenEvent, "passed" | "detail" | "answers" | "quotaCells" | "profiles">;
export type PrescreenEvent = {
  kind: "prescreen";
  now: number;
  uid: string;
  project: ProjectConfig;
  map: MapConfig;
  passed: boolean;
  detail: string;
  answers: AnswerRow[];
  quotaCells: QuotaCellRef[];
  /** Answers given on the page to library questions, kept in the member's profile. */
  profiles?: ProfileRow[];
  /** The survey link comes from the client's API (a LinkEvent), not from the project's links. */
  clientApi?: boolean;
};
/**
 * What the client's API answered for a session sent on without a link (clientApi): the link and the
 * client's identifier, or why there is none (the session then ends as REASON.clientApi).
 */
export type LinkEvent = {
  kind: "link";
  now: number;
  uid: string;
  project: ProjectConfig;
  map: MapConfig;
  link: { ok: true; url: string; ref: string } | { ok: false; error: string };
};
export type ReturnEvent = {
  kind: "return";
  now: number;
  uid: string;
  project: ProjectConfig;
  map: MapConfig;
  status: FinalStatus;
  raw: string;
  via: "redirect" | "postback";
};
export type SweepEvent = { kind: "sweep"; now: number; limit: number };
export type RouterEvent = EntryEvent | PrescreenEvent | LinkEvent | ReturnEvent | SweepEvent;

export type Outcome = {
  /** The session as committed (null: unknown uid). */
  session: SessionRow | null;
  /** The event changed counts (false for a repeated return or answer, or a retried entry). */
  counted: boolean;
  /** An entry that repeats one whose response was lost: its first session again, nothing counted. */
  retried?: boolean;
  /** Sessions the sweep turned into drops. */
  swept?: number;
};

export type WriterOptions = {
  /** Minutes an unanswered pre-screen waits before it counts as a pre-screen drop. */
  prescreenTimeoutMinutes: number;
  /** Drop time-out of a project without an LOI (with one: twice the LOI). */
  dropWithoutLoiMinutes: number;
  /**
   * In-progress holds (holds.ts): limits count sessions in the client survey, and a complete past a
   * limit stays a complete. Off (the default here): refused on completes alone, a complete past a
   * limit turned over-quota at return. The router sets it from ROUTER_HOLDS.
   */
  holds?: boolean;
  /** Largest number of events in one transaction. */
  maxBatch: number;
  /** Batches in flight at once on a remote primary (default REMOTE_IN_FLIGHT); a file has one. */
  remoteInFlight?: number;
  /** Wait after a remote batch of several events before the next one (default REMOTE_LINGER_MS). */
  remoteLingerMs?: number;
  /**
   * Outcome callbacks are written claimed by this instance's sender for this long (its lease) and
   * handed to it at the commit (onCommit); unset: written queued, for a sender's scan.
   */
  hookLeaseMs?: number;
};

/** The session's quota cells (JSON in sessions.quotaCells); a broken value names none. */
export function parseCells(text: string): QuotaCellRef[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
