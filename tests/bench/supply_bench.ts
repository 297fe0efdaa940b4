/**
 * The supply API at scale (issue 23): 1,000 live survey projects and 50 suppliers in a temporary
 * database FILE (each survey mapped to 3 suppliers, with a two-cell quota, two library-linked
 * pre-screen questions and counters as traffic leaves them; so a supplier sees about 60 started
 * surveys and 940 of inventory), planner statistics refreshed as the server does at start. Then
 * `GET /supply/v1/surveys` through the whole app (key check, both lists, the page's quotas and
 * questions, JSON and its ETag), the keys of the 50 suppliers in turn: the first page (100
 * surveys), a deep page, a poll with `updated_since` and a 304 revalidation. Ratios are against
 * the first page.
 */
import { refreshPlannerStats } from "../../server/db/maintenance.ts";
import { testApp } from "../helpers/app.ts";
import { addQualification, makeSupplier } from "../helpers/fixtures.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import { SUPPLY_BASE } from "../../shared/api/supply.ts";
import { type BenchRow, summarize, timeRuns } from "./_kit.ts";
import { rng } from "./list_bench.ts";
import { hex } from "./dashboard_bench.ts";

const SURVEYS = 1_000;
const SUPPLIERS = 50;
const MAPS_PER_SURVEY = 3;
const RUNS = 50;

