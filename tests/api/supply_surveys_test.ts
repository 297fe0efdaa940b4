/**
 * `GET /supply/v1/surveys`, `/surveys/:id`, `/surveys/:id/quotas` and `POST /surveys/:id/start`
 * (issue 23, item 2): a supplier's live surveys (its maps and the inventory it may start) with real
 * figures from the router's counters, cursor pages that never skip or repeat, ETag 304,
 * `updated_since` after traffic, and refusals (another supplier's survey, bad query, revoked key).
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { addQuestion, back, hit, liveProject, uidOf } from "../helpers/router.ts";
import { addQualification, makeSupplier } from "../helpers/fixtures.ts";
import { newId } from "../../server/db/ids.ts";
import { auditOf } from "../helpers/master.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as SM from "../../shared/api/supplier-maps.ts";
import { updateProjectCall } from "../../shared/api/projects.ts";
import { SUPPLY_BASE } from "../../shared/api/supply.ts";
import type { SupplySurvey, SupplySurveyPage } from "../../shared/api/supply-surveys.ts";

const START = Date.parse("2026-11-26T10:00:00.000Z");

async function setup() {
  let clock = START;
  const t = await testApp({}, { now: () => clock });
  return { t, advance: (ms: number) => (clock += ms) };
}

async function keyFor(t: TestApp, supplierId: string) {
  const k = await t.ok(K.createSupplierApiKeyCall, {
    as: "ADMIN",
    params: { id: supplierId },
    body: { name: "k" },
  });
  return { key: k.key as string, id: k._id as string };
}

// deno-lint-ignore no-explicit-any
type Answer = { status: number; json: any; headers: Headers };

async function supply(
  t: TestApp,
  key: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const res = await t.app.request(`${SUPPLY_BASE}${path}`, {
    method: init.method ?? "GET",
    headers: { "X-Api-Key": key, ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Every survey of a supplier, page after page of `limit`. */
