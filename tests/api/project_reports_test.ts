/**
 * The Projects area on top of the router: return links from the server, the identifier and
 * pre-screen reports (streamed CSV), security stats by reason.
 */
import Papa from "papaparse";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { makeParent, makeSupplier } from "../helpers/fixtures.ts";
import {
  addQuestion,
  back,
  counts,
  enter,
  enterTest,
  liveProject,
  PANEL,
  panelRedirects,
  router,
  uidOf,
} from "../helpers/router.ts";
import { returnSignature } from "../../server/domain/router/links.ts";
import { identifierPages, reportMaps } from "../../server/domain/projects/identifiers-report.ts";
import { prescreenReport } from "../../server/domain/projects/prescreen-report.ts";
import type { RiskChecker } from "../../server/domain/router/security.ts";
import { maskSecret } from "../../shared/secrets.ts";
import * as PRep from "../../shared/api/project-reports.ts";
import * as P from "../../shared/api/projects.ts";
import * as Maps from "../../shared/api/supplier-maps.ts";
import type { AnyContract, BodyIn } from "../../shared/api/contract.ts";

const IDENTIFIER_HEADER = [
  "Project code",
  "Project name",
  "Supplier name",
  "Supplier identifier",
  "User identifier",
  "Start (UTC)",
  "End (UTC)",
  "Country",
  "IP address",
  "Device type",
  "Browser detail",
  "Status",
  "Reason",
];
const DATE_TIME = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

