/**
 * The Support Identifiers export at 1,000,000 rows: a panel's 10,000 respondent identifiers (sid),
 * each in 100 surveys, pasted into the box; the CSV read as a browser would read the download,
 * through the app (in this process, over a FILE database). Measured in one run:
 * - the export alone: rows a second and peak memory (`Deno.memoryUsage().rss` sampled every 20 ms,
 *   less the figure just before it started);
 * - router entries a second in this same process, idle and while the export runs (16 respondents
 *   at a time through the app), and their ratio: the export must leave the respondents served.
 */
import { sql } from "kysely";
import type { BenchRow } from "./_kit.ts";
import { testApp } from "../helpers/app.ts";
import { liveProject } from "../helpers/router.ts";

const ROWS = Number(Deno.env.get("EXPORT_BENCH_ROWS") ?? 1_000_000);
const RESPONDENTS = 10_000;
const CONCURRENCY = 16;
const SECONDS = 3;
const UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

export async function bench(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "samplex-export-bench-" });
  const t = await testApp({ DATABASE_URL: `file:${dir}/export.db` });
  try {
    const setup = await liveProject(t, { child: { sampleSize: 0 } });
    const db = t.deps.db;
    const t0 = performance.now();
    const p = setup.child;
    // the surveys the panel's respondents took (a respondent enters a project once)
    const surveys = Math.ceil(ROWS / RESPONDENTS);
    await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${
      sql.lit(surveys - 1)
    })
      INSERT INTO projects (id, projectType, parentProjectId, projectCode, projectName, clientId, projectStatus,
        createdAt, updatedAt, statusChangedAt)
      SELECT printf('7b%022x', i), 2, ${setup.parent._id}, printf('EXP%05d', i), 'Export survey ' || i,
        ${p.clientId}, 4, '2026-10-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z'
      FROM n`.execute(db);
    await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${sql.lit(ROWS - 1)})
      INSERT INTO sessions (id, projectId, parentProjectId, clientId, supplierMapId, supplierId, sid, status,
        ip, country, deviceType, browser, createdAt, updatedAt)
      SELECT printf('7a%022x', i), printf('7b%022x', i / ${
      sql.lit(RESPONDENTS)
    }), ${setup.parent._id}, ${p.clientId}, ${setup.mapId},
        ${setup.supplierId}, 'P' || (i % ${sql.lit(RESPONDENTS)}),
        CASE i % 4 WHEN 0 THEN 'complete' WHEN 1 THEN 'terminate' WHEN 2 THEN 'overQuota' ELSE 'drop' END,
        '203.0.113.' || (i % 250), 'US', 'desktop', 'Chrome 131',
        strftime('%Y-%m-%dT%H:%M:%fZ', 1790000000 + i, 'unixepoch'),
        strftime('%Y-%m-%dT%H:%M:%fZ', 1790000600 + i, 'unixepoch')
      FROM n`.execute(db);
    await sql`ANALYZE`.execute(db);
    const seedMs = performance.now() - t0;
    const token = await t.tokenFor("ADMIN");
    const ids = Array.from({ length: RESPONDENTS }, (_, i) => `P${i}`).join("\n");

    /** The whole export read as a download: rows, seconds, peak RSS over the figure before it. */
    const exportOnce = async () => {
      const before = Deno.memoryUsage().rss;
      let peak = before;
      const sample = setInterval(() => (peak = Math.max(peak, Deno.memoryUsage().rss)), 20);
      const started = performance.now();
      const res = await t.app.request("/api/v1/admin/identifiers/report", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ identifierData: ids }),
      });
      if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
      // lines counted natively: the download's reader is not the server's work (a socket takes it)
      let lines = 0;
      for await (const chunk of res.body!) {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sample);
      peak = Math.max(peak, Deno.memoryUsage().rss);
      return { rows: lines - 1, seconds, overMb: (peak - before) / 1048576 };
    };

    /** Router entries (new respondents) through the app, CONCURRENCY at a time, until `until()`. */
    let sid = 0;
    const entries = async (until: () => boolean) => {
      let done = 0, failed = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (!until()) {
          const res = await t.app.request(
            `/survey/start/${setup.mapId}?sid=e${sid++}`,
            { headers: { "user-agent": UA } },
            { remoteAddr: { hostname: "198.51.100.7", port: 40000, transport: "tcp" } },
          );
          await res.body?.cancel();
          if (res.status === 302) done++;
          else failed++;
        }
      }));
      return { perSecond: done / ((performance.now() - started) / 1000), failed };
    };
    const forSeconds = (s: number) => {
      const end = performance.now() + s * 1000;
      return () => performance.now() >= end;
    };

    // warm both paths, then: idle router, the export alone, the export with the router
    await entries(forSeconds(1));
    const idle = await entries(forSeconds(SECONDS));
    const alone = await exportOnce();
    let exporting = true;
    const [during, busy] = await Promise.all([
      entries(() => !exporting),
      exportOnce().finally(() => (exporting = false)),
    ]);
    const idleAfter = await entries(forSeconds(SECONDS));
    if (alone.rows !== ROWS || busy.rows !== ROWS) {
      throw new Error(`export rows: ${alone.rows} and ${busy.rows}, expected ${ROWS}`);
    }
    const idleRate = (idle.perSecond + idleAfter.perSecond) / 2;
    const n = (x: number) => Math.round(x).toLocaleString("en-US");
    return [
      {
        measure: "dataset: sessions written",
        value: Math.round(seedMs),
        unit: "ms",
        note: `${n(ROWS)} rows`,
      },
      {
        measure: `identifiers export, ${n(ROWS)} rows, alone`,
        value: Math.round(alone.rows / alone.seconds),
        unit: "rows/s",
        note: `${alone.seconds.toFixed(1)} s; target 100,000 rows/s`,
        summary: "identifiers CSV export rate (1M rows)",
      },
      {
        measure: "identifiers export: peak RSS over the baseline",
        value: Math.round(alone.overMb),
        unit: "MB",
        note: "target < 250 MB",
        summary: "identifiers CSV export peak memory",
      },
      {
        measure: "router entries, idle (same process)",
        value: Math.round(idleRate),
        unit: "entries/s",
        note: `before ${n(idle.perSecond)}, after ${n(idleAfter.perSecond)}; ${CONCURRENCY} at a time`,
      },
      {
        measure: "router entries during the export",
        value: Math.round(during.perSecond),
        unit: "entries/s",
        ratio: during.perSecond / idleRate,
        note: `ratio to idle; target 0.80; export meanwhile ${n(busy.rows / busy.seconds)} rows/s${
          during.failed + idle.failed ? `; ${during.failed + idle.failed} entries failed` : ""
        }`,
        summary: "router throughput during the 1M-row export (vs idle)",
      },
    ];
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  for (const r of await bench()) console.log(JSON.stringify(r));
}