async function allPages(t: TestApp, key: string, limit: number, between?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | null = null, page = 0;
  do {
    const r = await supply(t, key, `/surveys?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    assertEquals(r.status, 200, JSON.stringify(r.json));
    const body = r.json.result as SupplySurveyPage;
    assert(body.data.length <= limit);
    ids.push(...body.data.map((s) => s.id));
    cursor = body.nextCursor;
    await between?.(++page);
  } while (cursor);
  return ids;
}

/** A Gender qualification (Female, Male) and a project quota over it with the given cells. */
async function genderQuota(t: TestApp, projectId: string, cells: { female?: number; male?: number }) {
  const now = new Date(START).toISOString();
  const { id: qualId, options: [female, male] } = await addQualification(t.deps.db, {
    name: "Gender",
    options: ["Female", "Male"],
    at: now,
  });
  const quotaId = newId();
  const value = [];
  if (cells.female !== undefined) {
    value.push({ quotaOptionId: female, quotaSize: cells.female, completes: 0 });
  }
  if (cells.male !== undefined) value.push({ quotaOptionId: male, quotaSize: cells.male, completes: 0 });
  await t.deps.db.insertInto("project_quotas").values({
    id: quotaId,
    projectId,
    qualificationId: qualId,
    quotaValue: JSON.stringify(value),
    createdAt: now,
    updatedAt: now,
  }).execute();
  return { quotaId, female, male };
}

/** The library's "Are you over 18?" (No disqualifies), copied into the project's pre-screen. */
async function ageQuestion(t: TestApp, projectId: string) {
  const lib = await t.ok(Lib.addTempQuestion, {
    as: "SUPERADMIN",
    body: {
      questionTitle: { en: "Are you over 18?" },
      questionType: "RADIO",
      questionOption: [{ title: "Yes" }, { title: "No", formvalidate: false }],
    },
  }) as { _id: string; questionOption: { _id: string }[] };
  const copy = await t.ok(Parts.addProjectQuestion, {
    as: "SUPERADMIN",
    body: { projectId, questionId: lib._id },
  }) as { _id: string };
  return { libId: lib._id, copyId: copy._id, yes: lib.questionOption[0]._id, no: lib.questionOption[1]._id };
}

const form = (t: TestApp, path: string, fields: Record<string, string>) =>
  t.app.request(path, { method: "POST", body: new URLSearchParams(fields) });

Deno.test("supply surveys: a mapped survey's figures: CPI, stated and measured LOI and IR, conversion, remaining as the least of project, map and quota, qualifications, quotas, entry link; the inventory beside it", async () => {
  const { t, advance } = await setup();
  try {
    const s = await liveProject(t, {
      child: { sampleSize: 100, averageLOI: 12, ir: 40, endDate: "2026-12-20" },
      project: { isPreScreen: true, isMobile: true, isDesktop: true, isTablet: false },
      map: { isPreScreen: true, supplierQuota: "10", supplierCPI: 1.25 },
    });
    const age = await ageQuestion(t, s.child._id);
    const gender = await addQuestion(t, s.child._id, {
      type: "RADIO",
      title: { en: "Gender" },
      options: [{ title: "Female" }, { title: "Male" }],
      sortOrder: 2,
    });
    // the helper stamps the wall clock; the app's clock is the test's
    const at = new Date(START).toISOString();
    await t.deps.db.updateTable("questions").set({ createdAt: at, updatedAt: at }).where("id", "=", gender.id)
      .execute();
    // the Female cell (3) is smaller than the map's quota (10) and the project's sample (100)
    const quota = await genderQuota(t, s.child._id, { female: 3 });
    const { key } = await keyFor(t, s.supplierId);
    // another supplier's live survey: inventory for this one
    const other = await liveProject(t, { child: { cpi: "2.00", averageLOI: 20, ir: 10 } });

    // r1: female, completes after 5 minutes
    const r1 = await hit(t, `/survey/start/${s.mapId}?sid=r1`);
    const c1 = await form(t, r1.location, {
      [`q_${age.copyId}`]: age.yes,
      [`q_${gender.id}`]: gender.options[0]._id,
    });
    advance(300_000);
    assert(
      (await back(t, uidOf(c1.headers.get("location")!), "c")).location.startsWith(
        "https://panel.example/complete",
      ),
    );
    // r2: age known from the link, male, terminated by the client
    const r2 = await hit(t, `/survey/start/${s.mapId}?sid=r2&q_${age.libId}=${age.yes}`);
    const c2 = await form(t, r2.location, { [`q_${gender.id}`]: gender.options[1]._id });
    await back(t, uidOf(c2.headers.get("location")!), "t");
    // r3: a known answer that disqualifies: a pre-screen terminate at once; r4 still on the pre-screen
    await hit(t, `/survey/start/${s.mapId}?sid=r3&q_${age.libId}=${age.no}`);
    await hit(t, `/survey/start/${s.mapId}?sid=r4`);

    const r = await supply(t, key, "/surveys");
    assertEquals(r.status, 200, JSON.stringify(r.json));
    const page = r.json.result as SupplySurveyPage;
    assertEquals(page.nextCursor, null);
    const mine = page.data.find((x) => x.id === s.child._id)!;
    assertEquals(mine, {
      id: s.child._id,
      code: s.child.projectCode,
      name: s.child.projectName,
      started: true,
      country: "US",
      language: "en",
      cpi: 1.25,
      loi: { stated: 12, measured: 5 },
      // 1 complete of 1 complete + 1 terminate + 1 pre-screen terminate
      ir: { stated: 40, measured: 33.3 },
      // 1 complete of 4 clicks
      conversion: 25,
      // project 99 left, map 9, the Female cell 2: the quota's one (limited) cell bounds it
      remaining: 2,
      deviceTypes: ["desktop", "mobile"],
      endDate: "2026-12-20",
      qualifications: [{ questionId: age.libId, answerIds: [age.yes] }],
      quotas: [{
        id: quota.quotaId,
        qualificationIds: [mine.quotas[0].qualificationIds[0]],
        cells: [{
          quotaId: quota.quotaId,
          cellId: quota.female,
          label: "Female",
          size: 3,
          completes: 1,
          remaining: 2,
        }],
      }],
      entryLink: `http://localhost/survey/start/${s.mapId}?sid=[sid]`,
      updatedAt: mine.updatedAt,
    });
    assertEquals(mine.updatedAt, new Date(START + 300_000).toISOString());
    const inv = page.data.find((x) => x.id === other.child._id)!;
    assertEquals([inv.started, inv.entryLink, inv.cpi, inv.remaining], [false, null, 1.2, 100]);
    assertEquals([inv.loi, inv.ir, inv.conversion], [{ stated: 20, measured: null }, {
      stated: 10,
      measured: null,
    }, null]);

    // one survey and its quotas read the same
    const one = await supply(t, key, `/surveys/${s.child._id}`);
    assertMatch(one.headers.get("etag")!, /^"[0-9a-f]{32}"$/);
    assertEquals(one.json.result, mine);
    const q = await supply(t, key, `/surveys/${s.child._id}/quotas`);
    assertEquals(q.json.result, { surveyId: s.child._id, remaining: 2, quotas: mine.quotas });

    // a quota with an unlimited cell bounds nothing overall: the map's 9 then
    await t.deps.db.updateTable("project_quotas").set({
      quotaValue: JSON.stringify([
        { quotaOptionId: quota.female, quotaSize: 3, completes: 1 },
        { quotaOptionId: quota.male, quotaSize: 0, completes: 0 },
      ]),
    }).where("id", "=", quota.quotaId).execute();
    assertEquals((await supply(t, key, `/surveys/${s.child._id}/quotas`)).json.result.remaining, 9);
  } finally {
    await t.close();
  }
});

