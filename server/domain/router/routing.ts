/**
 * Routing of the screened-out (issue 24 item 3). A respondent refused at entry (quota full, survey
 * closed, pre-screen failed) or returning as a terminate or over quota is offered the next live
 * survey their supplier may send to (a live, boarded map of that supplier with traffic on) and that
 * takes routed respondents, instead of being sent home. Candidates are ranked by the supplier's
 * expected earnings per click: its CPI on the survey times the survey's measured conversion
 * (completes per click, with the survey's IR as the prior before there is data). A candidate is
 * skipped when the respondent already entered it (a duplicate), its Exclude/Include rules keep
 * them out, its request checks (device, country, RD score) refuse them, or a known answer fails its
 * pre-screen; the questions still unanswered are asked on the next survey's pre-screen.
 *
 * Each hop is an entry of its own through the router (a session counted once in its project) that
 * names the chain's first session (sessions.chainId) and its place (sessions.hop). A chain has at
 * most MAX_HOPS sessions and lasts at most CHAIN_MINUTES; the respondent goes back to the supplier
 * once, at the chain's end, by the supplier's redirect (of the first session's map) for the last
 * hop's outcome. Only when the supplier opted in (suppliers.allowRouting) and both the survey that
 * refused and the one offered allow routing (projects.allowRouting).
 *
 * The candidate list of a supplier is kept in memory (like the router's configuration) and dropped
 * when a project, map or supplier changes, or after the configuration's time-to-live: no entry scans
 * the projects.
 */
