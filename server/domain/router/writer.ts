/**
 * The router's single writer. Every event that changes counts (an entry, a pre-screen answer, a
 * client return, the drop sweep) is queued; the events of one event-loop turn are decided and
 * written together in ONE write transaction on the next turn, and each request is answered after
 * that transaction commits. A flush costs a handful of statements however many events it carries
 * (writes cost by the statement, design.md 5a).
 *
 * Exactness: the flush first reads, inside its write transaction, the counts its decisions depend
 * on (project and supplier-map counters, existing sessions of the same respondents, IP counts,
 * free client links, quota cells). The write lock is held from that read to the commit, so those
 * figures plus the flush's own changes are the database's state: quota and duplicate decisions
 * are exact even with several app instances on one libSQL server. The partial unique index on
 * (projectId, sid) stays the last word on duplicates; counters and sessions change in the same
 * transaction, so they agree after a crash.
 */
import { setImmediate } from "node:timers";
import { CompiledQuery } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { SessionStatus } from "../../db/tables/router.ts";
import { ROLLUP_COUNTERS, type RollupCounter } from "../../db/tables/router.ts";
import { newId } from "../../db/ids.ts";
import type { Logger } from "../../logger.ts";
import type { MapConfig, ProjectConfig } from "./config.ts";
import type { AnswerRow, QuotaCellRef } from "./prescreen.ts";
import type { SecurityRefusal } from "./security.ts";
import {
  type CounterName,
  day,
  fillPlaceholders,
  type FinalStatus,
  iso,
  REASON,
  SECURITY_COLUMN,
  STATUS_COUNTER,
  STATUS_LETTER,
} from "./outcomes.ts";

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
  quotaCells: string;
  rawStatus: string;
  returnedBy: string;
  createdAt: string;
  updatedAt: string;
  redirectedAt: string | null;
  endedAt: string | null;
  dropAt: string | null;
  seconds: number | null;
};
const SESSION_COLUMNS: (keyof SessionRow)[] = [
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
  "quotaCells",
  "rawStatus",
  "returnedBy",
  "createdAt",
  "updatedAt",
  "redirectedAt",
  "endedAt",
  "dropAt",
  "seconds",
];
/** What a later event may change on an existing session. */
const SESSION_MUTABLE: (keyof SessionRow)[] = [
  "status",
  "reason",
  "detail",
  "clientUrl",
  "quotaCells",
  "rawStatus",
  "returnedBy",
  "updatedAt",
  "redirectedAt",
  "endedAt",
  "dropAt",
  "seconds",
];

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
};
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
export type RouterEvent = EntryEvent | PrescreenEvent | ReturnEvent | SweepEvent;

export type Outcome = {
  /** The session as committed (null: unknown uid). */
  session: SessionRow | null;
  /** The event changed counts (false for a repeated return or answer). */
  counted: boolean;
  /** Sessions the sweep turned into drops. */
  swept?: number;
};

export type WriterOptions = {
  /** Minutes an unanswered pre-screen waits before it counts as a pre-screen drop. */
  prescreenTimeoutMinutes: number;
  /** Drop time-out of a project without an LOI (with one: twice the LOI). */
  dropWithoutLoiMinutes: number;
  /** Largest number of events in one transaction. */
  maxBatch: number;
};

type Pending = { event: RouterEvent; resolve: (o: Outcome) => void; reject: (e: unknown) => void };

type PState = {
  clicked: number;
  complete: number;
  testClicked: number;
  sampleSize: number;
  clickQuota: number;
  testClickQuota: number;
};
type MState = { clicked: number; complete: number; testClicked: number; quota: number; clickQuota: number };
type QuotaCell = { quotaOptionId: string; quotaSize: number; completes: number };
type PriorSession = { projectId: string; sid: string; supplierId: string; status: string };

type RollupRow = {
  date: string;
  projectId: string;
  supplierId: string;
  supplierMapId: string;
  parentProjectId: string | null;
  clientId: string;
  counts: Partial<Record<RollupCounter, number>>;
  revenue: number;
  cost: number;
};

const placeholders = (n: number, width: number) =>
  Array.from({ length: n }, () => `(${Array(width).fill("?").join(",")})`).join(",");
const list = (n: number) => Array(n).fill("?").join(",");

