/**
 * The supply API's books and limits (issue 23 items 2 and 4, issue 24 item 1): a supplier's
 * transactions (keyset pages that neither skip nor repeat while traffic goes on, CSV), its stats from
 * the rollup, the per-key rate limit (429 + Retry-After), a member's erase, the body limit, the 400s
 * for bad input, and no other supplier's rows, ever.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { auditOf, parseCsv } from "../helpers/master.ts";
import { back, enter, hit, liveProject, router, uidOf } from "../helpers/router.ts";
import { closedProject } from "../helpers/reconcile.ts";
import { SUPPLY_BASE } from "../../shared/api/supply.ts";
import {
  supplyEraseMemberCall,
  type SupplyStats,
  supplyStatsCall,
  type SupplyTransaction,
  supplyTransactionsCall,
  TRANSACTION_FIELDS,
  TRANSACTIONS_MAX_LIMIT,
  type TransactionsPage,
} from "../../shared/api/supply-books.ts";
import { DEFAULT_BODY_LIMIT } from "../../server/http/validate.ts";
import { newId } from "../../server/db/ids.ts";
import { SCAN_BUDGET, transactionsPage } from "../../server/domain/supply/transactions.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import * as Rec from "../../shared/api/reconcile.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";

async function keyOf(t: TestApp, supplierId: string, name = "books") {
  return (await t.ok(K.createSupplierApiKeyCall, { as: "ADMIN", params: { id: supplierId }, body: { name } }))
    .key;
}

type Answer = { status: number; json: Record<string, unknown>; text: string; headers: Headers };

async function supply(t: TestApp, key: string | null, path: string, init: RequestInit = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (key) headers.set("X-Api-Key", key);
  const res = await t.app.request(`${SUPPLY_BASE}${path}`, { ...init, headers });
  const text = await res.text();
  let json = {};
  try {
    json = JSON.parse(text);
  } catch { /* CSV */ }
  return { status: res.status, json, text, headers: res.headers };
}

const page = async (t: TestApp, key: string, query: string) => {
  const r = await supply(t, key, `${supplyTransactionsCall.path}?${query}`);
  assertEquals(r.status, 200, r.text);
  return (r.json as { result: TransactionsPage }).result;
};

/** Every row of a walk from the start, `limit` at a time. */
async function walkAll(t: TestApp, key: string, query = "", limit = 1000) {
  const rows: SupplyTransaction[] = [];
  let cursor = "";
  for (;;) {
    const p = await page(t, key, `limit=${limit}${cursor ? `&cursor=${cursor}` : ""}${query}`);
    rows.push(...p.data);
    cursor = p.nextCursor;
    if (!p.hasMore) return { rows, cursor };
  }
}

