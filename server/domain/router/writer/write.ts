/**
 * The write: what a batch's decisions change, gathered in memory (counter bumps on the project, the
 * supplier map and the daily rollup; the sessions touched; IP counts, client links, quota cells,
 * pre-screen answers, approved hooks), then written with one statement per table and chunk. The
 * counters the decisions read (BatchState) move with each bump, so the next decision of the same
 * batch sees them.
 */
import type { Db } from "../../../db/connection.ts";
import type { SessionStatus } from "../../../db/tables/router.ts";
import type { RollupCounter, RoutedColumn } from "../../../db/tables/router.ts";
import type { AnswerRow } from "../prescreen.ts";
import { type CounterName, day, iso, REASON, SECURITY_COLUMN, STATUS_COUNTER } from "../outcomes.ts";
import { type BatchState, cellKey, mapCounts, projectCounts } from "./load.ts";
import type { HoldCounter, TimeSum } from "../../../db/tables/projects.ts";
import type { QuotaCellRef } from "../prescreen.ts";
import { routerDailyStatements, runStatements, type Statement } from "../rollup.ts";
import { hookIds, hookInsert, type HookRow } from "../callback-events.ts";
import { SESSION_COLUMNS, type SessionRow } from "./types.ts";
import type { ProfileRow } from "../profiles.ts";

/** What a later event may change on an existing session. */
const SESSION_MUTABLE: (keyof SessionRow)[] = [
  "status",
  "reason",
  "detail",
  "clientUrl",
  "clientRef",
  "quotaCells",
  "rawStatus",
  "returnedBy",
  "updatedAt",
  "redirectedAt",
  "endedAt",
  "dropAt",
  "seconds",
];

type RollupRow = {
  date: string;
  projectId: string;
  supplierId: string;
  supplierMapId: string;
  parentProjectId: string | null;
  clientId: string;
  counts: Partial<Record<RollupCounter | RoutedColumn, number>>;
  revenue: number;
  cost: number;
};

/**
 * What an admission under holds counted on (holds.ts), for the remote write's guards: the limit's
 * completes plus p x (its sessions in the survey at write time + `over`, the batch's own change
 * before the admission) still below the limit. On a project or a map the completes and the limit
 * are the row's at write time; a quota cell's are as read (the quota row's own guard covers them).
 */
export type HoldNeed = HoldLimit & { p: number; over: number };
export type HoldLimit =
  | { kind: "counter"; table: "projects" | "supplier_maps"; id: string; limit: string }
  | { kind: "cell"; quotaId: string; quotaOptionId: string; completes: number; size: number };

const placeholders = (n: number, width: number) =>
  Array.from({ length: n }, () => `(${Array(width).fill("?").join(",")})`).join(",");

/** Everything one batch changes, kept until its write. */
export class Changes {
  /** Sessions new or changed, by uid. */
  readonly dirty = new Map<string, SessionRow>();
  readonly hooks: HookRow[] = [];
  readonly usedLinks: { id: number; uid: string }[] = [];
  readonly answers: (AnswerRow & {
    sessionId: string;
    projectId: string;
    supplierId: string;
    createdAt: string;
  })[] = [];
  /** Member profile answers to keep (an entry link's, a pre-screen's), stamped with the event's time. */
  readonly profiles: (ProfileRow & { answeredAt: string })[] = [];
  /** A project's counter deltas, with the measured LOI's sums (projects only). */
  readonly #pDelta = new Map<string, Partial<Record<CounterName | HoldCounter | TimeSum, number>>>();
  readonly #mDelta = new Map<string, Partial<Record<CounterName | HoldCounter, number>>>();
  /** `quotaId \0 quotaOptionId` -> change of the cell's sessions in the client survey. */
  readonly #cellDelta = new Map<string, { quotaId: string; quotaOptionId: string; by: number }>();
  readonly #rollup = new Map<string, RollupRow>();
  readonly #ipAdded = new Map<string, { projectId: string; ip: string; n: number }>();
  /**
   * What the batch's admissions need of a limited counter: `table \0 id \0 counter \0 limit
   * column` -> the smallest headroom over the counter as read (see need()).
   */
  readonly needs = new Map<
    string,
    { table: string; id: string; counter: string; limit: string; over: number }
  >();
  /** Admissions under holds, by limit (see needHold()). */
  readonly holdNeeds = new Map<string, HoldNeed>();
  /** Respondents the batch let in for the first time (projectId, sid): none may exist at write time. */
  readonly newEntries: { projectId: string; sid: string }[] = [];

