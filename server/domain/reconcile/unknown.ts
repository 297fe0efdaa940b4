/**
 * What an upload did not match: the identifiers that name no session of its project.
 *
 * They fall out of the chunk lookup: a chunk's lookup writes the sessions its identifiers name to
 * the chunk table, and only when the chunk's counts say some identifiers were not among them (an
 * upload that matches everything pays nothing) one more statement of the same transaction writes
 * the others, from the same JSON parameter, to `reconcile_unknown` (migration 0022), keyed by the
 * upload and their place in it. Nothing per identifier comes back to JavaScript, and memory holds
 * no list however many there are (an upload takes up to a million identifiers): the result reads
 * the first hundred, the CSV download and the CLI's file stream them a page at a time.
 *
 * An upload none of whose identifiers belongs to the project is refused before anything is
 * recorded (wrongProjectCheck): almost always a file sent to the wrong project.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { ReconcileUnknownTable } from "../../db/tables/reconcile.ts";
import type { CsvColumn } from "../../../shared/list.ts";
import { UNKNOWN_SHOWN } from "../../../shared/api/reconcile.ts";
import { conflict, invalid, notFound } from "../errors.ts";
import type { Ctx } from "../ctx.ts";
import { inList } from "./scope.ts";
import { Pacer } from "./pace.ts";
import { namedBy } from "./chunk.ts";

/**
 * Records the identifiers of one chunk (`json`: its identifiers as the chunk lookup's JSON
 * parameter, `offset`: the place of its first in the upload) that the lookup did not find in the
 * chunk table. Inside the chunk's transaction, before the chunk table is emptied.
 */
export async function recordUnknown(trx: Db, reconcileId: string, json: string, offset: number) {
  await sql`INSERT INTO reconcile_unknown (reconcileId, n, identifier)
    SELECT ${reconcileId}, ${offset} + key, value FROM json_each(${json})
    WHERE value NOT IN (SELECT id FROM reconcile_chunk)
      AND value NOT IN (SELECT s.clientRef FROM reconcile_chunk c JOIN sessions s ON s.id = c.id
        WHERE s.clientRef != '')`.execute(trx);
}

/** The first `limit` unknown identifiers of an upload, in the file's order. */
export async function firstUnknown(db: Db, reconcileId: string, limit = UNKNOWN_SHOWN): Promise<string[]> {
  const rows = await sql<Pick<ReconcileUnknownTable, "identifier">>`SELECT identifier FROM reconcile_unknown
    WHERE reconcileId = ${reconcileId} ORDER BY n LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => r.identifier);
}

export type UnknownRow = { identifier: string };
export const unknownColumns: readonly CsvColumn<UnknownRow>[] = [
  { header: "Identifier", value: (r) => r.identifier },
];

/** Rows of the unknown identifiers CSV per page (a key range each: no OFFSET). */
const PAGE = 5_000;

/** All unknown identifiers of an upload, in the file's order, a page at a time. */
export async function* unknownPages(
  ctx: Pick<Ctx, "db">,
  reconcileId: string,
  page = PAGE,
): AsyncGenerator<UnknownRow[]> {
  const db = ctx.db;
  for (let after = -1;;) {
    const rows = (await sql<Pick<ReconcileUnknownTable, "n" | "identifier">>`SELECT n, identifier
      FROM reconcile_unknown WHERE reconcileId = ${reconcileId} AND n > ${after} ORDER BY n LIMIT ${page}`
      .execute(db)).rows;
    if (!rows.length) return;
    after = rows[rows.length - 1].n;
    yield rows.map((r) => ({ identifier: r.identifier }));
  }
}

/**
 * The upload whose unknown identifiers are asked for: with its project's code (the file's name). An
 * upload not there is not found; one still being applied has no complete list yet.
 */
export async function unknownSource(ctx: Pick<Ctx, "db">, reconcileId: string) {
  const db = ctx.db;
  const r = await db.selectFrom("reconciles").innerJoin("projects", "projects.id", "reconciles.projectId")
    .select(["reconciles.id", "reconciles.status", "reconciles.unknown", "projects.projectCode"])
    .where("reconciles.id", "=", reconcileId).executeTakeFirst();
  if (!r) throw notFound("Reconcile");
  if (r.status !== "applied" && r.status !== "undone") {
    throw conflict("The upload is still being applied: its unknown identifiers are not all known yet");
  }
  return { id: r.id, projectCode: r.projectCode, unknown: r.unknown };
}

/** Drops an upload's unknown identifiers (its roll-back), `size` at a time by their key range. */
export async function dropUnknown(db: Db, reconcileId: string, size: number) {
  const pacer = new Pacer();
  for (;;) {
    const t0 = performance.now();
    const r = await sql`DELETE FROM reconcile_unknown WHERE reconcileId = ${reconcileId} AND n IN (
      SELECT n FROM reconcile_unknown WHERE reconcileId = ${reconcileId} ORDER BY n LIMIT ${size})`.execute(
      db,
    );
    if (!Number(r.numAffectedRows ?? 0)) return;
    await pacer.step(performance.now() - t0);
  }
}

/**
 * The message of an upload none of whose identifiers belongs to the project (spec'd by issue 21).
 */
export const wrongProjectMessage = (n: number, projectCode: string) =>
  `none of these ${n} identifiers belong to ${projectCode}: wrong project?`;

/**
 * Refuses an upload none of whose identifiers names a session of the project (`scope`: its child
 * projects), before anything is recorded. It looks a slice at a time and stops at the first
 * session found, which for a file of the right project is in its first slice: one indexed lookup
 * of a handful of rows. A file of the wrong project is looked through whole, the loop given back
 * between slices. A session never leaves its project, so what this finds is still there when the
 * upload is applied (the upload then names at least one session).
 */
export async function wrongProjectCheck(
  db: Db,
  input: { scope: string[]; projectCode: string; identifiers: string[]; size: number },
) {
  const { scope, projectCode, identifiers, size } = input;
  const pacer = new Pacer();
  for (let i = 0; i < identifiers.length; i += size) {
    const t0 = performance.now();
    const part = JSON.stringify(identifiers.slice(i, i + size));
    const hit = await sql`SELECT 1 AS x FROM sessions
      WHERE ${namedBy(part)} AND projectId IN (${sql.join(inList(scope))}) LIMIT 1`
      .execute(db);
    if (hit.rows.length) return;
    await pacer.step(performance.now() - t0);
  }
  throw invalid(wrongProjectMessage(identifiers.length, projectCode));
}
