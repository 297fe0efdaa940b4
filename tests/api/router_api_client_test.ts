/**
 * API-integrated clients (issue 23 item 5): the router asks the client's survey platform for each
 * respondent's link, as the client record's API fields describe, through the outbound client. Here
 * the platform is a local stand-in (Deno.serve on 127.0.0.1, allowed by OUTBOUND_ALLOW): it sees
 * the renamed variables and the key header, and its link is where the respondent goes; a stand-in
 * that hangs or answers garbage ends the respondent in the survey-close redirect, the reason
 * recorded and counted on the project; the client's own identifier on its return finds the session.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { makeClient, makeParent } from "../helpers/fixtures.ts";
import {
  addQuestion,
  back,
  CLIENT_URL,
  counts,
  enter,
  hit,
  liveProject,
  PANEL,
  router,
  sig,
} from "../helpers/router.ts";
import { securityStatsCall } from "../../shared/api/project-reports.ts";
import { addClient, updateClientCall } from "../../shared/api/clients.ts";
import { reconcileUpload } from "../../shared/api/reconcile.ts";
import { closeForReconcile } from "../helpers/reconcile.ts";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";
import type { RouterOptions } from "../../server/domain/router/options.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";

type Seen = { method: string; url: URL; headers: Headers; body: string };
type Mode = "ok" | "hang" | "garbage" | "500" | "nolink" | "javascript";

/** A stand-in survey platform: answers a link per respondent (or misbehaves as told). */
function platform() {
  const seen: Seen[] = [];
  let mode: Mode = "ok";
  const hanging: (() => void)[] = [];
  let n = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push({ method: req.method, url, headers: req.headers, body: await req.text() });
    if (mode === "hang") {
      await new Promise<void>((r) => hanging.push(r));
      return new Response("late");
    }
    if (mode === "garbage") return new Response("<html>Service unavailable</html>");
    if (mode === "500") return Response.json({ error: "down" }, { status: 500 });
    if (mode === "nolink") return Response.json({ data: { status: "queued" } });
    if (mode === "javascript") return Response.json({ data: { link: "javascript:alert(1)" } });
    n++;
    return Response.json({
      data: { link: `https://survey.client.example/s/${n}?ticket=t${n}`, respondentId: `R-${n}` },
    });
  });
  return {
    seen,
    base: `http://127.0.0.1:${server.addr.port}`,
    set: (m: Mode) => void (mode = m),
    close: async () => {
      hanging.forEach((r) => r());
      await server.shutdown();
    },
  };
}

/** An app whose outbound policy lets the router reach the local stand-in; a short API time-out. */
const app = (router: RouterOptions = {}) =>
  testApp({ OUTBOUND_ALLOW: "127.0.0.1", CLIENT_API_TIMEOUT_MS: "300" }, { router });

/** Runs a test with a stand-in platform and such an app, both closed after it. */
async function withPlatform(
  test: (p: ReturnType<typeof platform>, t: TestApp) => Promise<void>,
  router: RouterOptions = {},
) {
  const p = platform();
  const t = await app(router);
  try {
    await test(p, t);
  } finally {
    await t.close();
    await p.close();
  }
}

/** A live project of a client with these API fields. */
async function apiProject(t: TestApp, api: Record<string, unknown>, project: Record<string, unknown> = {}) {
  const client = await makeClient(t, { isApiIntegration: true, ...api });
  const parent = await makeParent(t, { clientId: client._id });
  return { client, ...await liveProject(t, { parent, project }) };
}

const session = (t: TestApp, projectId: string, sid: string) =>
  t.deps.db.selectFrom("sessions").selectAll().where("projectId", "=", projectId).where("sid", "=", sid)
    .executeTakeFirstOrThrow();

const linkFailures = async (t: TestApp, projectId: string) =>
  (await t.ok(securityStatsCall, { as: "SUPERADMIN", params: { projectId } })).clientLinks;

