/**
 * Respondent profiles (issue 24 item 1): a member's answers to library questions are kept per
 * supplier and member id, not asked again, used at once when they disqualify, taken from the entry
 * link, forgotten after the expiry setting, and erased on a staff action.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { auditOf } from "../helpers/master.ts";
import { counts, hit, liveProject, PANEL, sessionsOf } from "../helpers/router.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as S from "../../shared/api/suppliers.ts";

type LibQuestion = { _id: string; questionOption: { _id: string; title: string }[] };

/** A library question: "Are you over 18?" (No disqualifies) and a postcode question. */
async function library(t: TestApp) {
  const age = await t.ok(Lib.addTempQuestion, {
    as: "SUPERADMIN",
    body: {
      questionTitle: { en: "Are you over 18?" },
      questionType: "RADIO",
      questionOption: [{ title: "Yes" }, { title: "No", formvalidate: false }],
    },
  }) as LibQuestion;
  const zip = await t.ok(Lib.addTempQuestion, {
    as: "SUPERADMIN",
    body: { questionTitle: { en: "Your postcode?" }, questionType: "TEXT", questionOption: [] },
  }) as LibQuestion;
  return { age, zip, yes: age.questionOption[0]._id, no: age.questionOption[1]._id };
}

type Lib = Awaited<ReturnType<typeof library>>;

/** A live pre-screened project with the library questions copied in (their project copies' ids). */
async function screened(t: TestApp, lib: Lib, supplierId?: string) {
  const s = await liveProject(t, {
    project: { isPreScreen: true },
    map: { isPreScreen: true },
    supplierId,
  });
  const ids: string[] = [];
  for (const q of [lib.age, lib.zip]) {
    const copy = await t.ok(Parts.addProjectQuestion, {
      as: "SUPERADMIN",
      body: { projectId: s.child._id, questionId: q._id },
    }) as { _id: string };
    ids.push(copy._id);
  }
  return { ...s, ageQ: ids[0], zipQ: ids[1] };
}

const post = (t: TestApp, path: string, form: Record<string, string>) =>
  t.app.request(path, { method: "POST", body: new URLSearchParams(form) });

const start = (t: TestApp, mapId: string, sid: string, extra = "") =>
  hit(t, `/survey/start/${mapId}?sid=${encodeURIComponent(sid)}${extra}`);

/** Answers the whole pre-screen of a fresh entry (over 18, the postcode); the client URL back. */
async function answerAll(t: TestApp, s: Awaited<ReturnType<typeof screened>>, lib: Lib, sid: string) {
  const r = await start(t, s.mapId, sid);
  assertMatch(r.location, /^\/survey\/prescreen\/[0-9a-f]{24}$/);
  const res = await post(t, r.location, { [`q_${s.ageQ}`]: lib.yes, [`q_${s.zipQ}`]: "75001" });
  assertEquals(res.status, 302);
  return res.headers.get("location")!;
}