/** A CSV answer as rows of cells (the BOM dropped); asserts it is a CSV download. */
function csvRows(r: { status: number; text: string; headers: Headers }): string[][] {
  assertEquals(r.status, 200, r.text.slice(0, 300));
  assertMatch(r.headers.get("content-type") ?? "", /^text\/csv/);
  assertMatch(r.headers.get("content-disposition") ?? "", /^attachment; filename=".+\.csv"$/);
  const parsed = Papa.parse<string[]>(r.text.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  return parsed.data;
}

/** Rows as objects keyed by the header. */
function records(rows: string[][]): Record<string, string>[] {
  const [head, ...body] = rows;
  return body.map((cells) => Object.fromEntries(head.map((h, i) => [h, cells[i]])));
}

async function mapSupplier(t: TestApp, projectId: string) {
  const supplier = await makeSupplier(t);
  const r = await t.api(Maps.saveSupplierMapCall, {
    as: "ADMIN",
    body: { projectId, supplierId: supplier._id, supplierCPI: 1, ...panelRedirects },
  });
  assertEquals(r.status, 200);
  return {
    mapId: r.json.result._id as string,
    supplierId: supplier._id as string,
    supplierName: supplier.supplierName as string,
  };
}

// ---------------------------------------------------------------- return links

Deno.test("return links: the projects list metadata carries postBacks and notifyUrls from PUBLIC_URL, else the request origin", async () => {
  for (
    const [env, base] of [[{ PUBLIC_URL: "https://go.samplex.test" }, "https://go.samplex.test"], [
      {},
      "http://localhost",
    ]] as const
  ) {
    const t = await testApp(env);
    try {
      await makeParent(t);
      const r = await t.api(P.listProjects, { as: "BDE", body: {} });
      assertEquals(r.status, 200);
      const meta = r.json.result.metadata;
      assertEquals(meta.total, 1);
      assertEquals(meta.postBacks, [
        { label: "Complete", url: `${base}/survey/end?status=c&uid=[uid]` },
        { label: "Terminate", url: `${base}/survey/end?status=t&uid=[uid]` },
        { label: "Over Quota", url: `${base}/survey/end?status=q&uid=[uid]` },
        { label: "Quality Term", url: `${base}/survey/end?status=f&uid=[uid]` },
      ]);
      assertEquals(meta.notifyUrls, [
        { label: "Post-back (server to server)", url: `${base}/survey/postback?status=[status]&uid=[uid]` },
      ]);
    } finally {
      await t.close();
    }
  }
});

Deno.test("Redirects: a secured child's links carry [sig]; editors get its key, and a return signed with it counts", async () => {
  const t = await testApp({ PUBLIC_URL: "https://go.samplex.test" });
  try {
    const s = await liveProject(t, { project: { isDynamicThanksUrl: true } });
    const editor = await t.api(P.getProjectCall, {
      params: { id: s.child._id },
      as: "MANAGER",
    });
    assertEquals(editor.status, 200);
    const p = editor.json.result;
    assertEquals(p.projectCode, s.child.projectCode, "still the project record");
    assertEquals(p.redirects.map((l: { url: string }) => l.url), [
      "https://go.samplex.test/survey/end?status=c&uid=[uid]&sig=[sig]",
      "https://go.samplex.test/survey/end?status=t&uid=[uid]&sig=[sig]",
      "https://go.samplex.test/survey/end?status=q&uid=[uid]&sig=[sig]",
      "https://go.samplex.test/survey/end?status=f&uid=[uid]&sig=[sig]",
      "https://go.samplex.test/survey/postback?status=[status]&uid=[uid]&sig=[sig]",
    ]);
    assertEquals(p.signing.required, true);
    assertMatch(p.signing.method, /HMAC-SHA256/);
    assertEquals(p.signing.keysShown, true);
    assertEquals(p.signing.keys.length, 1);
    // the record shows the key masked; the reveal call gives it whole
    const revealed = await t.api(P.revealSigningKeyCall, {
      params: { id: s.child._id },
      as: "MANAGER",
    });
    assertEquals(revealed.status, 200);
    const { key } = revealed.json.result;
    assertMatch(key, /^[0-9a-f]{32,}$/);
    assertEquals(p.signing.keys[0].key, maskSecret(key));

    // the key shown is the one the router checks: a return signed with it counts, a wrong one does not
    const uid = uidOf((await enter(t, s.mapId, "signed-1")).location);
    assertEquals((await back(t, uid, "c", returnSignature("not-the-key", uid, "c"))).status, 403);
    assertEquals((await counts(t, "projects", s.child._id)).complete, 0);
    assert(
      (await back(t, uid, "c", returnSignature(key, uid, "c"))).location.startsWith(`${PANEL}/complete`),
    );
    assertEquals((await counts(t, "projects", s.child._id)).complete, 1);

    // read-only roles see the links and how to sign, never the key
    for (const role of ["SUBSCRIBER", "ACCOUNTANT", "BDE"] as const) {
      const r = await t.api(P.getProjectCall, { params: { id: s.child._id }, token: await t.tokenFor(role) });
      assertEquals(r.status, 200);
      assertEquals(r.json.result.redirects, p.redirects);
      assertEquals(r.json.result.signing.keysShown, false);
      assertEquals(r.json.result.signing.keys, [
        { projectId: s.child._id, projectCode: s.child.projectCode, secured: true, key: null },
      ]);
      assert(!r.text.includes(key), `${role} never receives the key`);
    }

    // a parent lists a key per child: returns are checked against the child's own key
    const second = await liveProject(t, { parent: s.parent, project: { isDynamicThanksUrl: false } });
    const parent = (await t.api(P.getProjectCall, { params: { id: s.parent._id }, as: "ADMIN" }))
      .json.result;
    assertEquals(
      parent.signing.keys.map((k: { projectCode: string; secured: boolean; key: string | null }) => [
        k.projectCode,
        k.secured,
        k.key,
      ]),
      [[s.child.projectCode, true, maskSecret(key)], [second.child.projectCode, false, null]],
    );
    await expectCallGuarded(t, P.getProjectCall, "SUPPLIER", { params: { id: s.child._id } });
  } finally {
    await t.close();
  }
});

Deno.test("Redirects: an unsecured project's links have no [sig]", async () => {
  const t = await testApp({ PUBLIC_URL: "https://go.samplex.test" });
  try {
    const s = await liveProject(t); // isDynamicThanksUrl off
    const r = await t.api(P.getProjectCall, { params: { id: s.child._id }, as: "ADMIN" });
    assertEquals(r.json.result.redirects[0], {
      label: "Complete",
      url: "https://go.samplex.test/survey/end?status=c&uid=[uid]",
    });
    assert(r.json.result.redirects.every((l: { url: string }) => !l.url.includes("sig")));
    assertEquals(r.json.result.signing.required, false);
    assertEquals(r.json.result.signing.keys[0].key, null);
  } finally {
    await t.close();
  }
});

// ---------------------------------------------------------------- identifier reports

Deno.test("child and supplier reports: each respondent's identifiers with the Support Identifiers columns, streamed as CSV", async () => {
  const t = await testApp({ TRUST_PROXY_HOPS: "1" }); // respondents behind one proxy (X-Forwarded-For)
  try {
    const token = await t.tokenFor("SUBSCRIBER");
    const a = await liveProject(t, { map: { isTestLink: true } });
    const aName =
      (await t.deps.db.selectFrom("suppliers").select("supplierName").where("id", "=", a.supplierId)
        .executeTakeFirstOrThrow()).supplierName;
    const second = await mapSupplier(t, a.child._id);
    const b = await liveProject(t, { parent: a.parent });

    const win = { "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36" };
    const u1 = uidOf((await enter(t, a.mapId, "a1", { ...win, "x-forwarded-for": "81.2.69.160" })).location);
    await back(t, u1, "c");
    await back(t, uidOf((await enter(t, a.mapId, "a2")).location), "t");
    await enter(t, a.mapId, "a1"); // a duplicate
    await enter(t, a.mapId, "=HYPERLINK(1)"); // in the survey; a formula-looking id stays text
    await enterTest(t, a.mapId, "tester"); // test entries are not respondents
    await enter(t, second.mapId, "b1", { "user-agent": IPHONE });
    await t.api(Maps.updateSupplierMapCall, {
      params: { id: second.mapId },
      as: "ADMIN",
      body: { allowTraffic: false },
    });
    await enter(t, second.mapId, "b2"); // refused: traffic off
    await back(t, uidOf((await enter(t, b.mapId, "c1")).location), "c");
    await router(t).idle();

    const child = csvRows(
      await t.api(PRep.identifiersReportCall, { token, body: { projectId: a.child._id } }),
    );
    assertEquals(child[0], IDENTIFIER_HEADER);
    const rows = records(child);
    assertEquals(rows.length, 6, "every live arrival of the child, no test entry");
    assertEquals(
      rows.map((r) => `${r["Supplier name"]}|${r["Supplier identifier"]}|${r.Status}`).sort(),
      [
        `${aName}|'=HYPERLINK(1)|In Survey`,
        `${aName}|a1|Complete`,
        `${aName}|a1|Duplicate`,
        `${aName}|a2|Terminate`,
        `${second.supplierName}|b1|In Survey`,
        `${second.supplierName}|b2|Survey Closed`,
      ].sort(),
    );
    const done = rows.find((r) => r.Status === "Complete")!;
    assertEquals(done["Project code"], a.child.projectCode);
    assertEquals(done["Project name"], a.child.projectName);
    assertEquals(done["User identifier"], u1);
    assertMatch(done["Start (UTC)"], DATE_TIME);
    assertMatch(done["End (UTC)"], DATE_TIME);
    assertEquals(done.Country, "United Kingdom", "the embedded database places 81.2.69.160");
    assertEquals(done["IP address"], "81.2.69.160");
    assertEquals(done["Device type"], "Desktop");
    assertMatch(done["Browser detail"], /Chrome 131 on Windows/);
    assertEquals(done.Reason, "Client return");
    assertEquals(rows.find((r) => r.Status === "Duplicate")!.Reason, "Duplicate respondent");
    assertEquals(rows.find((r) => r["Supplier identifier"] === "b1")!["Device type"], "Mobile");
    assertEquals(rows.find((r) => r.Status === "Survey Closed")!.Reason, "Supplier traffic off");
    // grouped by supplier, outcomes first
    const first = rows.findIndex((r) => r["Supplier name"] === aName);
    assertEquals(rows.slice(first, first + 4).map((r) => r.Status), [
      "Complete",
      "Terminate",
      "Duplicate",
      "In Survey",
    ]);

    // a parent: every child's respondents
    const all = records(
      csvRows(
        await t.api(PRep.identifiersReportCall, { token, body: { projectId: a.parent._id } }),
      ),
    );
    assertEquals(all.length, 7);
    assertEquals(
      all.filter((r) => r["Project code"] === b.child.projectCode).map((r) => r["Supplier identifier"]),
      ["c1"],
    );

    // one supplier's respondents, named by its map on the project (or on the parent)
    for (const projectId of [a.child._id, a.parent._id]) {
      const sup = await t.api(PRep.supplierReportCall, {
        token,
        body: { supplierMapId: second.mapId, projectId },
      });
      const got = records(csvRows(sup));
      assertEquals(got.map((r) => r["Supplier identifier"]).sort(), ["b1", "b2"]);
      assert(got.every((r) => r["Supplier name"] === second.supplierName));
      assertMatch(
        sup.headers.get("content-disposition")!,
        new RegExp(`${a.child.projectCode}-Panel_\\w+-identifiers\\.csv`),
      );
    }
    // the spec's project identifiers report: the same rows as the child report, or one supplier's
    const idsReport = (body: BodyIn<typeof PRep.projectIdentifiersReportCall>) =>
      t.api(PRep.projectIdentifiersReportCall, { token, body });
    assertEquals(records(csvRows(await idsReport({ projectData: a.parent._id }))).length, 7);
    assertEquals(records(csvRows(await idsReport({ projectData: a.child._id, supplier: "" }))).length, 6);
    const one = await idsReport({ projectData: a.parent._id, supplier: second.supplierId });
    assertEquals(records(csvRows(one)).map((r) => r["Supplier identifier"]).sort(), ["b1", "b2"]);
    assertMatch(
      one.headers.get("content-disposition")!,
      new RegExp(`${a.parent.projectCode}-Panel_\\w+-identifiers\\.csv`),
    );
    const bad: [BodyIn<typeof PRep.projectIdentifiersReportCall>, number, string][] = [
      [{}, 400, "Project is required"],
      [{ projectData: a.child._id, supplier: "x'; DROP TABLE sessions; --" }, 400, "Unknown supplier"],
      [{ projectData: a.child._id, supplier: "0".repeat(24) }, 404, "Supplier not found"],
      [{ projectData: "0".repeat(24) }, 404, "Project not found"],
    ];
    for (const [body, status, message] of bad) {
      const r = await idsReport(body);
      assertEquals([r.status, r.json?.message], [status, message], JSON.stringify(body));
    }
    assertEquals(
      (await t.api(PRep.projectIdentifiersReportCall, {
        as: "BDE",
        body: { projectData: a.child._id },
      })).status,
      403,
    );

    // a removed supplier's respondents stay reportable
    await t.api(Maps.updateSupplierMapCall, {
      params: { id: second.mapId },
      as: "ADMIN",
      body: { isDeleted: true },
    });
    assertEquals(
      records(csvRows(
        await t.api(PRep.supplierReportCall, {
          token,
          body: { supplierMapId: second.mapId, projectId: a.child._id },
        }),
      )).length,
      2,
    );
    assertEquals(
      records(
        csvRows(
          await t.api(PRep.identifiersReportCall, { token, body: { projectId: a.child._id } }),
        ),
      )
        .length,
      6,
    );
  } finally {
    await t.close();
  }
});

Deno.test("child and supplier reports: clear 4xx for bad input, roles enforced", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const a = await liveProject(t);
    const b = await liveProject(t);
    const call = (c: AnyContract, body: unknown) => t.api(c, { token, bad: body });

    let r = await call(PRep.identifiersReportCall, {});
    assertEquals([r.status, r.json.message], [400, "Project is required"]);
    r = await call(PRep.identifiersReportCall, { projectId: "0".repeat(24) });
    assertEquals([r.status, r.json.message], [404, "Project not found"]);
    r = await t.api(PRep.identifiersReportCall, { token, raw: "{not json" });
    assertEquals([r.status, r.json.message], [400, "The request body is not valid JSON"]);

    r = await call(PRep.supplierReportCall, { projectId: a.child._id });
    assertEquals([r.status, r.json.message], [400, "Supplier map is required"]);
    assertEquals(r.json.errors, [{ path: "supplierMapId", message: "Supplier map is required" }]);
    r = await call(PRep.supplierReportCall, { supplierMapId: a.mapId, projectId: "nope" });
    assertEquals([r.status, r.json.message], [400, "Project is required"]);
    r = await call(PRep.supplierReportCall, {
      supplierMapId: "0".repeat(24),
      projectId: a.child._id,
    });
    assertEquals([r.status, r.json.message], [404, "Supplier map not found"]);
    r = await call(PRep.supplierReportCall, { supplierMapId: b.mapId, projectId: a.child._id });
    assertEquals(r.status, 400);
    assertEquals(r.json.message, `The supplier map is not on project ${a.child.projectCode}`);

    await expectCallGuarded(t, PRep.identifiersReportCall, "SUPPLIER", { body: { projectId: a.child._id } });
    await expectCallGuarded(t, PRep.supplierReportCall, "SUPPLIER", {
      body: {
        projectId: a.child._id,
        supplierMapId: a.mapId,
      },
    });
  } finally {
    await t.close();
  }
});