async function run(trx: Db, text: string, params: unknown[] = []) {
  const r = await trx.executeQuery(CompiledQuery.raw(text, params));
  return r.rows as Record<string, unknown>[];
}

export class RouterWriter {
  #queue: Pending[] = [];
  #scheduled = false;
  #running: Promise<void> | null = null;
  #idle: (() => void)[] = [];
  /** Called after each commit with the sessions it wrote (for the uid cache, hook delivery). */
  onCommit: ((sessions: SessionRow[], hooks: number) => void) | null = null;
  flushes = 0;

  constructor(private readonly db: Db, private readonly opts: WriterOptions, private readonly log: Logger) {}

  submit(event: RouterEvent): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      this.#queue.push({ event, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every queued event is written. */
  idle(): Promise<void> {
    if (!this.#queue.length && !this.#running && !this.#scheduled) return Promise.resolve();
    return new Promise((r) => this.#idle.push(r));
  }

  #schedule() {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    // the next turn: whatever else this turn's requests submit goes into the same transaction
    setImmediate(() => this.#drain());
  }

  async #drain() {
    this.#scheduled = false;
    const batch = this.#queue.splice(0, this.opts.maxBatch);
    this.#running = this.#flushSafe(batch);
    try {
      await this.#running;
    } finally {
      this.#running = null;
    }
    if (this.#queue.length) this.#schedule();
    else this.#idle.splice(0).forEach((r) => r());
  }

  async #flushSafe(batch: Pending[], attempt = 0): Promise<void> {
    if (!batch.length) return;
    try {
      const outcomes = await this.#flush(batch.map((p) => p.event));
      batch.forEach((p, i) => p.resolve(outcomes[i]));
    } catch (err) {
      // another writer (process or instance) holds the database: wait a little and try again
      if (attempt < 5 && /SQLITE_BUSY|database is locked/i.test(String((err as Error)?.message ?? err))) {
        await new Promise((r) => setTimeout(r, 10 * 2 ** attempt));
        return await this.#flushSafe(batch, attempt + 1);
      }
      if (batch.length === 1) {
        this.log.error("router write failed", { error: err instanceof Error ? err.message : String(err) });
        batch[0].reject(err);
        return;
      }
      // one bad event must not fail its neighbours: write them one by one
      this.log.warn("router batch failed; writing its events one by one", {
        events: batch.length,
        error: err instanceof Error ? err.message : String(err),
      });
      for (const p of batch) await this.#flushSafe([p]);
    }
  }

  async #flush(events: RouterEvent[]): Promise<Outcome[]> {
    this.flushes++;
    let committed: Flush | null = null;
    const outcomes = await this.db.transaction().execute(async (trx) => {
      const f = new Flush(trx, this.opts);
      const out = await f.run(events);
      committed = f;
      return out;
    });
    const f = committed as Flush | null;
    if (f && this.onCommit) this.onCommit([...f.dirty.values()], f.hooks.length);
    return outcomes;
  }
}

/** One transaction's worth of decisions: state read inside the transaction, then written once. */
class Flush {
  readonly dirty = new Map<string, SessionRow>();
  readonly hooks: { sessionId: string; supplierId: string; url: string }[] = [];
  #sessions = new Map<string, SessionRow>();
  #projects = new Map<string, PState>();
  #maps = new Map<string, MState>();
  #pDelta = new Map<string, Partial<Record<CounterName, number>>>();
  #mDelta = new Map<string, Partial<Record<CounterName, number>>>();
  #rollup = new Map<string, RollupRow>();
  #dupes = new Set<string>();
  #ipCounts = new Map<string, number>();
  #ipAdded = new Map<string, { projectId: string; ip: string; n: number }>();
  #priorSessions: PriorSession[] = [];
  #links = new Map<string, { id: number; url: string }[]>();
  #usedLinks: { id: number; uid: string }[] = [];
  #quotas = new Map<string, { cells: QuotaCell[]; changed: boolean }>();
  #answers: (AnswerRow & { sessionId: string; projectId: string; supplierId: string; createdAt: string })[] =
    [];
  #newIds = new Set<string>();

  constructor(private readonly trx: Db, private readonly opts: WriterOptions) {}

