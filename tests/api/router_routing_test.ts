/**
 * Routing of the screened-out (issue 24 item 3) through the HTTP router: a refused respondent goes
 * on to the next survey of their supplier, each hop a session of its own, and home once.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { expectCallGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { back, counts, enter, PANEL, router, uidOf } from "../helpers/router.ts";
import { addLibraryQuestion, chainOf, market, surveyOf } from "../helpers/routing.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { rollupMismatches } from "../../server/domain/router/rollup.ts";
import { newId } from "../../server/db/ids.ts";
import { sql } from "kysely";
import * as P from "../../shared/api/projects.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as Sup from "../../shared/api/suppliers.ts";
import * as D from "../../shared/api/routing.ts";
import * as Rep from "../../shared/api/reports.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import type { SupplyTransaction } from "../../shared/api/supply-books.ts";

async function routedTotals(t: TestApp) {
  const r = await t.deps.db.selectFrom("router_daily")
    .select([
      sql<number>`coalesce(sum(routedEntry), 0)`.as("entries"),
      sql<number>`coalesce(sum(routedComplete), 0)`.as("completes"),
      sql<number>`coalesce(sum(routedRevenue), 0)`.as("revenue"),
    ]).executeTakeFirstOrThrow();
  return { entries: Number(r.entries), completes: Number(r.completes), revenue: Number(r.revenue) };
}

/** The routed counters recounted from the sessions (hops after the first). */
async function routedRecount(t: TestApp) {
  const r = await t.deps.db.selectFrom("sessions").innerJoin("projects", "projects.id", "sessions.projectId")
    .select([
      sql<number>`coalesce(sum(sessions.status <> 'closed'), 0)`.as("entries"),
      sql<number>`coalesce(sum(sessions.status = 'complete'), 0)`.as("completes"),
      sql<number>`coalesce(sum(CASE WHEN sessions.status = 'complete' THEN projects.cpi ELSE 0 END), 0)`.as(
        "revenue",
      ),
    ]).where("sessions.hop", ">", 1).where("sessions.isTest", "=", 0).executeTakeFirstOrThrow();
  return { entries: Number(r.entries), completes: Number(r.completes), revenue: Number(r.revenue) };
}

async function consistent(t: TestApp) {
  await router(t).idle();
  assertEquals(await counterMismatches(t.deps.db), [], "counters, sessions and rollup agree");
  assertEquals(await rollupMismatches(t.deps.db), [], "day totals and monthly rollup agree");
  assertEquals(await routedTotals(t), await routedRecount(t), "routed counters equal their recount");
}

Deno.test("routing: a chain of three hops counts each session once in its project and returns to the supplier once with the final outcome", async () => {
  const t = await testApp();
  try {
    const { s } = await market(t, ["A", "B", "C"]);
    const first = await enter(t, s.A.mapId, "m-1");
    assertEquals(surveyOf(first.location), "A");
    const hop2 = await back(t, uidOf(first.location), "t");
    assertEquals(hop2.status, 302);
    const second = surveyOf(hop2.location);
    assert(second === "B" || second === "C", `a terminate goes on to the next survey, not ${hop2.location}`);
    // the same return link again (a reload) keeps the respondent on the same hop: nothing new
    const again = await back(t, uidOf(first.location), "t");
    assertEquals(again.location, hop2.location, "a reloaded return link finds the hop made");
    const hop3 = await back(t, uidOf(hop2.location), "q");
    const third = surveyOf(hop3.location);
    assertEquals(new Set([second, third]), new Set(["B", "C"]), "the third hop is the survey left");
    const home = await back(t, uidOf(hop3.location), "c");
    const firstUid = uidOf(first.location);
    assertEquals(
      home.location,
      `${PANEL}/complete?sid=m-1&pid=${s.A.child.projectCode}&uid=${firstUid}`,
      "home once, by the first map's redirect for the chain's final outcome",
    );

    const chain = await chainOf(t, "m-1");
    assertEquals(chain.map((c) => c.hop), [1, 2, 3]);
    assertEquals(
      chain.map((c) => c.chainId),
      [null, firstUid, firstUid],
      "hops name the chain's first session",
    );
    assertEquals(chain.map((c) => c.status), ["terminate", "overQuota", "complete"]);
    for (const [name, status] of [["A", "terminate"], [second, "overQuota"], [third, "complete"]] as const) {
      const c = await counts(t, "projects", s[name].child._id);
      assertEquals(c.clicked, 1, `${name} counts its one session once`);
      assertEquals(c[status as "terminate"], 1, `${name}: ${status}`);
    }
    await consistent(t);
    const totals = await routedTotals(t);
    assertEquals(totals.entries, 2, "two routed entries (hops 2 and 3)");
    assertEquals(totals.completes, 1);
    assertEquals(totals.revenue, 2.5, "routed revenue: the completing survey's CPI");

    // the dashboard and the Client report show routed traffic apart
    await expectCallGuarded(t, D.dashboardRoutedCall, "SUPPLIER");
    const figures = await t.ok(D.dashboardRoutedCall, { as: "ADMIN" });
    assertEquals(figures, { monthRoutedEntries: 2, monthRoutedCompleted: 1, monthRoutedRevenue: 2.5 });
    const report = await t.api(Rep.projectReportData, { as: "ADMIN", body: { type: "client" } });
    assertEquals(report.status, 200, report.text);
    const rows: Rep.ReportRow[] = report.json.result.data;
    const row = (name: string) => rows.find((r) => r.projectId === s[name].child._id)!;
    assertEquals(
      [row("A").routedEntries, row("A").routedCompletes],
      [0, 0],
      "A's traffic came from its supplier",
    );
    assertEquals([row(third).routedEntries, row(third).routedCompletes, row(third).routedRevenue], [
      1,
      1,
      2.5,
    ]);
    assertEquals([row(second).routedEntries, row(second).routedCompletes], [1, 0]);
    assertEquals(row(third).clicked, 1, "routed entries are part of the traffic, counted once");

    // the supplier's transactions show each hop, linked to its chain
    const key = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: s.A.supplierId },
      body: { name: "books" },
    });
    const res = await t.app.request(`/supply/v1/transactions`, { headers: { "X-Api-Key": key.key } });
    const txs: SupplyTransaction[] = (await res.json()).result.data;
    assertEquals(
      txs.filter((x) => x.memberId === "m-1").map((x) => [x.hop, x.chainId, x.outcome]),
      [[1, firstUid, "terminate"], [2, firstUid, "overQuota"], [3, firstUid, "complete"]],
    );
  } finally {
    await t.close();
  }
});