Deno.test("profiles: a member's known answers are not asked again on another project of the same supplier; another supplier's member with the same sid is asked", async () => {
  const t = await testApp();
  try {
    const lib = await library(t);
    const a = await screened(t, lib);
    assert((await answerAll(t, a, lib, "m-1")).startsWith("https://client.example/survey?uid="));
    const kept = await t.deps.db.selectFrom("member_profiles").selectAll().orderBy("questionId").execute();
    assertEquals(
      kept.map((r) => [r.supplierId, r.memberId, r.questionId, r.source]).sort(),
      [[a.supplierId, "m-1", lib.age._id, "prescreen"], [a.supplierId, "m-1", lib.zip._id, "prescreen"]]
        .sort(),
    );

    // the same member on a second project of the same supplier: straight to the survey
    const b = await screened(t, lib, a.supplierId);
    const again = await start(t, b.mapId, "m-1");
    assert(again.location.startsWith("https://client.example/survey?uid="), again.location);
    const [sb] = await sessionsOf(t, b.child._id);
    assertEquals(sb.status, "redirected");
    const answers = await t.deps.db.selectFrom("prescreen_answers").selectAll()
      .where("projectId", "=", b.child._id).execute();
    assertEquals(
      answers.map((x) => x.answerText).sort(),
      ["75001", "Yes"],
      "the report shows the known answers",
    );
    assertEquals((await counts(t, "projects", b.child._id)).clicked, 1);

    // the same sid from another supplier is another person: asked
    const c = await screened(t, lib);
    const other = await start(t, c.mapId, "m-1");
    assertMatch(other.location, /^\/survey\/prescreen\//);
    const page = await hit(t, other.location);
    assertMatch(page.text, /Are you over 18\?/);
    assertMatch(page.text, /Your postcode\?/);
  } finally {
    await t.close();
  }
});

Deno.test("profiles: only the unknown questions are asked; a failing known answer terminates at once without a question page", async () => {
  const t = await testApp();
  try {
    const lib = await library(t);
    const a = await screened(t, lib);
    // a member who said "No" once
    const first = await start(t, a.mapId, "kid");
    const fail = await post(t, first.location, { [`q_${a.ageQ}`]: lib.no, [`q_${a.zipQ}`]: "1000" });
    assertEquals(fail.headers.get("location"), `${PANEL}/terminate?sid=kid`);

    const b = await screened(t, lib, a.supplierId);
    const r = await start(t, b.mapId, "kid");
    assertEquals(r.location, `${PANEL}/terminate?sid=kid`, "terminated at entry");
    const [sb] = await sessionsOf(t, b.child._id);
    assertEquals([sb.status, sb.reason, sb.detail], [
      "preScreenTerminate",
      "prescreen-answer",
      "Are you over 18?: No",
    ]);
    const cb = await counts(t, "projects", b.child._id);
    assertEquals([cb.clicked, cb.preScreenTerminate], [1, 1]);

    // a member known by one answer only is asked the other, and the page shows only that one
    const c = await screened(t, lib, a.supplierId);
    await t.deps.db.deleteFrom("member_profiles").where("questionId", "=", lib.age._id).execute();
    const partial = await start(t, c.mapId, "kid");
    assertMatch(partial.location, /^\/survey\/prescreen\//);
    const page = await hit(t, partial.location);
    assertMatch(page.text, /Are you over 18\?/);
    assert(!page.text.includes("Your postcode?"), "the known postcode is not asked");
    const done = await post(t, partial.location, { [`q_${c.ageQ}`]: lib.yes });
    assert(done.headers.get("location")!.startsWith("https://client.example/survey?uid="));
  } finally {
    await t.close();
  }
});

Deno.test("profiles: answers on the entry link skip their questions and are kept with source link; bad ones are ignored", async () => {
  const t = await testApp();
  try {
    const lib = await library(t);
    const a = await screened(t, lib);
    const link = `&q_${lib.age._id}=${lib.yes}&q_${lib.zip._id}=69002`;
    const r = await start(t, a.mapId, "lk-1", link);
    assert(r.location.startsWith("https://client.example/survey?uid="), r.location);
    const kept = await t.deps.db.selectFrom("member_profiles").selectAll().where("memberId", "=", "lk-1")
      .execute();
    assertEquals(kept.map((x) => x.source), ["link", "link"]);

    // a disqualifying answer on the link: terminated at once
    const no = await start(t, a.mapId, "lk-2", `&q_${lib.age._id}=${lib.no}`);
    assertEquals(no.location, `${PANEL}/terminate?sid=lk-2`);

    // unknown question ids, unknown answers, malformed and oversized values: ignored, asked as usual
    const junk = [
      `&q_${"0".repeat(24)}=${lib.yes}`,
      `&q_${lib.age._id}=${"f".repeat(24)}`,
      `&q_${lib.zip._id}=${"x".repeat(600)}`,
      `&q_nothex=1&q_=&q_${lib.age._id}=${lib.yes},${lib.no}`,
    ].join("");
    const asked = await start(t, a.mapId, "lk-3", junk);
    assertEquals(asked.status, 302);
    assertMatch(asked.location, /^\/survey\/prescreen\//);
    const page = await hit(t, asked.location);
    assertMatch(page.text, /Are you over 18\?/);
    assertMatch(page.text, /Your postcode\?/);
    // too many answer parameters: the first ones count, the rest are ignored, never a 500
    const many = Array.from({ length: 200 }, (_, i) => `&q_${i.toString(16).padStart(24, "0")}=1`).join("");
    assertEquals((await start(t, a.mapId, "lk-4", many)).status, 302);
  } finally {
    await t.close();
  }
});

Deno.test("profiles: an expired answer is asked again (profile_expiry_days, default 90)", async () => {
  let clock = Date.parse("2026-01-01T10:00:00Z");
  const t = await testApp({}, { now: () => clock });
  try {
    const lib = await library(t);
    const a = await screened(t, lib);
    const b = await screened(t, lib, a.supplierId);
    const c = await screened(t, lib, a.supplierId);
    await answerAll(t, a, lib, "old");
    clock += 89 * 86_400_000;
    assert((await start(t, b.mapId, "old")).location.startsWith("https://client.example/"), "89 days: known");
    clock += 2 * 86_400_000;
    assertMatch((await start(t, c.mapId, "old")).location, /^\/survey\/prescreen\//, "91 days: asked again");
  } finally {
    await t.close();
  }
});

Deno.test("profiles: a shorter expiry setting makes older answers asked again; the setting is logged and bounded", async () => {
  let clock = Date.parse("2026-03-01T10:00:00Z");
  const t = await testApp({}, { now: () => clock });
  try {
    const lib = await library(t);
    const a = await screened(t, lib);
    const b = await screened(t, lib, a.supplierId);
    const c = await screened(t, lib, a.supplierId);
    assertEquals(await t.ok(S.profileSettingsCall, { as: "ADMIN" }), { expiryDays: 90 }, "the default");
    await expectCallGuarded(t, S.updateProfileSettingsCall, "MANAGER", { body: { expiryDays: 10 } });
    for (const expiryDays of [0, 3651, 1.5, "ten", null, ""]) {
      const bad = await t.api(S.updateProfileSettingsCall, { as: "ADMIN", body: { expiryDays } as never });
      assertEquals(bad.status, 400, `expiryDays ${expiryDays}`);
    }
    const set = await t.api(S.updateProfileSettingsCall, { as: "ACCOUNTANT", body: { expiryDays: 10 } });
    assertEquals([set.status, set.json.result], [200, { expiryDays: 10 }]);
    const log = await t.deps.db.selectFrom("system_logs").select(["activity", "changes"])
      .where("activity", "like", "%profile answers%").execute();
    assertEquals(log.map((l) => l.activity), ["Set profile answers to expire after 10 days"]);
    assertMatch(log[0].changes, /"from":"90","to":"10"/);

    await answerAll(t, a, lib, "short");
    clock += 9 * 86_400_000;
    assert(
      (await start(t, b.mapId, "short")).location.startsWith("https://client.example/"),
      "9 days: known",
    );
    clock += 2 * 86_400_000;
    assertMatch((await start(t, c.mapId, "short")).location, /^\/survey\/prescreen\//, "11 days: asked");
  } finally {
    await t.close();
  }
});

Deno.test("profiles: an erased member is asked again; only that supplier's member is erased; the erase is logged", async () => {
  const t = await testApp();
  try {
    const lib = await library(t);
    const a = await screened(t, lib);
    const b = await screened(t, lib, a.supplierId);
    const other = await screened(t, lib);
    await answerAll(t, a, lib, "er-1");
    await answerAll(t, other, lib, "er-1");
    const body = { memberId: "er-1" };
    await expectCallGuarded(t, S.eraseMemberProfileCall, "MANAGER", { params: { id: a.supplierId }, body });
    for (const bad of [{}, { memberId: "" }, { memberId: "x".repeat(129) }, { memberId: "a\u0000b" }]) {
      const r = await t.api(S.eraseMemberProfileCall, {
        as: "ADMIN",
        params: { id: a.supplierId },
        body: bad as never,
      });
      assertEquals(r.status, 400, JSON.stringify(bad));
    }
    const unknown = await t.api(S.eraseMemberProfileCall, {
      as: "ADMIN",
      params: { id: "0123456789abcdef01234567" },
      body,
    });
    assertEquals(unknown.status, 404);

    const erased = await t.api(S.eraseMemberProfileCall, {
      as: "SUPERADMIN",
      params: { id: a.supplierId },
      body,
    });
    assertEquals([erased.status, erased.json.result], [200, { erased: 2 }]);
    const log = await auditOf(t, a.supplierId);
    assertMatch(log.at(-1)!.activity, /^Erased the profile of member er-1 of supplier .+: 2 answer\(s\)$/);
    assertEquals(log.at(-1)!.module, "Suppliers");

    // asked again on the next entry; the other supplier's member still known
    const again = await start(t, b.mapId, "er-1");
    assertMatch(again.location, /^\/survey\/prescreen\//);
    const left = await t.deps.db.selectFrom("member_profiles").select("supplierId").execute();
    assertEquals(new Set(left.map((r) => r.supplierId)), new Set([other.supplierId]));
  } finally {
    await t.close();
  }
});
