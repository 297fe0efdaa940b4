import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { addGenderQuota, makeSupplier } from "../helpers/fixtures.ts";
import {
  addQuestion,
  back,
  CLIENT_URL,
  counts,
  enter,
  enterTest,
  hit,
  liveProject,
  PANEL,
  router,
  sessionsOf,
  sig,
  uidOf,
} from "../helpers/router.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { clientReturnLinks } from "../../server/domain/router/links.ts";
import { newId } from "../../server/db/ids.ts";
import type { RiskChecker } from "../../server/domain/router/security.ts";
import { MSG } from "../../shared/messages.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as P from "../../shared/api/projects.ts";
import * as Maps from "../../shared/api/supplier-maps.ts";
import * as Sup from "../../shared/api/suppliers.ts";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** Respondents simulated behind one reverse proxy: it appends the address it saw to X-Forwarded-For. */
const BEHIND_PROXY = { TRUST_PROXY_HOPS: "1" };

/** The spec's not-found page (part 1, 2.1), as React renders its text. */
function assertNotFoundPage(r: { status: number; text: string }, what: string) {
  assertEquals(r.status, 404, what);
  const text = r.text.replaceAll("&#x27;", "'");
  assert(text.includes(`<h1>${MSG.notFoundTitle}</h1>`), `${what}: ${r.text.slice(0, 300)}`);
  assert(text.includes(MSG.notFoundText), what);
}

async function consistent(t: Awaited<ReturnType<typeof testApp>>) {
  await router(t).idle();
  assertEquals(await counterMismatches(t.deps.db), [], "counters, sessions and rollup agree");
}

Deno.test("router: a passing respondent gets a uid and goes to the client's live URL; the session records who and how", async () => {
  const t = await testApp(BEHIND_PROXY);
  try {
    const s = await liveProject(t, {
      project: { singleLinkUrl: "https://client.example/s?id=[uid]&again={uid}" },
    });
    const head = await t.app.request(`/survey/start/${s.mapId}?sid=resp-001`, { method: "HEAD" });
    assertEquals(head.status, 200, "a link checker's HEAD takes nobody's place");
    const r = await enter(t, s.mapId, "resp-001", {
      "user-agent": IPHONE,
      "x-forwarded-for": "81.2.69.160",
    });
    assertEquals(r.status, 302);
    const url = new URL(r.location);
    assertEquals(url.origin + url.pathname, "https://client.example/s");
    const uid = url.searchParams.get("id")!;
    assertMatch(uid, /^[0-9a-f]{24}$/);
    assertEquals(url.searchParams.get("again"), uid, "{uid} is replaced too");
    const [row] = await sessionsOf(t, s.child._id);
    assertEquals(row.id, uid);
    assertEquals(row.sid, "resp-001");
    assertEquals(row.status, "redirected");
    assertEquals(row.supplierId, s.supplierId);
    assertEquals(row.supplierMapId, s.mapId);
    assertEquals(row.parentProjectId, s.parent._id);
    assertEquals(row.ip, "81.2.69.160");
    assertEquals(row.country, "GB", "country from the embedded IP database");
    assertEquals(row.deviceType, "mobile");
    assertMatch(row.browser, /Safari .* on iOS/);
    assert(row.dropAt! > row.createdAt);
    assertEquals((await counts(t, "projects", s.child._id)).clicked, 1);
    assertEquals((await counts(t, "supplier_maps", s.mapId)).clicked, 1);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: closed surveys (not Live, traffic off, not boarded) send the respondent to Survey Close with [sid], counting nothing", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const s = await liveProject(t);
    await t.api(P.updateProjectCall, { params: { id: s.child._id }, token, body: { projectStatus: 3 } });
    const paused = await enter(t, s.mapId, "a b&c");
    assertEquals(paused.status, 302);
    assertEquals(paused.location, `${PANEL}/closed?sid=a%20b%26c`);

    await t.api(P.updateProjectCall, { params: { id: s.child._id }, token, body: { projectStatus: 1 } });
    await t.api(Maps.updateSupplierMapCall, {
      params: { id: s.mapId },
      token,
      body: { allowTraffic: false },
    });
    assertEquals((await enter(t, s.mapId, "r2")).location, `${PANEL}/closed?sid=r2`);
    await t.api(Maps.updateSupplierMapCall, { params: { id: s.mapId }, token, body: { allowTraffic: true } });
    await t.api(Maps.updateSupplierMapCall, { params: { id: s.mapId }, token, body: { isBoarded: false } });
    assertEquals((await enter(t, s.mapId, "r3")).location, `${PANEL}/closed?sid=r3`);

    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.map((r) => [r.status, r.reason]), [
      ["closed", "project-not-live"],
      ["closed", "traffic-off"],
      ["closed", "not-boarded"],
    ]);
    assertEquals(await counts(t, "projects", s.child._id), {
      clicked: 0,
      complete: 0,
      terminate: 0,
      overQuota: 0,
      qualityTerm: 0,
      drop: 0,
      security: 0,
      preScreenTerminate: 0,
      preScreenDrop: 0,
      testClicked: 0,
    });
    // a refused arrival does not block the respondent once the survey opens
    await t.api(Maps.updateSupplierMapCall, { params: { id: s.mapId }, token, body: { isBoarded: true } });
    assertEquals((await enter(t, s.mapId, "r3")).status, 302);
    assert((await enter(t, s.mapId, "r3")).location.startsWith(`${PANEL}/quality`), "now a duplicate");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: without a supplier redirect the respondent sees our friendly page; bad links are clear", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, {
      map: { redirectSurveyClose: "", redirectQualityTerm: "" },
      project: { projectStatus: 3 },
    });
    const closed = await enter(t, s.mapId, "x1");
    assertEquals(closed.status, 200);
    assertMatch(closed.text, /This survey is closed/);
    assertMatch(closed.text, /<meta name="viewport"/);
    const missing = await hit(t, `/survey/start/${s.mapId}`);
    assertEquals(missing.status, 400);
    assertMatch(missing.text, /missing your respondent identifier/);
    // an unknown supplier link, session or /survey path: the spec's not-found page
    assertNotFoundPage(await enter(t, "0123456789abcdef01234567", "x"), "unknown supplier map");
    assertNotFoundPage(await enterTest(t, "0123456789abcdef01234567", "x"), "unknown map, test link");
    assertNotFoundPage(await hit(t, "/survey/nowhere"), "unknown path");
    assertNotFoundPage(await hit(t, "/survey/start/not-an-id?sid=1"), "malformed map id");
    assertNotFoundPage(await hit(t, "/survey/prescreen/0123456789abcdef01234567"), "unknown uid, pre-screen");
    assertEquals((await hit(t, "/survey/end?status=z&uid=0123456789abcdef01234567")).status, 400);
    assertNotFoundPage(
      await hit(t, "/survey/end?status=c&uid=0123456789abcdef01234567"),
      "unknown uid, return",
    );
  } finally {
    await t.close();
  }
});

