/**
 * Row types of reconcile (migrations 0009, 0018 and 0022), and the column it adds to the router's hooks.
 */
import type { ColumnType } from "kysely";

type D<T> = ColumnType<T, T | undefined, T>;

/** A session's reconcile state (`session_reconciles`; no row: NONE). */
export const RECONCILE_STATE = { NONE: 0, APPROVED: 1, REJECTED: 2 } as const;

declare module "./router.ts" {
  interface RouterHooksTable {
    /** The idempotency key when it is not the complete's (`<uid>-a` for an approval). */
    hookKey: D<string | null>;
  }
}

export interface ReconcilesTable {
  id: string;
  projectId: string;
  type: number;
  fileName: D<string>;
  lines: D<number>;
  identifiers: D<number>;
  matched: D<number>;
  unknown: D<number>;
  duplicates: D<number>;
  alreadyReconciled: D<number>;
  notComplete: D<number>;
  hooksQueued: D<number>;
  status: "staging" | "applying" | "applied" | "undone" | "failed";
  createdBy: D<string | null>;
  createdByName: D<string>;
  createdAt: string;
  undoneAt: D<string | null>;
  undoneByName: D<string>;
}

export interface ReconcileItemsTable {
  reconcileId: string;
  sessionId: string;
}

/** A reconciled session (migration 0018): approved (1) or rejected (2); not reconciled has no row. */
export interface SessionReconcilesTable {
  sessionId: string;
  state: number;
}

/**
 * An identifier of an upload that names no session of its project (migration 0022): `n` is its
 * place among the upload's distinct identifiers (0-based), so they read back in the file's order.
 * Read and written with raw SQL only (server/domain/reconcile/unknown.ts), and so not a table of
 * the Database type: one more table there makes TypeScript give up on a deep query elsewhere
 * (TS2589, "Type instantiation is excessively deep") when the whole server is checked.
 */
export interface ReconcileUnknownTable {
  reconcileId: string;
  n: number;
  identifier: string;
}

export interface ReconcileTables {
  reconciles: ReconcilesTable;
  reconcile_items: ReconcileItemsTable;
  reconcile_stage: ReconcileItemsTable;
  session_reconciles: SessionReconcilesTable;
}
