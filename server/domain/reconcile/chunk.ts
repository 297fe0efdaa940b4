/**
 * The chunks an upload is applied in (./apply.ts): their size, the upload being applied, the figures
 * they add up, and the chunk table their statements share. Undo, rollback and the post-backs read
 * the same table and kinds.
 */
import { sql } from "kysely";
import type { ReconcileType } from "../../../shared/schemas/reconcile.ts";

/** Identifiers applied per chunk: each chunk is one short transaction (a few ms to a few tens). */
export const APPLY_CHUNK = 1_000;

/**
 * An upload being applied: its row, type, the child projects whose sessions it names, its time,
 * and whether its chunk table is a temporary one.
 */
export type Upload = { id: string; type: ReconcileType; scope: string[]; at: Date; tempChunks: boolean };

/** The figures of an upload's summary that its chunks add up. */
export const FIGURES = ["matched", "unknown", "alreadyReconciled", "notComplete", "hooksQueued"] as const;
export type Figures = Record<(typeof FIGURES)[number], number>;
export const noFigures = (): Figures => ({
  matched: 0,
  unknown: 0,
  alreadyReconciled: 0,
  notComplete: 0,
  hooksQueued: 0,
});

/**
 * What a chunk sorts each of its sessions into (`kind` in the chunk table): one it changes, one
 * reconciled already, one that is not a live complete.
 */
export const KIND = { CHANGE: 0, ALREADY: 1, NOT_COMPLETE: 2 } as const;

/**
 * The chunk table: the sessions of the project that a chunk's identifiers name, with their kind
 * and what their counters are keyed on, written and emptied inside the chunk's transaction, so
 * the chunk's statements share one lookup of the sessions and nothing of a session row comes back
 * to JavaScript. Kept in the order of its counts (kind, then counter keys), so they are read
 * without a sort. A temporary table (per connection, in memory) where temporary tables work; it
 * shadows the table of the same name that migration 0016 made, which a libSQL server (it refuses
 * temporary tables) uses instead. Same columns in both.
 */
export const CHUNK_TABLE = sql`CREATE TEMP TABLE IF NOT EXISTS reconcile_chunk (
  rid INTEGER NOT NULL, id TEXT NOT NULL, kind INTEGER NOT NULL, sid TEXT NOT NULL,
  projectId TEXT NOT NULL, supplierMapId TEXT NOT NULL, supplierId TEXT NOT NULL,
  parentProjectId TEXT, clientId TEXT NOT NULL, day TEXT NOT NULL,
  PRIMARY KEY (kind, projectId, supplierId, supplierMapId, day, rid)
) WITHOUT ROWID`;

/**
 * Sessions an upload's identifiers (`json`) name: by uid, or by the client's own identifier of the
 * respondent (sessions.clientRef: API-integrated clients whose identifier mapping names one). Two
 * indexed look-ups (the primary key, the partial index of the sessions that have a clientRef).
 */
export const namedBy = (json: string) =>
  sql`rowid IN (SELECT rowid FROM sessions WHERE id IN (SELECT value FROM json_each(${json}))
    UNION ALL SELECT rowid FROM sessions WHERE clientRef != '' AND clientRef IN (SELECT value FROM json_each(${json})))`;
