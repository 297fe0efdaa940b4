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
import { type EntryEvent, parseCells, type RouterEvent, type SessionRow } from "./types.ts";

/** A project's counters and limits, as read and then as the batch changes them. */
export type ProjectCounts = {
  clicked: number;
  complete: number;
  testClicked: number;
  sampleSize: number;
  clickQuota: number;
  testClickQuota: number;
};
/** A supplier map's counters and quotas. */
export type MapCounts = {
  clicked: number;
  complete: number;
  testClicked: number;
  quota: number;
  clickQuota: number;
};
export type QuotaCell = { quotaOptionId: string; quotaSize: number; completes: number };
/** A respondent's session on another project (for the exclusion rules). */
export type PriorSession = { projectId: string; sid: string; supplierId: string; status: string };

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
  /** Quota rows by id: their cells, and whether the batch changed them. */
  quotas: Map<string, { cells: QuotaCell[]; changed: boolean }>;
};

export const list = (n: number) => Array(n).fill("?").join(",");

export async function run(trx: Db, text: string, params: unknown[] = []) {
  const r = await trx.executeQuery(CompiledQuery.raw(text, params));
  return r.rows as Record<string, unknown>[];
}

/** The counters of a project (zeros when it has no row). */
export function projectCounts(state: BatchState, id: string): ProjectCounts {
  let s = state.projects.get(id);
  if (!s) {
    s = { clicked: 0, complete: 0, testClicked: 0, sampleSize: 0, clickQuota: 0, testClickQuota: 0 };
    state.projects.set(id, s);
  }
  return s;
}

/** The counters of a supplier map (zeros when it has no row). */
export function mapCounts(state: BatchState, id: string): MapCounts {
  let s = state.maps.get(id);
  if (!s) {
    s = { clicked: 0, complete: 0, testClicked: 0, quota: 0, clickQuota: 0 };
    state.maps.set(id, s);
  }
  return s;
}

export async function loadBatch(trx: Db, events: RouterEvent[]): Promise<BatchState> {
  const state: BatchState = {
    sessions: new Map(),
    projects: new Map(),
    maps: new Map(),
    entered: new Map(),
    ipCounts: new Map(),
    priorSessions: [],
    links: new Map(),
    quotas: new Map(),
  };
  await loadSessions(trx, events, state);
  await loadCounters(trx, events, state);
  await loadRespondents(trx, events, state);
  await loadLinks(trx, events, state);
  await loadQuotas(trx, events, state);
  return state;
}

/** The sessions answers and returns name, and those the sweep finds due. */
async function loadSessions(trx: Db, events: RouterEvent[], state: BatchState) {
  const uids = new Set<string>();
  for (const e of events) if (e.kind === "prescreen" || e.kind === "return") uids.add(e.uid);
  if (uids.size) {
    const rows = await run(trx, `SELECT * FROM sessions WHERE id IN (${list(uids.size)})`, [...uids]);
    for (const r of rows) state.sessions.set(r.id as string, r as SessionRow);
  }
  for (const e of events) {
    if (e.kind !== "sweep") continue;
    const rows = await run(
      trx,
      `SELECT * FROM sessions WHERE status IN ('prescreen', 'redirected') AND dropAt <= ?
       ORDER BY dropAt LIMIT ?`,
      [iso(e.now), e.limit],
    );
    for (const r of rows) {
      if (!state.sessions.has(r.id as string)) state.sessions.set(r.id as string, r as SessionRow);
    }
  }
}

/** The counters and limits of every project and supplier map an event or a loaded session touches. */
async function loadCounters(trx: Db, events: RouterEvent[], state: BatchState) {
  const projectIds = new Set<string>(), mapIds = new Set<string>();
  for (const e of events) {
    if (e.kind === "entry") {
      projectIds.add(e.project.id);
      mapIds.add(e.map.id);
    }
  }
  for (const s of state.sessions.values()) {
    projectIds.add(s.projectId);
    mapIds.add(s.supplierMapId);
  }
  if (projectIds.size) {
    const rows = await run(
      trx,
      `SELECT id, clicked, complete, testClicked, sampleSize, respondentClickQuota, respondentTestClickQuota
       FROM projects WHERE id IN (${list(projectIds.size)})`,
      [...projectIds],
    );
    for (const r of rows) {
      state.projects.set(r.id as string, {
        clicked: Number(r.clicked),
        complete: Number(r.complete),
        testClicked: Number(r.testClicked),
        sampleSize: Number(r.sampleSize),
        clickQuota: Number(r.respondentClickQuota),
        testClickQuota: Number(r.respondentTestClickQuota),
      });
    }
  }
  if (mapIds.size) {
    const rows = await run(
      trx,
      `SELECT id, clicked, complete, testClicked, supplierQuota, supplierClickQuota
       FROM supplier_maps WHERE id IN (${list(mapIds.size)})`,
      [...mapIds],
    );
    for (const r of rows) {
      state.maps.set(r.id as string, {
        clicked: Number(r.clicked),
        complete: Number(r.complete),
        testClicked: Number(r.testClicked),
        quota: Number(r.supplierQuota),
        clickQuota: Number(r.supplierClickQuota),
      });
    }
  }
}

