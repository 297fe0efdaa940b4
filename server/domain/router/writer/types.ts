/** What the router's writer is handed (events), what it answers (outcomes), and the session row. */
import type { SessionStatus } from "../../../db/tables/router.ts";
import type { TimeSum } from "../../../db/tables/projects.ts";
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

/** Every column of sessions, in the table's order of the writer's statements (its upsert and reads). */
export const SESSION_COLUMNS: readonly (keyof SessionRow)[] = [
  "id",
  "projectId",
  "parentProjectId",
  "clientId",
  "supplierMapId",
  "supplierId",
  "sid",
  "status",
  "reason",
  "detail",
  "isTest",
  "ip",
  "country",
  "deviceType",
  "browser",
  "userAgent",
  "rdScore",
  "clientUrl",
  "clientRef",
  "quotaCells",
  "rawStatus",
  "returnedBy",
  "createdAt",
  "updatedAt",
  "redirectedAt",
  "endedAt",
  "dropAt",
  "seconds",
  "chainId",
  "hop",
];

// ---- what a batch knows of the database (./load.ts reads it, the decisions update it)

/** A project's counters and limits, as read and then as the batch changes them. */
export type ProjectCounts = HoldCounts & {
  clicked: number;
  complete: number;
  testClicked: number;
  sampleSize: number;
  clickQuota: number;
  testClickQuota: number;
  /** The stated incidence (percent): the prior of the measured conversion (holds.ts). */
  ir: number;
} & SurveyTime;
/** Time in the client survey: of the completes, and of the sessions back otherwise (holds.ts). */
export type SurveyTime = Record<TimeSum, number>;
/** The hold counters of a project or map (migration 0038; holds.ts). */
export type HoldCounts = { held: number; sent: number; pastLimit: number };
/** A supplier map's counters and quotas. */
export type MapCounts = HoldCounts & {
  clicked: number;
  complete: number;
  testClicked: number;
  quota: number;
  clickQuota: number;
};
/**
 * A quota cell as stored. A size of 0 means "no limit set" (a Quota tab cell before its size is
 * typed), unless the cell is `strict`: a provider's quota, where 0 left means closed.
 */
export type QuotaCell = { quotaOptionId: string; quotaSize: number; completes: number; strict?: boolean };
/** A respondent's session on another project (for the exclusion rules). */
export type PriorSession = {
  id?: string;
  projectId: string;
  sid: string;
  supplierId: string;
  status: string;
};

/** What a batch knows of the database: read once by loadBatch, then updated by the batch's decisions. */
export type BatchState = {
  /** Sessions by uid: those the batch's answers and returns name, and those due for the sweep. */
  sessions: Map<string, SessionRow>;
  projects: Map<string, ProjectCounts>;
  maps: Map<string, MapCounts>;
  /**
   * `projectId \0 sid` -> the session of a respondent already entered on the project (live, neither
   * refused nor a duplicate), as read or as entered earlier in the batch.
   */
  entered: Map<string, SessionRow>;
  /** `projectId \0 ip` -> arrivals so far, on projects with unique IP. */
  ipCounts: Map<string, number>;
  priorSessions: PriorSession[];
  /** Free client links of multi-link projects, by project id, in the order they are handed out. */
  links: Map<string, { id: number; url: string }[]>;
  /** Quota rows by id: their cells, whether the batch changed them, and their text as read. */
  quotas: Map<string, { cells: QuotaCell[]; changed: boolean; text: string }>;
  /**
   * `quotaId \0 quotaOptionId` -> sessions in the client survey filling the cell (quota_cell_holds),
   * for the quotas loaded (`quotas`; a cell without a row holds none).
   */
  cellHolds: Map<string, number>;
  /**
   * What the decisions were made on, as read (the batch's own changes move the maps above, not
   * these): the remote write's guards check it still holds (writer/guards.ts).
   */
  base: {
    projects: Map<string, BaseCounts>;
    maps: Map<string, BaseCounts>;
    sessions: Map<string, { status: string; updatedAt: string }>;
    /** Quota cells' sessions in the client survey as read (BatchState.cellHolds). */
    cellHolds: Map<string, number>;
    /** `projectId \0 ip` -> arrivals as read (0 when none). */
    ips: Map<string, number>;
    /** Other projects' sessions the exclusion rules read, with their fingerprint. */
    prior: { other: string[]; sids: string[]; fingerprint: string } | null;
  };
};
export type BaseCounts = { clicked: number; complete: number; testClicked: number; held: number };
