/**
 * The respondent router as plain functions over deps: entry (live and test), pre-screen answers,
 * client returns and post-backs, the drop sweep. The HTTP layer (server/router) only turns their
 * results into redirects and pages; the demo seed drives the same functions with its own clock.
 *
 * One Router per app, built at boot into deps.services.router (server/boot.ts): it owns the
 * configuration cache, the single writer that batches each event-loop turn's writes, and the
 * approved-hook sender. The demo seed makes its own, with its own clock and a longer cache.
 */
import { type Db, remoteOf } from "../../db/connection.ts";
import type { Env } from "../../env.ts";
import type { Logger } from "../../logger.ts";
import type { ChangeNotifier } from "../common/changes.ts";
import type { RouterOptions } from "./options.ts";
import { type MapConfig, type ProjectConfig, RouterConfig } from "./config.ts";
import { DEFAULT_HOOK_RETRIES, HookSender } from "./hooks.ts";
import { fetchTransport, type Outbound } from "../common/outbound/client.ts";
import { CLIENT_API_MAX_BYTES, CLIENT_API_TIMEOUT_MS, requestClientLink } from "./client-api.ts";
import { offeredRefs, sessionByClientRef } from "./client-refs.ts";
import { verifyReturnSignature } from "./links.ts";
import { type FinalStatus, parseReturnStatus, REASON } from "./outcomes.ts";
import { askable } from "./prescreen.ts";
import { screening } from "./screening.ts";
import { type Known, linkRows, readProfile, toAsk, usesProfiles } from "./profiles.ts";
import type { PrescreenQuestion } from "./config.ts";
import {
  countryOf,
  DEFAULT_RD_THRESHOLDS,
  defaultRiskChecker,
  deviceOf,
  needsRiskCheck,
  type RdThresholds,
  requestSecurity,
  type RiskChecker,
  type RiskVerdict,
} from "./security.ts";
export type { RouterOptions } from "./options.ts";
import { type Outcome, RouterWriter, type SessionRow } from "./writer/writer.ts";
import { Routing } from "./routing.ts";
import { BoundedMap } from "../../lib/memo.ts";
import { PROJECT_STATUS, PROJECT_TYPE, projectStatusLabel } from "../../../shared/status.ts";

export const UID_RE = /^[0-9a-f]{24}$/;
/** A supplier respondent id: up to 128 characters, no control characters. */
export const SID_RE = /^\P{Cc}{1,128}$/u;

export type EntryRequest = {
  mapId: string;
  sid: string;
  isTest: boolean;
  ip: string;
  userAgent: string;
  headers: Headers;
  /** Answers to library questions the entry link carried (profiles.ts linkAnswers). */
  answers?: Known;
  /** A country already known (the demo seed's simulated respondents, a routed hop); HTTP entries never set it. */
  country?: string;
  /** A routed hop (routing.ts): the chain's first session and this hop's number. */
  chain?: { id: string; hop: number };
  profile?: Known; // the member's known answers, already read by this request (a routed hop)
  now?: number;
};

export type Routed = { session: SessionRow; project: ProjectConfig; map: MapConfig };

/** `counted`: this entry made its session (false: a retried entry, its first session again). */
export type EntryResult = { kind: "invalid" } | ({ kind: "routed"; counted: boolean } & Routed);

export type FinishRequest = {
  uid: string;
  status: string;
  sig?: string | null;
  via: "redirect" | "postback";
  /** The return's other parameters: one may carry the client's identifier (client-refs.ts). */
  params?: Record<string, string>;
  now?: number;
};
export type FinishResult =
  | { kind: "bad-status" }
  | { kind: "unknown" }
  | { kind: "forged"; project: ProjectConfig; map: MapConfig }
  | ({ kind: "done"; counted: boolean } & Routed);

export type PrescreenResult =
  | { kind: "unknown" }
  | ({ kind: "ask"; missing: string[] } & Routed)
  | ({ kind: "done"; counted: boolean } & Routed);