Deno.test("router: a repeated sid on the project is a duplicate: Quality Term redirect, counted as security, once per arrival", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    assertEquals((await enter(t, s.mapId, "dup-1")).status, 302);
    const again = await enter(t, s.mapId, "dup-1");
    assertEquals(again.location, `${PANEL}/quality?sid=dup-1`, "{sid} replaced");
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.map((r) => r.status), ["redirected", "duplicate"]);
    assertEquals(rows[1].reason, "duplicate-sid");
    const c = await counts(t, "projects", s.child._id);
    assertEquals([c.clicked, c.security], [2, 1]);
    const daily = await t.deps.db.selectFrom("router_daily").selectAll().execute();
    assertEquals(daily.map((d) => [d.clicked, d.security, d.secDuplicate]), [[2, 1, 1]]);
    // the same sid from another supplier's panel on another project is another person
    const other = await liveProject(t);
    assertEquals((await enter(t, other.mapId, "dup-1")).status, 302);
    assert((await enter(t, other.mapId, "dup-1")).location.includes("/quality"));
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: exclusions refuse respondents of excluded projects with the flagged outcomes (terminate)", async () => {
  const t = await testApp();
  try {
    const a = await liveProject(t);
    const b = await liveProject(t, { project: { isExclude: true }, supplierId: a.supplierId });
    // x completes on A, y terminates on A
    const x = uidOf((await enter(t, a.mapId, "x")).location);
    await back(t, x, "c");
    const y = uidOf((await enter(t, a.mapId, "y")).location);
    await back(t, y, "t");
    const now = new Date().toISOString();
    await t.deps.db.insertInto("project_exclusions").values({
      id: newId(),
      projectId: b.child._id,
      excludedProjectId: a.child._id,
      isExcluded: 1,
      complete: 1,
      terminate: 0,
      overQuota: 1,
      dropout: 1,
      createdAt: now,
      updatedAt: now,
    }).execute();
    const refused = await enter(t, b.mapId, "x");
    assertEquals(refused.location, `${PANEL}/terminate?sid=x`);
    assertEquals((await enter(t, b.mapId, "y")).status, 302, "terminates are not excluded by this rule");
    assert((await enter(t, b.mapId, "y")).location.includes("quality"), "then y is a duplicate");
    assert((await enter(t, b.mapId, "z")).location.startsWith("https://client.example"));
    const rows = await sessionsOf(t, b.child._id);
    assertEquals(rows[0].status, "terminate");
    assertEquals(rows[0].reason, "excluded");
    assertEquals((await counts(t, "projects", b.child._id)).terminate, 1);
    // with isExclude off the rule sleeps
    await t.api(P.updateProjectCall, {
      params: { id: b.child._id },
      as: "ADMIN",
      body: { isExclude: false },
    });
    const x2 = uidOf((await enter(t, a.mapId, "x2")).location);
    await back(t, x2, "c");
    assertEquals((await enter(t, b.mapId, "x2")).status, 302);
    assert((await sessionsOf(t, b.child._id)).at(-1)!.status === "redirected");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: click quotas of the project and of the supplier map close the survey to more clicks (0 = no limit)", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { child: { respondentClickQuota: 2 } });
    assert((await enter(t, s.mapId, "c1")).location.startsWith("https://client.example"));
    assert((await enter(t, s.mapId, "c2")).location.startsWith("https://client.example"));
    assertEquals((await enter(t, s.mapId, "c3")).location, `${PANEL}/closed?sid=c3`);
    assertEquals((await sessionsOf(t, s.child._id))[2].reason, "project-click-quota");
    assertEquals((await counts(t, "projects", s.child._id)).clicked, 2);

    const m = await liveProject(t, { map: { supplierClickQuota: 1 } });
    assert((await enter(t, m.mapId, "m1")).location.startsWith("https://client.example"));
    assertEquals((await enter(t, m.mapId, "m2")).location, `${PANEL}/closed?sid=m2`);
    assertEquals((await sessionsOf(t, m.child._id))[1].reason, "supplier-click-quota");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: completes against the sample size and the supplier quota: later entries are over quota", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { child: { sampleSize: 1 } });
    const uid = uidOf((await enter(t, s.mapId, "q1")).location);
    const waiting = uidOf((await enter(t, s.mapId, "q2")).location);
    assertEquals((await back(t, uid, "c")).status, 302);
    assertEquals((await enter(t, s.mapId, "q3")).location, `${PANEL}/quotafull?sid=q3`);
    // the one already in the survey completes after the quota filled: over quota, never a 2nd complete
    assertEquals((await back(t, waiting, "c")).location, `${PANEL}/quotafull?sid=q2`);
    const c = await counts(t, "projects", s.child._id);
    assertEquals([c.complete, c.overQuota], [1, 2]);
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.map((r) => [r.sid, r.status, r.reason]), [
      ["q1", "complete", "client"],
      ["q2", "overQuota", "sample-size-full"],
      ["q3", "overQuota", "sample-size-full"],
    ]);

    const m = await liveProject(t, { map: { supplierQuota: 1 } });
    await back(t, uidOf((await enter(t, m.mapId, "s1")).location), "c");
    assertEquals((await enter(t, m.mapId, "s2")).location, `${PANEL}/quotafull?sid=s2`);
    assertEquals((await sessionsOf(t, m.child._id))[1].reason, "supplier-quota-full");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: security per the project's settings: unique IP, device, geo, proxy and RD scores (pluggable checker)", async () => {
  const verdicts = new Map<string, { proxy: boolean; rdScore: number | null }>([
    ["10.0.0.9", { proxy: true, rdScore: null }],
    ["10.0.0.10", { proxy: false, rdScore: 90 }],
    ["10.0.0.11", { proxy: false, rdScore: 40 }],
  ]);
  const risk: RiskChecker = { check: ({ ip }) => verdicts.get(ip) ?? { proxy: false, rdScore: null } };
  // behind one proxy, with an edge that sets cf-ipcountry
  const t = await testApp({ ...BEHIND_PROXY, COUNTRY_HEADER: "cf-ipcountry" }, { router: { risk } });
  try {
    const ipProject = await liveProject(t, { project: { isUniqueIp: true, maxIPCount: 2 } });
    const ip = { "x-forwarded-for": "10.0.0.1" };
    assertEquals((await enter(t, ipProject.mapId, "i1", ip)).status, 302);
    assert((await enter(t, ipProject.mapId, "i2", ip)).location.startsWith("https://client.example"));
    assertEquals((await enter(t, ipProject.mapId, "i3", ip)).location, `${PANEL}/quality?sid=i3`);
    assert(
      (await enter(t, ipProject.mapId, "i4", { "x-forwarded-for": "10.0.0.2" })).location.startsWith(
        "https://",
      ),
    );

    const device = await liveProject(t, { project: { isMobile: false } });
    assertEquals(
      (await enter(t, device.mapId, "d1", { "user-agent": IPHONE })).location,
      `${PANEL}/quality?sid=d1`,
    );
    assert(
      (await enter(t, device.mapId, "d2", { "user-agent": IPAD })).location.startsWith("https://client"),
    );
    assert(
      (await enter(t, device.mapId, "d3", { "user-agent": WINDOWS })).location.startsWith("https://client"),
    );

    const geo = await liveProject(t, { project: { isGeoLocation: true } }); // child country US
    assertEquals(
      (await enter(t, geo.mapId, "g1", { "cf-ipcountry": "GB" })).location,
      `${PANEL}/quality?sid=g1`,
    );
    assert((await enter(t, geo.mapId, "g2", { "cf-ipcountry": "US" })).location.startsWith("https://client"));
    // no edge header: the embedded database places 81.2.69.160 in GB
    assertEquals(
      (await enter(t, geo.mapId, "g3", { "x-forwarded-for": "81.2.69.160" })).location,
      `${PANEL}/quality?sid=g3`,
    );

    const proxy = await liveProject(t, { project: { isProxyVpn: true } });
    assert(
      (await enter(t, proxy.mapId, "p1", { "x-forwarded-for": "10.0.0.9" })).location.includes("/quality"),
    );
    assert(
      (await enter(t, proxy.mapId, "p2", { "x-forwarded-for": "10.0.0.10" })).location.startsWith(
        "https://client",
      ),
    );

    const rd = await liveProject(t, { project: { isRDHigh: true } });
    assert(
      (await enter(t, rd.mapId, "r1", { "x-forwarded-for": "10.0.0.10" })).location.includes("/quality"),
    );
    assert(
      (await enter(t, rd.mapId, "r2", { "x-forwarded-for": "10.0.0.11" })).location.startsWith(
        "https://client",
      ),
    );
    const rdMedium = await liveProject(t, { project: { isRDMedium: true } });
    assert(
      (await enter(t, rdMedium.mapId, "r3", { "x-forwarded-for": "10.0.0.11" })).location.startsWith(
        "https://client",
      ),
    );
    const rdLow = await liveProject(t, { project: { isRDLow: true } });
    assert(
      (await enter(t, rdLow.mapId, "r4", { "x-forwarded-for": "10.0.0.11" })).location.includes("/quality"),
    );

    const reasons = await t.deps.db.selectFrom("sessions").select(["sid", "reason"]).where(
      "status",
      "=",
      "security",
    )
      .orderBy("sid").execute();
    assertEquals(reasons.map((r) => `${r.sid}:${r.reason}`), [
      "d1:device",
      "g1:geo",
      "g3:geo",
      "i3:ip-limit",
      "p1:proxy",
      "r1:rd-score",
      "r4:rd-score",
    ]);
    const daily = await t.deps.db.selectFrom("router_daily").select((eb) => [
      eb.fn.sum<number>("secIp").as("ip"),
      eb.fn.sum<number>("secDevice").as("device"),
      eb.fn.sum<number>("secGeo").as("geo"),
      eb.fn.sum<number>("secProxy").as("proxy"),
      eb.fn.sum<number>("secRd").as("rd"),
    ]).executeTakeFirstOrThrow();
    assertEquals(daily, { ip: 1, device: 1, geo: 2, proxy: 1, rd: 2 });
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: return links: c/t/q/qf/f go to the map's redirects with [sid] [pid] [uid]; the first final status wins", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const uids: string[] = [];
    for (const sid of ["e1", "e2", "e3", "e4", "e5"]) {
      uids.push(uidOf((await enter(t, s.mapId, sid)).location));
    }
    const done = await back(t, uids[0], "c");
    assertEquals(done.location, `${PANEL}/complete?sid=e1&pid=${s.child.projectCode}&uid=${uids[0]}`);
    assertEquals((await back(t, uids[1], "t")).location, `${PANEL}/terminate?sid=e2`);
    assertEquals((await back(t, uids[2], "q")).location, `${PANEL}/quotafull?sid=e3`);
    assertEquals((await back(t, uids[3], "qf")).location, `${PANEL}/quotafull?sid=e4`);
    assertEquals((await back(t, uids[4], "f")).location, `${PANEL}/quality?sid=e5`);
    // repeats: counted once, still redirected (to the first status)
    assertEquals((await back(t, uids[0], "c")).location, done.location);
    assertEquals((await back(t, uids[0], "t")).location, done.location);
    const c = await counts(t, "projects", s.child._id);
    assertEquals([c.clicked, c.complete, c.terminate, c.overQuota, c.qualityTerm], [5, 1, 1, 2, 1]);
    const m = await counts(t, "supplier_maps", s.mapId);
    assertEquals([m.complete, m.terminate, m.overQuota, m.qualityTerm], [1, 1, 2, 1]);
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.map((r) => r.rawStatus), ["c", "t", "q", "qf", "f"]);
    assert(rows.every((r) => r.endedAt && r.seconds !== null && r.returnedBy === "redirect"));
    const daily = await t.deps.db.selectFrom("router_daily").selectAll().executeTakeFirstOrThrow();
    assertEquals(
      [daily.complete, daily.revenue, daily.cost],
      [1, 2.5, 1.25],
      "revenue cpi x complete, cost supplier CPI",
    );
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: a secured project refuses a forged or missing signature and counts nothing; a valid one counts", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { project: { isDynamicThanksUrl: true } });
    const uid = uidOf((await enter(t, s.mapId, "sig-1")).location);
    const missing = await back(t, uid, "c");
    assertEquals(missing.status, 403);
    assertMatch(missing.text, /could not be verified/);
    const forged = await back(t, uid, "c", "0".repeat(64));
    assertEquals(forged.status, 403);
    const wrongStatus = await back(t, uid, "c", await sig(t, s.child._id, uid, "t"));
    assertEquals(wrongStatus.status, 403, "a terminate's signature does not make a complete");
    assertEquals((await counts(t, "projects", s.child._id)).complete, 0);
    assertEquals((await sessionsOf(t, s.child._id))[0].status, "redirected");
    const ok = await back(t, uid, "c", await sig(t, s.child._id, uid, "c"));
    assertEquals(ok.status, 302);
    assert(ok.location.startsWith(`${PANEL}/complete`));
    assertEquals((await counts(t, "projects", s.child._id)).complete, 1);
    // qf is q for the signature
    const uid2 = uidOf((await enter(t, s.mapId, "sig-2")).location);
    assertEquals((await back(t, uid2, "qf", await sig(t, s.child._id, uid2, "q"))).status, 302);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: the server-to-server post-back records the outcome once and answers JSON", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { project: { isDynamicThanksUrl: true } });
    const uid = uidOf((await enter(t, s.mapId, "pb-1")).location);
    const bad = await t.app.request(`/survey/postback?uid=${uid}&status=c&sig=${"a".repeat(64)}`);
    assertEquals(bad.status, 403);
    const good = await t.app.request("/survey/postback", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uid, status: "c", sig: await sig(t, s.child._id, uid, "c") }),
    });
    assertEquals(good.status, 200);
    assertEquals((await good.json()).result, { uid, status: "complete", counted: true });
    const again = await t.app.request(
      `/survey/postback?uid=${uid}&status=c&sig=${await sig(t, s.child._id, uid, "c")}`,
    );
    assertEquals((await again.json()).result.counted, false);
    // the respondent's redirect after the post-back still lands on the supplier's complete page
    const redirect = await back(t, uid, "c", await sig(t, s.child._id, uid, "c"));
    assert(redirect.location.startsWith(`${PANEL}/complete`));
    assertEquals((await counts(t, "projects", s.child._id)).complete, 1);
    assertEquals((await sessionsOf(t, s.child._id))[0].returnedBy, "postback");
    assertEquals((await t.app.request("/survey/postback?uid=x&status=c")).status, 404);
    assertEquals((await t.app.request(`/survey/postback?uid=${uid}&status=zz`)).status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("router: speeders (faster than speedTime) become quality terms", async () => {
  let clock = Date.parse("2026-11-02T10:00:00Z");
  const t = await testApp({}, { now: () => clock });
  try {
    const s = await liveProject(t, { project: { isSpeeder: true, speedTime: 120 } });
    const fast = uidOf((await enter(t, s.mapId, "fast")).location);
    const slow = uidOf((await enter(t, s.mapId, "slow")).location);
    clock += 30_000;
    assertEquals((await back(t, fast, "c")).location, `${PANEL}/quality?sid=fast`);
    clock += 300_000;
    assert((await back(t, slow, "c")).location.startsWith(`${PANEL}/complete`));
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.map((r) => [r.sid, r.status, r.reason, r.seconds]), [
      ["fast", "qualityTerm", "speeder", 30],
      ["slow", "complete", "client", 330],
    ]);
    const daily = await t.deps.db.selectFrom("router_daily").selectAll().executeTakeFirstOrThrow();
    assertEquals([daily.date, daily.qualityTerm, daily.speeder, daily.complete], ["2026-11-02", 1, 1, 1]);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: 500 parallel entries and returns against a quota of 100 give exactly 100 completes", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { child: { sampleSize: 100 } });
    const results = await Promise.all(Array.from({ length: 500 }, async (_, i) => {
      const e = await enter(t, s.mapId, `p-${i}`);
      if (!e.location.startsWith("https://client.example")) return e.location;
      return (await back(t, uidOf(e.location), "c")).location;
    }));
    const completes = results.filter((l) => l.startsWith(`${PANEL}/complete`)).length;
    const full = results.filter((l) => l.startsWith(`${PANEL}/quotafull`)).length;
    assertEquals(completes, 100);
    assertEquals(full, 400);
    const c = await counts(t, "projects", s.child._id);
    assertEquals([c.clicked, c.complete, c.overQuota], [500, 100, 400]);
    assertEquals((await counts(t, "supplier_maps", s.mapId)).complete, 100);
    // every entry first, then every return, all at once
    const s2 = await liveProject(t, { child: { sampleSize: 100 } });
    const entries = await Promise.all(Array.from({ length: 500 }, (_, i) => enter(t, s2.mapId, `w-${i}`)));
    const returns = await Promise.all(entries.map((e) => back(t, uidOf(e.location), "c")));
    assertEquals(returns.filter((r) => r.location.startsWith(`${PANEL}/complete`)).length, 100);
    assertEquals((await counts(t, "projects", s2.child._id)).complete, 100);
    assert(router(t).writer.flushes < 1500, "writes were batched");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: sessions not returned within twice the LOI (30 minutes without an LOI) become drops; a late complete still counts", async () => {
  let clock = Date.parse("2026-11-03T08:00:00Z");
  const t = await testApp({}, { now: () => clock });
  try {
    const s = await liveProject(t, { child: { averageLOI: 20 } }); // drop after 40 minutes
    const gone = uidOf((await enter(t, s.mapId, "gone")).location);
    const late = uidOf((await enter(t, s.mapId, "late")).location);
    clock += 39 * 60_000;
    assertEquals(await router(t).sweep(), 0);
    clock += 2 * 60_000;
    assertEquals(await router(t).sweep(), 2);
    assertEquals(await router(t).sweep(), 0, "a drop is counted once");
    let c = await counts(t, "projects", s.child._id);
    assertEquals([c.clicked, c.drop], [2, 2]);
    const dropped = (await sessionsOf(t, s.child._id)).find((r) => r.id === gone)!;
    assertEquals([dropped.status, dropped.reason, dropped.endedAt], [
      "drop",
      "timeout",
      "2026-11-03T08:40:00.000Z",
    ]);
    // a drop is a time-out, not the client's word: the late complete replaces it
    assert((await back(t, late, "c")).location.startsWith(`${PANEL}/complete`));
    c = await counts(t, "projects", s.child._id);
    assertEquals([c.drop, c.complete], [1, 1]);
    // a 5-minute survey: a drop after 10 minutes, not after a 30-minute floor
    const quick = await liveProject(t, { child: { averageLOI: 5 } });
    await enter(t, quick.mapId, "q");
    clock += 9 * 60_000;
    assertEquals(await router(t).sweep(), 0);
    clock += 2 * 60_000;
    assertEquals(await router(t).sweep(), 1);
    // no LOI on the project: 30 minutes
    const noLoi = await liveProject(t, { child: { averageLOI: 0 } });
    await enter(t, noLoi.mapId, "n");
    clock += 29 * 60_000;
    assertEquals(await router(t).sweep(), 0);
    clock += 2 * 60_000;
    assertEquals(await router(t).sweep(), 1);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: multi-link projects hand out each unused link once, even to parallel respondents", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, {
      project: {
        isMultiLinkUrl: true,
        multiLinkUrls: [
          "https://client.example/l/1?u=[uid]",
          "https://client.example/l/2",
          "https://client.example/l/3",
        ],
      },
    });
    const results = await Promise.all(["a", "b", "c", "d"].map((sid) => enter(t, s.mapId, sid)));
    const links = results.map((r) => r.location).filter((l) => l.startsWith("https://client.example/l/"));
    assertEquals(links.length, 3);
    assertEquals(new Set(links.map((l) => new URL(l).pathname)).size, 3);
    const one = links.find((l) => l.includes("/l/1"))!;
    assertMatch(one, /u=[0-9a-f]{24}$/);
    assertEquals(results.filter((r) => r.location.startsWith(`${PANEL}/closed`)).length, 1);
    const used = await t.deps.db.selectFrom("project_links").select(["url", "usedBy"]).where(
      "projectId",
      "=",
      s.child._id,
    )
      .execute();
    assert(used.every((l) => l.usedBy), "every link is marked with its respondent");
    assertEquals(new Set(used.map((l) => l.usedBy)).size, 3);
    const closed = (await sessionsOf(t, s.child._id)).find((r) => r.status === "closed")!;
    assertEquals(closed.reason, "no-client-link");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: test links use the test URL and test click quota and never touch live counters", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, {
      child: { respondentTestClickQuota: 2 },
      project: { projectStatus: 9 },
      map: { isTestLink: true },
    });
    const r = await enterTest(t, s.mapId, "t1");
    assert(r.location.startsWith("https://client.example/test?uid="));
    const uid = uidOf(r.location);
    assert(
      (await enterTest(t, s.mapId, "t1")).location.startsWith("https://client.example/test"),
      "testers may reuse a sid",
    );
    assertEquals((await enterTest(t, s.mapId, "t3")).location, `${PANEL}/closed?sid=t3`, "test click quota");
    assert((await back(t, uid, "c")).location.startsWith(`${PANEL}/complete`));
    assertEquals(
      (await enter(t, s.mapId, "live")).location,
      `${PANEL}/closed?sid=live`,
      "a Testing project takes no live traffic",
    );
    const p = await counts(t, "projects", s.child._id);
    assertEquals([p.testClicked, p.clicked, p.complete], [2, 0, 0]);
    const m = await counts(t, "supplier_maps", s.mapId);
    assertEquals([m.testClicked, m.clicked, m.complete], [2, 0, 0]);
    assertEquals(await t.deps.db.selectFrom("router_daily").selectAll().execute(), []);
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.filter((r) => r.isTest).map((r) => r.status), ["complete", "redirected", "closed"]);
    // the map's Test link toggle off: the test link is closed (nothing counted)
    const token = await t.tokenFor("ADMIN");
    await t.api(Maps.updateSupplierMapCall, { params: { id: s.mapId }, token, body: { isTestLink: false } });
    assertEquals((await enterTest(t, s.mapId, "t5")).location, `${PANEL}/closed?sid=t5`);
    const off = (await sessionsOf(t, s.child._id)).find((r) => r.sid === "t5")!;
    assertEquals([off.status, off.reason, off.detail], ["closed", "test-link-off", "test link off"]);
    assertEquals((await counts(t, "projects", s.child._id)).testClicked, 2);
    await t.api(Maps.updateSupplierMapCall, { params: { id: s.mapId }, token, body: { isTestLink: true } });
    // a removed supplier's test link is closed too
    await t.api(Maps.updateSupplierMapCall, {
      params: { id: s.mapId },
      as: "ADMIN",
      body: { isDeleted: true },
    });
    assertEquals((await enterTest(t, s.mapId, "t4")).location, `${PANEL}/closed?sid=t4`);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: pre-screen page in the project's language; failing answers terminate as PT; passing go to the survey; answers kept", async () => {
  let clock = Date.parse("2026-11-04T09:00:00Z");
  const t = await testApp({}, { now: () => clock });
  try {
    const s = await liveProject(t, {
      child: { languageId: "fr", averageLOI: 20 },
      project: { isPreScreen: true },
      map: { isPreScreen: true },
    });
    const age = await addQuestion(t, s.child._id, {
      type: "RADIO",
      title: { en: "How old are you?", fr: "Quel âge avez-vous ?" },
      options: [{ title: "Under 18", formvalidate: false }, { title: "18-34" }, { title: "35+" }],
      sortOrder: 1,
    });
    const zip = await addQuestion(t, s.child._id, {
      type: "TEXT",
      title: { en: "Your postcode?" },
      sortOrder: 2,
    });
    const r = await enter(t, s.mapId, "ps-1");
    assertEquals(r.status, 302);
    assertMatch(r.location, /^\/survey\/prescreen\/[0-9a-f]{24}$/);
    const page = await hit(t, r.location);
    assertEquals(page.status, 200);
    assertMatch(page.text, /<html lang="fr"/);
    assertMatch(page.text, /Quel âge avez-vous/);
    assertMatch(page.text, /Your postcode\?/, "English when the question has no French title");
    assertMatch(page.text, /Continuer/);
    assertEquals((await counts(t, "projects", s.child._id)).clicked, 1);

    const post = (path: string, form: Record<string, string>) =>
      t.app.request(path, { method: "POST", body: new URLSearchParams(form) });
    const partial = await post(r.location, { [`q_${age.id}`]: age.options[1]._id });
    assertEquals(partial.status, 422);
    assertMatch(await partial.text(), /Veuillez répondre/);
    const fail = await post(r.location, { [`q_${age.id}`]: age.options[0]._id, [`q_${zip.id}`]: "75001" });
    assertEquals(fail.status, 302);
    assertEquals(fail.headers.get("location"), `${PANEL}/terminate?sid=ps-1`);
    // answering again changes nothing
    const again = await post(r.location, { [`q_${age.id}`]: age.options[1]._id, [`q_${zip.id}`]: "75001" });
    assertEquals(again.headers.get("location"), `${PANEL}/terminate?sid=ps-1`);

    const ok = await enter(t, s.mapId, "ps-2");
    const pass = await post(ok.location, { [`q_${age.id}`]: age.options[1]._id, [`q_${zip.id}`]: "69002" });
    assert(pass.headers.get("location")!.startsWith("https://client.example/survey?uid="));
    // leaving without answering: a pre-screen drop after the time-out
    await enter(t, s.mapId, "ps-3");
    clock += 31 * 60_000;
    assertEquals(await router(t).sweep(), 1);
    const c = await counts(t, "projects", s.child._id);
    assertEquals([c.clicked, c.preScreenTerminate, c.preScreenDrop], [3, 1, 1]);
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.map((x) => x.status), ["preScreenTerminate", "redirected", "preScreenDrop"]);
    const answers = await t.deps.db.selectFrom("prescreen_answers").selectAll().orderBy("id").execute();
    assertEquals(answers.map((a) => [a.answerText, a.passed]), [["Under 18", 0], ["75001", 1], ["18-34", 1], [
      "69002",
      1,
    ]]);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: project quota options: answers that map to a full option are over quota, at the pre-screen and on return", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { project: { isPreScreen: true }, map: { isPreScreen: true } });
    const { quotaId } = await addGenderQuota(t.deps.db, s.child._id, { female: 1, male: 5 });
    const q = await addQuestion(t, s.child._id, {
      type: "RADIO",
      title: { en: "Gender" },
      options: [{ title: "female" }, { title: "Male" }],
    });
    const answer = async (sid: string, option: number) => {
      const page = await enter(t, s.mapId, sid);
      const r = await t.app.request(page.location, {
        method: "POST",
        body: new URLSearchParams({ [`q_${q.id}`]: q.options[option]._id }),
      });
      return r.headers.get("location")!;
    };
    const f1 = await answer("f1", 0), f2 = await answer("f2", 0);
    assert(f1.startsWith("https://client.example") && f2.startsWith("https://client.example"));
    assert((await back(t, uidOf(f1), "c")).location.startsWith(`${PANEL}/complete`));
    assertEquals((await back(t, uidOf(f2), "c")).location, `${PANEL}/quotafull?sid=f2`);
    assertEquals(await answer("f3", 0), `${PANEL}/quotafull?sid=f3`, "full at the pre-screen");
    const m1 = await answer("m1", 1);
    assert((await back(t, uidOf(m1), "c")).location.startsWith(`${PANEL}/complete`));
    const cells = JSON.parse(
      (await t.deps.db.selectFrom("project_quotas").select("quotaValue").where("id", "=", quotaId)
        .executeTakeFirstOrThrow()).quotaValue,
    );
    assertEquals(cells.map((c: { completes: number }) => c.completes), [1, 1]);
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.map((r) => r.reason), ["client", "quota-option-full", "quota-option-full", "client"]);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: the supplier's approved hook is called in the background for completes, with retries", async () => {
  const calls: string[] = [];
  let failFirst = true;
  const fakeFetch = ((url: string) => {
    calls.push(String(url));
    if (failFirst) {
      failFirst = false;
      return Promise.resolve(new Response("busy", { status: 503 }));
    }
    return Promise.resolve(new Response("ok"));
  }) as typeof fetch;
  const t = await testApp({}, { router: { fetch: fakeFetch, hookRetryDelaysMs: [0, 0] } });
  try {
    const supplier = await makeSupplier(t, {
      supplierApprovedHook: "https://panel.example/hook?sid=[sid]&uid=[uid]&status=[status]",
    });
    const s = await liveProject(t, { supplierId: supplier._id });
    const uid = uidOf((await enter(t, s.mapId, "h1")).location);
    await back(t, uid, "c");
    const t2 = uidOf((await enter(t, s.mapId, "h2")).location);
    await back(t, t2, "t");
    for (let i = 0; i < 50 && calls.length < 2; i++) {
      await router(t).idle();
      await new Promise((r) => setTimeout(r, 10));
    }
    await router(t).idle();
    assertEquals(calls, [
      `https://panel.example/hook?sid=h1&uid=${uid}&status=c`,
      `https://panel.example/hook?sid=h1&uid=${uid}&status=c`,
    ]);
    const hooks = await t.deps.db.selectFrom("router_hooks").selectAll().execute();
    assertEquals(hooks.map((h) => [h.status, h.attempts]), [["sent", 2]]);
  } finally {
    await t.close();
  }
});