  constructor(private readonly state: BatchState) {}

  /**
   * Records that a decision admitted an event under a limit (`count < limit`, count being the
   * counter as the batch sees it now): the batch stays right as long as, at write time, the
   * counter in the database plus the batch's own offset still leaves room. Refusals need nothing:
   * a counter that was full stays full (the router's counters only grow, but for one click taken
   * back when a pre-screen finds no client link).
   */
  need(
    table: "projects" | "supplier_maps",
    id: string,
    counter: "clicked" | "complete" | "testClicked",
    limit: string,
    count: number,
  ) {
    const base = (table === "projects" ? this.state.base.projects : this.state.base.maps).get(id);
    const over = count - (base?.[counter] ?? 0) + 1;
    const key = `${table}\u0000${id}\u0000${counter}\u0000${limit}`;
    const had = this.needs.get(key);
    if (!had || had.over < over) this.needs.set(key, { table, id, counter, limit, over });
  }

  /**
   * Records that a decision admitted under a hold, the limit's sessions in the survey being `held` as
   * the batch sees them now: the remote write checks the room is still there (guards.ts).
   */
  needHold(n: HoldLimit & { p: number }, held: number) {
    const key = n.kind === "cell"
      ? `cell\u0000${n.quotaId}\u0000${n.quotaOptionId}`
      : `${n.table}\u0000${n.id}\u0000${n.limit}`;
    const base = n.kind === "cell"
      ? this.state.base.cellHolds.get(cellKey(n.quotaId, n.quotaOptionId)) ?? 0
      : (n.table === "projects" ? this.state.base.projects : this.state.base.maps).get(n.id)?.held ?? 0;
    const need = { ...n, over: held - base } as HoldNeed;
    const had = this.holdNeeds.get(key);
    if (!had || had.over < need.over || (had.over === need.over && had.p < need.p)) {
      this.holdNeeds.set(key, need);
    }
  }

  /** Adds `by` to a counter of the session's project, supplier map and daily rollup row. */
  bump(
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
    const p = projectCounts(this.state, s.projectId), m = mapCounts(this.state, s.supplierMapId);
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
    // a routed hop's traffic is also counted apart (hops 2 and 3 of a chain)
    if (s.hop > 1) {
      const routed = counter === "clicked" ? "routedEntry" : counter === "complete" ? "routedComplete" : null;
      if (routed) row.counts[routed] = (row.counts[routed] ?? 0) + by;
      if (routed === "routedComplete") {
        row.counts.routedRevenue = (row.counts.routedRevenue ?? 0) + (extra.revenue ?? 0);
      }
    }
  }