/** What a router is built from: the app's database, settings, log, clock, outbound client and notifier. */
export type RouterDeps = {
  db: Db;
  env:
    & Pick<Env, "DENO_ENV" | "COUNTRY_HEADER" | "ROUTER_HOLDS">
    & Partial<Pick<Env, "CLIENT_API_TIMEOUT_MS">>;
  log: Logger;
  now: () => number;
  outbound: Outbound;
  changes: ChangeNotifier;
};

/** A session's project and map ids, remembered for the return without a read. */
type Ref = { projectId: string; supplierMapId: string };
const REF_CACHE_MAX = 200_000;

/** Statuses past field work: even the test link is closed on them. */
const ENDED_STATUSES: readonly number[] = [
  PROJECT_STATUS.READY_TO_INVOICE,
  PROJECT_STATUS.INVOICED,
  PROJECT_STATUS.CLOSED,
  PROJECT_STATUS.ARCHIEVED,
];

export class Router {
  readonly config: RouterConfig;
  readonly writer: RouterWriter;
  readonly hooks: HookSender;
  readonly risk: RiskChecker;
  readonly rd: RdThresholds;
  readonly countryHeaders: string[];
  /** Routing of refused respondents to the next survey (routing.ts). */
  readonly routing: Routing;
  /** The outbound client for API-integrated clients' calls (null: they are not called; options.ts). */
  readonly #clientApi: Outbound | null;
  /** Sessions' project and map by uid, for their returns (the newest REF_CACHE_MAX written here). */
  readonly #refs = new BoundedMap<string, Ref>(REF_CACHE_MAX);