Deno.test("router: clientReturnLinks lists the client's return links per status, signed when secured", () => {
  const open = clientReturnLinks({ isDynamicThanksUrl: false }, "https://s.example/");
  assertEquals(open[0], { label: "Complete", url: "https://s.example/survey/end?status=c&uid=[uid]" });
  assertEquals(open.map((l) => l.label), [
    "Complete",
    "Terminate",
    "Over Quota",
    "Quality Term",
    "Post-back (server to server)",
  ]);
  const secured = clientReturnLinks({ isDynamicThanksUrl: true }, "https://s.example", "k3y");
  assertEquals(secured[1].url, "https://s.example/survey/end?status=t&uid=[uid]&sig=[sig]");
  assertEquals(secured.at(-1)!.url, "k3y");
  assert(CLIENT_URL.includes("[uid]"));
});

Deno.test("router: settings are cached, and a change by staff takes effect at once (map toggles, project status)", async () => {
  const t = await testApp({}, { router: { configTtlMs: 10 * 60_000 } });
  try {
    const token = await t.tokenFor("ADMIN");
    const s = await liveProject(t);
    assert((await enter(t, s.mapId, "k1")).location.startsWith("https://client.example"));
    await t.api(Maps.updateSupplierMapCall, {
      params: { id: s.mapId },
      token,
      body: { allowTraffic: false },
    });
    assertEquals((await enter(t, s.mapId, "k2")).location, `${PANEL}/closed?sid=k2`);
    await t.api(Maps.updateSupplierMapCall, { params: { id: s.mapId }, token, body: { allowTraffic: true } });
    assert((await enter(t, s.mapId, "k3")).location.startsWith("https://client.example"));
    await t.api(P.updateProjectCall, { params: { id: s.child._id }, token, body: { projectStatus: 3 } });
    assertEquals((await enter(t, s.mapId, "k4")).location, `${PANEL}/closed?sid=k4`);
    await t.api(P.updateProjectCall, {
      params: { id: s.child._id },
      token,
      body: { projectStatus: 1, singleLinkUrl: "https://new.example/?u=[uid]" },
    });
    assert((await enter(t, s.mapId, "k5")).location.startsWith("https://new.example/?u="));
  } finally {
    await t.close();
  }
});