Deno.test("API client: the respondent goes to exactly the link the platform answered, asked with the mapped variables, the key and the function", () =>
  withPlatform(async (p, t) => {
    const s = await apiProject(t, {
      apiUrl: `${p.base}/v2/projects/[pid]/respondents`,
      apiFunction: "createRespondent",
      apiFunctionHeader: "X-Fn",
      apiHeader: "X-Api-Key",
      apiKey: "k-secret-1",
      apiParams: "country=US&lang=en",
      apiBody: '{"respondent": {"ref": "[rid]", "panelist": "[sid]"}, "test": false}',
      apiResponseVar: "data.link",
      variableMapping: "rid=[uid]\nsource=[sid]",
      identifierMapping: "token=data.respondentId",
    });
    const r = await enter(t, s.mapId, "member 7");
    assertEquals(r.status, 302);
    assertEquals(r.location, "https://survey.client.example/s/1?ticket=t1");

    const row = await session(t, s.child._id, "member 7");
    assertEquals([row.status, row.clientUrl, row.clientRef], ["redirected", r.location, "R-1"]);
    assertEquals(p.seen.length, 1);
    const call = p.seen[0];
    assertEquals(call.method, "POST", "a function name with a body is POSTed");
    assertEquals(call.url.pathname, `/v2/projects/${s.child.projectCode}/respondents`);
    assertEquals(call.url.searchParams.get("country"), "US");
    assertEquals(call.url.searchParams.get("lang"), "en");
    // a mapped name the body places is not sent again; one no template places goes as a parameter
    assertEquals(call.url.searchParams.get("source"), "member 7");
    assertEquals(call.url.searchParams.has("rid"), false);
    assertEquals(JSON.parse(call.body), { respondent: { ref: row.id, panelist: "member 7" }, test: false });
    assertEquals(call.headers.get("x-api-key"), "k-secret-1");
    assertEquals(call.headers.get("x-fn"), "createRespondent");
    assertEquals(call.headers.get("content-type"), "application/json");
    assertEquals((await counts(t, "projects", s.child._id)).clicked, 1);
    assertEquals(await linkFailures(t, s.parent._id), { failures: 0, lastError: "", lastAt: null });
  }));

Deno.test("API client: the client's own identifier on its return finds the session, only in the parameter the mapping names", () =>
  withPlatform(async (p, t) => {
    const s = await apiProject(t, {
      apiUrl: `${p.base}/link?rid=[rid]`,
      apiFunction: "GET",
      apiHeader: "Authorization",
      apiKey: "tok-9",
      apiResponseVar: "data.link",
      variableMapping: "rid=[uid]",
      identifierMapping: "token=data.respondentId",
    });
    await enter(t, s.mapId, "m1");
    const call = p.seen[0];
    assertEquals(call.method, "GET");
    assertEquals(call.headers.get("authorization"), "Bearer tok-9");
    const row = await session(t, s.child._id, "m1");
    assertEquals(call.url.searchParams.get("rid"), row.id);

    // the identifier in another parameter names nothing
    assertEquals((await hit(t, "/survey/end?status=c&other=R-1")).status, 404);
    const r = await hit(t, "/survey/end?status=c&token=R-1");
    assertEquals(r.status, 302);
    assertEquals(r.location, `${PANEL}/complete?sid=m1&pid=${s.child.projectCode}&uid=${row.id}`);
    assertEquals((await session(t, s.child._id, "m1")).status, "complete");
    // the server-to-server post-back too; a repeat is not counted again
    const pb = await t.app.request("/survey/postback?status=t&token=R-1");
    assertEquals([pb.status, (await pb.json()).message], [200, "Already recorded"]);
    assertEquals((await counts(t, "projects", s.child._id)).complete, 1);
  }));

