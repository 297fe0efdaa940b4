/**
 * A supplier's transactions (`GET /supply/v1/transactions`, shared/api/supply-books.ts): its
 * sessions walked by keyset on their rowid through the index sessions_supplier (supplierId, rowid)
 * of migration 0035. rowid is the commit order (one writer at a time; a new row takes a rowid above
 * every row there, and sessions are never deleted, so none is reused): a walk reaches every row
 * written while it goes on and meets each row once, whatever happens to it later. Test entries are
 * not the supplier's traffic and are left out (as the rollup leaves them out of the stats).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { SessionStatus } from "../../db/tables/router.ts";
import { RECONCILE_STATE } from "../../db/tables/reconcile.ts";
import type { CsvColumn } from "../../../shared/list.ts";
import { invalid } from "../errors.ts";
import { openCursor, sealCursor } from "./cursor.ts";
import {
  CURSOR_MSG,
  type ReconcileState,
  type SupplyOutcome,
  type SupplyTransaction,
  TRANSACTION_FIELDS,
  type TransactionsPage,
  type TransactionsQuery,
} from "../../../shared/api/supply-books.ts";

/** Rows a CSV download reads per page. */
const EXPORT_PAGE = 1000;
/**
 * The most of the supplier's sessions one page looks at under a `status` filter: a rare outcome
 * would otherwise have one call read the supplier's whole history to fill a page. A page that
 * stops there holds fewer rows than asked (even none), says `hasMore`, and its cursor goes on
 * from the last session looked at.
 */
export const SCAN_BUDGET = 20_000;

/** The router's statuses an outcome filter stands for (its own name, but for the two under way). */
const statusesOf = (outcome: SupplyOutcome): SessionStatus[] =>
  outcome === "inProgress" ? ["prescreen", "redirected"] : [outcome];

const outcomeOf = (status: SessionStatus): SupplyOutcome =>
  status === "prescreen" || status === "redirected" ? "inProgress" : status;

/** Where a walk reads: after `after` (a rowid), at most up to `upTo`, with the filters. */
export type Walk = {
  supplierId: string;
  after: number;
  upTo?: number;
  since?: string;
  status?: SupplyOutcome;
};

type Row = {
  pos: number;
  id: string;
  sid: string;
  projectId: string;
  supplierMapId: string;
  status: SessionStatus;
  reason: string;
  createdAt: string;
  redirectedAt: string | null;
  endedAt: string | null;
  updatedAt: string;
  state: number | null;
  chainId: string | null;
  hop: number;
};

/** The position a walk from `since` starts after: before the first session that entered at or after it. */
async function positionBefore(db: Db, since: string | undefined): Promise<number> {
  if (!since) return 0;
  const r = await sql<{ pos: number | null }>`SELECT coalesce(
      (SELECT min(rowid) - 1 FROM sessions INDEXED BY sessions_created WHERE createdAt >= ${since}),
      (SELECT max(rowid) FROM sessions), 0) AS pos`.execute(db);
  return Number(r.rows[0]?.pos ?? 0);
}

/** `limit` rows of the walk, each as the API shows it, with the position of each. */
async function readRows(
  db: Db,
  walk: Walk,
  limit: number,
): Promise<{ pos: number; row: SupplyTransaction }[]> {
  const filters = [
    walk.upTo !== undefined ? sql`AND s.rowid <= ${walk.upTo}` : sql``,
    walk.since ? sql`AND s.createdAt >= ${walk.since}` : sql``,
    walk.status ? sql`AND s.status IN (${sql.join(statusesOf(walk.status))})` : sql``,
  ];
  const { rows } = await sql<Row>`SELECT s.rowid AS pos, s.id, s.sid, s.projectId, s.supplierMapId, s.status,
      s.reason, s.createdAt, s.redirectedAt, s.endedAt, s.updatedAt, r.state, s.chainId, s.hop
    FROM sessions s INDEXED BY sessions_supplier
    LEFT JOIN session_reconciles r ON r.sessionId = s.id
    WHERE s.supplierId = ${walk.supplierId} AND s.rowid > ${walk.after} AND s.isTest = 0 ${
    sql.join(filters, sql` `)
  }
    ORDER BY s.rowid LIMIT ${limit}`.execute(db);
  if (!rows.length) return [];
  // a page names a few maps: their CPIs in one read, not a join per row
  const mapIds = [...new Set(rows.map((r) => r.supplierMapId))];
  const maps = await db.selectFrom("supplier_maps").select(["id", "supplierCPI"]).where("id", "in", mapIds)
    .execute();
  const cpiOf = new Map(maps.map((m) => [m.id, Number(m.supplierCPI) || 0]));
  return rows.map((r) => {
    const complete = r.status === "complete";
    const state = Number(r.state ?? RECONCILE_STATE.NONE);
    const reconcile: ReconcileState | null = !complete
      ? null
      : state === RECONCILE_STATE.APPROVED
      ? "approved"
      : state === RECONCILE_STATE.REJECTED
      ? "rejected"
      : "pending";
    const cpi = cpiOf.get(r.supplierMapId) ?? 0;
    return {
      pos: Number(r.pos),
      row: {
        id: r.id,
        memberId: r.sid,
        surveyId: r.projectId,
        outcome: outcomeOf(r.status),
        reason: r.reason,
        cpi,
        earned: complete && reconcile !== "rejected" ? cpi : 0,
        reconcile,
        chainId: r.chainId ?? r.id,
        hop: Number(r.hop) || 1,
        enteredAt: r.createdAt,
        redirectedAt: r.redirectedAt,
        endedAt: r.endedAt,
        updatedAt: r.updatedAt,
      },
    };
  });
}

