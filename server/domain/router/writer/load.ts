/**
 * The load: the rows one batch's decisions depend on, read inside its write transaction (so, with
 * the write lock held to the commit, they plus the batch's own changes are the database's state):
 * the sessions named by uid or due for the sweep, the counters of the projects and supplier maps
 * involved, respondents already on the projects, unique-IP counts, other projects' sessions for the
 * exclusion rules, free client links and quota cells. A handful of statements however many events.
 */
import { CompiledQuery } from "kysely";
import type { Db } from "../../../db/connection.ts";
import { iso } from "../outcomes.ts";
import {
  type BaseCounts,
  type BatchState,
  type EntryEvent,
  type HoldCounts,
  type MapCounts,
  parseCells,
  type PriorSession,
  type ProjectCounts,
  type QuotaCell,
  type RouterEvent,
  SESSION_COLUMNS,
  type SessionRow,
  type SurveyTime,
} from "./types.ts";

export type {
  BaseCounts,
  BatchState,
  HoldCounts,
  MapCounts,
  PriorSession,
  ProjectCounts,
  QuotaCell,
  SurveyTime,
} from "./types.ts";
import type { Statement } from "../rollup.ts";
import { TIME_SUMS } from "../../../db/tables/projects.ts";
import { asOneRow, byIdsAsOneRow, IN_JSON, rowsOfOneRow } from "../../../db/one-row.ts";

const baseOf = (c: BaseCounts): BaseCounts => ({
  clicked: c.clicked,
  complete: c.complete,
  testClicked: c.testClicked,
  held: c.held,
});

export const list = (n: number) => Array(n).fill("?").join(",");

export async function run(trx: Db, text: string, params: unknown[] = []) {
  const r = await trx.executeQuery(CompiledQuery.raw(text, params));
  return r.rows as Record<string, unknown>[];
}

const noHolds = (): HoldCounts => ({ held: 0, sent: 0, pastLimit: 0 });
const holdsOf = (r: Record<string, unknown>): HoldCounts => ({
  held: Number(r.held),
  sent: Number(r.sent),
  pastLimit: Number(r.pastLimit),
});
/** A row's time sums (absent ones 0; `timeOf({})`: none yet). */
export const timeOf = (r: Record<string, unknown>) =>
  Object.fromEntries(TIME_SUMS.map((k) => [k, Number(r[k] ?? 0)])) as SurveyTime;

/** The key of a quota cell in BatchState.cellHolds. */
export const cellKey = (quotaId: string, quotaOptionId: string) => `${quotaId}\u0000${quotaOptionId}`;

/** The counters of a project (zeros when it has no row). */
export function projectCounts(state: BatchState, id: string): ProjectCounts {
  let s = state.projects.get(id);
  if (!s) {
    s = {
      clicked: 0,
      complete: 0,
      testClicked: 0,
      sampleSize: 0,
      clickQuota: 0,
      testClickQuota: 0,
      ir: 0,
      ...timeOf({}),
      ...noHolds(),
    };
    state.projects.set(id, s);
  }
  return s;
}

/** The counters of a supplier map (zeros when it has no row). */
export function mapCounts(state: BatchState, id: string): MapCounts {
  let s = state.maps.get(id);
  if (!s) {
    s = { clicked: 0, complete: 0, testClicked: 0, quota: 0, clickQuota: 0, ...noHolds() };
    state.maps.set(id, s);
  }
  return s;
}

/** Runs read statements and answers their rows, in order (in the write transaction, or as one batch). */
export type Reader = (statements: Statement[]) => Promise<Record<string, unknown>[][]>;

/** A reader that runs each statement in turn on a Kysely handle (the file path's transaction). */
export const readerOn = (trx: Db): Reader => async (statements) => {
  const out: Record<string, unknown>[][] = [];
  for (const s of statements) out.push(await run(trx, s.sql, s.args));
  return out;
};

/** A batch's state before anything is read. */
function emptyState(): BatchState {
  return {
    sessions: new Map(),
    projects: new Map(),
    maps: new Map(),
    entered: new Map(),
    ipCounts: new Map(),
    priorSessions: [],
    links: new Map(),
    quotas: new Map(),
    cellHolds: new Map(),
    base: {
      projects: new Map(),
      maps: new Map(),
      sessions: new Map(),
      cellHolds: new Map(),
      ips: new Map(),
      prior: null,
    },
  };
}

/**
 * Reads what a batch needs. Its statements go to `read` in at most two rounds: first everything
 * the events name (sessions by uid, due sessions, counters, respondents, IP counts, other projects'
 * sessions, free links, pre-screen quota cells); then, only when loaded sessions name more (the
 * sweep's projects, a complete's quota cells), those. On a remote primary each round is one batch
 * (one round trip).
 */
