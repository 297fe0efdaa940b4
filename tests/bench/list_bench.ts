/**
 * The list kit at scale: 100,000 users-like rows in a temporary database FILE, planner statistics
 * refreshed as the server does at start, then the Users grid's call (usersListQuery + runList:
 * bounded count and page with the same filters) for first and deep pages, with and without filter
 * and search (common and rare terms), sorted, and the exact count the grid asks for in the
 * background. Ratios are against page 1 unfiltered, measured in the same run.
 */

import { openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { iterateList, runList } from "../../server/db/list.ts";
import { refreshPlannerStats } from "../../server/db/maintenance.ts";
import { publicUser, usersListQuery, usersListSpec } from "../../server/domain/users/users.ts";
import type { ListBody } from "../../shared/list.ts";
import type { Role } from "../../shared/roles.ts";
import { type BenchRow, summarize, timeRuns } from "./_kit.ts";

const ROWS = 100_000;
const BATCH = 1_000;
const RUNS = 20;
const LIMIT = 10;

const FIRST = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Amelia",
  "Oliver",
  "Sophia",
  "Elijah",
  "Isabella",
  "James",
  "Mia",
  "Lucas",
  "Aarav",
  "Yuki",
  "Fatima",
  "Mateo",
  "Chen",
  "Zara",
  "Ivan",
  "Priya",
];
const LAST = [
  "Johnson",
  "Garcia",
  "Nguyen",
  "Anderson",
  "Kowalski",
  "Okafor",
  "Silva",
  "Müller",
  "Tanaka",
  "Patel",
  "Robinson",
  "Hansen",
  "Dubois",
  "Rossi",
  "Kim",
  "Larsen",
  "Jackson",
  "Wilson",
  "Moreau",
  "Singh",
];
// most users are managers; a long tail of other roles, and 5% supplier users (another grid)
const ROLE_MIX: Role[] = [
  ...Array<Role>(40).fill("MANAGER"),
  ...Array<Role>(20).fill("BDE"),
  ...Array<Role>(15).fill("SUBSCRIBER"),
  ...Array<Role>(10).fill("ACCOUNTANT"),
  ...Array<Role>(5).fill("ADMIN"),
  ...Array<Role>(5).fill("APIMANAGER"),
  ...Array<Role>(5).fill("SUPPLIER"),
];

/** A small deterministic generator, so every run measures the same data. */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function userRow(i: number, rand: () => number) {
  const first = FIRST[Math.floor(rand() * FIRST.length)];
  const last = LAST[Math.floor(rand() * LAST.length)];
  const role = ROLE_MIX[Math.floor(rand() * ROLE_MIX.length)];
  const created = new Date(Date.UTC(2024, 0, 1) + Math.floor(rand() * 730 * 86_400_000)).toISOString();
  return {
    id: (0x6500_0000 + i).toString(16).padStart(8, "0") + i.toString(16).padStart(16, "0"),
    firstName: first,
    lastName: last,
    email: `${first}.${last}.${i}@bench.test`.toLowerCase(),
    phoneNumber: `+1 555 ${String(i).padStart(7, "0")}`,
    role,
    supplierId: role === "SUPPLIER" ? "65f000000000000000000001" : null,
    passwordHash: "scrypt$bench",
    isActive: rand() < 0.85 ? 1 : 0,
    isDeleted: rand() < 0.02 ? 1 : 0,
    createdAt: created,
    updatedAt: created,
  };
}