/** Live entries: the same respondent already on the project, IP counts, other projects' sessions. */
async function loadRespondents(trx: Db, events: RouterEvent[], state: BatchState) {
  const live = events.filter((e): e is EntryEvent => e.kind === "entry" && !e.isTest && !e.closed);
  if (!live.length) return;
  const pids = [...new Set(live.map((e) => e.project.id))];
  const sids = [...new Set(live.map((e) => e.sid))];
  const rows = await run(
    trx,
    `SELECT * FROM sessions WHERE isTest = 0 AND status NOT IN ('closed', 'duplicate')
     AND projectId IN (${list(pids.length)}) AND sid IN (${list(sids.length)})`,
    [...pids, ...sids],
  );
  for (const r of rows) state.entered.set(`${r.projectId}\u0000${r.sid}`, r as SessionRow);

  const ipEntries = live.filter((e) => e.project.isUniqueIp && e.ip);
  if (ipEntries.length) {
    const ipPids = [...new Set(ipEntries.map((e) => e.project.id))];
    const ips = [...new Set(ipEntries.map((e) => e.ip))];
    const counts = await run(
      trx,
      `SELECT projectId, ip, n FROM project_ip_counts WHERE projectId IN (${list(ipPids.length)})
       AND ip IN (${list(ips.length)})`,
      [...ipPids, ...ips],
    );
    for (const r of counts) state.ipCounts.set(`${r.projectId}\u0000${r.ip}`, Number(r.n));
  }

  const ruled = live.filter((e) => e.project.isExclude && e.project.exclusions.length);
  if (ruled.length) {
    const other = [...new Set(ruled.flatMap((e) => e.project.exclusions.map((x) => x.excludedProjectId)))];
    const rsids = [...new Set(ruled.map((e) => e.sid))];
    // through the (projectId, sid) index of live arrivals: the outcomes that matter are all there
    state.priorSessions = await run(
      trx,
      `SELECT projectId, sid, supplierId, status FROM sessions WHERE isTest = 0
       AND status NOT IN ('closed', 'duplicate')
       AND projectId IN (${list(other.length)}) AND sid IN (${list(rsids.length)})`,
      [...other, ...rsids],
    ) as PriorSession[];
  }
}

/** Free client links of multi-link projects: at most one per event that may need one. */
async function loadLinks(trx: Db, events: RouterEvent[], state: BatchState) {
  const linkNeeds = new Map<string, number>();
  for (const e of events) {
    if ((e.kind === "entry" && !e.isTest && !e.closed) || e.kind === "prescreen") {
      if (e.project.isMultiLinkUrl) linkNeeds.set(e.project.id, (linkNeeds.get(e.project.id) ?? 0) + 1);
    }
  }
  for (const [pid, n] of linkNeeds) {
    const rows = await run(
      trx,
      `SELECT id, url FROM project_links WHERE projectId = ? AND usedBy IS NULL ORDER BY id LIMIT ?`,
      [pid, n],
    );
    state.links.set(pid, rows.map((r) => ({ id: Number(r.id), url: String(r.url) })));
  }
}

/** Quota cells named by pre-screen answers and by the sessions that may complete. */
async function loadQuotas(trx: Db, events: RouterEvent[], state: BatchState) {
  const quotaIds = new Set<string>();
  for (const e of events) {
    if (e.kind === "prescreen") e.quotaCells.forEach((c) => quotaIds.add(c.quotaId));
    if (e.kind === "return" && e.status === "complete") {
      const s = state.sessions.get(e.uid);
      if (s) parseCells(s.quotaCells).forEach((c) => quotaIds.add(c.quotaId));
    }
  }
  if (!quotaIds.size) return;
  const rows = await run(
    trx,
    `SELECT id, quotaValue FROM project_quotas WHERE isDeleted = 0 AND id IN (${list(quotaIds.size)})`,
    [...quotaIds],
  );
  for (const r of rows) {
    let cells: QuotaCell[] = [];
    try {
      const v = JSON.parse(String(r.quotaValue));
      if (Array.isArray(v)) cells = v;
    } catch { /* a broken quota row counts nothing */ }
    state.quotas.set(String(r.id), { cells, changed: false });
  }
}