Deno.test("supply surveys: pages in id order never skip or repeat a survey, even when one is started between pages", async () => {
  const { t } = await setup();
  try {
    const s = await liveProject(t);
    const { key } = await keyFor(t, s.supplierId);
    const made = [s.child._id];
    for (let i = 0; i < 3; i++) made.push((await liveProject(t, { supplierId: s.supplierId })).child._id);
    for (let i = 0; i < 4; i++) made.push((await liveProject(t)).child._id); // inventory
    made.sort();

    assertEquals(await allPages(t, key, 3), made);
    assertEquals(await allPages(t, key, 1), made);
    assertEquals(await allPages(t, key, 200), made);
    // an inventory survey started after the first page moves list (inventory -> started), not place
    const ids = await allPages(t, key, 2, async (page) => {
      if (page !== 1) return;
      const inventory = (await supply(t, key, "/surveys")).json.result.data.filter((x: SupplySurvey) =>
        !x.started
      );
      const started = await supply(t, key, `/surveys/${inventory.at(-1).id}/start`, { method: "POST" });
      assertEquals(started.status, 200, JSON.stringify(started.json));
    });
    assertEquals(ids, made);
  } finally {
    await t.close();
  }
});

Deno.test("supply surveys: ETag and If-None-Match answer 304 until something changes", async () => {
  const { t, advance } = await setup();
  try {
    const s = await liveProject(t);
    const { key } = await keyFor(t, s.supplierId);
    const first = await supply(t, key, "/surveys");
    const etag = first.headers.get("etag")!;
    assertMatch(etag, /^W\/"[0-9a-f]{32}"$/);
    // a later call (another asOf) over the same surveys is the same list: 304
    advance(5000);
    const again = await supply(t, key, "/surveys", { headers: { "If-None-Match": etag } });
    assertEquals([again.status, again.json, again.headers.get("etag")], [304, null, etag]);
    assertEquals(
      (await supply(t, key, "/surveys", { headers: { "If-None-Match": `"x", ${etag.slice(2)}` } })).status,
      304,
    );
    assertEquals((await supply(t, key, "/surveys", { headers: { "If-None-Match": `"x"` } })).status, 200);
    const one = await supply(t, key, `/surveys/${s.child._id}`);
    assertMatch(one.headers.get("etag")!, /^"[0-9a-f]{32}"$/);
    assertEquals(
      (await supply(t, key, `/surveys/${s.child._id}`, {
        headers: { "If-None-Match": one.headers.get("etag")! },
      }))
        .status,
      304,
    );

    advance(1000);
    await hit(t, `/survey/start/${s.mapId}?sid=e1`);
    const changed = await supply(t, key, "/surveys", { headers: { "If-None-Match": etag } });
    assertEquals(changed.status, 200);
    assert(changed.headers.get("etag") !== etag);
    assertEquals(changed.json.result.data[0].conversion, 0);
  } finally {
    await t.close();
  }
});