Deno.test("identifier pages are keyset ranges: small pages return every session once, in arrival order", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const uids: string[] = [];
    for (let i = 1; i <= 7; i++) uids.push(uidOf((await enter(t, s.mapId, `k${i}`)).location));
    await back(t, uids[2], "c");
    await router(t).idle();
    const maps = await reportMaps(t.deps.db, [s.child._id]);
    const sizes: number[] = [];
    const seen: string[] = [];
    for await (const page of identifierPages(t.deps.db, maps, 2)) {
      sizes.push(page.length);
      seen.push(...page.map((r) => r.uid));
    }
    assertEquals(sizes, [1, 2, 2, 2], "the complete, then the six in the survey two by two");
    assertEquals(seen, [uids[2], ...uids.filter((_, i) => i !== 2)]);
  } finally {
    await t.close();
  }
});

// ---------------------------------------------------------------- pre-screen reports

async function prescreenSetup() {
  const t = await testApp();
  const s = await liveProject(t, { project: { isPreScreen: true }, map: { isPreScreen: true } });
  const age = await addQuestion(t, s.child._id, {
    type: "RADIO",
    title: { en: "How old are you?" },
    options: [{ title: "Under 18", formvalidate: false }, { title: "18-34" }, { title: "35+" }],
    sortOrder: 1,
  });
  const zip = await addQuestion(t, s.child._id, {
    type: "TEXT",
    title: { en: "Your postcode?" },
    sortOrder: 2,
  });
  const answer = async (sid: string, option: number, postcode: string) => {
    const r = await enter(t, s.mapId, sid);
    assertMatch(r.location, /^\/survey\/prescreen\/[0-9a-f]{24}$/);
    await t.app.request(r.location, {
      method: "POST",
      body: new URLSearchParams({ [`q_${age.id}`]: age.options[option]._id, [`q_${zip.id}`]: postcode }),
    });
    return r.location.split("/").at(-1)!;
  };
  const u1 = await answer("p1", 1, "10001");
  const u2 = await answer("p2", 0, "10002"); // under 18: prescreen terminate
  const u3 = await answer("p3", 2, "=1+1");
  await enter(t, s.mapId, "p4"); // never answers: no row
  await router(t).idle();
  return { t, s, uids: [u1, u2, u3] };
}