Deno.test("routing: a chain stops at 3 hops; the next refusal goes home although a survey is left", async () => {
  const t = await testApp();
  try {
    const { s } = await market(t, ["A", "B", "C", "D"]);
    let at = await enter(t, s.A.mapId, "cap-1");
    const seen: string[] = [surveyOf(at.location)];
    for (let i = 0; i < 2; i++) {
      at = await back(t, uidOf(at.location), "t");
      seen.push(surveyOf(at.location));
    }
    assertEquals(seen.length, new Set(seen).size, `three different surveys: ${seen}`);
    assert(seen.every(Boolean), `each hop went to a survey: ${seen}`);
    const home = await back(t, uidOf(at.location), "t");
    assertEquals(home.location, `${PANEL}/terminate?sid=cap-1`, "the 4th survey is not offered");
    assertEquals((await chainOf(t, "cap-1")).length, 3);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("routing: a supplier that has not opted in is never routed; switching it on routes", async () => {
  const t = await testApp();
  try {
    const { supplierId, s } = await market(t, ["A", "B"], { supplier: { allowRouting: false } });
    const got = await t.ok(Sup.getSupplierCall, { as: "SUPERADMIN", params: { id: supplierId } });
    assertEquals(got.allowRouting, false);
    const first = await enter(t, s.A.mapId, "no-1");
    assertEquals((await back(t, uidOf(first.location), "t")).location, `${PANEL}/terminate?sid=no-1`);
    assertEquals((await counts(t, "projects", s.B.child._id)).clicked, 0, "B never saw the respondent");

    // the supplier form switches it on (the whole form, as the staff screen sends it)
    const { _id: _, ...rest } = got as unknown as Record<string, unknown>;
    await t.ok(Sup.updateSupplierCall, {
      as: "SUPERADMIN",
      params: { id: supplierId },
      body: { ...pickForm(rest), allowRouting: true },
    });
    assertEquals(
      (await t.ok(Sup.getSupplierCall, { as: "SUPERADMIN", params: { id: supplierId } })).allowRouting,
      true,
    );
    const next = await enter(t, s.A.mapId, "no-2");
    assertEquals(surveyOf((await back(t, uidOf(next.location), "t")).location), "B");
    await consistent(t);
  } finally {
    await t.close();
  }
});

/** The supplier form's fields out of a supplier record. */
function pickForm(r: Record<string, unknown>) {
  const keys = [
    "supplierType",
    "supplierName",
    "supplierShortCode",
    "supplierEmail",
    "supplierRuleCPI",
    "countryId",
    "redirectComplete",
  ];
  return Object.fromEntries(keys.map((k) => [k, k === "supplierType" ? String(r[k]) : r[k]]));
}

Deno.test("routing: a project with allowRouting off neither routes its refused nor takes routed ones; new projects have it on", async () => {
  const t = await testApp();
  try {
    const { s } = await market(t, ["A", "B", "C"]);
    assertEquals(s.A.child.allowRouting, true, "a new project routes by default");
    // B takes no routed respondents
    await t.ok(P.updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: s.B.child._id },
      body: { allowRouting: false },
    });
    const first = await enter(t, s.A.mapId, "off-1");
    assertEquals(surveyOf((await back(t, uidOf(first.location), "t")).location), "C", "B is not offered");
    // A routes none of its refused
    await t.ok(P.updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: s.A.child._id },
      body: { allowRouting: false },
    });
    const second = await enter(t, s.A.mapId, "off-2");
    assertEquals((await back(t, uidOf(second.location), "t")).location, `${PANEL}/terminate?sid=off-2`);
    assertEquals((await counts(t, "projects", s.B.child._id)).clicked, 0);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("routing: projects and suppliers that exist before the migration are off (its defaults are 0)", async () => {
  const t = await testApp();
  try {
    for (const table of ["projects", "suppliers"]) {
      const r = await sql<{ dflt: string }>`SELECT dflt_value AS dflt FROM pragma_table_info(${table})
        WHERE name = 'allowRouting'`.execute(t.deps.db);
      assertEquals(r.rows[0]?.dflt, "0", `${table}.allowRouting defaults to 0`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("routing: refused at entry (survey full) goes straight on; a duplicate sid is skipped", async () => {
  const t = await testApp();
  try {
    const { s } = await market(t, ["A", "B", "C"]);
    // the respondent already took part in B (entered it directly)
    const inB = await enter(t, s.B.mapId, "dup-1");
    assertEquals(surveyOf(inB.location), "B");
    await back(t, uidOf(inB.location), "c");
    // A is full (one complete of one): the entry is refused, and goes on to C, not B
    await t.ok(P.updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: s.A.child._id },
      body: { sampleSize: "1" },
    });
    const filler = await enter(t, s.A.mapId, "filler");
    await back(t, uidOf(filler.location), "c");
    const r = await enter(t, s.A.mapId, "dup-1");
    assertEquals(
      surveyOf(r.location),
      "C",
      `an over-quota entry is routed past the duplicate: ${r.location}`,
    );
    const chain = await chainOf(t, "dup-1");
    assertEquals(chain.filter((c) => c.projectId === s.B.child._id).length, 1, "no second session in B");
    assertEquals(chain.find((c) => c.projectId === s.A.child._id)?.status, "overQuota");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("routing: a known answer failing the next survey's qualification skips it; a passing one is not asked", async () => {
  const t = await testApp();
  try {
    const { supplierId, s } = await market(t, ["A", "B", "C"], { cpi: { A: 1, B: 3, C: 2 } });
    const lib = newId(), yes = newId(), no = newId();
    // B (best paid) takes car owners only; C asks the same question and takes both
    const car = (noPasses: boolean) => ({
      libraryId: lib,
      title: "Do you own a car?",
      options: [
        { _id: yes, title: "Yes", formvalidate: true },
        { _id: no, title: "No", formvalidate: noPasses },
      ],
    });
    await addLibraryQuestion(t, s.B.child._id, car(false));
    await addLibraryQuestion(t, s.C.child._id, car(true));
    for (const x of [s.B, s.C]) {
      await t.ok(P.updateProjectCall, {
        as: "SUPERADMIN",
        params: { id: x.child._id },
        body: { isPreScreen: true },
      });
      await t.deps.db.updateTable("supplier_maps").set({ isPreScreen: 1 }).where("id", "=", x.mapId)
        .execute();
    }
    const known = async (sid: string, answer: string) =>
      await t.deps.db.insertInto("member_profiles").values({
        supplierId,
        memberId: sid,
        questionId: lib,
        answer: JSON.stringify([answer]),
        answeredAt: new Date().toISOString(),
        source: "prescreen",
      }).execute();
    await known("kn-no", no);
    await known("kn-yes", yes);

    const a = await enter(t, s.A.mapId, "kn-no");
    const next = await back(t, uidOf(a.location), "t");
    assertEquals(surveyOf(next.location), "C", "B is skipped: the known answer fails it; C asks nothing");
    assertEquals((await counts(t, "projects", s.B.child._id)).clicked, 0);

    const b = await enter(t, s.A.mapId, "kn-yes");
    const best = await back(t, uidOf(b.location), "t");
    assertEquals(surveyOf(best.location), "B", "the best earning survey the member qualifies for");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("routing: candidates rank by the supplier's CPI x measured conversion", async () => {
  const t = await testApp();
  try {
    const { s } = await market(t, ["A", "B", "C"], { cpi: { A: 1, B: 2, C: 1.5 } });
    const a = await enter(t, s.A.mapId, "rk-1");
    assertEquals(surveyOf((await back(t, uidOf(a.location), "t")).location), "B", "B pays most at equal IR");
    // B converts badly: 40 clicks, no complete; C is now the better earner per click
    await t.deps.db.updateTable("projects").set({ clicked: 40 }).where("id", "=", s.B.child._id).execute();
    const b = await enter(t, s.A.mapId, "rk-2");
    assertEquals(surveyOf((await back(t, uidOf(b.location), "t")).location), "C");
  } finally {
    await t.close();
  }
});

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

Deno.test("routing: a survey whose exclusions or request checks would refuse the respondent is skipped", async () => {
  const t = await testApp();
  try {
    const { s } = await market(t, ["A", "B", "C", "D"], { cpi: { A: 1, B: 3, C: 2.5, D: 2 } });
    // B keeps out A's terminates; C takes no mobiles; D takes them
    await t.ok(Parts.addExclusionCall, {
      as: "SUPERADMIN",
      body: { projectId: s.B.child._id, excludedProjectId: s.A.child._id },
    });
    await t.ok(P.updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: s.B.child._id },
      body: { isExclude: true },
    });
    await t.ok(P.updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: s.C.child._id },
      body: { isMobile: false },
    });
    const a = await enter(t, s.A.mapId, "ex-1", { "user-agent": IPHONE });
    assertEquals(surveyOf(a.location), "A");
    const next = await back(t, uidOf(a.location), "t");
    assertEquals(surveyOf(next.location), "D", "B (excluded) and C (device) are skipped, not entered");
    for (const x of [s.B, s.C]) assertEquals((await counts(t, "projects", x.child._id)).clicked, 0);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("routing: a chain lasts at most 30 minutes from the supplier's entry", async () => {
  let now = Date.parse("2026-11-20T10:00:00Z");
  const t = await testApp({}, { now: () => now });
  try {
    const { s } = await market(t, ["A", "B"]);
    const late = await enter(t, s.A.mapId, "late-1");
    const soon = await enter(t, s.A.mapId, "soon-1");
    now += 29 * 60_000;
    assertEquals(
      surveyOf((await back(t, uidOf(soon.location), "t")).location),
      "B",
      "within 30 minutes: routed",
    );
    now += 2 * 60_000;
    assertEquals((await back(t, uidOf(late.location), "t")).location, `${PANEL}/terminate?sid=late-1`);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("routing: a failure while routing sends the respondent home with their outcome, never a 503", async () => {
  const t = await testApp();
  try {
    const { s } = await market(t, ["A", "B"]);
    const routing = router(t).routing;
    routing.next = () => Promise.reject(new Error("database is locked"));
    const a = await enter(t, s.A.mapId, "fail-1");
    const home = await back(t, uidOf(a.location), "t");
    assertEquals([home.status, home.location], [302, `${PANEL}/terminate?sid=fail-1`]);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("routing with holds on: a survey whose places the respondents in it hold is not offered; one with room is", async () => {
  const t = await testApp({ ROUTER_HOLDS: "on" });
  try {
    // B: one place and an IR of 100%: one respondent in its survey holds it
    const { s } = await market(t, ["A", "B", "C"], { cpi: { A: 1, B: 5, C: 2 } });
    await t.deps.db.updateTable("projects").set({ sampleSize: 1, ir: 100 }).where("id", "=", s.B.child._id)
      .execute();
    const inB = await enter(t, s.B.mapId, "holder");
    assertEquals(surveyOf(inB.location), "B");
    // B earns most per click, but its one place is held: a terminate from A goes on to C
    const first = await enter(t, s.A.mapId, "h-1");
    const next = await back(t, uidOf(first.location), "t");
    assertEquals(surveyOf(next.location), "C", next.location);
    assertEquals(
      (await chainOf(t, "h-1")).map((c) => c.projectId),
      [s.A.child._id, s.C.child._id],
      "no hop spent on a refusal by B's holds",
    );
    // the holder terminates: B has room again and is offered first
    await back(t, uidOf(inB.location), "t");
    const second = await enter(t, s.A.mapId, "h-2");
    const then = await back(t, uidOf(second.location), "t");
    assertEquals(surveyOf(then.location), "B", then.location);
    await consistent(t);
  } finally {
    await t.close();
  }
});