Deno.test("API client: a reconcile upload of the client's own identifiers finds the sessions; the unknown ones are listed", () =>
  withPlatform(async (p, t) => {
    const s = await apiProject(t, {
      apiUrl: `${p.base}/link`,
      apiResponseVar: "data.link",
      identifierMapping: "token=data.respondentId",
    });
    for (const sid of ["a", "b", "c"]) await enter(t, s.mapId, sid);
    for (const ref of ["R-1", "R-2", "R-3"]) await hit(t, `/survey/end?status=c&token=${ref}`);
    await router(t).idle();
    await closeForReconcile(t, s);
    const b = await session(t, s.child._id, "b");
    // the client's ids, our uid for one of them, and one nobody has
    const r = await t.ok(reconcileUpload, {
      as: "SUPERADMIN",
      params: { id: s.parent._id },
      body: { type: 2, csv: "R-1\nR-3\n" + b.id + "\nR-404\n", fileName: "client.csv" },
    });
    assertEquals([r.matched, r.unknown, r.alreadyReconciled], [3, 1, 0]);
    assertEquals(r.unknownIdentifiers, ["R-404"]);
    const states = await t.deps.db.selectFrom("session_reconciles").select("sessionId").execute();
    assertEquals(states.length, 3);
  }));

Deno.test("API client: an identifier mapping naming a variable ([sid]) lets the return carry it", () =>
  withPlatform(async (p, t) => {
    const s = await apiProject(t, {
      apiUrl: `${p.base}/link`,
      apiResponseVar: "data.link",
      identifierMapping: "rid=[sid]",
    });
    await enter(t, s.mapId, "panelist-42");
    assertEquals((await session(t, s.child._id, "panelist-42")).clientRef, "panelist-42");
    const r = await hit(t, "/survey/end?status=t&rid=panelist-42");
    assertEquals(r.location, `${PANEL}/terminate?sid=panelist-42`);
    assertEquals((await session(t, s.child._id, "panelist-42")).status, "terminate");
  }));

