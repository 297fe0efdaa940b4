/**
 * A respondent whose entry was committed but whose response never arrived comes back with the same
 * sid: within two minutes, on the same supplier map, from the same address and user agent and
 * before any return, that is the same entry (same uid, nothing counted twice). Anything else is
 * still a duplicate.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import {
  addQuestion,
  back,
  counts,
  enterFrom,
  liveProject,
  PANEL,
  panelRedirects,
  router,
  sessionsOf,
  uidOf,
} from "../helpers/router.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import * as Maps from "../../shared/api/supplier-maps.ts";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const HOME = { ip: "198.51.100.7", userAgent: CHROME };

/** An app whose clock (deps.now) the test moves. */
async function clockedApp() {
  let offset = 0;
  const t = await testApp({}, { now: () => Date.now() + offset });
  return { t, advance: (ms: number) => offset += ms };
}

async function consistent(t: TestApp) {
  await router(t).idle();
  assertEquals(await counterMismatches(t.deps.db), [], "counters, sessions and rollup agree");
}

/** The project's and the map's live counters that an entry can move. */
async function figures(t: TestApp, projectId: string, mapId: string) {
  const p = await counts(t, "projects", projectId), m = await counts(t, "supplier_maps", mapId);
  const daily = await t.deps.db.selectFrom("router_daily").select(["clicked", "security", "secDuplicate"])
    .where("projectId", "=", projectId).execute();
  return {
    project: [p.clicked, p.security],
    map: [m.clicked, m.security],
    daily: daily.map((d) => [d.clicked, d.security, d.secDuplicate]),
  };
}

Deno.test("router retry: the same sid again from the same map, address and browser within 2 minutes is the same entry: same survey link, counted once", async () => {
  const { t, advance } = await clockedApp();
  try {
    const s = await liveProject(t);
    const first = await enterFrom(t, s.mapId, "lost-1", HOME);
    assertEquals(first.status, 302);
    const uid = uidOf(first.location);
    const before = await figures(t, s.child._id, s.mapId);
    assertEquals(before, { project: [1, 0], map: [1, 0], daily: [[1, 0, 0]] });

    advance(90_000);
    const again = await enterFrom(t, s.mapId, "lost-1", HOME);
    assertEquals(again.status, 302);
    assertEquals(again.location, first.location, "the same survey link, with the same uid");
    assertEquals(await figures(t, s.child._id, s.mapId), before, "nothing counted twice");
    const rows = await sessionsOf(t, s.child._id);
    assertEquals(rows.map((r) => [r.id, r.status, r.reason]), [[uid, "redirected", ""]], "no second row");
    assertEquals(rows[0].updatedAt, rows[0].createdAt, "the first row unchanged");

    // the retried respondent completes once
    assert((await back(t, uid, "c")).location.startsWith(`${PANEL}/complete`));
    assertEquals((await counts(t, "projects", s.child._id)).complete, 1);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router retry: two copies of one entry in the same instant give one session and the same link", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const [a, b] = await Promise.all([
      enterFrom(t, s.mapId, "twin", HOME),
      enterFrom(t, s.mapId, "twin", HOME),
    ]);
    assertEquals(a.location, b.location);
    assert(a.location.startsWith("https://client.example/"), a.location);
    assertEquals((await sessionsOf(t, s.child._id)).length, 1);
    assertEquals(await figures(t, s.child._id, s.mapId), {
      project: [1, 0],
      map: [1, 0],
      daily: [[1, 0, 0]],
    });
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router retry: a retried entry at the pre-screen goes back to the same pre-screen page", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { project: { isPreScreen: true }, map: { isPreScreen: true } });
    await addQuestion(t, s.child._id, { type: "TEXT", title: { en: "Your postcode?" } });
    const first = await enterFrom(t, s.mapId, "ps-1", HOME);
    assert(first.location.startsWith("/survey/prescreen/"), first.location);
    assertEquals((await enterFrom(t, s.mapId, "ps-1", HOME)).location, first.location);
    assertEquals((await sessionsOf(t, s.child._id)).map((r) => r.status), ["prescreen"]);
    assertEquals((await counts(t, "projects", s.child._id)).clicked, 1);
    await consistent(t);
  } finally {
    await t.close();
  }
});

Deno.test("router retry: another address, another browser, another supplier map, after 2 minutes or after a return: still a duplicate", async () => {
  const { t, advance } = await clockedApp();
  try {
    const s = await liveProject(t);
    const other = await makeSupplier(t);
    const otherMap = await t.api(Maps.saveSupplierMapCall, {
      as: "SUPERADMIN",
      body: { projectId: s.child._id, supplierId: other._id, supplierCPI: 1, ...panelRedirects },
    });
    assertEquals(otherMap.status, 200, otherMap.text);
    const otherMapId = otherMap.json.result._id as string;

    const cases: { sid: string; label: string; retry: () => Promise<string> }[] = [
      {
        sid: "ip",
        label: "another address",
        retry: async () => (await enterFrom(t, s.mapId, "ip", { ...HOME, ip: "198.51.100.8" })).location,
      },
      {
        sid: "ua",
        label: "another user agent",
        retry: async () => (await enterFrom(t, s.mapId, "ua", { ...HOME, userAgent: FIREFOX })).location,
      },
      {
        sid: "map",
        label: "another supplier map",
        retry: async () => (await enterFrom(t, otherMapId, "map", HOME)).location,
      },
      {
        sid: "late",
        label: "after the window",
        retry: async () => {
          advance(2 * 60_000 + 1_000);
          return (await enterFrom(t, s.mapId, "late", HOME)).location;
        },
      },
      {
        sid: "returned",
        label: "after a return",
        retry: async () => {
          const uid = (await sessionsOf(t, s.child._id)).find((r) => r.sid === "returned")!.id;
          assert((await back(t, uid, "t")).location.startsWith(`${PANEL}/terminate`));
          return (await enterFrom(t, s.mapId, "returned", HOME)).location;
        },
      },
    ];
    for (const c of cases) {
      const first = await enterFrom(t, s.mapId, c.sid, HOME);
      assert(first.location.startsWith("https://client.example/"), `${c.label}: ${first.location}`);
      const p0 = await counts(t, "projects", s.child._id);
      const location = await c.retry();
      assertEquals(location, `${PANEL}/quality?sid=${c.sid}`, `${c.label}: a duplicate`);
      const p1 = await counts(t, "projects", s.child._id);
      assertEquals(
        [p1.clicked - p0.clicked, p1.security - p0.security],
        [1, 1],
        `${c.label}: counted as security`,
      );
      const rows = (await sessionsOf(t, s.child._id)).filter((r) => r.sid === c.sid);
      assertEquals(
        rows.map((r) => r.status).toSorted(),
        [
          c.sid === "returned" ? "terminate" : "redirected",
          "duplicate",
        ].toSorted(),
        c.label,
      );
      assertEquals(rows.find((r) => r.status === "duplicate")!.reason, "duplicate-sid", c.label);
    }
    const daily = await t.deps.db.selectFrom("router_daily").select(["secDuplicate"]).execute();
    assertEquals(daily.reduce((n, d) => n + d.secDuplicate, 0), cases.length);
    await consistent(t);
  } finally {
    await t.close();
  }
});
