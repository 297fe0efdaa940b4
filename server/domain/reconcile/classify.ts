/**
 * The read half of a reconcile chunk: which of the project's sessions a chunk of identifiers names,
 * sorted into those the upload changes (live completes not reconciled yet), those reconciled
 * already and those that are no complete; for the ones it changes, their rowids, ids and counter
 * keys counted by key. One statement; a few rows (one per kind and key) come back, the ids and
 * rowids as JSON text built by SQLite.
 *
 * It runs on the app's connection inside the chunk's transaction (small uploads, `:memory:`, a
 * libSQL server) or, for a large upload on a local file, on a worker's own connection a chunk
 * ahead (./worker.ts): reads never block the app's writer, so the app's thread then only writes.
 * This module is what the worker loads: it imports nothing of the app but the query builder.
 */
import { sql } from "kysely";
import type { Kysely } from "kysely";

/** What a chunk sorts each of its sessions into. */
export const KIND = { CHANGE: 0, ALREADY: 1, NOT_COMPLETE: 2 } as const;

/** Sessions the chunk changes that share their counter keys: `n` of them. */
export type ChunkGroup = {
  projectId: string;
  supplierMapId: string;
  supplierId: string;
  parentProjectId: string | null;
  clientId: string;
  /** The day of the complete (YYYY-MM-DD): the rollup row it was counted on. */
  day: string;
  n: number;
};

/** A chunk as read: its figures and what the write needs. */
export type Classified = {
  /** Identifiers of the chunk that name a session of the project. */
  named: number;
  already: number;
  notComplete: number;
  /** Sessions the chunk changes, and their rowids and ids as JSON arrays (same order). */
  changed: number;
  rids: string;
  ids: string;
  groups: ChunkGroup[];
};

type Row = ChunkGroup & { kind: number; rids: string | null; ids: string | null };

/**
 * Reads a chunk of identifiers (unique: a file's duplicates are dropped when it is parsed) against
 * the sessions of the project's child projects `scope`.
 */
// deno-lint-ignore no-explicit-any
export async function classifyChunk(db: Kysely<any>, scope: string[], part: string[]): Promise<Classified> {
  const rows = (await sql<Row>`WITH c AS MATERIALIZED (
      SELECT rowid AS rid, id, projectId, supplierMapId, supplierId, parentProjectId, clientId,
        CASE WHEN reconciled != 0 THEN ${KIND.ALREADY}
          WHEN status = 'complete' AND isTest = 0 THEN ${KIND.CHANGE} ELSE ${KIND.NOT_COMPLETE} END AS kind,
        substr(coalesce(endedAt, createdAt), 1, 10) AS day
      FROM sessions WHERE id IN (SELECT value FROM json_each(${JSON.stringify(part)}))
        AND projectId IN (${sql.join(scope)}))
    SELECT kind, projectId, supplierMapId, supplierId, parentProjectId, clientId, day, count(*) AS n,
      CASE WHEN kind = ${KIND.CHANGE} THEN json_group_array(rid) END AS rids,
      CASE WHEN kind = ${KIND.CHANGE} THEN json_group_array(id) END AS ids
    FROM c GROUP BY kind, projectId, supplierId, supplierMapId, day`.execute(db)).rows;
  const out: Classified = {
    named: 0,
    already: 0,
    notComplete: 0,
    changed: 0,
    rids: "[]",
    ids: "[]",
    groups: [],
  };
  const rids: string[] = [], ids: string[] = [];
  for (const r of rows) {
    const n = Number(r.n);
    out.named += n;
    if (r.kind === KIND.ALREADY) out.already += n;
    else if (r.kind === KIND.NOT_COMPLETE) out.notComplete += n;
    else {
      out.changed += n;
      // the groups' arrays joined as text: '[1,2]' and '[3]' make '[1,2,3]'
      rids.push(r.rids!.slice(1, -1));
      ids.push(r.ids!.slice(1, -1));
      out.groups.push({
        projectId: r.projectId,
        supplierMapId: r.supplierMapId,
        supplierId: r.supplierId,
        parentProjectId: r.parentProjectId,
        clientId: r.clientId,
        day: r.day,
        n,
      });
    }
  }
  if (rids.length) {
    out.rids = `[${rids.join(",")}]`;
    out.ids = `[${ids.join(",")}]`;
  }
  return out;
}