  constructor(private readonly deps: RouterDeps, opts: RouterOptions = {}) {
    const db = deps.db;
    // under test every request reads fresh settings, so tests may edit tables directly
    const now = () => deps.now();
    const ttlMs = opts.configTtlMs ?? (deps.env.DENO_ENV === "test" ? 0 : 5_000);
    this.config = new RouterConfig(db, deps.changes, ttlMs, now);
    this.hooks = new HookSender(db, {
      // a test's fetch replaces the network only: the outbound checks still run before it
      outbound: opts.fetch ? deps.outbound.with({ transport: fetchTransport(opts.fetch) }) : deps.outbound,
      retryDelaysMs: opts.hookRetryDelaysMs ?? DEFAULT_HOOK_RETRIES,
      timeoutMs: 10_000,
      leaseMs: opts.hookLeaseMs,
      now,
      changes: deps.changes,
    }, deps.log);
    this.writer = new RouterWriter(
      db,
      {
        prescreenTimeoutMinutes: opts.prescreenTimeoutMinutes ?? 30,
        dropWithoutLoiMinutes: opts.dropWithoutLoiMinutes ?? 30,
        maxBatch: opts.maxBatch ?? 2_000,
        holds: opts.holds ?? deps.env.ROUTER_HOLDS !== "off",
        remoteInFlight: opts.remoteInFlight,
        remoteLingerMs: opts.remoteLingerMs,
        // outcome callbacks are written claimed by this instance's sender, sent at the commit
        hookLeaseMs: this.hooks.leaseMs,
      },
      deps.log,
      now,
    );
    this.#clientApi = opts.clientApi === false ? null : deps.outbound.with({
      timeoutMs: deps.env.CLIENT_API_TIMEOUT_MS ?? CLIENT_API_TIMEOUT_MS,
      maxBytes: CLIENT_API_MAX_BYTES,
    });
    this.risk = opts.risk ?? defaultRiskChecker();
    this.rd = opts.rdThresholds ?? DEFAULT_RD_THRESHOLDS;
    this.countryHeaders = opts.countryHeaders ??
      (deps.env.COUNTRY_HEADER ? [deps.env.COUNTRY_HEADER] : []);
    const routingDeps = { db, config: this.config, changes: deps.changes, ttlMs, now, rd: this.rd };
    this.routing = new Routing({ ...routingDeps, holds: this.writer.opts.holds === true }, {
      closedReason: (p, m) => this.closedReason(p, m, false),
      enter: async (hop) => {
        const r = await this.enter({ ...hop, isTest: false });
        return r.kind === "routed" ? r : null;
      },
    });
    this.writer.onCommit = (sessions, hooks, filled) => {
      for (const s of sessions) this.#remember(s);
      this.routing.noRoom(sessions, filled);
      if (hooks.length) this.hooks.fresh(hooks);
    };
  }

  #remember(s: SessionRow) {
    if (!this.#refs.has(s.id)) {
      this.#refs.set(s.id, { projectId: s.projectId, supplierMapId: s.supplierMapId });
    }
  }

  #now(now?: number) {
    return now ?? this.deps.now();
  }

  // ------------------------------------------------------------ entry

  /** Why an arrival is refused before anything is counted, or null. */
  closedReason(p: ProjectConfig, m: MapConfig, isTest: boolean): { reason: string; detail: string } | null {
    if (isTest) {
      if (p.isDeleted || ENDED_STATUSES.includes(p.projectStatus)) {
        return { reason: REASON.projectNotLive, detail: `project is ${projectStatusLabel(p.projectStatus)}` };
      }
      if (m.isDeleted) return { reason: REASON.testLinkOff, detail: "supplier removed from the project" };
      if (m.supplierOff) return { reason: REASON.testLinkOff, detail: m.supplierOff };
      if (!m.isTestLink) return { reason: REASON.testLinkOff, detail: "test link off" };
      return null;
    }
    if (p.isDeleted || p.projectStatus !== PROJECT_STATUS.LIVE) {
      return {
        reason: REASON.projectNotLive,
        detail: p.isDeleted ? "project deleted" : `project is ${projectStatusLabel(p.projectStatus)}`,
      };
    }
    if (m.isDeleted) return { reason: REASON.trafficOff, detail: "supplier removed from the project" };
    if (m.supplierOff) return { reason: REASON.trafficOff, detail: m.supplierOff };
    if (!m.allowTraffic) return { reason: REASON.trafficOff, detail: "traffic not allowed" };
    if (!m.isBoarded) return { reason: REASON.notBoarded, detail: "supplier not boarded" };
    return null;
  }

  async enter(req: EntryRequest): Promise<EntryResult> {
    const now = this.#now(req.now);
    const map = await this.config.map(req.mapId);
    const project = map ? await this.config.project(map.projectId) : null;
    if (!map || !project || project.projectType !== PROJECT_TYPE.CHILD) return { kind: "invalid" };
    const closed = this.closedReason(project, map, req.isTest);
    const device = deviceOf(req.userAgent);
    const country = req.country ?? await countryOf(req.headers, req.ip, this.countryHeaders);
    let risk: RiskVerdict | null = null;
    let security = null;
    if (!closed) {
      if (needsRiskCheck(project)) {
        try {
          risk = await this.risk.check({
            ip: req.ip,
            userAgent: req.userAgent,
            headers: req.headers,
            sid: req.sid,
          });
        } catch (e) {
          // an unavailable checker does not turn respondents away; say so in the log
          this.deps.log.warn("risk checker failed", { error: e instanceof Error ? e.message : String(e) });
        }
      }
      security = requestSecurity(project, { deviceType: device.deviceType, country, risk }, this.rd);
    }
    // a client whose link is its own screener (isScreenUrlIntegration) screens the respondents itself
    const prescreen = !project.clientScreens && project.isPreScreen && map.isPreScreen &&
      askable(project.questions, map.supplierType).length > 0;
    const who = { supplierId: map.supplierId, memberId: req.sid };
    // profiles: only a pre-screen with library questions reads the member's answers (one read)
    const profiled = prescreen && !closed && usesProfiles(project.questions);
    const link = profiled && req.answers?.size
      ? linkRows(project.questions, map.supplierType, req.answers, who)
      : [];
    const known = profiled ? new Map(req.profile ?? await readProfile(this.deps.db, who, now)) : null;
    if (known && req.answers) { for (const [q, v] of req.answers) known.set(q, v); }
    // known answers that settle the pre-screen (all known, or one disqualifies) end it in the entry's write
    const sc = known?.size ? screening({ project, map, who, known, form: () => [] }) : null;
    const out = await this.writer.submit({
      kind: "entry",
      now,
      isTest: req.isTest,
      project,
      map,
      sid: req.sid,
      ip: req.ip.slice(0, 64),
      country,
      deviceType: device.deviceType,
      browser: device.browser,
      userAgent: req.userAgent.slice(0, 500),
      rdScore: risk?.rdScore ?? null,
      closed,
      security,
      prescreen,
      profiles: link.length ? link : undefined,
      chain: req.chain,
      clientApi: this.#apiLinks(project),
      screen: sc?.kind === "settled" ? sc.screen : undefined,
    });
    return {
      kind: "routed",
      counted: out.counted,
      ...await this.#linked({ session: out.session!, project, map }),
    };
  }

  // ------------------------------------------------------------ sessions by uid

  async #ref(uid: string): Promise<Ref | null> {
    if (!UID_RE.test(uid)) return null;
    const hit = this.#refs.get(uid);
    if (hit) return hit;
    for (const db of this.#sessionSources()) {
      const row = await db.selectFrom("sessions").select(["projectId", "supplierMapId"])
        .where("id", "=", uid).executeTakeFirst();
      if (row) return row;
    }
    return null;
  }

  /**
   * Where to look a session up: the app's database; with an embedded replica, then the primary
   * (another instance may have written the session since the replica's last sync).
   */
  #sessionSources(): Db[] {
    const remote = remoteOf(this.deps.db);
    return remote?.replica ? [this.deps.db, remote.primaryDb] : [this.deps.db];
  }

  /** The session with its project and map (for the pre-screen page). */
  async session(uid: string): Promise<Routed | null> {
    if (!UID_RE.test(uid)) return null;
    let s = null;
    for (const db of this.#sessionSources()) {
      // limit(1): a read of a row at most is kept prepared (db/local-client.ts)
      s ??= await db.selectFrom("sessions").selectAll().where("id", "=", uid).limit(1).executeTakeFirst();
    }
    if (!s) return null;
    const project = await this.config.project(s.projectId);
    const map = await this.config.map(s.supplierMapId);
    if (!project || !map) return null;
    return { session: s as SessionRow, project, map };
  }

  // ------------------------------------------------------------ pre-screen

  async answer(uid: string, form: (name: string) => string[], now?: number): Promise<PrescreenResult> {
    const routed = await this.session(uid);
    if (!routed) return { kind: "unknown" };
    if (routed.session.status !== "prescreen") return { kind: "done", counted: false, ...routed };
    const at = this.#now(now);
    return await this.#screen(routed, form, await this.#known(routed, at), at);
  }

  /** The member's known answers for a session's pre-screen (none when its questions are not library ones). */
  async #known({ session, project }: Routed, now: number): Promise<Known> {
    if (!usesProfiles(project.questions)) return new Map();
    return await readProfile(this.deps.db, { supplierId: session.supplierId, memberId: session.sid }, now);
  }

  /** The pre-screen questions a session still has to answer (those without a known answer). */
  async questionsToAsk(routed: Routed, now?: number): Promise<PrescreenQuestion[]> {
    return toAsk(
      routed.project.questions,
      routed.map.supplierType,
      await this.#known(routed, this.#now(now)),
    );
  }

  /**
   * The pre-screen with known answers standing for their questions: a disqualifying known answer
   * terminates at once; otherwise the answers are complete (recorded) or some are missing (asked).
   */
  async #screen(
    routed: Routed,
    form: (name: string) => string[],
    known: Known,
    now: number,
  ): Promise<PrescreenResult> {
    const { session, project, map } = routed;
    const who = { supplierId: session.supplierId, memberId: session.sid };
    const sc = screening({ project, map, who, known, form });
    if (sc.kind === "ask") return { kind: "ask", missing: sc.missing, ...routed };
    const clientApi = this.#apiLinks(project);
    const out = await this.writer.submit({
      kind: "prescreen",
      now,
      uid: session.id,
      project,
      map,
      ...sc.screen,
      clientApi,
    });
    if (!out.session) return { kind: "unknown" };
    const linked = clientApi ? await this.#linked({ session: out.session, project, map }) : null;
    return { kind: "done", counted: out.counted, session: linked?.session ?? out.session, project, map };
  }

  // ------------------------------------------------------------ API-integrated clients

  /** Whether the project's respondents get their survey link from its client's API. */
  #apiLinks(project: ProjectConfig): boolean {
    return !!(this.#clientApi && project.clientApi);
  }

  /**
   * A session sent on without a link (its client is API-integrated): asks the client's platform,
   * after the session is written and outside the writer's batch, then records the link, or the
   * failure that closes the survey to the respondent (client-api.ts). Anything else as it is.
   */
  async #linked(routed: Routed): Promise<Routed> {
    const { session, project, map } = routed;
    if (session.status !== "redirected" || session.clientUrl || !project.clientApi || !this.#clientApi) {
      return routed;
    }
    const link = await requestClientLink(this.#clientApi, project.clientApi, {
      uid: session.id,
      sid: session.sid,
      pid: project.projectCode,
    });
    if (!link.ok) {
      this.deps.log.warn("client API gave no survey link", {
        project: project.projectCode,
        error: link.error,
      });
    }
    const out = await this.writer.submit({
      kind: "link",
      now: this.#now(),
      uid: session.id,
      project,
      map,
      link,
    });
    return out.session ? { session: out.session, project, map } : routed;
  }

  // ------------------------------------------------------------ return

  async finish(req: FinishRequest): Promise<FinishResult> {
    const status: FinalStatus | null = parseReturnStatus(req.status);
    if (!status) return { kind: "bad-status" };
    let uid = req.uid, signed = req.uid;
    let ref = await this.#ref(uid);
    if (!ref) {
      // the client's own identifier of the respondent (its identifier mapping), not our uid
      const hit = await sessionByClientRef(
        this.#sessionSources(),
        this.config,
        offeredRefs(req.uid, req.params),
      );
      if (hit) [uid, signed, ref] = [hit.uid, hit.ref, await this.#ref(hit.uid)];
    }
    if (!ref) return { kind: "unknown" };
    const project = await this.config.project(ref.projectId);
    const map = await this.config.map(ref.supplierMapId);
    if (!project || !map) return { kind: "unknown" };
    if (
      project.isDynamicThanksUrl &&
      !verifyReturnSignature(project.secret, signed, status, req.status, req.sig)
    ) {
      return { kind: "forged", project, map };
    }
    const out: Outcome = await this.writer.submit({
      kind: "return",
      now: this.#now(req.now),
      uid,
      project,
      map,
      status,
      raw: req.status,
      via: req.via,
    });
    if (!out.session) return { kind: "unknown" };
    return { kind: "done", counted: out.counted, session: out.session, project, map };
  }

  // ------------------------------------------------------------ drops

  /**
   * Sessions past their time-out become drops (pre-screen drops when the questions went
   * unanswered). Returns how many; loops in batches so one call clears the backlog.
   */
  async sweep(now?: number, batch = 2_000): Promise<number> {
    const at = this.#now(now);
    let total = 0;
    for (;;) {
      const out = await this.writer.submit({ kind: "sweep", now: at, limit: batch });
      total += out.swept ?? 0;
      if ((out.swept ?? 0) < batch) return total;
    }
  }

  /** Every queued write committed and every due hook attempted. */
  async idle() {
    await this.writer.idle();
    await this.hooks.idle();
  }

  async close() {
    await this.writer.idle();
    this.hooks.close();
    await this.hooks.idle();
    this.config.close();
    this.routing.close();
  }
}