  async run(events: RouterEvent[]): Promise<Outcome[]> {
    await this.#load(events);
    const out: Outcome[] = [];
    for (const e of events) {
      if (e.kind === "entry") out.push(this.#entry(e));
      else if (e.kind === "prescreen") out.push(this.#prescreen(e));
      else if (e.kind === "return") out.push(this.#return(e));
      else out.push(this.#sweep(e));
    }
    await this.#write();
    return out;
  }

  // ------------------------------------------------------------ reading the state

  async #load(events: RouterEvent[]) {
    const trx = this.trx;
    const uids = new Set<string>();
    for (const e of events) if (e.kind === "prescreen" || e.kind === "return") uids.add(e.uid);
    if (uids.size) {
      const rows = await run(trx, `SELECT * FROM sessions WHERE id IN (${list(uids.size)})`, [...uids]);
      for (const r of rows) this.#sessions.set(r.id as string, r as SessionRow);
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
        if (!this.#sessions.has(r.id as string)) this.#sessions.set(r.id as string, r as SessionRow);
      }
    }

    const projectIds = new Set<string>(), mapIds = new Set<string>();
    for (const e of events) {
      if (e.kind === "entry") {
        projectIds.add(e.project.id);
        mapIds.add(e.map.id);
      }
    }
    for (const s of this.#sessions.values()) {
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
        this.#projects.set(r.id as string, {
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
        this.#maps.set(r.id as string, {
          clicked: Number(r.clicked),
          complete: Number(r.complete),
          testClicked: Number(r.testClicked),
          quota: Number(r.supplierQuota),
          clickQuota: Number(r.supplierClickQuota),
        });
      }
    }

    // live entries: the same respondent already on the project, IP counts, other projects' sessions
    const live = events.filter((e): e is EntryEvent => e.kind === "entry" && !e.isTest && !e.closed);
    if (live.length) {
      const pids = [...new Set(live.map((e) => e.project.id))];
      const sids = [...new Set(live.map((e) => e.sid))];
      const rows = await run(
        trx,
        `SELECT projectId, sid FROM sessions WHERE isTest = 0 AND status NOT IN ('closed', 'duplicate')
         AND projectId IN (${list(pids.length)}) AND sid IN (${list(sids.length)})`,
        [...pids, ...sids],
      );
      for (const r of rows) this.#dupes.add(`${r.projectId}\u0000${r.sid}`);

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
        for (const r of counts) this.#ipCounts.set(`${r.projectId}\u0000${r.ip}`, Number(r.n));
      }

      const ruled = live.filter((e) => e.project.isExclude && e.project.exclusions.length);
      if (ruled.length) {
        const other = [
          ...new Set(ruled.flatMap((e) => e.project.exclusions.map((x) => x.excludedProjectId))),
        ];
        const rsids = [...new Set(ruled.map((e) => e.sid))];
        // through the (projectId, sid) index of live arrivals: the outcomes that matter are all there
        this.#priorSessions = await run(
          trx,
          `SELECT projectId, sid, supplierId, status FROM sessions WHERE isTest = 0
           AND status NOT IN ('closed', 'duplicate')
           AND projectId IN (${list(other.length)}) AND sid IN (${list(rsids.length)})`,
          [...other, ...rsids],
        ) as PriorSession[];
      }
    }

    // free client links of multi-link projects: at most one per event that may need one
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
      this.#links.set(pid, rows.map((r) => ({ id: Number(r.id), url: String(r.url) })));
    }

    // quota cells named by pre-screen answers and by the sessions that may complete
    const quotaIds = new Set<string>();
    for (const e of events) {
      if (e.kind === "prescreen") e.quotaCells.forEach((c) => quotaIds.add(c.quotaId));
      if (e.kind === "return" && e.status === "complete") {
        const s = this.#sessions.get(e.uid);
        if (s) parseCells(s.quotaCells).forEach((c) => quotaIds.add(c.quotaId));
      }
    }
    if (quotaIds.size) {
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
        this.#quotas.set(String(r.id), { cells, changed: false });
      }
    }
  }

  // ------------------------------------------------------------ counting

  #p(id: string): PState {
    let s = this.#projects.get(id);
    if (!s) {
      s = { clicked: 0, complete: 0, testClicked: 0, sampleSize: 0, clickQuota: 0, testClickQuota: 0 };
      this.#projects.set(id, s);
    }
    return s;
  }
  #m(id: string): MState {
    let s = this.#maps.get(id);
    if (!s) {
      s = { clicked: 0, complete: 0, testClicked: 0, quota: 0, clickQuota: 0 };
      this.#maps.set(id, s);
    }
    return s;
  }

  /** Adds `by` to a counter of the session's project, supplier map and daily rollup row. */
  #bump(
    s: SessionRow,
    counter: CounterName,
    by: number,
    atMs: number,
    extra: { column?: RollupCounter; revenue?: number; cost?: number } = {},
  ) {
    if (s.isTest) {
      if (counter !== "clicked") return; // test traffic counts its clicks only
      counter = "testClicked";
    }
    const pd = this.#pDelta.get(s.projectId) ?? {};
    pd[counter] = (pd[counter] ?? 0) + by;
    this.#pDelta.set(s.projectId, pd);
    const md = this.#mDelta.get(s.supplierMapId) ?? {};
    md[counter] = (md[counter] ?? 0) + by;
    this.#mDelta.set(s.supplierMapId, md);
    const p = this.#p(s.projectId), m = this.#m(s.supplierMapId);
    if (counter === "clicked" || counter === "complete" || counter === "testClicked") {
      p[counter] += by;
      m[counter] += by;
    }
    if (s.isTest) return;
    const date = day(atMs);
    const key = `${date}\u0000${s.projectId}\u0000${s.supplierId}`;
    let row = this.#rollup.get(key);
    if (!row) {
      row = {
        date,
        projectId: s.projectId,
        supplierId: s.supplierId,
        supplierMapId: s.supplierMapId,
        parentProjectId: s.parentProjectId,
        clientId: s.clientId,
        counts: {},
        revenue: 0,
        cost: 0,
      };
      this.#rollup.set(key, row);
    }
    const c = counter as RollupCounter;
    row.counts[c] = (row.counts[c] ?? 0) + by;
    if (extra.column) row.counts[extra.column] = (row.counts[extra.column] ?? 0) + by;
    row.revenue += extra.revenue ?? 0;
    row.cost += extra.cost ?? 0;
  }

  /** Counts a session entering `status` (its status counter, with the security breakdown). */
  #countStatus(
    s: SessionRow,
    status: SessionStatus,
    by: number,
    atMs: number,
    money?: { revenue: number; cost: number },
  ) {
    const counter = STATUS_COUNTER[status];
    if (!counter) return;
    const column = counter === "security"
      ? SECURITY_COLUMN[s.reason]
      : status === "qualityTerm" && s.reason === REASON.speeder
      ? "speeder" as const
      : undefined;
    this.#bump(s, counter, by, atMs, { column, ...money });
  }

  #touch(s: SessionRow) {
    this.#sessions.set(s.id, s);
    this.dirty.set(s.id, s);
  }

  // ------------------------------------------------------------ decisions

  #exclusion(e: EntryEvent): { reason: string; detail: string } | null {
    const p = e.project;
    if (!p.isExclude || !p.exclusions.length) return null;
    const mine = this.#priorSessions.filter((s) => s.sid === e.sid && s.supplierId === e.map.supplierId);
    const matches = (rule: ProjectConfig["exclusions"][number]) =>
      mine.some((s) =>
        s.projectId === rule.excludedProjectId && (
          (rule.complete && s.status === "complete") ||
          (rule.terminate && (s.status === "terminate" || s.status === "preScreenTerminate")) ||
          (rule.overQuota && s.status === "overQuota") ||
          (rule.dropout && (s.status === "drop" || s.status === "preScreenDrop"))
        )
      );
    const hit = p.exclusions.find((r) => r.isExcluded && matches(r));
    if (hit) return { reason: REASON.excluded, detail: `took part in project ${hit.excludedProjectId}` };
    const includes = p.exclusions.filter((r) => !r.isExcluded);
    if (includes.length && !includes.some(matches)) {
      return { reason: REASON.notIncluded, detail: "not among the included projects' respondents" };
    }
    return null;
  }

  /** The client survey URL for a respondent, taking the next unused link on multi-link projects. */
  #clientUrl(p: ProjectConfig, uid: string, isTest: boolean): string | null {
    if (isTest) return p.singleLinkUrlTest ? fillPlaceholders(p.singleLinkUrlTest, { uid }) : null;
    if (p.isMultiLinkUrl) {
      const link = this.#links.get(p.id)?.shift();
      if (!link) return null;
      this.#usedLinks.push({ id: link.id, uid });
      return fillPlaceholders(link.url, { uid });
    }
    return p.singleLinkUrl ? fillPlaceholders(p.singleLinkUrl, { uid }) : null;
  }

  /** Drops are sessions older than twice the LOI; without an LOI, a fixed wait. */
  #dropAt(p: ProjectConfig, now: number, prescreen: boolean) {
    const minutes = prescreen
      ? this.opts.prescreenTimeoutMinutes
      : p.averageLOI > 0
      ? 2 * p.averageLOI
      : this.opts.dropWithoutLoiMinutes;
    return iso(now + minutes * 60_000);
  }

  #entry(e: EntryEvent): Outcome {
    const p = e.project, m = e.map;
    const nowIso = iso(e.now);
    let uid = newId(e.now);
    while (this.#newIds.has(uid)) uid = newId(e.now);
    this.#newIds.add(uid);
    const s: SessionRow = {
      id: uid,
      projectId: p.id,
      parentProjectId: p.parentProjectId,
      clientId: p.clientId,
      supplierMapId: m.id,
      supplierId: m.supplierId,
      sid: e.sid,
      status: "closed",
      reason: "",
      detail: "",
      isTest: e.isTest ? 1 : 0,
      ip: e.ip,
      country: e.country,
      deviceType: e.deviceType,
      browser: e.browser,
      userAgent: e.userAgent,
      rdScore: e.rdScore,
      clientUrl: "",
      quotaCells: "[]",
      rawStatus: "",
      returnedBy: "",
      createdAt: nowIso,
      updatedAt: nowIso,
      redirectedAt: null,
      endedAt: null,
      dropAt: null,
      seconds: null,
    };
    const ps = this.#p(p.id), ms = this.#m(m.id);
    const set = (status: SessionStatus, reason = "", detail = "") => {
      s.status = status;
      s.reason = reason;
      s.detail = detail;
    };
    const dupKey = `${p.id}\u0000${e.sid}`;
    const ipKey = `${p.id}\u0000${e.ip}`;

    if (e.closed) set("closed", e.closed.reason, e.closed.detail);
    else if (e.isTest) {
      if (ps.testClickQuota > 0 && ps.testClicked >= ps.testClickQuota) {
        set("closed", REASON.testClickQuota, `${ps.testClicked} of ${ps.testClickQuota} test clicks used`);
      } else if (e.security) set("security", e.security.reason, e.security.detail);
      else set(e.prescreen ? "prescreen" : "redirected");
    } else if (this.#dupes.has(dupKey)) {
      set("duplicate", REASON.duplicate, `sid ${e.sid} already entered this project`);
    } else {
      const excluded = this.#exclusion(e);
      if (excluded) set("terminate", excluded.reason, excluded.detail);
      else if (ps.clickQuota > 0 && ps.clicked >= ps.clickQuota) {
        set("closed", REASON.projectClickQuota, `${ps.clicked} of ${ps.clickQuota} clicks used`);
      } else if (ms.clickQuota > 0 && ms.clicked >= ms.clickQuota) {
        set("closed", REASON.supplierClickQuota, `${ms.clicked} of ${ms.clickQuota} clicks used`);
      } else if (ps.sampleSize > 0 && ps.complete >= ps.sampleSize) {
        set("overQuota", REASON.sampleFull, `${ps.complete} of ${ps.sampleSize} completes`);
      } else if (ms.quota > 0 && ms.complete >= ms.quota) {
        set("overQuota", REASON.supplierQuotaFull, `${ms.complete} of ${ms.quota} completes`);
      } else if (p.isUniqueIp && e.ip && (this.#ipCounts.get(ipKey) ?? 0) >= Math.max(1, p.maxIPCount)) {
        set("security", REASON.ipLimit, `${e.ip} already used ${this.#ipCounts.get(ipKey)} time(s)`);
      } else if (e.security) set("security", e.security.reason, e.security.detail);
      else set(e.prescreen ? "prescreen" : "redirected");
    }

    if (s.status === "redirected") {
      const url = this.#clientUrl(p, uid, e.isTest);
      if (url) {
        s.clientUrl = url;
        s.redirectedAt = nowIso;
        s.dropAt = this.#dropAt(p, e.now, false);
      } else {
        set(
          "closed",
          REASON.noClientLink,
          p.isMultiLinkUrl && !e.isTest ? "no unused client link" : "no client URL",
        );
      }
    } else if (s.status === "prescreen") {
      s.dropAt = this.#dropAt(p, e.now, true);
    }
    if (s.status !== "prescreen" && s.status !== "redirected") s.endedAt = nowIso;

    if (s.status !== "closed") {
      if (!e.isTest && s.status !== "duplicate") {
        this.#dupes.add(dupKey);
        if (e.ip && p.isUniqueIp) {
          this.#ipCounts.set(ipKey, (this.#ipCounts.get(ipKey) ?? 0) + 1);
          const added = this.#ipAdded.get(ipKey) ?? { projectId: p.id, ip: e.ip, n: 0 };
          added.n++;
          this.#ipAdded.set(ipKey, added);
        }
      }
      this.#bump(s, "clicked", 1, e.now);
      this.#countStatus(s, s.status, 1, e.now);
    }
    this.#touch(s);
    return { session: s, counted: s.status !== "closed" };
  }

  /** The quota cells a session would fill; the first full one, if any. */
  #fullCell(refs: QuotaCellRef[]): string | null {
    for (const ref of refs) {
      const cell = this.#quotas.get(ref.quotaId)?.cells.find((c) => c.quotaOptionId === ref.quotaOptionId);
      if (cell && cell.quotaSize > 0 && cell.completes >= cell.quotaSize) {
        return `quota option ${ref.quotaOptionId}: ${cell.completes} of ${cell.quotaSize} completes`;
      }
    }
    return null;
  }

  #prescreen(e: PrescreenEvent): Outcome {
    const s0 = this.#sessions.get(e.uid);
    if (!s0) return { session: null, counted: false };
    if (s0.status !== "prescreen") return { session: s0, counted: false };
    const s = { ...s0 };
    const nowIso = iso(e.now);
    s.updatedAt = nowIso;
    s.quotaCells = JSON.stringify(e.quotaCells);
    const ps = this.#p(s.projectId), ms = this.#m(s.supplierMapId);
    let full: string | null = null;
    if (!e.passed) {
      s.status = "preScreenTerminate";
      s.reason = REASON.prescreen;
      s.detail = e.detail.slice(0, 300);
    } else if (!s.isTest && (full = this.#fullCell(e.quotaCells))) {
      s.status = "overQuota";
      s.reason = REASON.quotaOptionFull;
      s.detail = full;
    } else if (!s.isTest && ps.sampleSize > 0 && ps.complete >= ps.sampleSize) {
      s.status = "overQuota";
      s.reason = REASON.sampleFull;
      s.detail = `${ps.complete} of ${ps.sampleSize} completes`;
    } else if (!s.isTest && ms.quota > 0 && ms.complete >= ms.quota) {
      s.status = "overQuota";
      s.reason = REASON.supplierQuotaFull;
      s.detail = `${ms.complete} of ${ms.quota} completes`;
    } else {
      const url = this.#clientUrl(e.project, s.id, s.isTest === 1);
      if (url) {
        s.status = "redirected";
        s.clientUrl = url;
        s.redirectedAt = nowIso;
        s.dropAt = this.#dropAt(e.project, e.now, false);
      } else {
        // nowhere to send them: the survey is closed to them after all, and they were never a click
        s.status = "closed";
        s.reason = REASON.noClientLink;
        s.detail = e.project.isMultiLinkUrl ? "no unused client link" : "no client URL";
        this.#bump(s, "clicked", -1, Date.parse(s.createdAt));
      }
    }
    if (s.status !== "redirected") {
      s.endedAt = nowIso;
      s.dropAt = null;
    }
    this.#countStatus(s, s.status, 1, e.now);
    for (const a of e.answers) {
      this.#answers.push({
        ...a,
        sessionId: s.id,
        projectId: s.projectId,
        supplierId: s.supplierId,
        createdAt: nowIso,
      });
    }
    this.#touch(s);
    return { session: s, counted: true };
  }

  #return(e: ReturnEvent): Outcome {
    const s0 = this.#sessions.get(e.uid);
    if (!s0) return { session: null, counted: false };
    // the first final status wins; a drop is only a time-out, so a late return still counts
    if (s0.status !== "redirected" && s0.status !== "drop") return { session: s0, counted: false };
    const s = { ...s0 };
    const nowIso = iso(e.now);
    const started = Date.parse(s.redirectedAt ?? s.createdAt);
    const seconds = Math.max(0, Math.round((e.now - started) / 1000));
    let status: SessionStatus = e.status, reason: string = REASON.client, detail = "";
    const p = e.project, ps = this.#p(s.projectId), ms = this.#m(s.supplierMapId);
    const cells = parseCells(s.quotaCells);
    if (status === "complete") {
      let full: string | null = null;
      if (p.isSpeeder && p.speedTime > 0 && seconds < p.speedTime) {
        status = "qualityTerm";
        reason = REASON.speeder;
        detail = `${seconds} s, faster than ${p.speedTime} s`;
      } else if (!s.isTest && ps.sampleSize > 0 && ps.complete >= ps.sampleSize) {
        status = "overQuota";
        reason = REASON.sampleFull;
        detail = `complete after ${ps.complete} of ${ps.sampleSize} completes`;
      } else if (!s.isTest && ms.quota > 0 && ms.complete >= ms.quota) {
        status = "overQuota";
        reason = REASON.supplierQuotaFull;
        detail = `complete after ${ms.complete} of ${ms.quota} supplier completes`;
      } else if (!s.isTest && (full = this.#fullCell(cells))) {
        status = "overQuota";
        reason = REASON.quotaOptionFull;
        detail = `complete after ${full}`;
      }
    }
    if (s0.status === "drop") {
      this.#countStatus(s0, "drop", -1, Date.parse(s0.endedAt ?? s0.dropAt ?? s0.createdAt));
    }
    s.status = status;
    s.reason = reason;
    s.detail = detail;
    s.rawStatus = e.raw.slice(0, 20);
    s.returnedBy = e.via;
    s.updatedAt = nowIso;
    s.endedAt = nowIso;
    s.dropAt = null;
    s.seconds = seconds;
    const money = status === "complete" ? { revenue: p.cpi, cost: e.map.supplierCPI } : undefined;
    this.#countStatus(s, status, 1, e.now, money);
    if (status === "complete" && !s.isTest) {
      for (const ref of cells) {
        const q = this.#quotas.get(ref.quotaId);
        const cell = q?.cells.find((c) => c.quotaOptionId === ref.quotaOptionId);
        if (q && cell) {
          cell.completes = (Number(cell.completes) || 0) + 1;
          q.changed = true;
        }
      }
      if (e.map.approvedHook) {
        this.hooks.push({
          sessionId: s.id,
          supplierId: s.supplierId,
          url: fillPlaceholders(e.map.approvedHook, {
            sid: s.sid,
            uid: s.id,
            pid: p.projectCode,
            status: STATUS_LETTER.complete,
          }),
        });
      }
    }
    this.#touch(s);
    return { session: s, counted: true };
  }

  #sweep(e: SweepEvent): Outcome {
    let swept = 0;
    const nowIso = iso(e.now);
    for (const s0 of this.#sessions.values()) {
      if ((s0.status !== "prescreen" && s0.status !== "redirected") || !s0.dropAt || s0.dropAt > nowIso) {
        continue;
      }
      const s = { ...s0 };
      s.status = s0.status === "prescreen" ? "preScreenDrop" : "drop";
      s.reason = REASON.timeout;
      s.detail = s0.status === "prescreen"
        ? "pre-screen not answered in time"
        : "no return from the survey in time";
      s.endedAt = s0.dropAt;
      s.updatedAt = nowIso;
      // counted on the day the time-out fell, whenever the sweep runs
      this.#countStatus(s, s.status, 1, Date.parse(s0.dropAt));
      this.#touch(s);
      swept++;
    }
    return { session: null, counted: swept > 0, swept };
  }

  // ------------------------------------------------------------ writing

  async #write() {
    const trx = this.trx;
    const rows = [...this.dirty.values()];
    for (let i = 0; i < rows.length; i += 400) {
      const chunk = rows.slice(i, i + 400);
      await run(
        trx,
        `INSERT INTO sessions (${SESSION_COLUMNS.join(", ")}) VALUES ${
          placeholders(chunk.length, SESSION_COLUMNS.length)
        }
         ON CONFLICT(id) DO UPDATE SET ${SESSION_MUTABLE.map((c) => `${c} = excluded.${c}`).join(", ")}`,
        chunk.flatMap((r) => SESSION_COLUMNS.map((c) => r[c])),
      );
    }
    for (const [table, deltas] of [["projects", this.#pDelta], ["supplier_maps", this.#mDelta]] as const) {
      for (const [id, d] of deltas) {
        const cols = Object.entries(d).filter(([, n]) => n);
        if (!cols.length) continue;
        await run(
          trx,
          `UPDATE ${table} SET ${cols.map(([c]) => `"${c}" = "${c}" + ?`).join(", ")} WHERE id = ?`,
          [...cols.map(([, n]) => n), id],
        );
      }
    }
    const rollups = [...this.#rollup.values()];
    if (rollups.length) {
      const cols = [
        "date",
        "projectId",
        "supplierId",
        "supplierMapId",
        "parentProjectId",
        "clientId",
        ...ROLLUP_COUNTERS,
        "revenue",
        "cost",
      ];
      for (let i = 0; i < rollups.length; i += 200) {
        const chunk = rollups.slice(i, i + 200);
        await run(
          trx,
          `INSERT INTO router_daily (${cols.map((c) => `"${c}"`).join(", ")}) VALUES ${
            placeholders(chunk.length, cols.length)
          }
           ON CONFLICT(date, projectId, supplierId) DO UPDATE SET ${
            [...ROLLUP_COUNTERS, "revenue", "cost"].map((c) => `"${c}" = "${c}" + excluded."${c}"`).join(", ")
          }`,
          chunk.flatMap((r) => [
            r.date,
            r.projectId,
            r.supplierId,
            r.supplierMapId,
            r.parentProjectId,
            r.clientId,
            ...ROLLUP_COUNTERS.map((c) => r.counts[c] ?? 0),
            Math.round(r.revenue * 100) / 100,
            Math.round(r.cost * 100) / 100,
          ]),
        );
      }
    }
    const ipRows = [...this.#ipAdded.values()];
    for (let i = 0; i < ipRows.length; i += 300) {
      const chunk = ipRows.slice(i, i + 300);
      await run(
        trx,
        `INSERT INTO project_ip_counts (projectId, ip, n) VALUES ${placeholders(chunk.length, 3)}
         ON CONFLICT(projectId, ip) DO UPDATE SET n = n + excluded.n`,
        chunk.flatMap((r) => [r.projectId, r.ip, r.n]),
      );
    }
    for (const l of this.#usedLinks) {
      await run(trx, `UPDATE project_links SET usedBy = ? WHERE id = ? AND usedBy IS NULL`, [l.uid, l.id]);
    }
    for (const [id, q] of this.#quotas) {
      if (q.changed) {
        await run(trx, `UPDATE project_quotas SET quotaValue = ? WHERE id = ?`, [
          JSON.stringify(q.cells),
          id,
        ]);
      }
    }
    if (this.#answers.length) {
      const cols = [
        "sessionId",
        "projectId",
        "supplierId",
        "questionId",
        "answer",
        "answerText",
        "passed",
        "createdAt",
      ] as const;
      for (let i = 0; i < this.#answers.length; i += 500) {
        const chunk = this.#answers.slice(i, i + 500);
        await run(
          trx,
          `INSERT INTO prescreen_answers (${cols.join(", ")}) VALUES ${
            placeholders(chunk.length, cols.length)
          }`,
          chunk.flatMap((a) => cols.map((c) => a[c])),
        );
      }
    }
    if (this.hooks.length) {
      const now = new Date().toISOString();
      await run(
        trx,
        `INSERT INTO router_hooks (sessionId, supplierId, url, nextAt, createdAt, updatedAt) VALUES ${
          placeholders(this.hooks.length, 6)
        }`,
        this.hooks.flatMap((h) => [h.sessionId, h.supplierId, h.url, now, now, now]),
      );
    }
  }
}

function parseCells(text: string): QuotaCellRef[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