const PRESCREEN_HEAD = [
  "Project code",
  "Supplier name",
  "Supplier identifier",
  "User identifier",
  "Answered (UTC)",
  "Status",
];

Deno.test("prescreen report: one row per respondent, one column per question, for a child or its parent", async () => {
  const { t, s, uids } = await prescreenSetup();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    for (const projectId of [s.child._id, s.parent._id]) {
      const r = await t.api(PRep.prescreenReportCall, { token, body: { projectId } });
      const rows = csvRows(r);
      assertEquals(rows[0], [...PRESCREEN_HEAD, "How old are you?", "Your postcode?"]);
      const got = records(rows);
      assertEquals(got.map((x) => x["User identifier"]), uids);
      assertEquals(
        got.map((x) => [x["Supplier identifier"], x.Status, x["How old are you?"], x["Your postcode?"]]),
        [
          ["p1", "In Survey", "18-34", "10001"],
          ["p2", "Prescreen Terminate", "Under 18", "10002"],
          ["p3", "In Survey", "35+", "'=1+1"],
        ],
      );
      assert(
        got.every((x) => x["Project code"] === s.child.projectCode && DATE_TIME.test(x["Answered (UTC)"])),
      );
      assertMatch(r.headers.get("content-disposition")!, /-prescreen\.csv"$/);
    }
    // a deleted question keeps its answers in the report
    const [q] = await t.deps.db.selectFrom("questions").select("id").where("projectId", "=", s.child._id)
      .orderBy("sortOrder").execute();
    await t.deps.db.updateTable("questions").set({ isDeleted: 1 }).where("id", "=", q.id).execute();
    const after = csvRows(
      await t.api(PRep.prescreenReportCall, { token, body: { projectId: s.child._id } }),
    );
    assertEquals(after[0].slice(6), ["Your postcode?", "How old are you? (deleted)"]);
    assertEquals(after[1].slice(6), ["10001", "18-34"]);
  } finally {
    await t.close();
  }
});