Deno.test("router: exclusions, questions and quotas changed through the API apply to the very next entry, despite the cache", async () => {
  const t = await testApp({}, { router: { configTtlMs: 10 * 60_000 } });
  try {
    const token = await t.tokenFor("MANAGER");
    const a = await liveProject(t);
    const b = await liveProject(t, {
      project: { isExclude: true, isPreScreen: true },
      map: { isPreScreen: true },
      supplierId: a.supplierId,
    });
    for (const sid of ["x1", "x2"]) await back(t, uidOf((await enter(t, a.mapId, sid)).location), "c");
    // B's settings are read and cached: no exclusion, no question yet
    assert((await enter(t, b.mapId, "warm")).location.startsWith("https://client.example"));

    const added = await t.api(Parts.addExclusionCall, {
      token,
      body: { projectId: b.child._id, excludedProjectId: a.child._id },
    });
    assertEquals(added.status, 200);
    assertEquals((await enter(t, b.mapId, "x1")).location, `${PANEL}/terminate?sid=x1`, "excluded at once");
    await t.api(Parts.updateExclusionCall, {
      params: { id: added.json.result[0]._id },
      token,
      body: { isDeleted: true },
    });
    assert((await enter(t, b.mapId, "x2")).location.startsWith("https://client.example"), "let in at once");

    const q = await t.api(Parts.addProjectQuestion, {
      token,
      body: {
        projectId: b.child._id,
        questionTitle: { en: "Which city do you live in?" },
        questionType: "TEXT",
      },
    });
    assertEquals(q.status, 200);
    assertMatch((await enter(t, b.mapId, "asked")).location, /^\/survey\/prescreen\/[0-9a-f]{24}$/);
    await t.api(Parts.updateProjectQuestion, {
      params: { questionId: q.json.result._id },
      token,
      body: { isDeleted: true },
    });
    assert((await enter(t, b.mapId, "not-asked")).location.startsWith("https://client.example"));

    // quotas: every change tells the router (it matches answers to the quota's chosen options)
    const told: string[] = [];
    const stop = t.deps.services.changes.on("project", (id) => told.push(id));
    try {
      const qual = (await t.api(Lib.addQualification, {
        as: "ADMIN",
        body: {
          qualificationName: "Gender",
          qualificationIcon: "user",
          qualificationOptions: [{ text: "Male" }, { text: "Female" }],
        },
      })).json.result;
      const quota = (await t.api(Parts.addQuotaCall, {
        params: { projectId: b.child._id },
        token,
        body: { quotaId: qual._id },
      }))
        .json.result[0];
      const male = qual.qualificationOptions[0]._id;
      await t.api(Parts.updateQuotaCall, {
        params: { quotaId: quota._id, projectId: b.child._id },
        token,
        body: { quotaOptionId: [male] },
      });
      await t.api(Parts.updateQuotaSizesCall, {
        params: { quotaId: quota._id, projectId: b.child._id },
        token,
        body: { quotaValue: [{ quotaOptionId: male, quotaSize: 5 }] },
      });
      await t.api(Parts.updateQuotaCall, {
        params: { quotaId: quota._id, projectId: b.child._id },
        token,
        body: { isDeleted: true },
      });
    } finally {
      stop();
    }
    assertEquals(told, Array(4).fill(b.child._id));
  } finally {
    await t.close();
  }
});