export async function loadBatch(read: Reader, events: RouterEvent[]): Promise<BatchState> {
  const state = emptyState();
  const round1: Load[] = [];
  sessionLoads(events, round1, state);
  const projectIds = new Set<string>(), mapIds = new Set<string>();
  for (const e of events) {
    if (e.kind !== "sweep") {
      projectIds.add(e.project.id);
      mapIds.add(e.map.id);
    }
  }
  counterLoads(projectIds, mapIds, round1, state);
  respondentLoads(events, round1, state);
  linkLoads(events, round1, state);
  const quotaIds = new Set<string>();
  for (const e of events) {
    const cells = e.kind === "prescreen" ? e.quotaCells : e.kind === "entry" ? e.screen?.quotaCells : null;
    cells?.forEach((c) => quotaIds.add(c.quotaId));
  }
  quotaLoads(quotaIds, round1, state);
  cellHoldLoads(quotaIds, round1, state);
  await runLoads(read, round1);

  const round2: Load[] = [];
  const moreProjects = new Set<string>(), moreMaps = new Set<string>();
  for (const s of state.sessions.values()) {
    if (!projectIds.has(s.projectId)) moreProjects.add(s.projectId);
    if (!mapIds.has(s.supplierMapId)) moreMaps.add(s.supplierMapId);
  }
  counterLoads(moreProjects, moreMaps, round2, state);
  const moreQuotas = new Set<string>();
  for (const e of events) {
    if (e.kind === "return" && e.status === "complete") {
      const s = state.sessions.get(e.uid);
      if (s) parseCells(s.quotaCells).forEach((c) => quotaIds.has(c.quotaId) || moreQuotas.add(c.quotaId));
    }
  }
  cellHoldLoads(moreQuotas, round2, state);
  quotaLoads(moreQuotas, round2, state);
  await runLoads(read, round2);
  for (const [id, p] of state.projects) {
    state.base.projects.set(id, baseOf(p));
  }
  for (const [id, m] of state.maps) {
    state.base.maps.set(id, baseOf(m));
  }
  for (const [id, s] of state.sessions) {
    state.base.sessions.set(id, { status: s.status, updatedAt: s.updatedAt });
  }
  for (const [k, n] of state.ipCounts) state.base.ips.set(k, n);
  for (const [k, n] of state.cellHolds) state.base.cellHolds.set(k, n);
  return state;
}

/**
 * The state of a batch made without reading: live entries of plain projects (no unique IP, no
 * exclusion rules, no multi-link) and test entries, with counters as this instance last knew them.
 * Nothing read means nothing seen: a respondent already on the project, counters moved by another
 * instance. The remote write's guards cover exactly that (no one else let the respondent in; room
 * under every limit counted on, whatever the counter is now), so a batch decided on a stale view is
 * refused and decided again on a real read. Only far from every limit (so no event of the batch can
 * be refused on a count or a limit this instance has not read); null when the batch needs a read.
 */
export function stateWithoutRead(
  events: RouterEvent[],
  known: { projects: Map<string, ProjectCounts>; maps: Map<string, MapCounts> },
): BatchState | null {
  const state = emptyState();
  for (const e of events) {
    if (e.kind !== "entry" || e.screen) return null; // a settled pre-screen reads its quota cells
    const p = e.project;
    if (
      !e.closed && !e.isTest && (p.isUniqueIp || (p.isExclude && p.exclusions.length) || p.isMultiLinkUrl)
    ) {
      return null;
    }
    const pc = known.projects.get(p.id), mc = known.maps.get(e.map.id);
    if (!pc || !mc) return null;
    // near a limit (as last known, limits included): a refusal must stand on a real read
    const n = events.length;
    const near = (count: number, limit: number) => limit > 0 && count + n >= limit;
    const refusable = e.closed ? false : e.isTest ? near(pc.testClicked, pc.testClickQuota) : (
      // holds weigh each session in progress by p <= 1: completes + held bound what they count
      near(pc.clicked, pc.clickQuota) || near(pc.complete + pc.held, pc.sampleSize) ||
      near(mc.clicked, mc.clickQuota) || near(mc.complete + mc.held, mc.quota)
    );
    if (refusable) return null;
    state.projects.set(p.id, { ...pc });
    state.maps.set(e.map.id, { ...mc });
  }
  for (const [id, p] of state.projects) {
    state.base.projects.set(id, baseOf(p));
  }
  for (const [id, m] of state.maps) {
    state.base.maps.set(id, baseOf(m));
  }
  return state;
}

/** A read and what to do with its rows. */
type Load = { statement: Statement; apply: (rows: Record<string, unknown>[]) => void };