Deno.test("prescreen reports leave out test sessions' answers (the test link), even when their uid is pasted", async () => {
  const { t, s, uids } = await prescreenSetup();
  try {
    const token = await t.tokenFor("MANAGER");
    await t.api(Maps.updateSupplierMapCall, { params: { id: s.mapId }, token, body: { isTestLink: true } });
    const [age, zip] = await t.deps.db.selectFrom("questions").select("id").where(
      "projectId",
      "=",
      s.child._id,
    )
      .orderBy("sortOrder").execute();
    const ageOptions = JSON.parse(
      (await t.deps.db.selectFrom("questions").select("questionOption").where("id", "=", age.id)
        .executeTakeFirstOrThrow()).questionOption,
    );
    const tester = await enterTest(t, s.mapId, "tester");
    assertMatch(tester.location, /^\/survey\/prescreen\/[0-9a-f]{24}$/);
    const testUid = tester.location.split("/").at(-1)!;
    await t.app.request(tester.location, {
      method: "POST",
      body: new URLSearchParams({ [`q_${age.id}`]: ageOptions[1]._id, [`q_${zip.id}`]: "99999" }),
    });
    await router(t).idle();
    assertEquals(
      (await t.deps.db.selectFrom("prescreen_answers").select("id").where("sessionId", "=", testUid)
        .execute())
        .length,
      2,
      "the tester did answer",
    );
    for (const projectId of [s.child._id, s.parent._id]) {
      const rows = records(
        csvRows(await t.api(PRep.prescreenReportCall, { token, body: { projectId } })),
      );
      assertEquals(rows.map((x) => x["User identifier"]), uids, projectId);
    }
    const pasted = csvRows(
      await t.api(PRep.groupPrescreenReportCall, {
        token,
        body: { projectId: s.parent._id, userIdentifier: `${testUid}\n${uids[0]}`, questionIndex: [] },
      }),
    );
    assertEquals(pasted.slice(1).map((x) => x[3]), [uids[0]]);
  } finally {
    await t.close();
  }
});