Deno.test("router: counts survive a restart: a new process on the same file finds sessions, duplicates and returns", async () => {
  const dir = new URL("../.tmp/", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  const file = `${dir}router-restart-${crypto.randomUUID()}.db`;
  try {
    const first = await testApp({ DATABASE_URL: `file:${file}` });
    const s = await liveProject(first, { child: { sampleSize: 2 } });
    const u1 = uidOf((await enter(first, s.mapId, "before-1")).location);
    const u2 = uidOf((await enter(first, s.mapId, "before-2")).location);
    const u3 = uidOf((await enter(first, s.mapId, "before-3")).location);
    await back(first, u1, "c");
    await first.close();

    const second = await testApp({ DATABASE_URL: `file:${file}` });
    try {
      assert((await enter(second, s.mapId, "before-2")).location.includes("/quality"), "still a duplicate");
      assert(
        (await back(second, u2, "c")).location.startsWith(`${PANEL}/complete`),
        "the return finds its session",
      );
      assertEquals(
        (await back(second, u3, "c")).location,
        `${PANEL}/quotafull?sid=before-3`,
        "quota of 2 full",
      );
      assertEquals(
        (await back(second, u1, "t")).location.split("?")[0],
        `${PANEL}/complete`,
        "first status kept",
      );
      const c = await counts(second, "projects", s.child._id);
      assertEquals([c.clicked, c.complete, c.overQuota, c.security], [4, 2, 1, 1]);
      await consistent(second);
    } finally {
      await second.close();
    }
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(file + suffix).catch(() => {});
  }
});

Deno.test("router: unknown /survey paths get the server's not-found page (404), never the SPA's index.html; our pages carry a strict CSP", async () => {
  const root = await Deno.makeTempDir();
  await Deno.writeTextFile(`${root}/index.html`, "<!doctype html><title>Samplex SPA</title>");
  const t = await testApp();
  try {
    const { createApp } = await import("../../server/app.ts");
    const app = createApp(t.deps, { webRoot: root });
    for (const path of ["/survey/whatever/else", "/survey", "/survey/start/abc", "/survey/end/x"]) {
      const res = await app.request(path);
      const text = await res.text();
      assert(!/Samplex SPA/.test(text), `${path} is not the SPA`);
      assertNotFoundPage({ status: res.status, text }, path);
      assertMatch(res.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    }
    // the rest of the site still falls back to the SPA, with the app's own policy
    const spa = await app.request("/admin/whatever");
    assertEquals(spa.status, 200);
    assertMatch(await spa.text(), /Samplex SPA/);
    assert(
      !/default-src 'none'/.test(spa.headers.get("content-security-policy") ?? ""),
      "SPA page keeps the app's CSP",
    );
    const s = await liveProject(t, { project: { projectStatus: 3 }, map: { redirectSurveyClose: "" } });
    const page = await app.request(`/survey/start/${s.mapId}?sid=z`);
    assertEquals(page.status, 200);
    assertMatch(page.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    assertEquals(page.headers.get("cache-control"), "no-store");
  } finally {
    await t.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("router: a write that fails leaves nothing half done: the respondent may retry and nothing was counted", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const { sql } = await import("kysely");
    await sql`CREATE TRIGGER boom BEFORE INSERT ON router_daily BEGIN SELECT RAISE(ABORT, 'disk full'); END`
      .execute(t.deps.db);
    const failed = await Promise.all([enter(t, s.mapId, "f1"), enter(t, s.mapId, "f2")]);
    assertEquals(failed.map((r) => r.status), [503, 503]);
    assertMatch(failed[0].text, /Please try again/);
    assertEquals(await sessionsOf(t, s.child._id), [], "the session rows rolled back with the counters");
    assertEquals((await counts(t, "projects", s.child._id)).clicked, 0);
    await sql`DROP TRIGGER boom`.execute(t.deps.db);
    assert((await enter(t, s.mapId, "f1")).location.startsWith("https://client.example"), "not a duplicate");
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: oversized answers and post-backs are refused before they are read", async () => {
  const t = await testApp();
  try {
    const big = "x".repeat(100 * 1024);
    const post = await t.app.request("/survey/postback", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uid: "0123456789abcdef01234567", status: "c", junk: big }),
    });
    assertEquals(post.status, 413);
    const answers = await t.app.request("/survey/prescreen/0123456789abcdef01234567", {
      method: "POST",
      body: new URLSearchParams({ q_x: big }),
    });
    assertEquals(answers.status, 413);
  } finally {
    await t.close();
  }
});

/** An entry arriving on a socket from `socketIp` (what Deno.serve passes as remoteAddr). */
async function enterFrom(
  t: TestApp,
  mapId: string,
  sid: string,
  socketIp: string,
  headers: Record<string, string>,
) {
  const res = await t.app.request(`/survey/start/${mapId}?sid=${encodeURIComponent(sid)}`, { headers }, {
    remoteAddr: { hostname: socketIp, port: 40000, transport: "tcp" },
  });
  await res.body?.cancel();
  return res.headers.get("location") ?? "";
}

Deno.test("router: respondents cannot forge their IP: forwarding headers are ignored by default, and behind a proxy only its own entry counts", async () => {
  const forged = (n: number) => ({
    "x-forwarded-for": `6.6.6.${n}`,
    "x-real-ip": `6.6.7.${n}`,
    "cf-connecting-ip": `6.6.8.${n}`,
  });
  // TRUST_PROXY_HOPS=0 (default): the socket address, whatever the headers say
  const direct = await testApp();
  try {
    const s = await liveProject(direct, { project: { isUniqueIp: true, maxIPCount: 1 } });
    assert((await enterFrom(direct, s.mapId, "a", "198.51.100.1", forged(1))).startsWith("https://client"));
    assertEquals(
      await enterFrom(direct, s.mapId, "b", "198.51.100.1", forged(2)),
      `${PANEL}/quality?sid=b`,
      "new forged headers do not make a new address",
    );
    const rows = await sessionsOf(direct, s.child._id);
    assertEquals(rows.map((r) => [r.ip, r.reason]), [["198.51.100.1", ""], ["198.51.100.1", "ip-limit"]]);
  } finally {
    await direct.close();
  }
  // TRUST_PROXY_HOPS=1: the entry the proxy appended (rightmost); anything left of it is the client's claim
  const proxied = await testApp(BEHIND_PROXY);
  try {
    const s = await liveProject(proxied, { project: { isUniqueIp: true, maxIPCount: 1 } });
    const proxy = "10.9.9.9";
    assert(
      (await enterFrom(proxied, s.mapId, "a", proxy, { "x-forwarded-for": "6.6.6.1, 81.2.69.160" }))
        .startsWith("https://client"),
    );
    assertEquals(
      await enterFrom(proxied, s.mapId, "b", proxy, { "x-forwarded-for": "6.6.6.2, 81.2.69.160" }),
      `${PANEL}/quality?sid=b`,
      "a forged leftmost hop is ignored",
    );
    assert(
      (await enterFrom(proxied, s.mapId, "c", proxy, { "x-real-ip": "81.2.69.160" })).startsWith(
        "https://client",
      ),
      "no X-Forwarded-For: the proxy's own address",
    );
    const rows = await sessionsOf(proxied, s.child._id);
    assertEquals(rows.map((r) => r.ip), ["81.2.69.160", "81.2.69.160", proxy]);
  } finally {
    await proxied.close();
  }
});

Deno.test("router: without COUNTRY_HEADER a forged cf-ipcountry does not change the geo decision", async () => {
  const t = await testApp(BEHIND_PROXY);
  try {
    const geo = await liveProject(t, { project: { isGeoLocation: true } }); // child country US
    // 81.2.69.160 is in GB; the respondent claims US
    const gb = { "x-forwarded-for": "81.2.69.160", "cf-ipcountry": "US" };
    assertEquals((await enter(t, geo.mapId, "g1", gb)).location, `${PANEL}/quality?sid=g1`);
    const [row] = await sessionsOf(t, geo.child._id);
    assertEquals([row.country, row.reason], ["GB", "geo"]);
  } finally {
    await t.close();
  }
});

Deno.test("router: HEAD on the return link and the post-back changes nothing", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const uid = uidOf((await enter(t, s.mapId, "h1")).location);
    for (const path of [`/survey/end?status=c&uid=${uid}`, `/survey/postback?status=t&uid=${uid}`]) {
      const res = await t.app.request(path, { method: "HEAD" });
      assertEquals(res.status, 200, path);
      assertEquals(res.headers.get("location"), null, path);
    }
    await router(t).idle();
    const [row] = await sessionsOf(t, s.child._id);
    assertEquals([row.status, row.endedAt], ["redirected", null]);
    const c = await counts(t, "projects", s.child._id);
    assertEquals([c.clicked, c.complete, c.terminate], [1, 0, 0]);
    // the respondent's own return still counts
    assert((await back(t, uid, "c")).location.startsWith(`${PANEL}/complete`));
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router: a supplier id that looks like a placeholder is passed on as it is, never expanded", async () => {
  const calls: string[] = [];
  const fakeFetch = ((url: string) => {
    calls.push(String(url));
    return Promise.resolve(new Response("ok"));
  }) as typeof fetch;
  const t = await testApp({}, { router: { fetch: fakeFetch } });
  try {
    const supplier = await makeSupplier(t, {
      supplierApprovedHook: "https://panel.example/hook?sid=[sid]&pid=[pid]&uid=[uid]",
    });
    const s = await liveProject(t, { supplierId: supplier._id });
    const code = s.child.projectCode as string;
    const u1 = uidOf((await enter(t, s.mapId, "[pid]")).location);
    assertEquals(
      (await back(t, u1, "c")).location,
      `${PANEL}/complete?sid=%5Bpid%5D&pid=${code}&uid=${u1}`,
      "the sid [pid] stays [pid]",
    );
    const u2 = uidOf((await enter(t, s.mapId, "%5Buid%5D")).location);
    assertEquals(
      (await back(t, u2, "c")).location,
      `${PANEL}/complete?sid=%255Buid%255D&pid=${code}&uid=${u2}`,
      "an encoded placeholder in the sid stays text",
    );
    for (let i = 0; i < 50 && calls.length < 2; i++) {
      await router(t).idle();
      await new Promise((r) => setTimeout(r, 10));
    }
    assertEquals(
      calls.toSorted(),
      [
        `https://panel.example/hook?sid=%255Buid%255D&pid=${code}&uid=${u2}`,
        `https://panel.example/hook?sid=%5Bpid%5D&pid=${code}&uid=${u1}`,
      ].toSorted(),
    );
  } finally {
    await t.close();
  }
});

Deno.test("router: two app instances on one database send each approved hook exactly once", async () => {
  const dir = new URL("../.tmp/", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  const file = `${dir}router-hooks-${crypto.randomUUID()}.db`;
  const calls: string[] = [];
  // the first sends hang until both instances have looked at the queue
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const fakeFetch = (async (url: string) => {
    calls.push(String(url));
    await gate;
    return new Response("ok");
  }) as typeof fetch;
  try {
    const a = await testApp({ DATABASE_URL: `file:${file}` }, { router: { fetch: fakeFetch } });
    const b = await testApp({ DATABASE_URL: `file:${file}` }, { router: { fetch: fakeFetch } });
    try {
      const supplier = await makeSupplier(a, {
        supplierApprovedHook: "https://panel.example/hook?uid=[uid]",
      });
      const s = await liveProject(a, { supplierId: supplier._id });
      const uids = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => uidOf((await enter(a, s.mapId, `x${i}`)).location)),
      );
      await Promise.all(uids.map((uid) => back(a, uid, "c")));
      await router(a).writer.idle();
      // a's sender is mid-send (the gate); b's looks at the same queue now
      for (let i = 0; i < 50 && !calls.length; i++) await new Promise((r) => setTimeout(r, 10));
      b.deps.services.router.hooks.kick();
      await new Promise((r) => setTimeout(r, 50));
      release();
      await router(a).idle();
      await b.deps.services.router.idle();
      a.deps.services.router.hooks.kick();
      b.deps.services.router.hooks.kick();
      await router(a).idle();
      await b.deps.services.router.idle();
      assertEquals(calls.toSorted(), uids.map((u) => `https://panel.example/hook?uid=${u}`).toSorted());
      const hooks = await a.deps.db.selectFrom("router_hooks").select(["status", "attempts"]).execute();
      assertEquals(hooks.length, 12);
      assert(hooks.every((h) => h.status === "sent" && h.attempts === 1), JSON.stringify(hooks));
    } finally {
      release();
      await b.close();
      await a.close();
    }
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(file + suffix).catch(() => {});
  }
});