  /**
   * Moves a hold counter of a live session's project and supplier map (no rollup: holds are state,
   * not traffic). Test sessions hold nothing.
   */
  hold(s: SessionRow, counter: HoldCounter, by: number) {
    if (s.isTest) return;
    for (const [deltas, id] of [[this.#pDelta, s.projectId], [this.#mDelta, s.supplierMapId]] as const) {
      const d = deltas.get(id) ?? {};
      d[counter] = (d[counter] ?? 0) + by;
      deltas.set(id, d);
    }
    projectCounts(this.state, s.projectId)[counter] += by;
    mapCounts(this.state, s.supplierMapId)[counter] += by;
  }

  /**
   * A live session goes into the client survey (`by` 1) or leaves it (-1): it holds a place on its
   * project, its supplier map and each of its quota cells while it is there (holds.ts).
   */
  inSurvey(s: SessionRow, cells: QuotaCellRef[], by: 1 | -1) {
    if (s.isTest) return;
    this.hold(s, "held", by);
    if (by === 1) this.hold(s, "sent", 1);
    for (const ref of cells) {
      const key = cellKey(ref.quotaId, ref.quotaOptionId);
      const d = this.#cellDelta.get(key) ?? { quotaId: ref.quotaId, quotaOptionId: ref.quotaOptionId, by: 0 };
      d.by += by;
      this.#cellDelta.set(key, d);
      if (this.state.quotas.has(ref.quotaId)) {
        this.state.cellHolds.set(key, (this.state.cellHolds.get(key) ?? 0) + by);
      }
    }
  }

  /** Counts a session entering `status` (its status counter, with the security breakdown). */
  countStatus(
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
    this.bump(s, counter, by, atMs, { column, ...money });
    // the measured LOI: a live complete whose length is known adds its seconds to its project; any
    // other outcome back from the survey adds to the other sums (the holds' time weighting, holds.ts)
    if (!s.isTest && s.seconds !== null) {
      const pd = this.#pDelta.get(s.projectId)!, ps = projectCounts(this.state, s.projectId);
      const [secs, n] = status === "complete"
        ? ["loiSeconds", "loiCompletes"] as const
        : ["otherSeconds", "otherTimed"] as const;
      pd[secs] = (pd[secs] ?? 0) + by * s.seconds;
      pd[n] = (pd[n] ?? 0) + by;
      ps[secs] += by * s.seconds;
      ps[n] += by;
    }
  }

  /** One more arrival from `ip` on the project (unique-IP projects). */
  addIp(projectId: string, ip: string) {
    const key = `${projectId}\u0000${ip}`;
    this.state.ipCounts.set(key, (this.state.ipCounts.get(key) ?? 0) + 1);
    const added = this.#ipAdded.get(key) ?? { projectId, ip, n: 0 };
    added.n++;
    this.#ipAdded.set(key, added);
  }

  /** The session as it is now: later events of the batch see it, and it is written. */
  touch(s: SessionRow) {
    this.state.sessions.set(s.id, s);
    this.dirty.set(s.id, s);
  }

  /** Writes every change in the open transaction; `now` stamps the queued hooks. */
  async write(trx: Db, now: number, hookLeaseMs?: number) {
    const results = await runStatements(trx, this.statements(now, { hookLeaseMs, claim: true }));
    // the callbacks' INSERT is the last statement: their ids, or their claim's (the sender settles
    // them by id)
    const last = results.at(-1);
    if (this.hooks.length && last) {
      hookIds(this.hooks, { lastId: last.insertId, count: last.numAffectedRows }, !!hookLeaseMs);
    }
  }

  /**
   * Every change as statements, in the order they run: sessions, counters, the daily rollup and
   * its rollups (rollup.ts), IP counts, client links, quota cells, answers, hooks. The file path
   * runs them in its transaction; the remote path sends them as one batch after its guards.
   */
  statements(now: number, opts: { json?: boolean; hookLeaseMs?: number; claim?: boolean } = {}): Statement[] {
    const out: Statement[] = [];
    if (opts.json) this.#sessionJsonStatements(out);
    else this.#sessionStatements(out);
    this.#counterStatements(out, iso(now));
    out.push(...routerDailyStatements([...this.#rollup.values()].map((r) => ({
      date: r.date,
      projectId: r.projectId,
      supplierId: r.supplierId,
      supplierMapId: r.supplierMapId,
      parentProjectId: r.parentProjectId,
      clientId: r.clientId,
      ...r.counts,
      revenue: r.revenue,
      cost: r.cost,
    }))));
    this.#ipStatements(out);
    this.#cellHoldStatements(out);
    for (const l of this.usedLinks) {
      out.push({
        sql: `UPDATE project_links SET usedBy = ? WHERE id = ? AND usedBy IS NULL`,
        args: [l.uid, l.id],
      });
    }
    for (const [id, q] of this.state.quotas) {
      if (q.changed) {
        out.push({
          sql: `UPDATE project_quotas SET quotaValue = ? WHERE id = ?`,
          args: [JSON.stringify(q.cells), id],
        });
      }
    }
    this.#answerStatements(out);
    this.#profileStatements(out);
    // in a claim only where the INSERT's id comes back (not in the remote path's batch)
    if (this.hooks.length) {
      out.push(hookInsert(this.hooks, now, { leaseMs: opts.hookLeaseMs, claim: opts.claim }));
    }
    return out;
  }