Deno.test("group prescreen report: chosen questions (from the group list) and chosen hash identifiers, in the order pasted", async () => {
  const { t, s, uids } = await prescreenSetup();
  try {
    const token = await t.tokenFor("MANAGER");
    const list =
      (await t.api(PRep.groupQuestionsCall, { params: { projectId: s.parent._id }, token })).json.result;
    assertEquals(list.map((q: { value: string; label: string }) => [q.value, q.label]), [
      ["0", "Q1. How old are you?"],
      ["1", "Q2. Your postcode?"],
    ]);
    const r = await t.api(PRep.groupPrescreenReportCall, {
      token,
      body: {
        projectId: s.parent._id,
        userIdentifier: `${uids[2].toUpperCase()}\n\n ${uids[0]}, ${uids[0]}`,
        questionIndex: ["1"],
      },
    });
    const rows = csvRows(r);
    assertEquals(rows[0], [...PRESCREEN_HEAD, "Your postcode?"]);
    assertEquals(rows.slice(1).map((x) => [x[2], x[6]]), [["p3", "'=1+1"], ["p1", "10001"]]);

    // blank identifiers and no question: everyone, every question
    const everyone = csvRows(
      await t.api(PRep.groupPrescreenReportCall, {
        token,
        body: { projectId: s.child._id, userIdentifier: "", questionIndex: [] },
      }),
    );
    assertEquals(everyone.length, 4);
    assertEquals(everyone[0].length, 8);

    // a second child with questions: labels carry the child's code, answers stay in their own rows
    const other = await liveProject(t, {
      parent: s.parent,
      project: { isPreScreen: true },
      map: { isPreScreen: true },
    });
    await addQuestion(t, other.child._id, { type: "TEXT", title: { en: "Your postcode?" } });
    const both =
      (await t.api(PRep.groupQuestionsCall, { params: { projectId: s.parent._id }, token })).json.result;
    assertEquals(both.map((q: { label: string }) => q.label), [
      `${s.child.projectCode} · Q1. How old are you?`,
      `${s.child.projectCode} · Q2. Your postcode?`,
      `${other.child.projectCode} · Q1. Your postcode?`,
    ]);
    const r2 = csvRows(
      await t.api(PRep.groupPrescreenReportCall, {
        token,
        body: { projectId: s.parent._id, questionIndex: ["1", "2"] },
      }),
    );
    assertEquals(r2[0].slice(6), ["Your postcode?"], "the same question of two children is one column");
  } finally {
    await t.close();
  }
});

