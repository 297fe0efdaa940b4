/**
 * Reconcile upload: 100,000 identifiers (a CSV parsed by the shared parser) applied to a project of
 * 200,000 sessions generated straight into the tables, through the same domain function as the API;
 * and the router's entry throughput on another project while the upload runs, against its idle
 * figure in the same run. Counters are checked against a recount afterwards.
 */
import { testApp } from "../helpers/app.ts";
import { liveProject } from "../helpers/router.ts";
import { identifiersOfUpload, reconcileUpload } from "../../server/domain/reconcile/reconcile.ts";
import { reconcileMismatches } from "../../server/domain/reconcile/recount.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { sql } from "kysely";
import type { BenchRow } from "./_kit.ts";
import process from "node:process";

const SESSIONS = 200_000;
const IDENTIFIERS = 100_000;
const hex = (i: number, salt: number) => (salt * 1_000_000_000 + i).toString(16).padStart(24, "0");

/** Router entries on `mapId` with `inFlight` at a time until `until()` says stop; entries per second. */
async function entryLoad(
  t: Awaited<ReturnType<typeof testApp>>,
  mapId: string,
  tag: string,
  until: () => boolean,
  inFlight = 20,
) {
  const router = t.deps.services.router;
  let n = 0;
  const t0 = performance.now(), c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: inFlight }, async (_, w) => {
    while (!until()) {
      await router.enter({
        mapId,
        sid: `${tag}-${w}-${n++}`,
        isTest: false,
        ip: "203.0.113.9",
        userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64)",
        headers: new Headers(),
        country: "US",
      });
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpuSecs = (c.user + c.system) / 1e6;
  return { n, secs, perSec: n / secs, cpuSecs };
}

export async function bench(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "samplex-reconcile-bench-" });
  const t = await testApp({ DATABASE_URL: `file:${dir}/bench.db` });
  try {
    const target = await liveProject(t, { child: { sampleSize: 0 } });
    const other = await liveProject(t, { child: { sampleSize: 0, respondentClickQuota: 0 } });
    const db = t.deps.db;
    // 200,000 completes of the target project, written straight into the sessions table
    const at = new Date().toISOString();
    for (let i = 0; i < SESSIONS; i += 1_000) {
      const rows = Array.from({ length: Math.min(1_000, SESSIONS - i) }, (_, k) => {
        const id = hex(i + k, 7);
        return sql`(${id}, ${target.child._id}, ${target.parent._id}, ${target.parent.clientId}, ${target.mapId}, ${target.supplierId}, ${`s${
          i + k
        }`}, 'complete', ${at}, ${at}, ${at})`;
      });
      await sql`INSERT INTO sessions (id, projectId, parentProjectId, clientId, supplierMapId, supplierId, sid, status, createdAt, updatedAt, endedAt)
        VALUES ${sql.join(rows)}`.execute(db);
    }
    await db.updateTable("projects").set({ complete: SESSIONS, clicked: SESSIONS })
      .where("id", "=", target.child._id).execute();
    await db.updateTable("supplier_maps").set({ complete: SESSIONS, clicked: SESSIONS })
      .where("id", "=", target.mapId).execute();
    await sql`ANALYZE`.execute(db);

    // the file: every other session, as a client sends it (header, CRLF)
    const csv = "UID\r\n" +
      Array.from({ length: IDENTIFIERS }, (_, i) => hex(i * 2, 7)).join("\r\n") + "\r\n";

    // router entries on the other project: warmed up, then idle (before and after the upload, so a
    // machine whose load drifts is measured on both sides), and during the upload
    await entryLoad(
      t,
      other.mapId,
      "warm",
      ((end) => () => performance.now() > end)(performance.now() + 500),
    );
    const before = await entryLoad(
      t,
      other.mapId,
      "before",
      ((end) => () => performance.now() > end)(performance.now() + 2_000),
    );
    // the entries start first, so the file's parse (which holds the loop) falls inside their window
    let uploading = true;
    const busy = entryLoad(t, other.mapId, "busy", () => !uploading);
    const u0 = performance.now();
    const summary = await (async () => {
      try {
        const ids = await identifiersOfUpload({ csv, fileName: "bench.csv" });
        return await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
          projectId: target.child._id,
          type: 1,
          ids: ids,
        });
      } finally {
        uploading = false;
      }
    })();
    const uploadMs = performance.now() - u0;
    const during = await busy;
    const afterEnd = performance.now() + 2_000;
    const after = await entryLoad(t, other.mapId, "after", () => performance.now() > afterEnd);
    const idle = {
      n: before.n + after.n,
      perSec: (before.n + after.n) / (before.secs + after.secs),
      perCpuSec: (before.n + after.n) / (before.cpuSecs + after.cpuSecs),
    };
    await t.deps.services.router.idle();

    // alone, without router traffic: the upload's own time (on a fresh file of rejected ones)
    const csv2 = Array.from({ length: IDENTIFIERS }, (_, i) => hex(i * 2 + 1, 7)).join("\n");
    const a0 = performance.now();
    const alone = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: target.child._id,
      type: 2,
      ids: await identifiersOfUpload({ csv: csv2, fileName: "bench2.csv" }),
    });
    const aloneMs = performance.now() - a0;
    const mismatches = await reconcileMismatches(db, [target.child._id]);
    if (summary.matched !== IDENTIFIERS || alone.matched !== IDENTIFIERS || mismatches.length) {
      throw new Error(
        `reconcile bench: wrong result ${summary.matched}/${alone.matched} ${mismatches.slice(0, 3)}`,
      );
    }
    return [
      {
        measure: `upload of ${IDENTIFIERS / 1000}k identifiers, ${SESSIONS / 1000}k sessions, no traffic`,
        value: aloneMs,
        unit: "ms",
        note: "parse + apply in chunks of 1,000 (one short transaction each); counters = recount",
      },
      {
        measure: "the same upload while the router takes entries",
        value: uploadMs,
        unit: "ms",
        ratio: uploadMs / aloneMs,
        note: "vs the upload alone (target < 5,000 ms)",
        summary: "reconcile upload, 100k ids vs 200k sessions, router busy (ms)",
      },
      {
        measure: "router entries/s on another project, idle",
        value: idle.perSec,
        unit: "req/s",
        note: `${idle.n} entries, 20 in flight, 2 s before and 2 s after the upload`,
      },
      {
        measure: "router entries/s on another project during the upload",
        value: during.perSec,
        unit: "req/s",
        ratio: during.perSec / idle.perSec,
        note: `${during.n} entries; ratio vs idle (target >= 0.80)`,
        summary: "router entries during a reconcile upload, vs idle",
      },
      {
        measure: "router entries per CPU-second of the process during the upload",
        value: during.n / during.cpuSecs,
        unit: "req/cpu-s",
        ratio: (during.n / during.cpuSecs) / idle.perCpuSec,
        note: "ratio vs idle: the router's share of the process, whatever CPU a loaded machine leaves it",
      },
    ];
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
}
