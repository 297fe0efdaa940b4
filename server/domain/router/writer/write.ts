/**
 * The write: what a batch's decisions change, gathered in memory (counter bumps on the project, the
 * supplier map and the daily rollup; the sessions touched; IP counts, client links, quota cells,
 * pre-screen answers, approved hooks), then written with one statement per table and chunk. The
 * counters the decisions read (BatchState) move with each bump, so the next decision of the same
 * batch sees them.
 */
import type { Db } from "../../../db/connection.ts";
import type { SessionStatus } from "../../../db/tables/router.ts";
import { ROLLUP_COUNTERS, type RollupCounter } from "../../../db/tables/router.ts";
import type { AnswerRow } from "../prescreen.ts";
import { type CounterName, day, iso, REASON, SECURITY_COLUMN, STATUS_COUNTER } from "../outcomes.ts";
import { type BatchState, mapCounts, projectCounts, run } from "./load.ts";
import type { SessionRow } from "./types.ts";

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

/** An approved hook to queue: the complete's session, its supplier, the URL with placeholders filled. */
export type HookRow = { sessionId: string; supplierId: string; url: string };

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
  readonly #pDelta = new Map<string, Partial<Record<CounterName, number>>>();
  readonly #mDelta = new Map<string, Partial<Record<CounterName, number>>>();
  readonly #rollup = new Map<string, RollupRow>();
  readonly #ipAdded = new Map<string, { projectId: string; ip: string; n: number }>();

  constructor(private readonly state: BatchState) {}

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
  async write(trx: Db, now: number) {
    await this.#writeSessions(trx);
    await this.#writeCounters(trx);
    await this.#writeRollup(trx);
    await this.#writeIps(trx);
    for (const l of this.usedLinks) {
      await run(trx, `UPDATE project_links SET usedBy = ? WHERE id = ? AND usedBy IS NULL`, [l.uid, l.id]);
    }
    for (const [id, q] of this.state.quotas) {
      if (q.changed) {
        await run(trx, `UPDATE project_quotas SET quotaValue = ? WHERE id = ?`, [
          JSON.stringify(q.cells),
          id,
        ]);
      }
    }
    await this.#writeAnswers(trx);
    if (this.hooks.length) {
      const at = iso(now);
      await run(
        trx,
        `INSERT INTO router_hooks (sessionId, supplierId, url, nextAt, createdAt, updatedAt) VALUES ${
          placeholders(this.hooks.length, 6)
        }`,
        this.hooks.flatMap((h) => [h.sessionId, h.supplierId, h.url, at, at, at]),
      );
    }
  }

  async #writeSessions(trx: Db) {
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
  }

  async #writeCounters(trx: Db) {
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
  }

  async #writeRollup(trx: Db) {
    const rollups = [...this.#rollup.values()];
    if (!rollups.length) return;
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

  async #writeIps(trx: Db) {
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
  }

  async #writeAnswers(trx: Db) {
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
      await run(
        trx,
        `INSERT INTO prescreen_answers (${cols.join(", ")}) VALUES ${
          placeholders(chunk.length, cols.length)
        }`,
        chunk.flatMap((a) => cols.map((c) => a[c])),
      );
    }
  }
}