import { conversion, heldConversion } from "./writer/holds.ts";
import { CompiledQuery, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { ChangeNotifier } from "../common/changes.ts";
import type { SessionStatus } from "../../db/tables/router.ts";
import { TIME_SUMS } from "../../db/tables/projects.ts";
import { PROJECT_STATUS, PROJECT_TYPE } from "../../../shared/status.ts";
import type { MapConfig, ProjectConfig, RouterConfig } from "./config.ts";
import { exclusionRefusal } from "./exclusions.ts";
import { REASON } from "./outcomes.ts";
import type { QuotaCellRef } from "./prescreen.ts";
import { type Known, knownCells, knownFailure, readProfile, usesProfiles } from "./profiles.ts";
import { type DeviceType, type RdThresholds, requestSecurity } from "./security.ts";
import type { SessionRow } from "./writer/types.ts";
import { BoundedMap } from "../../lib/memo.ts";

/** The most sessions in one chain (the supplier's entry and two routed hops). */
export const MAX_HOPS = 3;
/** The longest a chain lasts, from the supplier's entry: later refusals go home. */
export const CHAIN_MINUTES = 30;
/** The most candidates looked at for one hop (the best ranked first). */
export const CANDIDATE_SCAN = 25;
/**
 * A respondent's live sessions (duplicates and exclusions of the surveys routing might offer): one
 * range of the live arrivals' index, sid first (migration 0041), at most one row per project, and
 * one short statement whatever the number of candidates (their 50 ids bound to a statement cost
 * more than the read). Answered as ONE row, a JSON list of [projectId, supplierId, status]: a read
 * of a row at most is kept prepared (db/local-client.ts).
 */
export const LIVE_OF_SID = `SELECT json_group_array(json_array(projectId, supplierId, status)) AS live
  FROM sessions INDEXED BY sessions_live_sid
  WHERE sid = ? AND isTest = 0 AND status NOT IN ('closed', 'duplicate') LIMIT 1`;
/** The rows of LIVE_OF_SID's answer. */
export function liveOfSid(
  rows: readonly object[],
): { projectId: string; supplierId: string; status: string }[] {
  const first = rows[0] as { live?: unknown } | undefined;
  const list = JSON.parse(String(first?.live ?? "[]")) as [string, string, string][];
  return list.map(([projectId, supplierId, status]) => ({ projectId, supplierId, status }));
}
/** Clicks' worth of weight the survey's IR has before its own conversion is measured. */
const PRIOR_CLICKS = 20;

/** The outcomes that route a respondent on (when both sides allow it). */
const ROUTABLE: ReadonlySet<SessionStatus> = new Set([
  "closed",
  "terminate",
  "preScreenTerminate",
  "overQuota",
]);

/** Refusals that say a survey takes no one now, whoever comes (for every supplier). */
const FULL_PROJECT: ReadonlySet<string> = new Set([
  REASON.sampleFull,
  REASON.projectClickQuota,
  REASON.noClientLink,
]);
/** Refusals that say one supplier's map on a survey takes no one now. */
const FULL_MAP: ReadonlySet<string> = new Set([REASON.supplierQuotaFull, REASON.supplierClickQuota]);

/** A session with its survey and the supplier's map on it (the router's Routed). */
export type Hop = { session: SessionRow; project: ProjectConfig; map: MapConfig };

/** A survey a supplier may route to, with its expected earnings per click. */
export type Candidate = { mapId: string; projectId: string; epc: number };

/** What a hop's entry is made from (handed to the router's own entry). */
export type HopEntry = {
  mapId: string;
  sid: string;
  ip: string;
  userAgent: string;
  headers: Headers;
  country: string;
  chain: { id: string; hop: number };
  now: number;
  /** The member's known answers as routing read them to pick (absent: not read). */
  profile?: Known;
};

export type RoutingDeps = {
  db: Db;
  config: RouterConfig;
  changes: ChangeNotifier;
  ttlMs: number;
  now: () => number;
  rd: RdThresholds;
  /** The writer's holds are on: a candidate needs room under them too. */
  holds?: boolean;
};

/** What routing asks of the router it serves. */
export type RouterPort = {
  /** Why the router refuses arrivals on a map before anything is counted, or null. */
  closedReason: (p: ProjectConfig, m: MapConfig) => unknown;
  /** The router's entry: the hop's session, or null when the map is unknown. */
  enter: (req: HopEntry) => Promise<Hop | null>;
};

/** The expected earnings per click of a survey for a supplier: its CPI x measured conversion. */
export function expectedEarnings(
  r: { supplierCPI: number; clicked: number; complete: number; ir: number },
): number {
  const prior = Math.min(100, Math.max(0, Number(r.ir) || 0)) / 100;
  const conversion = (Number(r.complete) + prior * PRIOR_CLICKS) / (Number(r.clicked) + PRIOR_CLICKS);
  return Number(r.supplierCPI) * conversion;
}

/**
 * Whether a limit has room for one more: completes under it, and with holds on, completes plus the
 * held sessions at the holds' rate too (a survey the holds would refuse is no place to route to: the
 * hop would be spent on a refusal).
 */
function roomFor(complete: number, held: number, limit: number, rate: number | null): boolean {
  if (limit <= 0) return true;
  return rate === null ? complete < limit : complete + heldConversion(rate, held) * held < limit;
}

/** The live surveys a supplier may send to that take routed respondents and have room, best earning first. */
export async function loadCandidates(db: Db, supplierId: string, holds = false): Promise<Candidate[]> {
  const rows = await db.selectFrom("supplier_maps as m")
    .innerJoin("projects as p", "p.id", "m.projectId")
    .select([
      "m.id as mapId",
      "m.projectId",
      "m.supplierCPI",
      "p.clicked",
      "p.complete",
      "p.ir",
      "p.sampleSize",
      "p.held",
      "p.sent",
      ...TIME_SUMS.map((k) => `p.${k}` as const),
      "m.supplierQuota",
      "m.complete as mapComplete",
      "m.held as mapHeld",
    ])
    .where("m.supplierId", "=", supplierId).where("m.isDeleted", "=", 0)
    .where("m.allowTraffic", "=", 1).where("m.isBoarded", "=", 1)
    .where("p.projectType", "=", PROJECT_TYPE.CHILD).where("p.projectStatus", "=", PROJECT_STATUS.LIVE)
    .where("p.isDeleted", "=", 0).where("p.allowRouting", "=", 1)
    // full surveys are left out (the writer still decides exactly at the hop's entry)
    .where(sql<boolean>`(p.sampleSize = 0 OR p.complete < p.sampleSize)`)
    .where(sql<boolean>`(m.supplierQuota = 0 OR m.complete < m.supplierQuota)`)
    .execute();
  return rows
    .filter((r) => {
      // the writer's rate (holds.ts), from the same counters
      const rate = holds ? conversion(r) : null;
      return roomFor(Number(r.complete), Number(r.held), Number(r.sampleSize), rate) &&
        roomFor(Number(r.mapComplete), Number(r.mapHeld), Number(r.supplierQuota), rate);
    })
    .map((r) => ({ mapId: r.mapId, projectId: r.projectId, epc: expectedEarnings(r) }))
    .sort((a, b) => b.epc - a.epc || a.projectId.localeCompare(b.projectId));
}

type Cached = { value: Candidate[] | Promise<Candidate[]>; at: number };

/**
 * What routing remembers of a chain it extended: its first session, its surveys, and its last hop
 * when this instance made it. All of it is fixed once written (a hop's project, the first session's
 * uid, sid and map), so it stands for the chain's read while the hop it names is the one that just
 * ended (nothing can follow it yet); the supplier's way home reads the first session from it too.
 */
type ChainMemo = { first: SessionRow; projects: string[]; last: string };
/** Chains remembered at most (the oldest forgotten first; a forgotten one is read). */
const CHAIN_MEMO_MAX = 20_000;

/** A quota cell's key: its quota (a project's) and option (a qualification's, shared by projects). */
const cellKey = (c: QuotaCellRef) => `${c.quotaId}\u0000${c.quotaOptionId}`;
/** Full quota cells remembered at most (the oldest forgotten first). */
const FULL_CELLS_MAX = 20_000;

export class Routing {
  #bySupplier = new Map<string, Cached>();
  /**
   * Quota cells (`quotaId \0 quotaOptionId`) a write filled, with the completes they held then: full
   * while their configured size is not above that (a size raised since gives them room again).
   */
  readonly #fullCells = new BoundedMap<string, number>(FULL_CELLS_MAX);
  readonly #chains = new BoundedMap<string, ChainMemo>(CHAIN_MEMO_MAX);
  #unsubscribe: (() => void)[] = [];

  constructor(private readonly deps: RoutingDeps, private readonly router: RouterPort) {
    const clear = () => {
      this.#bySupplier.clear();
      this.#fullCells.clear();
    };
    for (const topic of ["project", "supplierMap", "supplier"] as const) {
      this.#unsubscribe.push(deps.changes.on(topic, clear));
    }
  }

  close() {
    this.#unsubscribe.forEach((f) => f());
  }

  /** A supplier's candidates, from memory while fresh. */
  candidates(supplierId: string): Candidate[] | Promise<Candidate[]> {
    const now = this.deps.now();
    const hit = this.#bySupplier.get(supplierId);
    if (hit && now - hit.at < this.deps.ttlMs) return hit.value;
    return this.#keep(supplierId, loadCandidates(this.deps.db, supplierId, this.deps.holds === true), now);
  }

  /** Keeps a supplier's list (a read in flight is replaced by its answer once it comes). */
  #keep(supplierId: string, value: Promise<Candidate[]>, at: number): Promise<Candidate[]> {
    this.#bySupplier.set(supplierId, { value, at });
    value.then(
      (list) =>
        this.#bySupplier.get(supplierId)?.value === value &&
        this.#bySupplier.set(supplierId, { value: list, at }),
      () => this.#bySupplier.get(supplierId)?.value === value && this.#bySupplier.delete(supplierId),
    );
    return value;
  }

  /**
   * Told of each committed write batch (the router's writer): the surveys, maps and quota cells its
   * completes filled, and its entries refused because their survey is full or out of clicks or
   * links (also what the holds keep) or their map is at its quota or clicks. Those surveys leave
   * every list already read, and those maps their supplier's, until the lists are read again (the
   * configuration's time-to-live). Without it, a survey that filled stayed a candidate for up to
   * that long, and the respondents routed to it were refused there: in the marketplace bench, 4
   * routed hops in 10 spent one of the chain's places on a full survey. A filled quota cell is
   * remembered until its survey changes (a candidate whose full cell the member's known answers put
   * them in is skipped).
   */
  noRoom(
    sessions: Iterable<SessionRow>,
    filled: { projects: string[]; maps: string[]; cells: (QuotaCellRef & { completes: number })[] },
  ) {
    for (const cell of filled.cells) {
      const key = cellKey(cell);
      this.#fullCells.set(key, cell.completes, true);
    }
    const projects = new Set(filled.projects), maps = new Set(filled.maps);
    for (const s of sessions) {
      if (s.isTest) continue;
      if (FULL_PROJECT.has(s.reason)) projects.add(s.projectId);
      else if (FULL_MAP.has(s.reason)) maps.add(s.supplierMapId);
    }
    if (!projects.size && !maps.size) return;
    const keep = (c: Candidate) => !projects.has(c.projectId) && !maps.has(c.mapId);
    for (const [supplierId, { value, at }] of this.#bySupplier) {
      if (Array.isArray(value)) {
        if (!value.every(keep)) this.#bySupplier.set(supplierId, { value: value.filter(keep), at });
      } else this.#keep(supplierId, value.then((list) => list.filter(keep)), at);
    }
  }

  /** Whether a write filled the survey's quota cell and its configured size has not grown since. */
  #full(p: ProjectConfig, cell: QuotaCellRef): boolean {
    const completes = this.#fullCells.get(cellKey(cell));
    if (completes === undefined) return false;
    const size = p.quotas.find((q) => q.id === cell.quotaId)?.cells.find((c) => c.id === cell.quotaOptionId)
      ?.size;
    return size !== undefined && size <= completes;
  }

  /** Whether a session's outcome may send its respondent on (before any read). */
  routable({ session, project, map }: Hop): boolean {
    return !session.isTest && ROUTABLE.has(session.status) && session.hop < MAX_HOPS &&
      project.allowRouting && map.supplierRouting && !map.supplierOff;
  }

  /** Every session of a chain (its first one's uid), first hop first. */
  async #chain(chainId: string): Promise<SessionRow[]> {
    const rows = await this.deps.db.selectFrom("sessions").selectAll()
      .where((eb) => eb.or([eb("id", "=", chainId), eb("chainId", "=", chainId)]))
      .orderBy("hop").execute();
    return rows as SessionRow[];
  }

  async #hop(s: SessionRow): Promise<Hop | null> {
    const project = await this.deps.config.project(s.projectId);
    const map = await this.deps.config.map(s.supplierMapId);
    return project && map ? { session: s, project, map } : null;
  }

  /**
   * The next hop for a refused session: the chain's later hop when there already is one (a reloaded
   * return link), else a new entry into the best candidate; null sends the respondent home.
   */
  async next(routed: Hop, req: { headers: Headers; now?: number; fresh?: boolean }): Promise<Hop | null> {
    if (!this.routable(routed)) return null;
    const { session } = routed;
    const now = req.now ?? this.deps.now();
    const chainId = session.chainId ?? session.id;
    // `fresh`: this request itself ended the session (its return or answer was the one counted), so
    // no later hop can exist yet: a first hop is then the whole chain, and a later one made here is
    // remembered (ChainMemo); otherwise (a reloaded return link, a hop made elsewhere) it is read
    const memo = this.#chains.get(chainId);
    let first: SessionRow, projects: string[];
    if (req.fresh && !session.chainId) [first, projects] = [session, [session.projectId]];
    else if (req.fresh && memo?.last === session.id) [first, projects] = [memo.first, memo.projects];
    else {
      const chain = await this.#chain(chainId);
      const later = chain.filter((s) => s.hop > session.hop).at(-1);
      if (later) return await this.#hop(later);
      [first, projects] = [chain[0] ?? session, chain.map((s) => s.projectId)];
    }
    if (now - Date.parse(first.createdAt) > CHAIN_MINUTES * 60_000) return null;
    const pick = await this.#pick(routed, new Set(projects), now);
    if (!pick) return null;
    const hop = await this.router.enter({
      mapId: pick.map.id,
      profile: pick.profile,
      sid: session.sid,
      ip: session.ip,
      userAgent: session.userAgent,
      headers: req.headers,
      country: session.country,
      chain: { id: chainId, hop: session.hop + 1 },
      now,
    });
    if (hop) {
      this.#chains.set(chainId, {
        first,
        projects: [...projects, hop.session.projectId],
        last: hop.session.id,
      }, true);
    }
    return hop;
  }

  /** The best candidate the respondent may enter, or null. */
  async #pick(
    { session, map }: Hop,
    inChain: Set<string>,
    now: number,
  ): Promise<{ map: MapConfig; profile?: Known } | null> {
    const { config, db } = this.deps;
    const list = (await this.candidates(map.supplierId)).filter((c) => !inChain.has(c.projectId))
      .slice(0, CANDIDATE_SCAN);
    const pool: { p: ProjectConfig; m: MapConfig }[] = [];
    for (const c of list) {
      const p = await config.project(c.projectId), m = await config.map(c.mapId);
      if (p && m && p.allowRouting && !this.router.closedReason(p, m)) pool.push({ p, m });
    }
    if (!pool.length) return null;
    // the respondent's sessions on the candidates (duplicates) and on what their rules name: one read
    const ids = new Set(pool.flatMap(({ p }) => [p.id, ...p.exclusions.map((x) => x.excludedProjectId)]));
    const mine = liveOfSid(
      (await db.executeQuery<{ live: string }>(CompiledQuery.raw(LIVE_OF_SID, [session.sid]))).rows,
    ).filter((s) => ids.has(s.projectId));
    const entered = new Set(mine.map((s) => s.projectId));
    const own = mine.filter((s) => s.supplierId === session.supplierId);
    const profile = pool.some(({ p }) => usesProfiles(p.questions))
      ? await readProfile(db, { supplierId: session.supplierId, memberId: session.sid }, now)
      : undefined;
    const known: Known = profile ?? new Map();
    const risk = session.rdScore === null ? null : { proxy: false, rdScore: session.rdScore };
    for (const { p, m } of pool) {
      if (entered.has(p.id) || exclusionRefusal(p, own)) continue;
      const who = { deviceType: session.deviceType as DeviceType, country: session.country, risk };
      if (requestSecurity(p, who, this.deps.rd)) continue;
      const screened = p.isPreScreen && m.isPreScreen;
      if (screened && known.size && knownFailure(p.questions, m.supplierType, known, p.languageId)) continue;
      // a quota cell the known answers put them in is full: the pre-screen would refuse them
      if (
        screened && knownCells(p.questions, m.supplierType, p.quotas, known).some((c) => this.#full(p, c))
      ) {
        continue;
      }
      return { map: m, profile };
    }
    return null;
  }

  /**
   * Where the chain's respondent goes home from: the first session's survey and map (the supplier's
   * own link and redirects), with the last hop's outcome. The session itself when it is not routed.
   */
  async home(routed: Hop): Promise<Hop> {
    const chainId = routed.session.chainId;
    if (!chainId) return routed;
    // the chain ends here: what routing remembered of it is read once more, then forgotten
    const memo = this.#chains.get(chainId);
    if (memo?.last === routed.session.id) this.#chains.delete(chainId);
    const first = memo?.first ??
      await this.deps.db.selectFrom("sessions").selectAll().where("id", "=", chainId).limit(1)
        .executeTakeFirst();
    const hop = first ? await this.#hop(first as SessionRow) : null;
    return hop ? { ...hop, session: { ...hop.session, status: routed.session.status } } : routed;
  }
}
