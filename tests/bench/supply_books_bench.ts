/**
 * The supply API's transactions at 1,000,000 sessions (issue 23, checks: "transactions paging over
 * 1,000,000 sessions, rows per second, target at least 100,000"). One supplier's 1,000,000 sessions
 * (with another supplier's traffic in between: one row in ten, which its key never reads) are written
 * into a temporary database FILE with one INSERT ... SELECT from a recursive CTE, with the
 * reconcile states of some completes. Then, through the app with the supplier's API key:
 * - a paging walk of every session, 1,000 a page, cursor after cursor, as a panel pulls its books;
 * - the same rows as one CSV download (`Accept: text/csv`).
 * The rate limit is raised for the run (a real panel walking a million rows is held to
 * SUPPLY_RATE_PER_MINUTE pages a minute; the figure here is the server's read rate).
 */
import { sql } from "kysely";
import type { BenchRow } from "./_kit.ts";
import { testApp } from "../helpers/app.ts";
import { liveProject } from "../helpers/router.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import { SUPPLY_BASE } from "../../shared/api/supply.ts";
import { supplyTransactionsCall, type TransactionsPage } from "../../shared/api/supply-books.ts";

const ROWS = Number(Deno.env.get("SUPPLY_BOOKS_BENCH_ROWS") ?? 1_000_000);
/** One row in OTHER_EVERY is another supplier's. */
const OTHER_EVERY = 10;
const PAGE = 1000;

export async function bench(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "samplex-supply-books-bench-" });
  const t = await testApp({
    DATABASE_URL: `file:${dir}/supply.db`,
    SUPPLY_RATE_PER_MINUTE: "1000000",
    SUPPLY_RATE_BURST: "100000",
  });
  try {
    const mine = await liveProject(t, { child: { sampleSize: 0 } });
    const other = await liveProject(t, { child: { sampleSize: 0 } });
    const key = (await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: mine.supplierId },
      body: { name: "bench" },
    })).key;
    const db = t.deps.db;
    const total = Math.round(ROWS * OTHER_EVERY / (OTHER_EVERY - 1));
    const t0 = performance.now();
    await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${sql.lit(total - 1)})
      INSERT INTO sessions (id, projectId, parentProjectId, clientId, supplierMapId, supplierId, sid, status,
        reason, createdAt, updatedAt, redirectedAt, endedAt)
      SELECT printf('5b%022x', i),
        CASE WHEN i % ${sql.lit(OTHER_EVERY)} = ${sql.lit(OTHER_EVERY - 1)} THEN ${other.child._id}
          ELSE ${mine.child._id} END,
        ${mine.parent._id}, ${mine.child.clientId},
        CASE WHEN i % ${sql.lit(OTHER_EVERY)} = ${
      sql.lit(OTHER_EVERY - 1)
    } THEN ${other.mapId} ELSE ${mine.mapId} END,
        CASE WHEN i % ${sql.lit(OTHER_EVERY)} = ${sql.lit(OTHER_EVERY - 1)} THEN ${other.supplierId}
          ELSE ${mine.supplierId} END,
        'M' || i,
        CASE i % 20 WHEN 0 THEN 'redirected' WHEN 1 THEN 'drop' WHEN 2 THEN 'overQuota' WHEN 3 THEN 'qualityTerm'
          ELSE CASE WHEN i % 3 = 0 THEN 'complete' ELSE 'terminate' END END,
        CASE i % 20 WHEN 2 THEN 'quotaOptionFull' ELSE '' END,
        strftime('%Y-%m-%dT%H:%M:%fZ', 1790000000 + i, 'unixepoch'),
        strftime('%Y-%m-%dT%H:%M:%fZ', 1790000600 + i, 'unixepoch'),
        strftime('%Y-%m-%dT%H:%M:%fZ', 1790000010 + i, 'unixepoch'),
        CASE i % 20 WHEN 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 1790000600 + i, 'unixepoch') END
      FROM n`.execute(db);
    // a reconcile approved most completes and rejected some
    await sql`INSERT INTO session_reconciles (sessionId, state)
      SELECT id, CASE WHEN rowid % 7 = 0 THEN 2 ELSE 1 END FROM sessions
      WHERE status = 'complete' AND rowid % 2 = 0`.execute(db);
    await sql`ANALYZE`.execute(db);
    const seedMs = performance.now() - t0;
    const expected = Number(
      (await db.selectFrom("sessions").select((e) => e.fn.countAll().as("n"))
        .where("supplierId", "=", mine.supplierId).executeTakeFirstOrThrow()).n,
    );

    const get = (path: string, accept = "application/json") =>
      t.app.request(`${SUPPLY_BASE}${path}`, { headers: { "X-Api-Key": key, accept } });

    /** Every session of the supplier, PAGE a page: rows, pages, seconds. */
    const walk = async () => {
      const started = performance.now();
      let rows = 0, pages = 0, cursor = "", last = "";
      for (;;) {
        const res = await get(
          `${supplyTransactionsCall.path}?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ""}`,
        );
        if (res.status !== 200) throw new Error(`transactions: ${res.status} ${await res.text()}`);
        const page = (await res.json()).result as TransactionsPage;
        rows += page.data.length;
        pages++;
        // the seeded ids grow with the rows' order: a row repeated or out of order shows here
        if (page.data.length && page.data[0].id <= last) {
          throw new Error(`page ${pages} goes back: ${page.data[0].id}`);
        }
        last = page.data.at(-1)?.id ?? last;
        cursor = page.nextCursor;
        if (!page.hasMore) break;
      }
      return { rows, pages, seconds: (performance.now() - started) / 1000 };
    };

    const download = async () => {
      const started = performance.now();
      const res = await get(supplyTransactionsCall.path, "text/csv");
      if (res.status !== 200) throw new Error(`transactions CSV: ${res.status} ${await res.text()}`);
      let lines = 0;
      for await (const chunk of res.body!) {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      }
      return { rows: lines - 1, seconds: (performance.now() - started) / 1000 };
    };

    const paged = await walk();
    const csv = await download();
    if (paged.rows !== expected || csv.rows !== expected) {
      throw new Error(`transactions rows: ${paged.rows} paged, ${csv.rows} in the CSV, expected ${expected}`);
    }
    const n = (x: number) => Math.round(x).toLocaleString("en-US");
    return [
      {
        measure: "dataset: sessions written",
        value: Math.round(seedMs),
        unit: "ms",
        note: `${n(total)} rows, ${n(expected)} of the key's supplier`,
      },
      {
        measure: `transactions paging, ${n(expected)} sessions`,
        value: Math.round(paged.rows / paged.seconds),
        unit: "rows/s",
        note: `${n(paged.pages)} pages of ${PAGE} in ${paged.seconds.toFixed(1)} s; target 100,000 rows/s`,
        summary: "supply transactions paging (1M sessions)",
      },
      {
        measure: `transactions CSV download, ${n(expected)} sessions`,
        value: Math.round(csv.rows / csv.seconds),
        unit: "rows/s",
        note: `${csv.seconds.toFixed(1)} s`,
      },
    ];
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
