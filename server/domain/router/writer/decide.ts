/**
 * The decide: what each event of a batch comes to, made inside the batch's write transaction from
 * the loaded state (BatchState) plus the changes of the events before it in the same batch, so
 * quota, click-quota, duplicate and unique-IP decisions are exact. Decisions only record changes
 * (Changes); the write puts them in the database.
 */
import type { SessionStatus } from "../../../db/tables/router.ts";
import { newId } from "../../../db/ids.ts";
import type { ProjectConfig } from "../config.ts";
import { exclusionRefusal } from "../exclusions.ts";
import type { QuotaCellRef } from "../prescreen.ts";
import { fillPlaceholders, iso, REASON } from "../outcomes.ts";
import type { MapConfig } from "../config.ts";
import { type BatchState, mapCounts, type ProjectCounts, projectCounts } from "./load.ts";
import { HoldChecks } from "./holds.ts";
import { isRetry } from "./retry.ts";
import type { Changes } from "./write.ts";
import { clientLinkValues } from "../shortcodes.ts";
import { outcomeCallback } from "../callback-events.ts";
import {
  type EntryEvent,
  type LinkEvent,
  type Outcome,
  parseCells,
  type PrescreenEvent,
  type ReturnEvent,
  type RouterEvent,
  type SessionRow,
  type SweepEvent,
  type WriterOptions,
} from "./types.ts";

export class Decisions {
  /** Uids handed out in this batch (newId repeats only past 65,536 in a second, and then hardly ever). */
  #newIds = new Set<string>();
  /** The limits' holds (holds.ts); none when holds are off. */
  readonly #holds: HoldChecks;

  constructor(
    private readonly state: BatchState,
    private readonly changes: Changes,
    private readonly opts: WriterOptions,
  ) {
    this.#holds = new HoldChecks(opts.holds === true, state, changes);
  }