Deno.test("supply surveys: updated_since answers only the surveys whose figures moved since (a complete, an edit), and names those that left the list in closed", async () => {
  const { t, advance } = await setup();
  try {
    const a = await liveProject(t);
    const b = await liveProject(t, { supplierId: a.supplierId });
    const { key } = await keyFor(t, a.supplierId);
    const r1 = await hit(t, `/survey/start/${a.mapId}?sid=u1`);

    advance(60_000);
    const poll = (await supply(t, key, "/surveys")).json.result as SupplySurveyPage;
    assertEquals(poll.data.length, 2);
    // a few seconds back: a change stamped while the answer was read is answered again, never missed
    assertEquals(poll.asOf, new Date(START + 60_000 - 5_000).toISOString());
    advance(60_000);
    const quiet = await supply(t, key, `/surveys?updated_since=${encodeURIComponent(poll.asOf)}`);
    assertEquals(quiet.json.result.data, []);

    advance(60_000);
    await back(t, uidOf(r1.location), "c");
    const moved = await supply(t, key, `/surveys?updated_since=${encodeURIComponent(poll.asOf)}`);
    assertEquals(moved.json.result.data.map((x: SupplySurvey) => [x.id, x.remaining]), [[a.child._id, 99]]);
    assertEquals(moved.json.result.data[0].updatedAt, new Date(START + 180_000).toISOString());
    const counters = await t.deps.db.selectFrom("projects").select([
      "countersAt",
      "loiSeconds",
      "loiCompletes",
    ])
      .where("id", "=", a.child._id).executeTakeFirstOrThrow();
    assertEquals(counters, {
      countersAt: new Date(START + 180_000).toISOString(),
      loiSeconds: 180,
      loiCompletes: 1,
    });

    // an edit of b's project shows b (and only b) from then on
    advance(60_000);
    const since = new Date(START + 230_000).toISOString();
    await t.ok(updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: b.child._id },
      body: { notes: "more sample" },
    });
    const edited = await supply(t, key, `/surveys?updated_since=${since}`);
    assertEquals(edited.json.result.data.map((x: SupplySurvey) => x.id), [b.child._id]);
    assertEquals(edited.json.result.closed, []);

    // surveys that leave the list are named in `closed`: b paused, a's traffic turned off
    advance(60_000);
    const before = new Date(START + 290_000).toISOString();
    await t.ok(updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: b.child._id },
      body: { projectStatus: 3 },
    });
    await t.ok(SM.updateSupplierMapCall, {
      as: "SUPERADMIN",
      params: { id: a.mapId },
      body: { allowTraffic: false },
    });
    const gone = (await supply(t, key, `/surveys?updated_since=${before}`)).json.result as SupplySurveyPage;
    assertEquals([gone.data, gone.closed], [[], [a.child._id, b.child._id].sort()]);
    // not before the change, and never without updated_since
    advance(60_000);
    const later = new Date(START + 360_000).toISOString();
    assertEquals((await supply(t, key, `/surveys?updated_since=${later}`)).json.result.closed, []);
    assertEquals((await supply(t, key, "/surveys")).json.result.closed, []);
  } finally {
    await t.close();
  }
});