Deno.test("supply books: transactions carry member ids, outcomes, CPI and reconcile states after a reconcile; stats count the same; no other supplier's rows", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 4, terminate: 2 });
    const [c0, c1, c2, c3] = s.completes;
    // approve two completes, reject one, leave one pending
    for (const [type, ids] of [[1, [c0, c1]], [2, [c2]]] as const) {
      const r = await t.api(Rec.reconcileUpload, {
        params: { id: s.parent._id },
        as: "SUPERADMIN",
        bad: { type, csv: ids.join("\n") + "\n", fileName: "r.csv" },
      });
      assertEquals(r.status, 200, r.text);
    }
    // another supplier's traffic on its own project
    const other = await liveProject(t);
    await back(t, uidOf((await enter(t, other.mapId, "other-1")).location), "c");
    await router(t).idle();

    const key = await keyOf(t, s.supplierId);
    const { rows } = await walkAll(t, key);
    assertEquals(rows.length, 6);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const sessions = await t.deps.db.selectFrom("sessions").select(["id", "sid", "createdAt"])
      .where("supplierId", "=", s.supplierId).orderBy("createdAt").execute();
    assertEquals(rows.map((r) => r.id), sessions.map((x) => x.id));
    for (const x of sessions) assertEquals(byId.get(x.id)!.memberId, x.sid);
    assertEquals(
      [c0, c1, c2, c3].map((id) => [byId.get(id)!.outcome, byId.get(id)!.reconcile, byId.get(id)!.earned]),
      [["complete", "approved", 1.25], ["complete", "approved", 1.25], ["complete", "rejected", 0], [
        "complete",
        "pending",
        1.25,
      ]],
    );
    for (const id of s.terminates) {
      const r = byId.get(id)!;
      assertEquals([r.outcome, r.reconcile, r.earned, r.cpi], ["terminate", null, 0, 1.25]);
    }
    const c = byId.get(c0)!;
    assertEquals(c.surveyId, s.child._id);
    assert(c.redirectedAt && c.endedAt && c.enteredAt <= c.endedAt);

    // filtered by outcome
    const completes = await walkAll(t, key, "&status=complete", 1);
    assertEquals(completes.rows.map((r) => r.id), [c0, c1, c2, c3]);
    assertEquals((await walkAll(t, key, "&status=drop")).rows, []);

    // the stats: from the rollup, equal to the sessions; 4 completes but 2 approved
    const st = await supply(t, key, `${supplyStatsCall.path}?group=survey`);
    assertEquals(st.status, 200, st.text);
    const stats = (st.json as { result: SupplyStats }).result;
    assertEquals(stats.rows.length, 1);
    assertEquals(stats.rows[0].surveyId, s.child._id);
    const { surveyId: _, ...fig } = stats.rows[0];
    assertEquals(fig, {
      entries: 6,
      completes: 4,
      terminates: 2,
      overQuota: 0,
      quality: 0,
      drops: 0,
      security: 0,
      approved: 2,
      rejected: 1,
      conversion: 0.6667,
      earnings: 5,
      epc: 0.8333,
    });
    assertEquals(stats.totals, fig);

    // the other supplier's key sees only its own session
    const otherKey = await keyOf(t, other.supplierId);
    const mine = await walkAll(t, otherKey);
    assertEquals(mine.rows.map((r) => r.memberId), ["other-1"]);
    const otherStats = (await supply(t, otherKey, `${supplyStatsCall.path}?group=day`)).json as {
      result: SupplyStats;
    };
    assertEquals(otherStats.result.totals.completes, 1);
    assertEquals(otherStats.result.rows.length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("supply books: a paging walk while sessions keep arriving and changing never skips or repeats a row; the last cursor gives only what came since", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const key = await keyOf(t, s.supplierId);
    const uids: string[] = [];
    const arrive = async (n: number) => {
      for (let i = 0; i < n; i++) uids.push(uidOf((await enter(t, s.mapId, `w-${uids.length}`)).location));
      await router(t).idle();
    };
    await arrive(7);
    const seen: SupplyTransaction[] = [];
    let cursor = "";
    let rounds = 0;
    for (;;) {
      const p = await page(t, key, `limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...p.data);
      cursor = p.nextCursor;
      rounds++;
      if (rounds <= 4) {
        // between pages: new members arrive, and sessions already read and not read yet end
        await arrive(2);
        await back(t, uids[seen.length - 1], "c");
        await back(t, uids[uids.length - 1], "t");
        await router(t).idle();
      }
      if (rounds === 2) {
        // a session written now by another app instance whose clock is a minute behind: it entered
        // "before" rows already read, yet it comes on a later page (an order by entry time skips it)
        const id = newId();
        const at = new Date(Date.parse(seen[0].enteredAt) - 60_000).toISOString();
        await t.deps.db.insertInto("sessions").values({
          id,
          projectId: s.child._id,
          parentProjectId: s.parent._id,
          clientId: s.child.clientId,
          supplierMapId: s.mapId,
          supplierId: s.supplierId,
          sid: "late-clock",
          status: "redirected",
          createdAt: at,
          updatedAt: at,
        }).execute();
        uids.push(id);
      }
      if (!p.hasMore) break;
    }
    assertEquals(seen.map((r) => r.id), uids);
    assertEquals(new Set(seen.map((r) => r.id)).size, uids.length);
    // a session read after it ended shows its outcome
    assertEquals(seen.at(-1)!.outcome, "terminate");
    assertEquals(seen.find((r) => r.memberId === "late-clock")?.outcome, "inProgress");

    // the last page's cursor, kept: only what arrived since
    assertEquals((await page(t, key, `cursor=${cursor}`)).data, []);
    await arrive(2);
    const later = await page(t, key, `cursor=${cursor}`);
    assertEquals(later.data.map((r) => r.id), uids.slice(-2));
    assertEquals(later.data.map((r) => r.outcome), ["inProgress", "inProgress"]);

    // since: only sessions that entered at or after it
    const all = await walkAll(t, key);
    const from = all.rows[5].enteredAt;
    const since = await walkAll(t, key, `&since=${encodeURIComponent(from)}`, 2);
    assertEquals(since.rows.map((r) => r.id), all.rows.filter((r) => r.enteredAt >= from).map((r) => r.id));
    const future = await page(t, key, "since=2999-01-01");
    assertEquals([future.data, future.hasMore], [[], false]);
  } finally {
    await t.close();
  }
});

Deno.test("supply books: Accept text/csv streams the same rows, header first, with the next cursor (a file database: written by the export worker)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-supply-books-" });
  const t = await testApp({ DATABASE_URL: `file:${dir}/books.db` });
  try {
    const s = await closedProject(t, { complete: 2, terminate: 1 });
    const key = await keyOf(t, s.supplierId);
    const json = await walkAll(t, key);
    const r = await supply(t, key, supplyTransactionsCall.path, { headers: { accept: "text/csv" } });
    assertEquals(r.status, 200, r.text);
    assertMatch(r.headers.get("content-type")!, /^text\/csv/);
    const [header, ...lines] = parseCsv(r.text);
    // the CSV's columns are the JSON row's fields, in the contract's order
    assertEquals(header, [...TRANSACTION_FIELDS]);
    assertEquals(Object.keys(json.rows[0]), header);
    assertEquals(lines.length, 3);
    assertEquals(
      lines.map((l) => [l[0], l[1], l[3], l[5], l[6], l[7]]),
      json.rows.map((x) => [x.id, x.memberId, x.outcome, String(x.cpi), String(x.earned), x.reconcile ?? ""]),
    );
    // the download's next cursor: after its last row
    const next = await page(t, key, `cursor=${r.headers.get("x-next-cursor")}`);
    assertEquals([next.data, next.hasMore], [[], false]);
    // filtered like the pages
    const only = await supply(t, key, `${supplyTransactionsCall.path}?status=terminate`, {
      headers: { accept: "text/csv" },
    });
    assertEquals(parseCsv(only.text).slice(1).map((l) => l[0]), s.terminates);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("supply books: 400 for a bad since, status, cursor, limit, group or stats range", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const key = await keyOf(t, s.supplierId);
    const tx = supplyTransactionsCall.path, st = supplyStatsCall.path;
    const cases: [string, RegExp][] = [
      [`${tx}?since=yesterday`, /^since must be an ISO 8601/],
      [`${tx}?since=2026-13-01`, /^since must be/],
      [`${tx}?since=2026-02-30`, /^since must be/],
      [`${tx}?since=2026-11-26T10:00:00`, /^since must be/], // no zone
      [`${tx}?status=won`, /^status must be one of inProgress, complete/],
      [`${tx}?cursor=!!`, /^cursor must be/],
      [`${tx}?cursor=${"z".repeat(47)}`, /^cursor must be/],
      [`${tx}?cursor=${"A".repeat(48)}`, /^cursor must be/], // made up
      [`${tx}?limit=0`, /^limit must be a whole number from 1 to 1000/],
      [`${tx}?limit=1001`, /^limit must be/],
      [`${tx}?limit=ten`, /^limit must be/],
      [`${st}?group=week`, /^group must be survey or day/],
      [`${st}?from=2026-11-26&to=2026-11-01`, /^from must not be after to/],
      [`${st}?from=2025-01-01&to=2026-01-02`, /^The range from from to to must be at most 366 days/],
      [`${st}?from=26/11/2026`, /^from must be a date/],
      [`${st}?to=2026-11-31`, /^to must be a date/],
    ];
    // a real cursor changed by one character, and another supplier's real cursor
    const real = (await page(t, key, "")).nextCursor;
    const flipped = real.slice(0, 20) + (real[20] === "A" ? "B" : "A") + real.slice(21);
    const other = await liveProject(t);
    const othersCursor = (await page(t, await keyOf(t, other.supplierId), "")).nextCursor;
    cases.push([`${tx}?cursor=${flipped}`, /^cursor must be/], [
      `${tx}?cursor=${othersCursor}`,
      /^cursor must be/,
    ]);
    assertEquals((await page(t, key, `cursor=${real}`)).data, []);
    for (const [path, message] of cases) {
      const r = await supply(t, key, path);
      assertEquals(r.status, 400, `${path}: ${r.text}`);
      assertMatch(String(r.json.message), message, path);
    }
    // the widest range allowed, and the default one
    assertEquals((await supply(t, key, `${st}?from=2025-01-01&to=2026-01-01`)).status, 200);
    const def = (await supply(t, key, st)).json as { result: SupplyStats };
    assertEquals(def.result.group, "survey");
    assertEquals((Date.parse(def.result.to) - Date.parse(def.result.from)) / 86_400_000, 29);
  } finally {
    await t.close();
  }
});

Deno.test("supply books: a key's bucket empties into 429 with Retry-After and the usual message, refills with time; each key has its own", async () => {
  let clock = Date.parse("2026-11-26T10:00:00.000Z");
  const t = await testApp({ SUPPLY_RATE_PER_MINUTE: "30", SUPPLY_RATE_BURST: "3" }, { now: () => clock });
  try {
    const s = await liveProject(t);
    const key = await keyOf(t, s.supplierId, "a");
    const second = await keyOf(t, s.supplierId, "b");
    const call = (k: string) => supply(t, k, supplyStatsCall.path);
    for (let i = 0; i < 3; i++) assertEquals((await call(key)).status, 200);
    const refused = await call(key);
    assertEquals(refused.status, 429);
    assertEquals(refused.headers.get("retry-after"), "2"); // 30 a minute: a token every 2 s
    assertEquals(refused.json, { message: "Too many requests for this API key: try again in 2 seconds" });
    // every call of the API is limited, not only one path
    assertEquals((await supply(t, key, supplyTransactionsCall.path)).status, 429);
    // the other key of the same supplier has its own bucket
    assertEquals((await call(second)).status, 200);

    clock += 1_000;
    assertEquals((await call(key)).status, 429);
    clock += 1_000;
    assertEquals((await call(key)).status, 200);
    assertEquals((await call(key)).status, 429);
    // after a long pause: a full burst again, never more
    clock += 10 * 60_000;
    for (let i = 0; i < 3; i++) assertEquals((await call(key)).status, 200);
    assertEquals((await call(key)).status, 429);
    assertEquals(t.deps.services.supplyRate.size, 2);
  } finally {
    await t.close();
  }
});

Deno.test("supply books: the supply API takes bodies within the limit of /api/v1 (413 past it, before the key is checked)", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const key = await keyOf(t, s.supplierId);
    const path = supplyEraseMemberCall.path.replace(":memberId", "m-1");
    const big = "x".repeat(DEFAULT_BODY_LIMIT + 1);
    for (const k of [key, null]) {
      const r = await supply(t, k, path, {
        method: "POST",
        body: big,
        headers: { "content-type": "application/json", "content-length": String(big.length) },
      });
      assertEquals(r.status, 413, r.text);
      assertEquals(r.json, { message: "The request body is too large (at most 1 MiB)" });
    }
    assertEquals((await supply(t, key, path, { method: "POST", body: "{}" })).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("supply books: erasing a member by API forgets its answers (asked again), logs the supplier and the key, and touches no other member", async () => {
  const t = await testApp();
  try {
    const q = await t.ok(Lib.addTempQuestion, {
      as: "SUPERADMIN",
      body: { questionTitle: { en: "Your postcode?" }, questionType: "TEXT", questionOption: [] },
    }) as { _id: string };
    const screened = async (supplierId?: string) => {
      const s = await liveProject(t, {
        project: { isPreScreen: true },
        map: { isPreScreen: true },
        supplierId,
      });
      const copy = await t.ok(Parts.addProjectQuestion, {
        as: "SUPERADMIN",
        body: { projectId: s.child._id, questionId: q._id },
      }) as { _id: string };
      return { ...s, qId: copy._id };
    };
    const a = await screened();
    const b = await screened(a.supplierId);
    const start = (mapId: string, sid: string) => hit(t, `/survey/start/${mapId}?sid=${sid}`);
    for (const sid of ["er-1", "er-2"]) {
      const r = await start(a.mapId, sid);
      assertMatch(r.location, /^\/survey\/prescreen\//);
      const res = await t.app.request(r.location, {
        method: "POST",
        body: new URLSearchParams({ [`q_${a.qId}`]: "75001" }),
      });
      assertEquals(res.status, 302);
    }
    await router(t).idle();
    const key = await keyOf(t, a.supplierId, "crm sync");
    const erase = (sid: string) =>
      supply(t, key, supplyEraseMemberCall.path.replace(":memberId", sid), { method: "POST" });
    const r = await erase("er-1");
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.result, { memberId: "er-1", erased: 1 });
    assertEquals((await erase("er-1")).json.result, { memberId: "er-1", erased: 0 });
    assertEquals((await erase("x".repeat(129))).status, 400);

    // er-1 is asked again on the supplier's next survey; er-2 is known and goes straight on
    assertMatch((await start(b.mapId, "er-1")).location, /^\/survey\/prescreen\//);
    assertMatch((await start(b.mapId, "er-2")).location, /^https:\/\/client\.example\//);

    const log = (await auditOf(t, a.supplierId)).filter((l) => /Erased the profile/.test(l.activity));
    assertEquals(log.length, 2);
    // both erases may share a millisecond (the log's order then says nothing): found by what they say
    const first = log.find((l) => /: 1 answer/.test(l.activity));
    assertMatch(first?.activity ?? "", /member er-1 of supplier Panel \w+ \(S\w+\): 1 answer/);
    assertMatch(first?.name ?? "", /^API key "crm sync" \(spx_[\w-]+…, [0-9a-f]{24}\)$/);
    assertEquals(log.filter((l) => /: 0 answer/.test(l.activity)).length, 1, "the second erase found none");
  } finally {
    await t.close();
  }
});

Deno.test("supply books: a status filter looks at a bounded number of sessions per page: a rare outcome comes in empty pages that say hasMore, never skipped", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const uids: string[] = [];
    for (let i = 0; i < 10; i++) uids.push(uidOf((await enter(t, s.mapId, `b-${i}`)).location));
    await back(t, uids[4], "c");
    await back(t, uids[9], "c");
    await router(t).idle();
    const ctx = { db: t.deps.db, jwtKey: t.deps.jwtKey };
    const query = { status: "complete" as const, limit: 100 };
    const pages: string[][] = [];
    let cursor: string | undefined;
    for (;;) {
      const p = await transactionsPage(ctx, {
        supplierId: s.supplierId,
        query: { ...query, cursor },
        scan: 3,
      });
      pages.push(p.data.map((r) => r.id));
      cursor = p.nextCursor;
      if (!p.hasMore) break;
    }
    // 10 sessions looked at 3 at a time: (0-2) (3-5) (6-8) (9)
    assertEquals(pages, [[], [uids[4]], [], [uids[9]]]);
    // the API's own budget, on the same data: one page
    assertEquals((await walkAll(t, await keyOf(t, s.supplierId), "&status=complete")).rows.map((r) => r.id), [
      uids[4],
      uids[9],
    ]);
    assert(SCAN_BUDGET >= 10 * TRANSACTIONS_MAX_LIMIT);
  } finally {
    await t.close();
  }
});