async function runLoads(read: Reader, loads: Load[]) {
  if (!loads.length) return;
  const results = await read(loads.map((l) => l.statement));
  loads.forEach((l, i) => l.apply(results[i]));
}

/** The sessions answers and returns name, and those the sweep finds due. */
function sessionLoads(events: RouterEvent[], out: Load[], state: BatchState) {
  const uids = new Set<string>();
  for (const e of events) {
    if (e.kind === "prescreen" || e.kind === "return" || e.kind === "link") uids.add(e.uid);
  }
  if (uids.size) {
    out.push({
      statement: byIdsAsOneRow("sessions", SESSION_COLUMNS, uids),
      apply: (rows) => {
        for (const r of rowsOfOneRow(rows, SESSION_COLUMNS)) {
          state.sessions.set(r.id as string, r as SessionRow);
        }
      },
    });
  }
  for (const e of events) {
    if (e.kind !== "sweep") continue;
    out.push({
      statement: {
        sql: `SELECT * FROM sessions WHERE status IN ('prescreen', 'redirected') AND dropAt <= ?
       ORDER BY dropAt LIMIT ?`,
        args: [iso(e.now), e.limit],
      },
      apply: (rows) => {
        for (const r of rows) {
          if (!state.sessions.has(r.id as string)) state.sessions.set(r.id as string, r as SessionRow);
        }
      },
    });
  }
}

/** The columns read of IP counts, quotas and cell holds (each read ONE row: db/one-row.ts). */
const IP_COLUMNS = ["projectId", "ip", "n"];
const QUOTA_COLUMNS = ["id", "quotaValue"];
const HOLD_COLUMNS = ["quotaId", "quotaOptionId", "held"];
/** The columns counterLoads reads of projects and supplier maps. */
const COUNTERS = ["id", "clicked", "complete", "testClicked", "held", "sent", "pastLimit"];
const LIMITS = ["sampleSize", "respondentClickQuota", "respondentTestClickQuota", "ir"];
const PROJECT_COLUMNS = [...COUNTERS, ...LIMITS, ...TIME_SUMS];
const MAP_COLUMNS = [...COUNTERS, "supplierQuota", "supplierClickQuota"];

/** The counters and limits of the projects and supplier maps named (each ONE row: db/one-row.ts). */
function counterLoads(projectIds: Set<string>, mapIds: Set<string>, out: Load[], state: BatchState) {
  if (projectIds.size) {
    out.push({
      statement: byIdsAsOneRow("projects", PROJECT_COLUMNS, projectIds),
      apply: (rows) => {
        for (const r of rowsOfOneRow(rows, PROJECT_COLUMNS)) {
          state.projects.set(r.id as string, {
            clicked: Number(r.clicked),
            complete: Number(r.complete),
            testClicked: Number(r.testClicked),
            sampleSize: Number(r.sampleSize),
            clickQuota: Number(r.respondentClickQuota),
            testClickQuota: Number(r.respondentTestClickQuota),
            ir: Number(r.ir) || 0,
            ...timeOf(r),
            ...holdsOf(r),
          });
        }
      },
    });
  }
  if (mapIds.size) {
    out.push({
      statement: byIdsAsOneRow("supplier_maps", MAP_COLUMNS, mapIds),
      apply: (rows) => {
        for (const r of rowsOfOneRow(rows, MAP_COLUMNS)) {
          state.maps.set(r.id as string, {
            clicked: Number(r.clicked),
            complete: Number(r.complete),
            testClicked: Number(r.testClicked),
            quota: Number(r.supplierQuota),
            clickQuota: Number(r.supplierClickQuota),
            ...holdsOf(r),
          });
        }
      },
    });
  }
}

/** The sessions of other projects the exclusion rules look at: the query and its fingerprint. */
export function priorQuery(other: string[], sids: string[]): Statement {
  return {
    sql: `SELECT id, projectId, sid, supplierId, status FROM sessions WHERE isTest = 0
       AND status NOT IN ('closed', 'duplicate')
       AND projectId IN (${list(other.length)}) AND sid IN (${list(sids.length)}) ORDER BY id`,
    args: [...other, ...sids],
  };
}
export const priorFingerprint = (rows: { id?: unknown; status: unknown }[]) =>
  rows.map((r) => `${r.id}:${r.status}`).join(",");