Deno.test("group prescreen report: clear 400s for bad identifiers and questions, roles enforced", async () => {
  const { t, s } = await prescreenSetup();
  try {
    const token = await t.tokenFor("ADMIN");
    const call = (body: unknown) => t.api(PRep.groupPrescreenReportCall, { token, bad: body });
    let r = await call({ projectId: s.child._id, userIdentifier: "nope\n0123" });
    assertEquals(r.status, 400);
    assertEquals(r.json.message, "Not a hash identifier: nope, 0123");
    assertEquals(r.json.errors[0].path, "userIdentifier");
    r = await call({ projectId: s.child._id, questionIndex: ["9"] });
    assertEquals(r.status, 400);
    assertMatch(r.json.message, /^Choose questions from the list: 9 is not a question of P\d+-01$/);
    r = await call({ projectId: s.child._id, questionIndex: ["first"] });
    assertEquals([r.status, r.json.message], [400, "Choose questions from the list"]);
    r = await call({ projectId: s.child._id, questionIndex: "0" });
    assertEquals([r.status, r.json.message], [400, "Choose questions from the list"]);
    r = await call({ projectId: s.child._id, userIdentifier: 42 });
    assertEquals([r.status, r.json.message], [400, "Not a hash identifier"]);
    r = await call({
      projectId: s.child._id,
      userIdentifier: Array(10_001).fill(0).map((_, i) => i.toString(16).padStart(24, "0")).join("\n"),
    });
    assertEquals([r.status, r.json.message], [400, "At most 10000 hash identifiers at a time"]);
    r = await call({ userIdentifier: "" });
    assertEquals([r.status, r.json.message], [400, "Project is required"]);
    r = await t.api(PRep.prescreenReportCall, { token, bad: { projectId: 7 } });
    assertEquals([r.status, r.json.message], [400, "Project is required"]);
    await expectCallGuarded(t, PRep.groupPrescreenReportCall, "SUPPLIER", {
      body: {
        projectId: s.child._id,
      },
    });
    await expectCallGuarded(t, PRep.prescreenReportCall, "SUPPLIER", { body: { projectId: s.child._id } });
    await expectCallGuarded(t, PRep.groupQuestionsCall, "SUPPLIER", { params: { projectId: s.child._id } });
  } finally {
    await t.close();
  }
});

Deno.test("prescreen report pages never split a respondent's answers", async () => {
  const { t, s, uids } = await prescreenSetup();
  try {
    const report = await prescreenReport(t.deps.db, { projectId: s.child._id }, 3);
    const rows = [];
    const sizes = [];
    for await (const page of report.pages) {
      sizes.push(page.length);
      rows.push(...page);
    }
    assert(sizes.length > 1, "more than one page");
    assertEquals(rows.map((r) => r.uid), uids);
    assertEquals(rows.map((r) => r.answers), [["18-34", "10001"], ["Under 18", "10002"], ["35+", "=1+1"]]);
  } finally {
    await t.close();
  }
});

// ---------------------------------------------------------------- security stats