  #sessionStatements(out: Statement[]) {
    const rows = [...this.dirty.values()];
    for (let i = 0; i < rows.length; i += 400) {
      const chunk = rows.slice(i, i + 400);
      out.push({
        sql: `INSERT INTO sessions (${SESSION_COLUMNS.join(", ")}) VALUES ${
          placeholders(chunk.length, SESSION_COLUMNS.length)
        }
         ON CONFLICT(id) DO UPDATE SET ${SESSION_MUTABLE.map((c) => `${c} = excluded.${c}`).join(", ")}`,
        args: chunk.flatMap((r) => SESSION_COLUMNS.map((c) => r[c])),
      });
    }
  }

  /**
   * The sessions as ONE argument, a JSON array of rows read back by json_each (a remote primary):
   * a batch of 30 entries sends one text value instead of 800 typed ones, which the client encodes
   * and sqld decodes one by one (that was most of the write batch's cost after its round trip).
   */
  #sessionJsonStatements(out: Statement[]) {
    const rows = [...this.dirty.values()];
    if (!rows.length) return;
    out.push({
      sql: `INSERT INTO sessions (${SESSION_COLUMNS.join(", ")}) SELECT ${
        SESSION_COLUMNS.map((_, i) => `value ->> ${i}`).join(", ")
      } FROM json_each(?) WHERE true
         ON CONFLICT(id) DO UPDATE SET ${SESSION_MUTABLE.map((c) => `${c} = excluded.${c}`).join(", ")}`,
      args: [JSON.stringify(rows.map((r) => SESSION_COLUMNS.map((c) => r[c])))],
    });
  }

  /**
   * One UPDATE per project and map the batch moved. A project's also stamps `countersAt` (the supply
   * API's `updated_since` sees the survey's remaining completes and rates move) in that same
   * statement: no write of its own per respondent.
   */
  #counterStatements(out: Statement[], at: string) {
    for (const [table, deltas] of [["projects", this.#pDelta], ["supplier_maps", this.#mDelta]] as const) {
      for (const [id, d] of deltas) {
        const cols = Object.entries(d).filter(([, n]) => n);
        if (!cols.length) continue;
        const sets = cols.map(([c]) => `"${c}" = "${c}" + ?`);
        const args: (number | string)[] = cols.map(([, n]) => n as number);
        if (table === "projects") {
          sets.push(`countersAt = ?`);
          args.push(at);
        }
        out.push({ sql: `UPDATE ${table} SET ${sets.join(", ")} WHERE id = ?`, args: [...args, id] });
      }
    }
  }

  #cellHoldStatements(out: Statement[]) {
    const rows = [...this.#cellDelta.values()].filter((d) => d.by !== 0);
    for (let i = 0; i < rows.length; i += 300) {
      const chunk = rows.slice(i, i + 300);
      out.push({
        sql: `INSERT INTO quota_cell_holds (quotaId, quotaOptionId, held) VALUES ${
          placeholders(chunk.length, 3)
        }
         ON CONFLICT(quotaId, quotaOptionId) DO UPDATE SET held = held + excluded.held`,
        args: chunk.flatMap((r) => [r.quotaId, r.quotaOptionId, r.by]),
      });
    }
  }

  #ipStatements(out: Statement[]) {
    const ipRows = [...this.#ipAdded.values()];
    for (let i = 0; i < ipRows.length; i += 300) {
      const chunk = ipRows.slice(i, i + 300);
      out.push({
        sql: `INSERT INTO project_ip_counts (projectId, ip, n) VALUES ${placeholders(chunk.length, 3)}
         ON CONFLICT(projectId, ip) DO UPDATE SET n = n + excluded.n`,
        args: chunk.flatMap((r) => [r.projectId, r.ip, r.n]),
      });
    }
  }

  #answerStatements(out: Statement[]) {
    if (!this.answers.length) return;
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
    for (let i = 0; i < this.answers.length; i += 500) {
      const chunk = this.answers.slice(i, i + 500);
      out.push({
        sql: `INSERT INTO prescreen_answers (${cols.join(", ")}) VALUES ${
          placeholders(chunk.length, cols.length)
        }`,
        args: chunk.flatMap((a) => cols.map((c) => a[c])),
      });
    }
  }

  /** Profile answers: the latest answer to a library question replaces the member's earlier one. */
  #profileStatements(out: Statement[]) {
    const cols = ["supplierId", "memberId", "questionId", "answer", "answeredAt", "source"] as const;
    for (let i = 0; i < this.profiles.length; i += 500) {
      const chunk = this.profiles.slice(i, i + 500);
      out.push({
        sql: `INSERT INTO member_profiles (${cols.join(", ")}) VALUES ${
          placeholders(chunk.length, cols.length)
        }
         ON CONFLICT(supplierId, memberId, questionId) DO UPDATE SET answer = excluded.answer,
         answeredAt = excluded.answeredAt, source = excluded.source`,
        args: chunk.flatMap((a) => cols.map((c) => a[c])),
      });
    }
  }
}