Deno.test("router: a claimed hook whose sender died is sent again once its lease runs out", async () => {
  const calls: string[] = [];
  const fakeFetch = ((url: string) => {
    calls.push(String(url));
    return Promise.resolve(new Response("ok"));
  }) as typeof fetch;
  const t = await testApp({}, { router: { fetch: fakeFetch } });
  try {
    const now = new Date().toISOString();
    // a real supplier: a callback is signed with its hash key when sent
    const supplier = await makeSupplier(t);
    const row = {
      sessionId: "0123456789abcdef01234567",
      supplierId: supplier._id,
      status: "sending" as const,
      createdAt: now,
      updatedAt: now,
    };
    await t.deps.db.insertInto("router_hooks").values([
      { ...row, url: "https://panel.example/expired", nextAt: new Date(Date.now() - 1_000).toISOString() },
      { ...row, url: "https://panel.example/leased", nextAt: new Date(Date.now() + 60_000).toISOString() },
    ]).execute();
    router(t).hooks.kick();
    await router(t).idle();
    assertEquals(calls, ["https://panel.example/expired"], "only the lease that ran out is taken over");
    const rows = await t.deps.db.selectFrom("router_hooks").select(["url", "status"]).orderBy("id").execute();
    assertEquals(rows.map((r) => r.status), ["sent", "sending"]);
  } finally {
    await t.close();
  }
});