Deno.test("security stats: the project's respondents stopped, by reason, per child and supplier, matching the counters", async () => {
  let clock = Date.parse("2026-11-05T09:00:00Z");
  const risk: RiskChecker = { check: ({ ip }) => ({ proxy: ip === "10.0.0.9", rdScore: null }) };
  // respondents behind one proxy (X-Forwarded-For), an edge that sets cf-ipcountry
  const t = await testApp({ TRUST_PROXY_HOPS: "1", COUNTRY_HEADER: "cf-ipcountry" }, {
    now: () => clock,
    router: { risk },
  });
  try {
    const one = await liveProject(t, {
      project: {
        isUniqueIp: true,
        maxIPCount: 1,
        isMobile: false,
        isGeoLocation: true,
        isSpeeder: true,
        speedTime: 120,
      },
    });
    const two = await liveProject(t, {
      parent: one.parent,
      project: { isProxyVpn: true, isExclude: true },
      map: { isTestLink: true },
    });
    const ip = (n: number) => ({ "x-forwarded-for": `10.0.0.${n}` });
    const fast = uidOf((await enter(t, one.mapId, "s1", ip(1))).location);
    await enter(t, one.mapId, "s1", ip(2)); // duplicate
    await enter(t, one.mapId, "s2", ip(1)); // IP address used up
    await enter(t, one.mapId, "s3", { ...ip(3), "user-agent": IPHONE }); // device
    await enter(t, one.mapId, "s4", { ...ip(4), "cf-ipcountry": "GB" }); // geo (child is US)
    const slow = uidOf((await enter(t, one.mapId, "s5", ip(5))).location);
    const client = uidOf((await enter(t, one.mapId, "s6", ip(6))).location);
    clock += 30_000;
    await back(t, fast, "c"); // speeder
    await back(t, client, "f"); // the client's quality term
    clock += 600_000;
    await back(t, slow, "c");
    await enter(t, two.mapId, "p1", ip(9)); // proxy
    await enter(t, two.mapId, "p2", ip(10));
    await enterTest(t, two.mapId, "tester", ip(9)); // test traffic is not counted
    await router(t).idle();

    const token = await t.tokenFor("BDE");
    const r = await t.api(PRep.securityStatsCall, { params: { projectId: one.parent._id }, token });
    assertEquals(r.status, 200);
    const { total, rows, checks } = r.json.result;
    assertEquals(total, {
      clicked: 9,
      security: 5,
      duplicate: 1,
      ipAddress: 1,
      geoLocation: 1,
      device: 1,
      proxyVpn: 1,
      rd: 0,
      speeder: 1,
      qualityTerm: 1,
      excluded: 0,
      preScreenTerminate: 0,
      preScreenDrop: 0,
    });
    // the same figures the router's counters hold
    const c1 = await counts(t, "projects", one.child._id), c2 = await counts(t, "projects", two.child._id);
    assertEquals(total.security, c1.security + c2.security);
    assertEquals(total.clicked, c1.clicked + c2.clicked);
    assertEquals(total.speeder + total.qualityTerm, c1.qualityTerm + c2.qualityTerm);
    assertEquals(
      rows.map((x: { projectCode: string; clicked: number; security: number; proxyVpn: number }) => [
        x.projectCode,
        x.clicked,
        x.security,
        x.proxyVpn,
      ]),
      [[one.child.projectCode, 7, 4, 0], [two.child.projectCode, 2, 1, 1]],
    );
    assertEquals(checks[0].checks, ["Unique IP (max 1)", "Geo location", "Speeder (120s)"]);
    assertEquals(checks[0].devices, ["Desktop", "Tablet"]);
    assertEquals(checks[1].checks, ["Proxy/VPN", "Exclusions"]);

    // a child alone
    const child = await t.api(PRep.securityStatsCall, { params: { projectId: two.child._id }, token });
    assertEquals([child.json.result.total.clicked, child.json.result.total.proxyVpn], [2, 1]);
    assertEquals(child.json.result.rows.length, 1);

    assertEquals(
      (await t.api(PRep.securityStatsCall, { params: { projectId: "0".repeat(24) }, token })).status,
      404,
    );
    // a malformed id in the path itself: spelled literally
    assertEquals(
      (await t.call("POST", "/admin/project/security/stat/not-an-id", { token })).status,
      404,
    );
    await expectCallGuarded(t, PRep.securityStatsCall, "SUPPLIER", { params: { projectId: one.child._id } });
  } finally {
    await t.close();
  }
});