Deno.test("supply surveys: a survey the supplier may not send to is a 404 (taken off it, traffic off, not live, a map id, a bad id)", async () => {
  const { t } = await setup();
  try {
    const a = await liveProject(t);
    const b = await makeSupplier(t);
    const { key } = await keyFor(t, b._id);
    // b was on a's survey, and staff took it off: b may not see it (nor start it again)
    const bMap = await t.ok(SM.saveSupplierMapCall, {
      as: "SUPERADMIN",
      body: { projectId: a.child._id, supplierId: b._id, supplierCPI: 1 },
    });
    assertEquals((await supply(t, key, `/surveys/${a.child._id}`)).json.result.started, true);
    await t.ok(SM.updateSupplierMapCall, {
      as: "SUPERADMIN",
      params: { id: bMap._id },
      body: { isDeleted: true },
    });
    for (const path of [`/surveys/${a.child._id}`, `/surveys/${a.child._id}/quotas`]) {
      const r = await supply(t, key, path);
      assertEquals([r.status, r.json], [404, { message: "Survey not found" }], path);
    }
    assertEquals((await supply(t, key, `/surveys/${a.child._id}/start`, { method: "POST" })).status, 404);
    assertEquals((await supply(t, key, "/surveys")).json.result.data, []);

    // a's own supplier: its map with traffic off, then a paused survey
    const { key: aKey } = await keyFor(t, a.supplierId);
    assertEquals((await supply(t, aKey, `/surveys/${a.child._id}`)).status, 200);
    await t.ok(SM.updateSupplierMapCall, {
      as: "SUPERADMIN",
      params: { id: a.mapId },
      body: { allowTraffic: false },
    });
    assertEquals((await supply(t, aKey, `/surveys/${a.child._id}`)).status, 404);
    const c = await liveProject(t, { supplierId: a.supplierId });
    assertEquals((await supply(t, aKey, `/surveys/${c.child._id}`)).status, 200);
    await t.ok(updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: c.child._id },
      body: { projectStatus: 3 },
    });
    assertEquals((await supply(t, aKey, `/surveys/${c.child._id}`)).status, 404);
    assertEquals((await supply(t, aKey, `/surveys/${c.mapId}`)).status, 404);
    assertEquals((await supply(t, aKey, `/surveys/not-an-id`)).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("supply surveys: start maps the supplier as the portal does (entry link, then 409); bad queries are 400 with errors; a revoked key is 401", async () => {
  const { t } = await setup();
  try {
    const s = await liveProject(t);
    const other = await liveProject(t);
    const { key, id } = await keyFor(t, s.supplierId);

    const started = await supply(t, key, `/surveys/${other.child._id}/start`, { method: "POST" });
    assertEquals(started.status, 200, JSON.stringify(started.json));
    const survey = started.json.result as SupplySurvey;
    assertEquals(survey.started, true);
    assertMatch(survey.entryLink!, /^http:\/\/localhost\/survey\/start\/[0-9a-f]{24}\?sid=\[sid\]$/);
    // the new map is in the project's system log, made by the supplier's key
    const logged = (await auditOf(t, other.child._id)).filter((l) => l.device === "supply API");
    assertEquals(logged.map((l) => l.name.endsWith(`(API key ${id})`)), [true]);
    const again = await supply(t, key, `/surveys/${other.child._id}/start`, { method: "POST" });
    assertEquals([again.status, again.json.message], [409, "You have already started this project"]);
    const badLinks = await supply(t, key, `/surveys/${s.child._id}/start`, {
      method: "POST",
      body: { redirectComplete: "not a url" },
    });
    assertEquals(badLinks.status, 400);

    const bad = [
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["limit=abc", "limit"],
      ["cursor=bm90LWEtY3Vyc29y", "cursor"],
      ["updated_since=yesterday", "updated_since"],
      ["updatedSince=2026-11-26", "updatedSince"],
    ];
    for (const [query, path] of bad) {
      const r = await supply(t, key, `/surveys?${query}`);
      assertEquals(r.status, 400, query);
      assertEquals(r.json.errors[0].path, path, query);
      assertEquals(r.json.message, r.json.errors[0].message, query);
    }

    await t.ok(K.revokeSupplierApiKeyCall, { as: "ADMIN", params: { id: s.supplierId, keyId: id } });
    const revoked = await supply(t, key, "/surveys");
    assertEquals([revoked.status, revoked.json], [401, { message: "This API key has been revoked" }]);
  } finally {
    await t.close();
  }
});