export async function bench(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "samplex-bench-" });
  const handle = await openDatabase(`file:${dir}/bench.db`);
  try {
    const { db } = handle;
    await migrateToLatest(db);
    const rand = rng(2026);
    const t0 = performance.now();
    for (let start = 0; start < ROWS; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, ROWS - start) }, (_, k) => userRow(start + k, rand));
      await db.insertInto("users").values(rows).execute();
    }
    const seedMs = performance.now() - t0;
    const t1 = performance.now();
    await refreshPlannerStats(db);
    const statsMs = performance.now() - t1;
    const size = (await Deno.stat(`${dir}/bench.db`)).size +
      ((await Deno.stat(`${dir}/bench.db-wal`).catch(() => null))?.size ?? 0);

    const list0: ListBody = { filter: {}, search: "", pageNo: 1, limit: LIMIT };
    const list = (body: Partial<ListBody>) => () =>
      runList(
        db,
        usersListQuery(db, "staff"),
        { filter: {}, search: "", pageNo: 1, limit: LIMIT, ...body },
        usersListSpec,
        publicUser,
      );
    const filtered: Partial<ListBody> = { filter: { role: ["MANAGER", "BDE"] }, status: true, search: "son" };
    const exactTotal = async (b: Partial<ListBody>) =>
      (await list({ ...b, count: "exact" })()).metadata.total;
    const matched = await exactTotal(filtered);
    const deepFiltered = Math.max(1, Math.ceil(matched / LIMIT));
    const everyone = await exactTotal({});
    const deepAll = Math.max(1, Math.ceil(everyone / LIMIT));
    const n = (x: number) => x.toLocaleString("en-US");

    const cases: [string, Partial<ListBody>, string][] = [
      ["page 1, no filter", {}, `${n(everyone)} staff rows, total shown as 1,000+`],
      [`page ${deepAll} (last), no filter`, { pageNo: deepAll }, "counted, then read from the end"],
      ["page 1, role+status filter, search 'son'", filtered, `${n(matched)} match: common term, LIKE`],
      [
        `page ${deepFiltered} (last), same filter+search`,
        { ...filtered, pageNo: deepFiltered },
        "deep: index",
      ],
      ["page 1, search by e-mail 'olivia.kim'", { search: "olivia.kim" }, "rare term: trigram index"],
      ["page 1, search by phone '555 00123'", { search: "555 00123" }, "rare term: trigram index"],
      ["page 1, search 'kowalski'", { search: "kowalski" }, "5% of rows: trigram index"],
      ["page 1, sorted by e-mail", { sortBy: "email", sortDir: "asc" }, ""],
      [
        "page 1, sorted by name, role filter",
        { sortBy: "name", sortDir: "asc", filter: { role: "BDE" } },
        "",
      ],
      ["exact count, no filter", { count: "exact" }, "grid asks in the background"],
      ["exact count, filter+search 'son'", { ...filtered, count: "exact" }, "grid asks in the background"],
    ];
    const rows: BenchRow[] = [{
      measure: `seed ${ROWS.toLocaleString("en-US")} rows, INSERTs of ${BATCH}`,
      value: seedMs,
      unit: "ms",
      note: `${Math.round(ROWS / (seedMs / 1000)).toLocaleString("en-US")} rows/s, file ${
        (size / 1048576).toFixed(1)
      } MiB with search indexes`,
    }, { measure: "planner statistics (ANALYZE, as at start)", value: statsMs, unit: "ms" }];
    let baseline = 0;
    const pages: number[] = [];
    const measure = async (name: string, body: Partial<ListBody>, note: string) => {
      const { median, p95 } = summarize(await timeRuns(list(body), RUNS, 2));
      if (!baseline) baseline = median;
      if (!body.count) pages.push(median);
      rows.push({ measure: name, median, p95, unit: "ms", ratio: median / baseline, note });
    };
    for (const [name, body, note] of cases) await measure(name, body, note);

    rows.push({
      measure: "median of the page medians above",
      value: summarize(pages).median,
      unit: "ms",
      note: `${pages.length} page calls (target: under 20 ms)`,
      summary: `list pages, median of ${pages.length} calls (${n(ROWS)} users)`,
    });
    // the CSV export reads every matching row in pages of 1,000 (one run: it is long)
    const e0 = performance.now();
    let exported = 0;
    for await (
      const chunk of iterateList(db, usersListQuery(db, "staff"), list0, usersListSpec, publicUser)
    ) {
      exported += chunk.length;
    }
    const exportMs = performance.now() - e0;
    rows.push({
      measure: "export: every staff row, pages of 1,000",
      value: exportMs,
      unit: "ms",
      ratio: exportMs / baseline,
      note: `${n(exported)} rows, ${n(Math.round(exported / (exportMs / 1000)))} rows/s`,
      summary: "list export, every row",
    });
    rows.push({ measure: "(ratios against page 1, no filter)", unit: "" });
    return rows;
  } finally {
    await handle.close();
    await Deno.remove(dir, { recursive: true });
  }
}