Deno.test("router: a deleted or deactivated supplier's links close at once, despite the cache; its respondents still return", async () => {
  const t = await testApp({}, { router: { configTtlMs: 10 * 60_000 } });
  try {
    const token = await t.tokenFor("ADMIN");
    const s = await liveProject(t, { map: { isTestLink: true } });
    const inSurvey = uidOf((await enter(t, s.mapId, "before")).location);
    const update = (body: unknown) =>
      t.api(Sup.updateSupplierCall, { params: { id: s.supplierId }, token, body });
    assertEquals((await update({ isActive: false })).status, 200);
    assertEquals((await enter(t, s.mapId, "off")).location, `${PANEL}/closed?sid=off`);
    assertEquals((await enterTest(t, s.mapId, "off-test")).location, `${PANEL}/closed?sid=off-test`);
    assert((await back(t, inSurvey, "c")).location.startsWith(`${PANEL}/complete`), "a return still counts");
    assertEquals((await update({ isActive: true })).status, 200);
    assert((await enter(t, s.mapId, "on")).location.startsWith("https://client.example"));
    assertEquals((await update({ isDeleted: true })).status, 200);
    assertEquals((await enter(t, s.mapId, "gone")).location, `${PANEL}/closed?sid=gone`);
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(
      rows.filter((r) => r.status === "closed").map((r) => [r.sid, r.reason, r.detail]),
      [
        ["off", "traffic-off", "supplier inactive"],
        ["off-test", "test-link-off", "supplier inactive"],
        ["gone", "traffic-off", "supplier deleted"],
      ],
    );
    await consistent(t);
  } finally {
    await t.close();
  }
});