/** Live entries: the same respondent already on the project, IP counts, other projects' sessions. */
function respondentLoads(events: RouterEvent[], out: Load[], state: BatchState) {
  const live = events.filter((e): e is EntryEvent => e.kind === "entry" && !e.isTest && !e.closed);
  if (!live.length) return;
  const pids = [...new Set(live.map((e) => e.project.id))];
  const sids = [...new Set(live.map((e) => e.sid))];
  out.push({
    statement: asOneRow(
      SESSION_COLUMNS,
      `sessions WHERE isTest = 0 AND status NOT IN ('closed', 'duplicate') AND projectId IN ${IN_JSON}
     AND sid IN ${IN_JSON}`,
      [JSON.stringify(pids), JSON.stringify(sids)],
    ),
    apply: (rows) => {
      for (const r of rowsOfOneRow(rows, SESSION_COLUMNS)) {
        state.entered.set(`${r.projectId}\u0000${r.sid}`, r as SessionRow);
      }
    },
  });

  const ipEntries = live.filter((e) => e.project.isUniqueIp && e.ip);
  if (ipEntries.length) {
    const ipPids = [...new Set(ipEntries.map((e) => e.project.id))];
    const ips = [...new Set(ipEntries.map((e) => e.ip))];
    // every pair asked about counts, found or not (0): the remote write guards them all
    for (const e of ipEntries) state.ipCounts.set(`${e.project.id}\u0000${e.ip}`, 0);
    out.push({
      statement: asOneRow(
        IP_COLUMNS,
        `project_ip_counts WHERE projectId IN ${IN_JSON} AND ip IN ${IN_JSON}`,
        [JSON.stringify(ipPids), JSON.stringify(ips)],
      ),
      apply: (rows) => {
        for (const r of rowsOfOneRow(rows, IP_COLUMNS)) {
          state.ipCounts.set(`${r.projectId}\u0000${r.ip}`, Number(r.n));
        }
      },
    });
  }

  const ruled = live.filter((e) => e.project.isExclude && e.project.exclusions.length);
  if (ruled.length) {
    const other = [...new Set(ruled.flatMap((e) => e.project.exclusions.map((x) => x.excludedProjectId)))];
    const rsids = [...new Set(ruled.map((e) => e.sid))];
    // through the (projectId, sid) index of live arrivals: the outcomes that matter are all there
    out.push({
      statement: priorQuery(other, rsids),
      apply: (rows) => {
        state.priorSessions = rows as PriorSession[];
        state.base.prior = { other, sids: rsids, fingerprint: priorFingerprint(rows as PriorSession[]) };
      },
    });
  }
}

/** Free client links of multi-link projects: at most one per event that may need one. */
function linkLoads(events: RouterEvent[], out: Load[], state: BatchState) {
  const linkNeeds = new Map<string, number>();
  for (const e of events) {
    if (((e.kind === "entry" && !e.isTest && !e.closed) || e.kind === "prescreen") && !e.clientApi) {
      if (e.project.isMultiLinkUrl) linkNeeds.set(e.project.id, (linkNeeds.get(e.project.id) ?? 0) + 1);
    }
  }
  for (const [pid, n] of linkNeeds) {
    out.push({
      statement: {
        sql: `SELECT id, url FROM project_links WHERE projectId = ? AND usedBy IS NULL ORDER BY id LIMIT ?`,
        args: [pid, n],
      },
      apply: (rows) => state.links.set(pid, rows.map((r) => ({ id: Number(r.id), url: String(r.url) }))),
    });
  }
}

/** Quota cells named by pre-screen answers and by the sessions that may complete. */
function quotaLoads(quotaIds: Set<string>, out: Load[], state: BatchState) {
  if (!quotaIds.size) return;
  out.push({
    statement: asOneRow(QUOTA_COLUMNS, `project_quotas WHERE isDeleted = 0 AND id IN ${IN_JSON}`, [
      JSON.stringify([...quotaIds]),
    ]),
    apply: (rows) => {
      for (const r of rowsOfOneRow(rows, QUOTA_COLUMNS)) {
        let cells: QuotaCell[] = [];
        const text = String(r.quotaValue);
        try {
          const v = JSON.parse(text);
          if (Array.isArray(v)) cells = v;
        } catch { /* a broken quota row counts nothing */ }
        state.quotas.set(String(r.id), { cells, changed: false, text });
      }
    },
  });
}

/** The sessions in the client survey per cell of the quotas named (the holds of the pre-screen's cells). */
function cellHoldLoads(quotaIds: Set<string>, out: Load[], state: BatchState) {
  if (!quotaIds.size) return;
  out.push({
    statement: asOneRow(HOLD_COLUMNS, `quota_cell_holds WHERE quotaId IN ${IN_JSON}`, [
      JSON.stringify([...quotaIds]),
    ]),
    apply: (rows) => {
      for (const r of rowsOfOneRow(rows, HOLD_COLUMNS)) {
        state.cellHolds.set(cellKey(String(r.quotaId), String(r.quotaOptionId)), Number(r.held));
      }
    },
  });
}