  /**
   * Whether a limited counter is full (`limit` 0: no limit). An admission under a limit is recorded
   * (Changes.need) so the remote write can check the room is still there when it commits.
   */
  #full(
    table: "projects" | "supplier_maps",
    id: string,
    counter: "clicked" | "complete" | "testClicked",
    limitColumn: string,
    count: number,
    limit: number,
  ): boolean {
    if (limit <= 0) return false;
    if (count >= limit) return true;
    this.changes.need(table, id, counter, limitColumn, count);
    return false;
  }

  /** Queues the supplier's callback of the session's outcome, when it has one for it. */
  #callback(s: SessionRow, p: ProjectConfig, m: MapConfig) {
    const row = outcomeCallback(s, p.projectCode, m);
    if (row) this.changes.hooks.push(row);
  }

  decide(e: RouterEvent): Outcome {
    if (e.kind === "entry") return this.#entry(e);
    if (e.kind === "prescreen") return this.#prescreen(e);
    if (e.kind === "return") return this.#return(e);
    if (e.kind === "link") return this.#link(e);
    return this.#sweep(e);
  }

  // ------------------------------------------------------------ entry

  #entry(e: EntryEvent): Outcome {
    const p = e.project, m = e.map;
    const dupKey = `${p.id}\u0000${e.sid}`;
    if (!e.closed && !e.isTest) {
      const first = this.#enteredAs(dupKey);
      // the first entry's answer was lost and the respondent came back: the same entry, counted once
      if (first && isRetry(e, first)) return { session: first, counted: false, retried: true };
    }
    const nowIso = iso(e.now);
    for (const r of e.profiles ?? []) this.changes.profiles.push({ ...r, answeredAt: nowIso });
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
      clientRef: "",
      quotaCells: "[]",
      rawStatus: "",
      returnedBy: "",
      createdAt: nowIso,
      updatedAt: nowIso,
      redirectedAt: null,
      endedAt: null,
      dropAt: null,
      seconds: null,
      chainId: e.chain?.id ?? null,
      hop: e.chain?.hop ?? 1,
    };
    const ps = projectCounts(this.state, p.id), ms = mapCounts(this.state, m.id);
    const set = (status: SessionStatus, reason = "", detail = "") => {
      s.status = status;
      s.reason = reason;
      s.detail = detail;
    };
    const ipKey = `${p.id}\u0000${e.ip}`;
    const ipCounts = this.state.ipCounts;
    let held: { reason: string; detail: string } | null = null;

    if (e.closed) set("closed", e.closed.reason, e.closed.detail);
    else if (e.isTest) {
      if (
        this.#full(
          "projects",
          p.id,
          "testClicked",
          "respondentTestClickQuota",
          ps.testClicked,
          ps.testClickQuota,
        )
      ) {
        set("closed", REASON.testClickQuota, `${ps.testClicked} of ${ps.testClickQuota} test clicks used`);
      } else if (e.security) set("security", e.security.reason, e.security.detail);
      else set(e.prescreen ? "prescreen" : "redirected");
    } else if (this.state.entered.has(dupKey)) {
      set("duplicate", REASON.duplicate, `sid ${e.sid} already entered this project`);
    } else {
      const excluded = this.#exclusion(e);
      if (excluded) set("terminate", excluded.reason, excluded.detail);
      else if (this.#full("projects", p.id, "clicked", "respondentClickQuota", ps.clicked, ps.clickQuota)) {
        set("closed", REASON.projectClickQuota, `${ps.clicked} of ${ps.clickQuota} clicks used`);
      } else if (
        this.#full("supplier_maps", m.id, "clicked", "supplierClickQuota", ms.clicked, ms.clickQuota)
      ) {
        set("closed", REASON.supplierClickQuota, `${ms.clicked} of ${ms.clickQuota} clicks used`);
      } else if (this.#full("projects", p.id, "complete", "sampleSize", ps.complete, ps.sampleSize)) {
        set("overQuota", REASON.sampleFull, `${ps.complete} of ${ps.sampleSize} completes`);
      } else if (this.#full("supplier_maps", m.id, "complete", "supplierQuota", ms.complete, ms.quota)) {
        set("overQuota", REASON.supplierQuotaFull, `${ms.complete} of ${ms.quota} completes`);
      } else if ((held = this.#holds.project(ps, ms, p.id, m.id))) {
        set("overQuota", held.reason, held.detail);
      } else if (p.isUniqueIp && e.ip && (ipCounts.get(ipKey) ?? 0) >= Math.max(1, p.maxIPCount)) {
        set("security", REASON.ipLimit, `${e.ip} already used ${ipCounts.get(ipKey)} time(s)`);
      } else if (e.security) set("security", e.security.reason, e.security.detail);
      else set(e.prescreen ? "prescreen" : "redirected");
    }

    if (s.status === "redirected") {
      // the client's API gives the link once the session is written (LinkEvent): none yet
      const url = e.clientApi ? "" : this.#clientUrl(p, uid, e.isTest) || null;
      if (url !== null) {
        s.clientUrl = url;
        s.redirectedAt = nowIso;
        s.dropAt = this.#dropAt(p, e.now, false);
        this.changes.inSurvey(s, [], 1);
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
    this.#callback(s, p, m);

    if (s.status !== "closed") {
      if (!e.isTest && s.status !== "duplicate") {
        this.state.entered.set(dupKey, s);
        this.changes.newEntries.push({ projectId: p.id, sid: e.sid });
        if (e.ip && p.isUniqueIp) this.changes.addIp(p.id, e.ip);
      }
      this.changes.bump(s, "clicked", 1, e.now);
      this.changes.countStatus(s, s.status, 1, e.now);
    }
    this.changes.touch(s);
    if (s.status === "prescreen" && e.screen) {
      return this.#prescreen({
        ...e.screen,
        kind: "prescreen",
        now: e.now,
        uid,
        project: p,
        map: m,
        clientApi: e.clientApi,
      });
    }
    return { session: s, counted: s.status !== "closed" };
  }

  /** The session the respondent entered the project with, as it stands now in this batch. */
  #enteredAs(dupKey: string): SessionRow | null {
    const first = this.state.entered.get(dupKey);
    return first ? this.state.sessions.get(first.id) ?? first : null;
  }

  #exclusion(e: EntryEvent): { reason: string; detail: string } | null {
    const p = e.project;
    if (!p.isExclude || !p.exclusions.length) return null;
    return exclusionRefusal(
      p,
      this.state.priorSessions.filter((s) => s.sid === e.sid && s.supplierId === e.map.supplierId),
    );
  }

  /** The client survey URL for a respondent, taking the next unused link on multi-link projects. */
  #clientUrl(p: ProjectConfig, uid: string, isTest: boolean): string | null {
    if (isTest) {
      return p.singleLinkUrlTest ? fillPlaceholders(p.singleLinkUrlTest, clientLinkValues(uid)) : null;
    }
    if (p.isMultiLinkUrl) {
      const link = this.state.links.get(p.id)?.shift();
      if (!link) return null;
      this.changes.usedLinks.push({ id: link.id, uid });
      return fillPlaceholders(link.url, clientLinkValues(uid));
    }
    return p.singleLinkUrl ? fillPlaceholders(p.singleLinkUrl, clientLinkValues(uid)) : null;
  }

  /**
   * What the client's API answered for a session sent on without a link: the link (and the client's
   * identifier) on the session; or the survey closed to the respondent after all, with the reason,
   * and the click taken back (as for a pre-screen that finds no client link). Only once: a session
   * that has its link, or ended meanwhile, stays as it is.
   */
  #link(e: LinkEvent): Outcome {
    const s0 = this.state.sessions.get(e.uid);
    if (!s0) return { session: null, counted: false };
    if (s0.status !== "redirected" || s0.clientUrl) return { session: s0, counted: false };
    const s = { ...s0, updatedAt: iso(e.now) };
    if (e.link.ok) {
      s.clientUrl = e.link.url;
      s.clientRef = e.link.ref;
    } else {
      s.status = "closed";
      s.reason = REASON.clientApi;
      s.detail = e.link.error.slice(0, 300);
      s.endedAt = s.updatedAt;
      s.dropAt = null;
      this.changes.bump(s, "clicked", -1, Date.parse(s.createdAt));
      // never in the survey after all: its hold and its "sent" go with it (a closed session counts neither)
      this.changes.inSurvey(s0, parseCells(s0.quotaCells), -1);
      this.changes.hold(s0, "sent", -1);
    }
    this.changes.touch(s);
    return { session: s, counted: !e.link.ok };
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

  // ------------------------------------------------------------ pre-screen

  /**
   * The quota cells a session would fill; the first full one, if any. With `ps` (an admission under
   * holds), a cell whose completes plus its sessions in progress weighted by the project's
   * conversion reach its size is full too (holds.ts).
   */
  #fullCell(refs: QuotaCellRef[], ps?: ProjectCounts): string | null {
    for (const ref of refs) {
      const cell = this.state.quotas.get(ref.quotaId)?.cells.find((c) =>
        c.quotaOptionId === ref.quotaOptionId
      );
      if (!cell || (cell.quotaSize <= 0 && cell.strict !== true)) continue;
      const done = Number(cell.completes) || 0;
      if (done >= cell.quotaSize) {
        return `quota option ${ref.quotaOptionId}: ${done} of ${cell.quotaSize} completes`;
      }
      const held = ps ? this.#holds.cell(ps, ref, done, cell.quotaSize) : null;
      if (held) return held;
    }
    return null;
  }

  #prescreen(e: PrescreenEvent): Outcome {
    const s0 = this.state.sessions.get(e.uid);
    if (!s0) return { session: null, counted: false };
    if (s0.status !== "prescreen") return { session: s0, counted: false };
    const s = { ...s0 };
    const nowIso = iso(e.now);
    s.updatedAt = nowIso;
    s.quotaCells = JSON.stringify(e.quotaCells);
    const ps = projectCounts(this.state, s.projectId), ms = mapCounts(this.state, s.supplierMapId);
    let full: string | null = null, held: { reason: string; detail: string } | null = null;
    if (!e.passed) {
      s.status = "preScreenTerminate";
      s.reason = REASON.prescreen;
      s.detail = e.detail.slice(0, 300);
    } else if (!s.isTest && (full = this.#fullCell(e.quotaCells, ps))) {
      s.status = "overQuota";
      s.reason = REASON.quotaOptionFull;
      s.detail = full;
    } else if (
      !s.isTest && this.#full("projects", s.projectId, "complete", "sampleSize", ps.complete, ps.sampleSize)
    ) {
      s.status = "overQuota";
      s.reason = REASON.sampleFull;
      s.detail = `${ps.complete} of ${ps.sampleSize} completes`;
    } else if (
      !s.isTest &&
      this.#full("supplier_maps", s.supplierMapId, "complete", "supplierQuota", ms.complete, ms.quota)
    ) {
      s.status = "overQuota";
      s.reason = REASON.supplierQuotaFull;
      s.detail = `${ms.complete} of ${ms.quota} completes`;
    } else if (!s.isTest && (held = this.#holds.project(ps, ms, s.projectId, s.supplierMapId))) {
      // the places left are likely taken by the sessions in progress
      s.status = "overQuota";
      s.reason = held.reason;
      s.detail = held.detail;
    } else {
      const url = e.clientApi ? "" : this.#clientUrl(e.project, s.id, s.isTest === 1) || null;
      if (url !== null) {
        s.status = "redirected";
        s.clientUrl = url;
        s.redirectedAt = nowIso;
        s.dropAt = this.#dropAt(e.project, e.now, false);
        this.changes.inSurvey(s, e.quotaCells, 1);
      } else {
        // nowhere to send them: the survey is closed to them after all, and they were never a click
        s.status = "closed";
        s.reason = REASON.noClientLink;
        s.detail = e.project.isMultiLinkUrl ? "no unused client link" : "no client URL";
        this.changes.bump(s, "clicked", -1, Date.parse(s.createdAt));
      }
    }
    if (s.status !== "redirected") {
      s.endedAt = nowIso;
      s.dropAt = null;
    }
    this.changes.countStatus(s, s.status, 1, e.now);
    this.#callback(s, e.project, e.map);
    for (const r of e.profiles ?? []) this.changes.profiles.push({ ...r, answeredAt: nowIso });
    for (const a of e.answers) {
      this.changes.answers.push({
        ...a,
        sessionId: s.id,
        projectId: s.projectId,
        supplierId: s.supplierId,
        createdAt: nowIso,
      });
    }
    this.changes.touch(s);
    return { session: s, counted: true };
  }

  // ------------------------------------------------------------ return

  #return(e: ReturnEvent): Outcome {
    const s0 = this.state.sessions.get(e.uid);
    if (!s0) return { session: null, counted: false };
    // the first final status wins; a drop is only a time-out, so a late return still counts
    if (s0.status !== "redirected" && s0.status !== "drop") return { session: s0, counted: false };
    const s = { ...s0 };
    const nowIso = iso(e.now);
    const started = Date.parse(s.redirectedAt ?? s.createdAt);
    const seconds = Math.max(0, Math.round((e.now - started) / 1000));
    let status: SessionStatus = e.status, reason: string = REASON.client, detail = "";
    const p = e.project;
    const cells = parseCells(s.quotaCells);
    let pastLimit = false;
    if (status === "complete") {
      const speeder = p.isSpeeder && p.speedTime > 0 && seconds < p.speedTime;
      const over = speeder ? null : this.#over(s, cells);
      if (speeder) {
        status = "qualityTerm";
        reason = REASON.speeder;
        detail = `${seconds} s, faster than ${p.speedTime} s`;
      } else if (over && this.opts.holds) {
        // admitted under a hold: the client has the data, so it counts, and staff see the overshoot
        pastLimit = true;
        reason = REASON.pastLimit;
        detail = `accepted ${over.detail} (held)`;
      } else if (over) {
        status = "overQuota";
        reason = over.reason;
        detail = over.detail;
      }
    }
    if (s0.status === "redirected") this.changes.inSurvey(s0, cells, -1);
    if (pastLimit) this.changes.hold(s, "pastLimit", 1);
    if (s0.status === "drop") {
      this.changes.countStatus(s0, "drop", -1, Date.parse(s0.endedAt ?? s0.dropAt ?? s0.createdAt));
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
    this.changes.countStatus(s, status, 1, e.now, money);
    if (status === "complete" && !s.isTest) {
      for (const ref of cells) {
        const q = this.state.quotas.get(ref.quotaId);
        const cell = q?.cells.find((c) => c.quotaOptionId === ref.quotaOptionId);
        if (q && cell) {
          cell.completes = (Number(cell.completes) || 0) + 1;
          q.changed = true;
        }
      }
    }
    this.#callback(s, p, e.map);
    this.changes.touch(s);
    return { session: s, counted: true };
  }

  /** The first limit a complete of the session comes past (sample size, supplier quota, a cell), or null. */
  #over(s: SessionRow, cells: QuotaCellRef[]): { reason: string; detail: string } | null {
    if (s.isTest) return null;
    const ps = projectCounts(this.state, s.projectId), ms = mapCounts(this.state, s.supplierMapId);
    if (this.#full("projects", s.projectId, "complete", "sampleSize", ps.complete, ps.sampleSize)) {
      return {
        reason: REASON.sampleFull,
        detail: `complete after ${ps.complete} of ${ps.sampleSize} completes`,
      };
    }
    if (this.#full("supplier_maps", s.supplierMapId, "complete", "supplierQuota", ms.complete, ms.quota)) {
      return {
        reason: REASON.supplierQuotaFull,
        detail: `complete after ${ms.complete} of ${ms.quota} supplier completes`,
      };
    }
    const full = this.#fullCell(cells);
    return full ? { reason: REASON.quotaOptionFull, detail: `complete after ${full}` } : null;
  }

  // ------------------------------------------------------------ drops

  #sweep(e: SweepEvent): Outcome {
    let swept = 0;
    const nowIso = iso(e.now);
    for (const s0 of this.state.sessions.values()) {
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
      if (s0.status === "redirected") this.changes.inSurvey(s0, parseCells(s0.quotaCells), -1);
      // counted on the day the time-out fell, whenever the sweep runs
      this.changes.countStatus(s, s.status, 1, Date.parse(s0.dropAt));
      this.changes.touch(s);
      swept++;
    }
    return { session: null, counted: swept > 0, swept };
  }
}
