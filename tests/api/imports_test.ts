/**
 * The External providers calls over the real app, with each provider's stand-in on a loopback port:
 * offers listed and exported, an offer added as a project (group + child, in one transaction, with
 * its country, LOI, IR, CPI, end date, quotas and qualifications), the same offer refused the second
 * time, a provider down or not configured, the refresh pausing a vanished offer's project, and a
 * respondent routed into an imported project whose quota the router enforces. Roles, no token and
 * malformed bodies for every call.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectGuarded, testApp } from "../helpers/app.ts";
import { goLive, importSetup as setup, respondent } from "../helpers/imports.ts";
import { back, enter, PANEL, sessionsOf, uidOf } from "../helpers/router.ts";
import { parseCsv } from "../helpers/master.ts";
import { refreshImports } from "../../server/domain/imports/refresh.ts";
import { PROVIDER_KEYS } from "../../shared/schemas/providers.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";

Deno.test("each provider's offers: a page of 20 with the provider's state, country filter, CSV named Projects", async () => {
  const s = await setup();
  try {
    for (const key of PROVIDER_KEYS) {
      const r = await s.t.call("POST", `/admin/project/api/${key}/request`, { token: s.token, body: {} });
      assertEquals(r.status, 200, r.text);
      assertEquals(r.json.result.provider.configured, true);
      assertEquals(r.json.result.metadata.limit, 20);
      assertEquals(r.json.result.data.length, Math.min(20, r.json.result.metadata.total));
      assertEquals(r.json.result.data[0].imported, null);
    }
    const us = await s.t.call("POST", "/admin/project/api/circle/request", {
      token: s.token,
      body: { filters: { countryCode: "gb" }, pageNo: 1, limit: 5 },
    });
    assert(us.json.result.data.length > 0);
    assert(us.json.result.data.every((o: { countryCode: string }) => o.countryCode === "GB"));
    const csv = await s.t.call("POST", "/admin/project/api/precision/request?format=csv", {
      token: s.token,
      body: { filter: { countryCode: "US" } },
    });
    assertEquals(csv.status, 200);
    assertMatch(csv.headers.get("content-disposition") ?? "", /filename="?Projects-/);
    const rows = parseCsv(csv.text);
    assertEquals(rows[0].slice(0, 4), ["Title", "ID", "Country", "Requirement"]);
    assertEquals(rows.length - 1, s.sb.states.precision.offers.filter((o) => o.country === "US").length);
  } finally {
    await s.close();
  }
});

Deno.test("an offer added as a project: group and child with the offer's figures, quotas and questions", async () => {
  const s = await setup();
  try {
    const src = s.sb.states.precision.offers.find((o) => o.country === "US" && o.quotas.length === 3)!;
    const r = await s.t.call("POST", "/admin/project/precision/api/add", {
      token: s.token,
      body: {
        surveyId: Number(src.id),
        title: "ignored: the provider is asked again",
        clientId: s.client._id,
      },
    });
    assertEquals(r.status, 200, r.text);
    assertMatch(r.json.message, /^Project .+ created$/);
    const { projectId, groupProjectId } = r.json.result;
    const admin = await s.t.tokenFor("SUPERADMIN");
    const child = (await s.t.call("GET", `/admin/project/${projectId}`, { token: admin })).json.result;
    assertEquals(child.parentProjectId, groupProjectId);
    assertEquals(child.projectName, src.title);
    assertEquals(child.countryId, "US");
    assertEquals(child.averageLOI, src.loi);
    assertEquals(child.ir, src.ir);
    assertEquals(child.cpi, src.cpi);
    assertEquals(child.sampleSize, src.required - src.completes);
    assertEquals(String(child.endDate).slice(0, 10), src.endDate);
    assertEquals(child.provider, "precision");
    assertEquals(child.providerSurveyId, src.id);
    assertEquals(child.isPreScreen, true);
    const group = (await s.t.call("GET", `/admin/project/${groupProjectId}`, { token: admin })).json.result;
    assertEquals(group.clientId, s.client._id);
    // quotas: gender (two cells sized by the provider's remaining) and age
    const quotas = (await s.t.call("GET", `/admin/quotas/all/${projectId}`, { token: admin })).json.result;
    const gender = quotas.find((q: { quotaId: { qualificationName: string } }) =>
      q.quotaId.qualificationName === "Precision: Gender"
    );
    assert(gender, JSON.stringify(quotas.map((q: { quotaId: unknown }) => q.quotaId)));
    const sizes = Object.fromEntries(
      gender.options.filter((o: { selected: boolean }) => o.selected).map((
        o: { text: string; quotaSize: number },
      ) => [o.text, o.quotaSize]),
    );
    assertEquals(sizes, {
      Male: src.quotas[0].required - src.quotas[0].completes,
      Female: src.quotas[1].required - src.quotas[1].completes,
    });
    // pre-screen questions: one per question, with the answers the offer qualifies
    const questions = await s.t.deps.db.selectFrom("questions").selectAll().where("projectId", "=", projectId)
      .execute();
    const age = questions.find((q) => JSON.parse(q.questionTitle).en === "Age")!;
    const ageOptions = JSON.parse(age.questionOption) as { title: string; formvalidate: boolean }[];
    assertEquals(ageOptions.map((o) => [o.title, o.formvalidate]), [
      ["18-24", true],
      ["25-34", true],
      ["35-44", true],
      ["45-54", true],
    ]);
    assertEquals(
      questions.length,
      new Set([...src.qualifications, ...src.quotas.flatMap((q) => q.conditions)].map((c) => c.questionId))
        .size,
    );
    // the link of provider ids to the library, visible as a qualification
    const link = await s.t.deps.db.selectFrom("provider_questions").selectAll().where(
      "provider",
      "=",
      "precision",
    )
      .where("questionId", "=", "1001007").executeTakeFirstOrThrow();
    assertEquals(JSON.parse(link.answers).map((a: { answerId: string }) => a.answerId), [
      "2000246",
      "2000247",
    ]);
    // logged on the project
    const logs = await s.t.deps.db.selectFrom("system_logs").select("activity").where(
      "recordId",
      "=",
      projectId,
    ).execute();
    assert(logs.some((l) => /^Imported Precision survey \d+ as /.test(l.activity)), JSON.stringify(logs));
    // the offer shows as imported; the Projects External tab lists it
    const page = await s.t.call("POST", "/admin/project/api/precision/request", {
      token: s.token,
      body: { filters: { search: src.id } },
    });
    assertEquals(page.json.result.data[0].imported.projectId, projectId);
    const ext = await s.t.call("POST", "/admin/project/external/list", { token: admin, body: { limit: 20 } });
    assertEquals(ext.status, 200, ext.text);
    assertEquals(ext.json.result.data.length, 1);
    assertEquals(ext.json.result.data[0].providerName, "Precision");
    assertEquals(ext.json.result.data[0].surveyId, src.id);
    assertEquals(ext.json.result.data[0].projectCode, child.projectCode);
  } finally {
    await s.close();
  }
});

Deno.test("the same offer imported twice is a 409 naming the project; nothing half-made is left", async () => {
  const s = await setup();
  try {
    const src = s.sb.states.toluna.offers.find((o) => o.country === "US")!;
    const first = await s.t.call("POST", "/admin/project/toluna/api/add", {
      token: s.token,
      body: { surveyId: src.id, clientId: s.client._id },
    });
    assertEquals(first.status, 200, first.text);
    const count = async () => (await s.t.deps.db.selectFrom("projects").select("id").execute()).length;
    const before = await count();
    const again = await s.t.call("POST", "/admin/project/external/add", {
      token: await s.t.tokenFor("ADMIN"),
      body: { provider: "toluna", surveyId: src.id, clientId: s.client._id },
    });
    assertEquals(again.status, 409);
    assertEquals(
      again.json.message,
      `Toluna survey ${src.id} is already imported as project ${first.json.result.projectCode}`,
    );
    assertEquals(await count(), before);
    // a client that does not exist: refused, and no group is left behind
    const other = s.sb.states.toluna.offers.filter((o) => o.country === "US")[1];
    const bad = await s.t.call("POST", "/admin/project/toluna/api/add", {
      token: s.token,
      body: { surveyId: other.id, clientId: "0123456789abcdef01234567" },
    });
    assertEquals([bad.status, bad.json.message], [404, "Client not found"]);
    assertEquals(await count(), before);
    // an offer the provider does not have
    const gone = await s.t.call("POST", "/admin/project/mrkt/api/add", {
      token: s.token,
      body: { surveyId: "999", clientId: s.client._id },
    });
    assertEquals(gone.status, 404);
    assertEquals(gone.json.message, "UniMrkt does not offer survey 999 (any more)");
  } finally {
    await s.close();
  }
});

Deno.test("quota and question calls: Logit and UniMrkt quotas, Toluna quota details and questions", async () => {
  const s = await setup();
  try {
    const lo = s.sb.states.logit.offers.find((o) => o.quotas.length)!;
    const lq = await s.t.call("POST", "/admin/project/api/logit/quota/all", {
      token: s.token,
      body: { projectId: lo.id },
    });
    assertEquals(lq.status, 200, lq.text);
    assertEquals(lq.json.result.length, lo.quotas.length);
    assertEquals(lq.json.result[0].conditions[0].answers, ["Male"]);
    const mo = s.sb.states.mrkt.offers.find((o) => o.quotas.length)!;
    const mq = await s.t.call("POST", "/admin/project/api/mrkt/quota/all", {
      token: s.token,
      body: { filters: {}, surveyId: mo.id },
    });
    assertEquals(mq.json.result.map((q: { quotaId: string }) => q.quotaId), mo.quotas.map((q) => q.id));
    const to = s.sb.states.toluna.offers.find((o) => o.country === "US" && o.quotas.length)!;
    const tq = await s.t.call("POST", "/admin/project/api/toluna/quota/all", {
      token: s.token,
      body: { quotaId: Number(to.quotas[0].parentId) },
    });
    assertEquals(tq.status, 200, tq.text);
    assertEquals(tq.json.result.surveyId, to.id);
    const qs = await s.t.call("POST", "/admin/project/api/toluna/questions/all", {
      token: s.token,
      body: { questionId: "1001538" },
    });
    assertEquals(qs.json.result[0].InternalName, "AGE");
    assertEquals(qs.json.result[0].TranslatedAnswers.length, 5);
  } finally {
    await s.close();
  }
});

Deno.test("a provider down is a 502 naming it; a provider not configured says so and nothing else breaks", async () => {
  const s = await setup();
  try {
    s.sb.states.circle.mode = "down";
    const r = await s.t.call("POST", "/admin/project/api/circle/request", { token: s.token, body: {} });
    assertEquals(r.status, 502);
    assertMatch(r.json.message, /^Circle is unavailable \(HTTP 502: Upstream maintenance\)/);
    const other = await s.t.call("POST", "/admin/project/api/logit/request", { token: s.token, body: {} });
    assertEquals(other.status, 200);
  } finally {
    await s.close();
  }
  const t = await testApp();
  try {
    const token = await t.tokenFor("APIMANAGER");
    const r = await t.call("POST", "/admin/project/api/toluna/request", { token, body: {} });
    assertEquals(r.status, 200);
    assertEquals(r.json.result.data, []);
    assertEquals(r.json.result.provider.configured, false);
    assertEquals(
      r.json.result.provider.note,
      "Toluna is not configured: set PROVIDER_TOLUNA_URL and PROVIDER_TOLUNA_KEY",
    );
    const q = await t.call("POST", "/admin/project/api/mrkt/quota/all", { token, body: { surveyId: "1" } });
    assertEquals(q.status, 502);
    assertEquals(q.json.message, "UniMrkt is not configured: set PROVIDER_MRKT_URL and PROVIDER_MRKT_KEY");
    const ext = await t.call("POST", "/admin/project/external/list", {
      token: await t.tokenFor("MANAGER"),
      body: {},
    });
    assertEquals(ext.status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("the router enforces an imported quota like a hand-made one", async () => {
  const s = await setup();
  try {
    const src = s.sb.states.precision.offers.find((o) => o.country === "US" && o.quotas.length >= 2)!;
    // the provider wants one more female complete
    src.quotas[1].required = src.quotas[1].completes + 1;
    const r = await s.t.call("POST", "/admin/project/precision/api/add", {
      token: s.token,
      body: { surveyId: src.id, clientId: s.client._id },
    });
    assertEquals(r.status, 200, r.text);
    const projectId = r.json.result.projectId;
    const mapId = await goLive(s, projectId);
    const questions = await s.t.deps.db.selectFrom("questions").selectAll().where("projectId", "=", projectId)
      .execute();
    const respond = async (sid: string, gender: string) => {
      const page = await enter(s.t, mapId, sid);
      assertEquals(page.status, 302, page.text);
      assert(page.location.startsWith("/survey/"), `${sid}: the pre-screen page, not ${page.location}`);
      const form = new URLSearchParams();
      for (const q of questions) {
        const opts = JSON.parse(q.questionOption) as { _id: string; title: string; formvalidate: boolean }[];
        const pick = opts.find((o) => o.title === gender) ?? opts.find((o) => o.formvalidate)!;
        form.set(`q_${q.id}`, pick._id);
      }
      const res = await s.t.app.request(page.location, { method: "POST", body: form });
      if (!res.headers.get("location")) throw new Error(`${res.status} ${await res.text()}`);
      return res.headers.get("location")!;
    };
    const f1 = await respond("f1", "Female");
    assert(f1.startsWith("https://client.example"), f1);
    assert((await back(s.t, uidOf(f1), "c")).location.startsWith(`${PANEL}/complete`));
    assertEquals(await respond("f2", "Female"), `${PANEL}/quotafull?sid=f2`, "the Female cell is full");
    const m1 = await respond("m1", "Male");
    assert(m1.startsWith("https://client.example"), "Male still open");
    const rows = await sessionsOf(s.t, projectId);
    assertEquals(rows.map((x) => [x.sid, x.status, x.reason]), [["f1", "complete", "client"], [
      "f2",
      "overQuota",
      "quota-option-full",
    ], ["m1", "redirected", ""]]);
  } finally {
    await s.close();
  }
});

Deno.test("refresh: a vanished offer pauses its Live project; a new CPI and remaining are written; all logged", async () => {
  const s = await setup();
  try {
    const [a, b] = s.sb.states.logit.offers.filter((o) => o.quotas.length);
    const ids: string[] = [];
    for (const o of [a, b]) {
      const r = await s.t.call("POST", "/admin/project/logit/api/add", {
        token: s.token,
        body: { surveyId: o.id, clientId: s.client._id },
      });
      assertEquals(r.status, 200, r.text);
      ids.push(r.json.result.projectId);
      await goLive(s, r.json.result.projectId);
    }
    // a vanishes; b's CPI and remaining change
    s.sb.states.logit.offers = s.sb.states.logit.offers.filter((o) => o !== a);
    b.cpi = 9.99;
    b.completes += 3;
    b.quotas[0].completes += 3;
    const registry = s.sb.registry();
    const report = await refreshImports(s.t.deps, (k) => registry.find(k), s.t.deps.now);
    assertEquals([report.checked, report.paused, report.updated, report.failed], [2, 1, 1, []]);
    const status = async (
      id: string,
    ) => (await s.t.deps.db.selectFrom("projects").select(["projectStatus", "cpi"]).where("id", "=", id)
      .executeTakeFirstOrThrow());
    assertEquals((await status(ids[0])).projectStatus, PROJECT_STATUS.PAUSED);
    assertEquals(await status(ids[1]), { projectStatus: PROJECT_STATUS.LIVE, cpi: 9.99 });
    const logs = async (id: string) =>
      (await s.t.deps.db.selectFrom("system_logs").select("activity").where("recordId", "=", id).execute())
        .map((l) => l.activity);
    assert((await logs(ids[0])).includes(`Logit no longer offers survey ${a.id}`));
    assert((await logs(ids[0])).some((l) => /changed from Live to Paused/.test(l)));
    assert((await logs(ids[1])).some((l) => l.startsWith(`Logit survey ${b.id} changed: CPI`)));
    // the quota cell follows the provider's remaining
    const quota = await s.t.deps.db.selectFrom("project_quotas").select("quotaValue").where(
      "projectId",
      "=",
      ids[1],
    )
      .executeTakeFirstOrThrow();
    assertEquals(JSON.parse(quota.quotaValue)[0].quotaSize, b.quotas[0].required - b.quotas[0].completes);
    const ext = await s.t.call("POST", "/admin/project/external/list", {
      token: await s.t.tokenFor("ADMIN"),
      body: { filter: { offerState: ["vanished"] } },
    });
    assertEquals(ext.json.result.data.map((x: { projectId: string }) => x.projectId), [ids[0]]);
    // a second round changes nothing more
    const again = await refreshImports(s.t.deps, (k) => registry.find(k), s.t.deps.now);
    assertEquals([again.paused, again.updated], [0, 0]);
  } finally {
    await s.close();
  }
});

Deno.test("every call: no token 401, wrong role 403, malformed body 400", async () => {
  const s = await setup();
  try {
    const calls: [string, unknown][] = [
      ...PROVIDER_KEYS.map((k) => [`/admin/project/api/${k}/request`, {}] as [string, unknown]),
      ...PROVIDER_KEYS.map((k) =>
        [`/admin/project/${k}/api/add`, { surveyId: "1", clientId: s.client._id }] as [string, unknown]
      ),
      ["/admin/project/api/logit/quota/all", { projectId: "1" }],
      ["/admin/project/api/toluna/quota/all", { quotaId: "1" }],
      ["/admin/project/api/toluna/questions/all", { questionId: "1" }],
      ["/admin/project/api/mrkt/quota/all", { surveyId: "1" }],
    ];
    for (const [path, body] of calls) {
      await expectGuarded(s.t, "POST", path, "MANAGER", body);
      const bad = await s.t.call("POST", path, { token: s.token, raw: "{nope" });
      assertEquals(bad.status, 400, path);
    }
    for (const path of ["/admin/project/external/list", "/admin/project/external/add"]) {
      await expectGuarded(s.t, "POST", path, "APIMANAGER", {});
      assertEquals(
        (await s.t.call("POST", path, { token: await s.t.tokenFor("ADMIN"), raw: "[" })).status,
        400,
      );
    }
    const r = await s.t.call("POST", "/admin/project/precision/api/add", {
      token: s.token,
      body: { surveyId: "", clientId: "x" },
    });
    assertEquals(r.status, 400);
    assertEquals(r.json.errors.map((e: { path: string }) => e.path).sort(), ["clientId", "surveyId"]);
    const q = await s.t.call("POST", "/admin/project/api/logit/quota/all", {
      token: s.token,
      body: { projectId: { a: 1 } },
    });
    assertEquals(q.status, 400);
    const ext = await s.t.call("POST", "/admin/project/external/add", {
      token: await s.t.tokenFor("ADMIN"),
      body: { provider: "acme", surveyId: "1", clientId: s.client._id },
    });
    assertEquals(ext.status, 400);
  } finally {
    await s.close();
  }
});

Deno.test("an interlocked quota (Gender x Age) is enforced: its combination closes at its limit, others stay open", async () => {
  const s = await setup();
  try {
    const src = s.sb.states.precision.offers.find((o) => o.country === "US" && o.quotas.length >= 2)!;
    const base = Number(src.quotas[0].id) * 100;
    const combo = (id: number, gender: string, ages: string[], left: number) => ({
      id: String(base + id),
      parentId: String(base),
      layerId: String(base + 50),
      required: 10 + left,
      completes: 10,
      conditions: [{ questionId: "1001007", answerIds: [gender] }, {
        questionId: "1001538",
        answerIds: ages,
      }],
    });
    // Female x 18-34 wants one more complete; Male x 18-34 and Female x 35-44 want five
    src.quotas.push(
      combo(1, "2000247", ["2000300", "2000301"], 1),
      combo(2, "2000246", ["2000300", "2000301"], 5),
      combo(3, "2000247", ["2000302"], 5),
    );
    const r = await s.t.call("POST", "/admin/project/precision/api/add", {
      token: s.token,
      body: { surveyId: src.id, clientId: s.client._id },
    });
    assertEquals(r.status, 200, r.text);
    const projectId = r.json.result.projectId;
    // stored: one interlocked project quota on Gender and Age, three combination cells
    const rows = await s.t.deps.db.selectFrom("project_quotas").selectAll().where("projectId", "=", projectId)
      .where("isDeleted", "=", 0).execute();
    const inter = rows.filter((q) => JSON.parse(q.qualificationIds).length === 2);
    assertEquals(inter.length, 1, JSON.stringify(rows));
    const cells = JSON.parse(inter[0].quotaValue) as {
      quotaOptionId: string;
      quotaSize: number;
      options: string[][];
    }[];
    assertEquals(cells.map((c) => c.quotaSize), [1, 5, 5]);
    assertEquals(cells.map((c) => c.options.map((g) => g.length)), [[1, 2], [1, 2], [1, 1]]);
    // the single-question Gender quota is made as before, beside it
    assert(
      rows.some((q) => JSON.parse(q.qualificationIds).length === 0 && JSON.parse(q.quotaValue).length === 2),
    );
    // the project's quota screen names it readably
    const admin = await s.t.tokenFor("SUPERADMIN");
    const listed = (await s.t.call("GET", `/admin/quotas/all/${projectId}`, { token: admin })).json.result;
    const shown = listed.find((q: { quotaId: { qualificationName: string } }) =>
      q.quotaId.qualificationName === "Precision: Gender x Age"
    );
    assert(
      shown,
      JSON.stringify(
        listed.map((q: { quotaId: { qualificationName: string } }) => q.quotaId.qualificationName),
      ),
    );
    assertEquals(shown.options.map((o: { text: string }) => o.text), [
      "Female x 18-24 or 25-34",
      "Male x 18-24 or 25-34",
      "Female x 35-44",
    ]);
    const log = await s.t.deps.db.selectFrom("system_logs").select("activity").where(
      "recordId",
      "=",
      projectId,
    )
      .where("activity", "like", "Imported%").executeTakeFirstOrThrow();
    assertMatch(log.activity, /\(3 interlocked\)/);

    const mapId = await goLive(s, projectId);
    const respond = respondent(s, projectId, mapId);
    const f1 = await respond("f1", { Gender: "Female", Age: "18-24" });
    assert(f1.startsWith("https://client.example"), f1);
    assert((await back(s.t, uidOf(f1), "c")).location.startsWith(`${PANEL}/complete`));
    // the combination is full for any age in it; the other combinations stay open
    assertEquals(await respond("f2", { Gender: "Female", Age: "25-34" }), `${PANEL}/quotafull?sid=f2`);
    assert((await respond("m1", { Gender: "Male", Age: "25-34" })).startsWith("https://client.example"));
    assert((await respond("f3", { Gender: "Female", Age: "35-44" })).startsWith("https://client.example"));
    const after = await s.t.deps.db.selectFrom("project_quotas").select("quotaValue").where(
      "id",
      "=",
      inter[0].id,
    )
      .executeTakeFirstOrThrow();
    assertEquals(JSON.parse(after.quotaValue).map((c: { completes: number }) => c.completes), [1, 0, 0]);
    const sessions = await sessionsOf(s.t, projectId);
    const f2 = sessions.find((x: { sid: string }) => x.sid === "f2")!;
    assertEquals(f2.reason, "quota-option-full");
  } finally {
    await s.close();
  }
});

Deno.test("mappings: API managers see each provider question's links and correct them; new imports and live projects follow", async () => {
  const s = await setup();
  try {
    const offers = s.sb.states.precision.offers.filter((o) => o.country === "US" && o.quotas.length >= 2);
    const [a, b] = offers;
    const add = async (o: typeof a) => {
      const r = await s.t.call("POST", "/admin/project/precision/api/add", {
        token: s.token,
        body: { surveyId: o.id, clientId: s.client._id },
      });
      assertEquals(r.status, 200, r.text);
      return r.json.result as { projectId: string; projectCode: string };
    };
    const first = await add(a);
    const list = await s.t.call("POST", "/admin/project/api/mappings/list", {
      token: s.token,
      body: { filter: { provider: ["precision"] }, search: "Gender" },
    });
    assertEquals(list.status, 200, list.text);
    const gender = list.json.result.data.find((m: { questionId: string }) => m.questionId === "1001007");
    assert(gender, list.text);
    assertEquals(gender.qualificationName, "Precision: Gender");
    assertEquals(gender.questionName, "Gender");
    assertEquals(gender.imports, 1);
    assertEquals(
      gender.answers.map((x: { answerId: string; answerText: string; optionText: string }) => [
        x.answerId,
        x.answerText,
        x.optionText,
      ]),
      [["2000246", "Male", "Male"], ["2000247", "Female", "Female"]],
    );

    // staff's own library qualification, with other wording
    const db = s.t.deps.db, stamp = new Date().toISOString();
    const libId = "6a0000000000000000000001",
      man = "6a0000000000000000000002",
      woman = "6a0000000000000000000003";
    await db.insertInto("qualifications").values({
      id: libId,
      qualificationName: "Gender (library)",
      qualificationKey: "gender_lib",
      qualificationIcon: "",
      isActive: 1,
      isDeleted: 0,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    await db.insertInto("qualification_options").values([
      { id: man, qualificationId: libId, text: "Man", subText: "", isActive: 1, isDeleted: 0, sortOrder: 0 },
      {
        id: woman,
        qualificationId: libId,
        text: "Woman",
        subText: "",
        isActive: 1,
        isDeleted: 0,
        sortOrder: 1,
      },
    ]).execute();

    const path = `/admin/project/api/mappings/${gender._id}`;
    // bad input: 4xx with the envelope, nothing changed
    for (
      const [body, status] of [
        [{ answers: "x" }, 400],
        [{ answers: [{ answerId: "999", optionId: null }] }, 400],
        [{ answers: [{ answerId: "2000247", optionId: woman }] }, 400], // not an option of Precision: Gender
        [{ qualificationId: "6a00000000000000000000ff" }, 404], // no such qualification
        [{ qualificationId: "nope" }, 400],
      ] as const
    ) {
      const r = await s.t.call("PUT", path, { token: s.token, body });
      assertEquals(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert(typeof r.json.message === "string");
    }
    assertEquals(
      (await s.t.call("PUT", "/admin/project/api/mappings/6a00000000000000000000fe", {
        token: s.token,
        body: {},
      })).status,
      404,
    );

    // relink the question to the library qualification: answers follow by position of choice
    const fix = await s.t.call("PUT", path, {
      token: s.token,
      body: {
        qualificationId: libId,
        answers: [{ answerId: "2000246", optionId: man }, { answerId: "2000247", optionId: woman }],
      },
    });
    assertEquals(fix.status, 200, fix.text);
    assertMatch(fix.json.message, new RegExp(`re-mapped ${first.projectCode}`));
    assertEquals(fix.json.result.remapped.map((p: { projectCode: string }) => p.projectCode), [
      first.projectCode,
    ]);
    assertEquals(fix.json.result.mapping.answers.map((x: { optionText: string }) => x.optionText), [
      "Man",
      "Woman",
    ]);
    const logged = await db.selectFrom("system_logs").select(["activity", "module"]).where(
      "recordId",
      "=",
      gender._id,
    )
      .execute();
    assertEquals(logged.length, 1);
    assertEquals(logged[0].module, "Api Projects");
    assertMatch(logged[0].activity, /linked to Gender \(library\).*Female \(2000247\) -> Woman/);
    // the live import now counts on the library options, its pre-screen asks them
    const quotaOf = async (projectId: string) =>
      await db.selectFrom("project_quotas").selectAll().where("projectId", "=", projectId).where(
        "isDeleted",
        "=",
        0,
      )
        .where("qualificationId", "=", libId).executeTakeFirst();
    assertEquals(
      JSON.parse((await quotaOf(first.projectId))!.quotaValue).map((c: { quotaOptionId: string }) =>
        c.quotaOptionId
      ),
      [man, woman],
    );

    // a new import follows the correction, and the router enforces it: Woman closes at its size
    b.quotas[1].required = b.quotas[1].completes + 1;
    const second = await add(b);
    const q2 = await quotaOf(second.projectId);
    assert(q2, "the new import's Gender quota is on the library qualification");
    assertEquals(
      JSON.parse(q2.quotaValue).find((c: { quotaOptionId: string }) => c.quotaOptionId === woman).quotaSize,
      1,
    );
    const mapId = await goLive(s, second.projectId);
    const respond = respondent(s, second.projectId, mapId);
    const w1 = await respond("w1", { Gender: "Woman" });
    assert(w1.startsWith("https://client.example"), w1);
    assert((await back(s.t, uidOf(w1), "c")).location.startsWith(`${PANEL}/complete`));
    assertEquals(await respond("w2", { Gender: "Woman" }), `${PANEL}/quotafull?sid=w2`);
    assert((await respond("m1", { Gender: "Man" })).startsWith("https://client.example"));

    // unlinking Woman would drop the second project's counted complete: that project is left as it was
    const un = await s.t.call("PUT", path, {
      token: s.token,
      body: { answers: [{ answerId: "2000247", optionId: null }] },
    });
    assertEquals(un.status, 200, un.text);
    assertEquals(un.json.result.remapped.map((p: { projectCode: string }) => p.projectCode), [
      first.projectCode,
    ]);
    assertEquals(un.json.result.unchanged.map((p: { projectCode: string }) => p.projectCode), [
      second.projectCode,
    ]);
    assertMatch(un.json.message, /left unchanged .*1 complete would be dropped/);
    assertEquals(JSON.parse((await quotaOf(second.projectId))!.quotaValue).length, 2);
    assertEquals(JSON.parse((await quotaOf(first.projectId))!.quotaValue).length, 1);
  } finally {
    await s.close();
  }
});

Deno.test("mappings: APIMANAGER only; no token 401", async () => {
  const s = await setup();
  try {
    await expectGuarded(s.t, "POST", "/admin/project/api/mappings/list", "SUPERADMIN", {});
    await expectGuarded(s.t, "PUT", "/admin/project/api/mappings/6a00000000000000000000fe", "MANAGER", {});
    const bad = await s.t.call("POST", "/admin/project/api/mappings/list", {
      token: s.token,
      body: { pageNo: "x" },
    });
    assertEquals(bad.status, 400);
  } finally {
    await s.close();
  }
});