export async function bench(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "samplex-bench-" });
  const t = await testApp({ DATABASE_URL: `file:${dir}/bench.db` });
  try {
    const db = t.deps.db;
    const rand = rng(23);
    // everything was last changed an hour ago
    const now = new Date(Date.now() - 3_600_000).toISOString();
    const t0 = performance.now();
    const suppliers: { id: string; key: string }[] = [];
    for (let i = 0; i < SUPPLIERS; i++) {
      const s = await makeSupplier(t);
      const k = await t.ok(K.createSupplierApiKeyCall, {
        as: "ADMIN",
        params: { id: s._id },
        body: { name: "bench" },
      });
      suppliers.push({ id: s._id, key: k.key });
    }
    const parent = hex(0x6a00_0000, 0), client = hex(0x6c00_0000, 0);
    await db.insertInto("projects").values({
      id: parent,
      projectType: 1,
      projectCode: "GSUPPLY",
      projectName: "Bench group",
      clientId: client,
      projectStatus: 1,
      createdAt: now,
      updatedAt: now,
      statusChangedAt: now,
    }).execute();
    const libAge = hex(0x6a10_0000, 0), libGender = hex(0x6a10_0000, 1);
    const option = (id: string, title: string, ok = true) => ({
      _id: id,
      title,
      enable: true,
      formvalidate: ok,
      diy: true,
      local: true,
    });
    const ageOptions = JSON.stringify([
      option(hex(0x6a20_0000, 0), "18-34"),
      option(hex(0x6a20_0000, 1), "35-54"),
      option(hex(0x6a20_0000, 2), "Under 18", false),
    ]);
    const genderOptions = JSON.stringify([
      option(hex(0x6a20_0000, 3), "Female"),
      option(hex(0x6a20_0000, 4), "Male"),
    ]);
    const { id: qualification, options: cells } = await addQualification(db, {
      name: "Gender",
      options: ["Female", "Male"],
      at: now,
    });

    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < SURVEYS; start += 100) {
        const ids = Array.from({ length: 100 }, (_, k) => start + k);
        await trx.insertInto("projects").values(ids.map((i) => {
          const clicked = Math.floor(rand() * 2000), complete = Math.floor(clicked * rand() * 0.3);
          return {
            id: hex(0x6d00_0000, i),
            projectType: 2,
            parentProjectId: parent,
            projectCode: `C${String(i).padStart(6, "0")}`,
            projectName: `Bench survey ${i}`,
            clientId: client,
            projectStatus: 1,
            countryId: ["US", "GB", "DE", "FR", "IN"][i % 5],
            languageId: "en",
            averageLOI: 5 + Math.floor(rand() * 20),
            ir: 10 + Math.floor(rand() * 80),
            cpi: Math.round((1 + rand() * 9) * 100) / 100,
            sampleSize: 500 + Math.floor(rand() * 1500),
            isPreScreen: 1,
            isDesktop: 1,
            isMobile: i % 3 ? 1 : 0,
            endDate: "2026-12-31",
            clicked,
            complete,
            terminate: Math.floor((clicked - complete) * 0.6),
            loiSeconds: complete * 600,
            loiCompletes: complete,
            countersAt: now,
            createdAt: now,
            updatedAt: now,
            statusChangedAt: now,
          };
        })).execute();
        await trx.insertInto("supplier_maps").values(
          ids.flatMap((i) =>
            Array.from({ length: MAPS_PER_SURVEY }, (_, k) => ({
              id: hex(0x6e00_0000, i * MAPS_PER_SURVEY + k),
              projectId: hex(0x6d00_0000, i),
              supplierId: suppliers[(i * 7 + k * 11) % SUPPLIERS].id,
              supplierCPI: 1.5,
              supplierQuota: k === 0 ? 50 : 0,
              isPreScreen: 1,
              createdAt: now,
              updatedAt: now,
            }))
          ),
        ).execute();
        await trx.insertInto("project_quotas").values(ids.map((i) => ({
          id: hex(0x6f10_0000, i),
          projectId: hex(0x6d00_0000, i),
          qualificationId: qualification,
          quotaValue: JSON.stringify(
            cells.map((c) => ({ quotaOptionId: c, quotaSize: 300, completes: i % 50 })),
          ),
          createdAt: now,
          updatedAt: now,
        }))).execute();
        await trx.insertInto("questions").values(
          ids.flatMap((i) =>
            [[libAge, ageOptions], [libGender, genderOptions]].map(([lib, options], k) => ({
              id: hex(0x6f20_0000, i * 2 + k),
              projectId: hex(0x6d00_0000, i),
              isTempQuestion: 0,
              languageId: "en",
              questionTitle: JSON.stringify({ en: k ? "Gender" : "Age" }),
              questionType: "RADIO",
              questionOption: options,
              sortOrder: k,
              isActive: 1,
              isDeleted: 0,
              createdAt: now,
              updatedAt: now,
              libraryQuestionId: lib,
            }))
          ),
        ).execute();
      }
    });
    await refreshPlannerStats(db);
    const seedMs = performance.now() - t0;

    // the suppliers' own edits an hour back, as the surveys': a poll sees no change
    await db.updateTable("suppliers").set({ updatedAt: now }).execute();
    let turn = 0;
    const get = async (path: string, headers: Record<string, string> = {}, who = turn++ % SUPPLIERS) => {
      const s = suppliers[who];
      const res = await t.app.request(`${SUPPLY_BASE}${path}`, {
        headers: { "X-Api-Key": s.key, ...headers },
      });
      const text = await res.text();
      if (res.status !== 200 && res.status !== 304) throw new Error(`${path}: ${res.status} ${text}`);
      return { res, text };
    };
    const first = JSON.parse((await get("/surveys")).text).result;
    const size = first.data.length;
    const cursor = first.nextCursor as string;
    // the ETags of each supplier's first page, for the revalidation row
    const tags = new Map<number, string>();
    for (let i = 0; i < SUPPLIERS; i++) tags.set(i, (await get("/surveys", {}, i)).res.headers.get("etag")!);
    const since = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());

    const rows: BenchRow[] = [{
      measure: `seed ${SURVEYS} live surveys, ${SUPPLIERS} suppliers, ${SURVEYS * MAPS_PER_SURVEY} maps`,
      value: seedMs,
      unit: "ms",
    }];
    let baseline = 0;
    const measure = async (measure: string, fn: () => Promise<unknown>, note: string, summary?: string) => {
      const { median, p95 } = summarize(await timeRuns(fn, RUNS, 5));
      if (!baseline) baseline = median;
      rows.push({ measure, median, p95, unit: "ms", ratio: median / baseline, note, summary });
    };
    await measure(
      "GET /supply/v1/surveys",
      () => get("/surveys"),
      `first page: ${size} surveys of ~1,000, 50 keys in turn (target: under 20 ms)`,
      `GET /supply/v1/surveys, ${SURVEYS} live surveys, ${SUPPLIERS} suppliers`,
    );
    await measure(
      "GET /supply/v1/surveys, second page",
      () => get(`/surveys?cursor=${cursor}`),
      "after a cursor",
    );
    await measure(
      "GET /supply/v1/surveys, updated_since 1 min ago",
      () => get(`/surveys?updated_since=${since}`),
      "nothing changed: the poll's usual answer",
    );
    await measure(
      "GET /supply/v1/surveys, If-None-Match (304)",
      () => {
        const i = turn++ % SUPPLIERS;
        return get("/surveys", { "If-None-Match": tags.get(i)! }, i);
      },
      "revalidation: answered without a body",
    );
    return rows;
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