Deno.test("API client: a platform that hangs or answers garbage sends the respondent to survey close, the reason counted once and shown on the project", () =>
  withPlatform(async (p, t) => {
    const s = await apiProject(t, { apiUrl: `${p.base}/link`, apiResponseVar: "data.link" });
    const cases: [Mode, RegExp][] = [
      ["hang", /client's API: .*(time|answer)/i],
      ["garbage", /not JSON/],
      ["500", /HTTP 500/],
      ["nolink", /no link at "data\.link"/],
      ["javascript", /not an http\(s\) URL/],
    ];
    for (const [i, [mode, reason]] of cases.entries()) {
      p.set(mode);
      const r = await enter(t, s.mapId, `bad-${i}`);
      assertEquals([r.status, r.location], [302, `${PANEL}/closed?sid=bad-${i}`], mode);
      const row = await session(t, s.child._id, `bad-${i}`);
      assertEquals([row.status, row.reason, row.clientUrl], ["closed", "client-api", ""], mode);
      assertMatch(row.detail, reason);
      assert(row.endedAt, mode);
    }
    await router(t).idle();
    // the survey was closed to them: no clicks; every failure counted once, the last one shown
    assertEquals((await counts(t, "projects", s.child._id)).clicked, 0);
    assertEquals((await counts(t, "supplier_maps", s.mapId)).clicked, 0);
    const failures = await linkFailures(t, s.parent._id);
    assertEquals(failures.failures, cases.length);
    assertMatch(failures.lastError, /not an http\(s\) URL/);
    assert(failures.lastAt);
    // a late return of a closed respondent changes nothing
    const row = await session(t, s.child._id, "bad-1");
    await back(t, row.id, "c");
    assertEquals((await session(t, s.child._id, "bad-1")).status, "closed");
    assertEquals((await linkFailures(t, s.parent._id)).failures, cases.length);
  }));

Deno.test("API client: after Samplex's own pre-screen the respondent who passes gets the platform's link; a signed return signs the client's identifier", () =>
  withPlatform(async (p, t) => {
    const s = await apiProject(t, {
      apiUrl: `${p.base}/link`,
      apiResponseVar: "data.link",
      identifierMapping: "token=data.respondentId",
    }, { isPreScreen: true, isDynamicThanksUrl: true });
    await t.deps.db.updateTable("supplier_maps").set({ isPreScreen: 1 }).where("id", "=", s.mapId).execute();
    const q = await addQuestion(t, s.child._id, { type: "TEXT", title: { en: "Your postcode?" } });
    const first = await enter(t, s.mapId, "ps-api");
    assertMatch(first.location, /^\/survey\/prescreen\//);
    assertEquals(p.seen.length, 0, "no link is asked for before the pre-screen is passed");
    const r = await t.app.request(first.location, {
      method: "POST",
      body: new URLSearchParams({ [`q_${q.id}`]: "10115" }),
    });
    assertEquals([r.status, r.headers.get("location")], [302, "https://survey.client.example/s/1?ticket=t1"]);
    assertEquals(p.seen.length, 1);
    // the secured return: the signature is over the identifier the return carries
    assertEquals((await hit(t, `/survey/end?status=c&token=R-1&sig=${"0".repeat(64)}`)).status, 403);
    const good = await hit(t, `/survey/end?status=c&token=R-1&sig=${await sig(t, s.child._id, "R-1", "c")}`);
    assertEquals(good.status, 302);
    assertEquals((await session(t, s.child._id, "ps-api")).status, "complete");
  }));

Deno.test("API client: a client without API integration is not called, whatever its API fields say; switching it on takes effect at once", () =>
  withPlatform(async (p, t) => {
    const s = await apiProject(t, {
      isApiIntegration: false,
      apiUrl: `${p.base}/link`,
      apiResponseVar: "data.link",
    });
    const r = await enter(t, s.mapId, "plain");
    const row = await session(t, s.child._id, "plain");
    assertEquals(r.location, CLIENT_URL.replace("[uid]", row.id));
    assertEquals([row.clientUrl, row.clientRef], [r.location, ""]);
    assertEquals(p.seen.length, 0);
    // and once it is switched on, the same project's next respondent gets the platform's link
    await t.ok(updateClientCall, {
      as: "SUPERADMIN",
      params: { id: s.client._id },
      body: {
        clientName: s.client.clientName,
        countryId: "US",
        isApiIntegration: true,
        apiUrl: `${p.base}/link`,
        apiResponseVar: "data.link",
      },
    });
    const r2 = await enter(t, s.mapId, "api-now");
    assertEquals(r2.location, "https://survey.client.example/s/1?ticket=t1");
    assertEquals(p.seen.length, 1);
  }, { configTtlMs: 10 * 60_000 })); // cached settings: the client's change is what drops them

Deno.test("API client: saving an API URL the outbound policy refuses, or a body that is not JSON, is a 400 on the field", async () => {
  const t = await testApp();
  try {
    const r = await t.api(addClient, {
      as: "SUPERADMIN",
      body: {
        clientName: "Inside",
        countryId: "US",
        isApiIntegration: true,
        apiUrl: "http://127.0.0.1:9/[uid]",
      },
    });
    assertEquals(r.status, 400);
    assertEquals(r.json.errors[0].path, "apiUrl");
    assertMatch(r.json.message, /will not call this URL/);
    const b = await t.api(addClient, {
      as: "SUPERADMIN",
      body: { clientName: "Body", countryId: "US", isApiIntegration: true, apiBody: "{rid: [uid]}" },
    });
    assertEquals(b.status, 400);
    assertEquals(b.json.errors, [{ path: "apiBody", message: "API body must be JSON" }]);
  } finally {
    await t.close();
  }
});

Deno.test("API client: an address the outbound policy refuses at call time is a link failure, not a call", async () => {
  const t = await testApp({ CLIENT_API_TIMEOUT_MS: "300" });
  try {
    const s = await apiProject(t, { apiUrl: "https://api.client.example/link" });
    // saved before the policy changed (OUTBOUND_ALLOW no longer lists it)
    await t.deps.db.updateTable("clients").set({ apiUrl: "http://127.0.0.1:9/link" })
      .where("id", "=", s.client._id).execute();
    const r = await enter(t, s.mapId, "x1");
    assertEquals(r.location, `${PANEL}/closed?sid=x1`);
    const row = await session(t, s.child._id, "x1");
    assertEquals(row.reason, "client-api");
    assertMatch(row.detail, /Refused/);
  } finally {
    await t.close();
  }
});

Deno.test("screen URL integration: a client whose link is its own screener skips Samplex's pre-screen", async () => {
  const t = await app();
  try {
    const client = await makeClient(t, { isScreenUrlIntegration: true });
    const parent = await makeParent(t, { clientId: client._id });
    const s = await liveProject(t, { parent, project: { isPreScreen: true }, map: { isPreScreen: true } });
    await addQuestion(t, s.child._id, {
      type: "RADIO",
      title: { en: "Age?" },
      options: [{ title: "18-24" }],
    });
    const r = await enter(t, s.mapId, "scr-1");
    const row = await session(t, s.child._id, "scr-1");
    assertEquals([r.location, row.status], [CLIENT_URL.replace("[uid]", row.id), "redirected"]);

    // the same project under a client without it asks the questions first
    const other = await liveProject(t, { project: { isPreScreen: true }, map: { isPreScreen: true } });
    await addQuestion(t, other.child._id, {
      type: "RADIO",
      title: { en: "Age?" },
      options: [{ title: "18-24" }],
    });
    const r2 = await enter(t, other.mapId, "scr-2");
    assertMatch(r2.location, /\/survey\/prescreen\//);
  } finally {
    await t.close();
  }
});

Deno.test({
  name:
    "API client on sqld: two instances write links and failures through the remote writer; the client's id returns at either; counters equal a recount",
  ignore: !sqldSupported,
  fn: async () => {
    await using server = await startSqld();
    const p = platform();
    const env = { DATABASE_URL: server.url, OUTBOUND_ALLOW: "127.0.0.1", CLIENT_API_TIMEOUT_MS: "1000" };
    const a = await testApp(env);
    const b = await testApp(env);
    try {
      const s = await apiProject(a, {
        apiUrl: `${p.base}/link`,
        apiResponseVar: "data.link",
        identifierMapping: "token=data.respondentId",
      });
      const ok = await Promise.all(
        Array.from({ length: 20 }, (_, i) => enter(i % 2 ? a : b, s.mapId, `ok-${i}`)),
      );
      assertEquals(ok.filter((r) => r.location.startsWith("https://survey.client.example/s/")).length, 20);
      p.set("garbage");
      const bad = await Promise.all(
        Array.from({ length: 6 }, (_, i) => enter(i % 2 ? a : b, s.mapId, `bad-${i}`)),
      );
      assertEquals(bad.map((r) => r.location), bad.map((_, i) => `${PANEL}/closed?sid=bad-${i}`));
      // every client id returns at either instance, once
      const back = await Promise.all(
        Array.from({ length: 20 }, (_, i) => hit(i % 2 ? b : a, `/survey/end?status=c&token=R-${i + 1}`)),
      );
      assertEquals(back.filter((r) => r.location.startsWith(`${PANEL}/complete`)).length, 20);
      await a.deps.services.router.idle();
      await b.deps.services.router.idle();
      const c = await counts(a, "projects", s.child._id);
      assertEquals([c.clicked, c.complete], [20, 20]);
      assertEquals((await linkFailures(a, s.parent._id)).failures, 6);
      assertEquals(await counterMismatches(a.deps.db), []);
    } catch (e) {
      if (e instanceof Error) e.message += `\n--- sqld log tail ---\n${server.log().slice(-1500)}`;
      throw e;
    } finally {
      await b.close();
      await a.close();
      await p.close();
    }
  },
});