/** What the transactions calls need: the database and the secret cursors are sealed with. */
export type BooksCtx = { db: Db; jwtKey: Uint8Array };

/** Where a walk starts: after the cursor's position (400 for a cursor not this supplier's), or before `since`. */
async function startOf(ctx: BooksCtx, supplierId: string, query: TransactionsQuery): Promise<number> {
  if (query.cursor === undefined) return await positionBefore(ctx.db, query.since);
  const position = openCursor(ctx.jwtKey, supplierId, query.cursor);
  if (position === null) throw invalid(CURSOR_MSG, [{ path: "cursor", message: CURSOR_MSG }]);
  return position;
}

/** Up to `limit` rows of a walk, the position to go on from, and whether there is more. */
async function readPage(db: Db, walk: Walk, limit: number, scan = SCAN_BUDGET) {
  let upTo = walk.upTo;
  let cut = false;
  if (walk.status) {
    const w = await sql<{ last: number | null; n: number }>`SELECT max(pos) AS last, count(*) AS n FROM
      (SELECT rowid AS pos FROM sessions INDEXED BY sessions_supplier
        WHERE supplierId = ${walk.supplierId} AND rowid > ${walk.after} ${
      upTo !== undefined ? sql`AND rowid <= ${upTo}` : sql``
    } ORDER BY rowid LIMIT ${scan})`.execute(db);
    const { last, n } = w.rows[0];
    if (Number(n) >= scan && last !== null) [upTo, cut] = [Number(last), true];
  }
  const read = await readRows(db, { ...walk, upTo }, limit + 1);
  const rows = read.slice(0, limit);
  if (read.length > limit) return { rows, next: rows.at(-1)!.pos, more: true };
  if (cut) return { rows, next: upTo!, more: true };
  return { rows, next: rows.at(-1)?.pos ?? walk.after, more: false };
}

/**
 * One page of a supplier's transactions (see supplyTransactionsCall for the semantics). `scan`:
 * the most sessions a filtered page looks at (SCAN_BUDGET; tests make it small).
 */
export async function transactionsPage(
  ctx: BooksCtx,
  input: { supplierId: string; query: TransactionsQuery; scan?: number },
): Promise<TransactionsPage> {
  const { supplierId, query } = input;
  const after = await startOf(ctx, supplierId, query);
  const walk = { supplierId, after, since: query.since, status: query.status };
  const page = await readPage(ctx.db, walk, query.limit, input.scan);
  return {
    data: page.rows.map((r) => r.row),
    nextCursor: sealCursor(ctx.jwtKey, supplierId, page.next),
    hasMore: page.more,
  };
}

/**
 * A CSV download's walk: from the start a page would have, to the supplier's last session now (what
 * arrives meanwhile waits for the next call), and the cursor to ask from next.
 */
export async function transactionsDownload(
  ctx: BooksCtx,
  input: { supplierId: string; query: TransactionsQuery },
): Promise<{ walk: Walk; nextCursor: string }> {
  const { supplierId, query } = input;
  const after = await startOf(ctx, supplierId, query);
  const upTo = await lastPosition(ctx.db, supplierId);
  return {
    walk: { supplierId, after, upTo, since: query.since, status: query.status },
    nextCursor: sealCursor(ctx.jwtKey, supplierId, Math.max(after, upTo)),
  };
}

/** The last position of the supplier's sessions now (a download stops there). */
async function lastPosition(db: Db, supplierId: string): Promise<number> {
  const r = await sql<
    { pos: number | null }
  >`SELECT max(rowid) AS pos FROM sessions INDEXED BY sessions_supplier
    WHERE supplierId = ${supplierId}`.execute(db);
  return Number(r.rows[0]?.pos ?? 0);
}

/** Every row of a walk, a page at a time. */
export async function* transactionPages(db: Db, walk: Walk, pageSize = EXPORT_PAGE) {
  let after = walk.after;
  for (;;) {
    const page = await readPage(db, { ...walk, after }, pageSize);
    if (page.rows.length) yield page.rows.map((r) => r.row);
    if (!page.more) return;
    after = page.next;
  }
}

const columns: CsvColumn<SupplyTransaction>[] = TRANSACTION_FIELDS.map((k) => ({
  header: k,
  value: (t: SupplyTransaction) => t[k],
}));

/** The CSV download of a walk (run by csvExport, in a worker with its own connection). */
export function transactionsExport(db: Db, walk: Walk) {
  return { columns, pages: transactionPages(db, walk) };
}
