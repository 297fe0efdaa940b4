import { assert, assertEquals, assertMatch, assertNotEquals } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { auditOf, created, qualificationBody, questionBody } from "../helpers/master.ts";
import { MSG } from "../../shared/messages.ts";
import * as Lib from "../../shared/api/library.ts";

type Q = { _id: string; title: string; sortOrder: number };
const titles = (list: Q[]) => list.map((q) => q.title);

Deno.test("temporary questions: add with default option flags, list in order, read, edit keeping option ids", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const add = await t.api(Lib.addTempQuestion, {
      token,
      body: {
        questionTitle: { en: "  What is your age?  ", fr: "Quel est votre âge ?" },
        questionType: "RADIO",
        questionOption: [{ title: " 18-34 " }, { title: "35+", diy: false, quota: "25" }],
        projectId: "ignored-for-library-questions",
      },
    });
    assertEquals(add.status, 200, add.text);
    assertEquals(add.json.message, "Question added successfully");
    const q = add.json.result;
    assertEquals(q.isTempQuestion, true);
    assertEquals(q.projectId, null);
    assertEquals(q.languageId, "en");
    assertEquals(q.questionTitle, { en: "What is your age?", fr: "Quel est votre âge ?" });
    assertEquals(q.title, "What is your age?");
    assertEquals(
      q.questionOption.map(({ _id, ...o }: { _id: string }) => (assertMatch(_id, /^[0-9a-f]{24}$/), o)),
      [
        { title: "18-34", enable: true, formvalidate: true, diy: true, local: true, quota: 0 },
        { title: "35+", enable: true, formvalidate: true, diy: false, local: true, quota: 25 },
      ],
    );
    assertEquals((await t.api(Lib.getTempQuestion, { params: { id: q._id }, token })).json.result, q);

    const text = await created(t, token, Lib.addTempQuestion, {
      questionTitle: "What is your ZIP code?",
      questionType: "TEXT",
      questionOption: [{ title: "dropped" }],
    });
    assertEquals([text.questionTitle, text.questionOption], [{ en: "What is your ZIP code?" }, []]);

    const list = await t.api(Lib.listTempQuestions, { token });
    assertEquals(titles(list.json.result), ["What is your age?", "What is your ZIP code?"]);
    assertEquals(list.json.result.map((x: Q) => x.sortOrder), [1, 2]);

    // edit: options sent back with their ids keep them; a new option gets a new id
    const [o1, o2] = q.questionOption;
    const upd = await t.api(Lib.updateTempQuestion, {
      params: { id: q._id },
      token,
      body: {
        questionTitle: { en: "Your age, please" },
        questionType: "DROPDOWN",
        questionOption: [o2, { title: "Under 18" }, o1],
        projectId: null,
      },
    });
    assertEquals([upd.status, upd.json.message], [200, "Question updated successfully"]);
    const opts = upd.json.result.questionOption;
    assertEquals(opts.map((o: { title: string }) => o.title), ["35+", "Under 18", "18-34"]);
    assertEquals([opts[0]._id, opts[2]._id], [o2._id, o1._id]);
    assertNotEquals(opts[1]._id, o1._id);
    assertEquals(upd.json.result.sortOrder, 1, "editing keeps the place in the list");
    assertEquals((await auditOf(t, q._id)).map((l) => [l.module, l.activity]), [
      ["Questions", 'Created library question "What is your age?" (RADIO)'],
      [
        "Questions",
        'Updated question "Your age, please" (DROPDOWN): Title: What is your age? -> Your age, please; ' +
        "Translations: changed; Type: RADIO -> DROPDOWN; Options: added Under 18",
      ],
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("temporary questions: the spec's messages on every field at once, never a 500", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const empty = await t.api(Lib.addTempQuestion, { token, body: {} });
    assertEquals(empty.status, 400);
    assertEquals(empty.json.errors, [
      { path: "questionType", message: "question Type  is required" },
      { path: "questionTitle.en", message: "question name  is required" },
    ]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ questionTitle: { en: " abc " } }, "questionTitle.en", "question name  is required"],
      [{ questionTitle: { fr: "Quel âge avez-vous ?" } }, "questionTitle.en", "question name  is required"],
      [{ questionTitle: 42 }, "questionTitle", "question name  is required"],
      [{ questionType: "SLIDER" }, "questionType", "question Type  is required"],
      [{ questionType: "" }, "questionType", "question Type  is required"],
      [
        { questionOption: [{ title: "Yes" }, { title: "  " }] },
        "questionOption.1.title",
        "option is required",
      ],
      [{ questionOption: [{ title: "Yes" }, {}] }, "questionOption.1.title", "option is required"],
      [{ questionOption: [{ title: "Only one" }] }, "questionOption", MSG.optionsTooFew],
      [{ questionType: "CHECKBOX", questionOption: [] }, "questionOption", MSG.optionsTooFew],
      [{ questionType: "MAP", questionOption: null }, "questionOption", MSG.optionsTooFew],
      [{ questionOption: "Yes\nNo" }, "questionOption", "option is required"],
      [
        { questionOption: [{ title: "a", quota: -1 }, { title: "b" }] },
        "questionOption.0.quota",
        "quota must be a number of 0 or more",
      ],
    ];
    for (const [patch, path, message] of cases) {
      const r = await t.api(Lib.addTempQuestion, { token, body: questionBody(patch) });
      assertEquals(r.status, 400, `${JSON.stringify(patch)} -> ${r.text}`);
      assertEquals(r.json.errors?.find((e: { path: string }) => e.path === path)?.message, message, r.text);
    }
    // a French question needs its French title
    const fr = await t.api(Lib.addTempQuestion, {
      token,
      body: questionBody({ languageId: "fr", questionTitle: { en: "Your age?" } }),
    });
    assertEquals(fr.json.errors, [{ path: "questionTitle.fr", message: "question name  is required" }]);
    assertEquals((await t.api(Lib.addTempQuestion, { token, raw: "[" })).status, 400);
    const q = await created(t, token, Lib.addTempQuestion, questionBody());
    const put = await t.api(Lib.updateTempQuestion, {
      params: { id: q._id },
      token,
      body: { questionType: "TEXT" },
    });
    assertEquals([put.status, put.json.message], [400, "question name  is required"]);
    const activeOnly = await t.api(Lib.updateTempQuestion, {
      params: { id: q._id },
      token,
      body: { isActive: false },
    });
    assertEquals(activeOnly.status, 400, "questions have no separate switch call: the form is required");
  } finally {
    await t.close();
  }
});

Deno.test("temporary questions: reorder persists; unknown or repeated ids are refused; delete removes from the list", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const ids: string[] = [];
    for (const title of ["Age question", "Gender question", "Income question", "Region question"]) {
      ids.push(
        (await created(t, token, Lib.addTempQuestion, questionBody({ questionTitle: { en: title } })))
          ._id,
      );
    }
    const r = await t.api(Lib.reorderTempQuestions, {
      token,
      body: { ids: [ids[2], ids[0], ids[3], ids[1]] },
    });
    assertEquals([r.status, r.json.message], [200, "Question order saved"]);
    const expected = ["Income question", "Age question", "Region question", "Gender question"];
    assertEquals(titles(r.json.result), expected);
    assertEquals(titles((await t.api(Lib.listTempQuestions, { token })).json.result), expected);
    assertEquals(
      (await t.api(Lib.listTempQuestions, { token })).json.result.map((q: Q) => q.sortOrder),
      [1, 2, 3, 4],
    );

    // a partial list goes first; the rest keep their order after it
    const partial = await t.api(Lib.reorderTempQuestions, { token, body: { ids: [ids[1]] } });
    assertEquals(titles(partial.json.result), [
      "Gender question",
      "Income question",
      "Age question",
      "Region question",
    ]);

    const unknown = await t.api(Lib.reorderTempQuestions, {
      token,
      body: { ids: [ids[0], "0123456789abcdef01234567"] },
    });
    assertEquals(unknown.status, 400);
    assertEquals(unknown.json.errors, [{ path: "ids.1", message: MSG.questionOrderInvalid }]);
    for (const body of [{ ids: [ids[0], ids[0]] }, { ids: [] }, {}, { ids: "x" }]) {
      assertEquals(
        (await t.api(Lib.reorderTempQuestions, { token, bad: body })).status,
        400,
        JSON.stringify(body),
      );
    }

    const del = await t.api(Lib.updateTempQuestion, {
      params: { id: ids[2] },
      token,
      body: { isDeleted: true },
    });
    assertEquals([del.status, del.json.message, del.json.result], [200, "Question deleted successfully", {
      _id: ids[2],
      isDeleted: true,
    }]);
    assertEquals(titles((await t.api(Lib.listTempQuestions, { token })).json.result), [
      "Gender question",
      "Age question",
      "Region question",
    ]);
    assertEquals((await t.api(Lib.getTempQuestion, { params: { id: ids[2] }, token })).status, 404);
    assertEquals(
      (await t.api(Lib.reorderTempQuestions, { token, body: { ids: [ids[2]] } })).status,
      400,
    );
    const log = await t.deps.db.selectFrom("system_logs").select("activity").where("module", "=", "Questions")
      .where("activity", "=", "Reordered library questions").execute();
    assertEquals(log.length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("temporary questions: admins manage; managers may read the list (for projects) but not change it", async () => {
  const t = await testApp();
  try {
    const q = await created(t, await t.tokenFor("ADMIN"), Lib.addTempQuestion, questionBody());
    await expectCallGuarded(t, Lib.listTempQuestions, "ACCOUNTANT");
    await expectCallGuarded(t, Lib.addTempQuestion, "MANAGER", { body: questionBody() });
    await expectCallGuarded(t, Lib.updateTempQuestion, "MANAGER", {
      params: { id: q._id },
      body: {
        isDeleted: true,
      },
    });
    await expectCallGuarded(t, Lib.reorderTempQuestions, "MANAGER", { body: { ids: [q._id] } });
    await expectCallGuarded(t, Lib.getTempQuestion, "MANAGER", { params: { id: q._id } });
    assertEquals(
      (await t.api(Lib.listTempQuestions, { as: "MANAGER" })).status,
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("qualifications: add with a derived key and ordered options; edit reorders, adds and retires options", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const add = await t.api(Lib.addQualification, {
      token,
      body: {
        qualificationName: " Household Income ",
        qualificationIcon: " wallet ",
        qualificationOptions: [
          { text: "Under $25k", subText: "per year" },
          { text: "$25k - $49k" },
          { text: "$50k+", isActive: false },
        ],
      },
    });
    assertEquals(add.status, 200, add.text);
    assertEquals(add.json.message, "Qualification added successfully");
    const q = add.json.result;
    assertEquals([q.qualificationName, q.qualificationKey, q.qualificationIcon, q.label, q.value], [
      "Household Income",
      "household_income",
      "wallet",
      "Household Income",
      q._id,
    ]);
    assertEquals(q.qualificationOptions.map(({ _id: _, ...o }: { _id: string }) => o), [
      { text: "Under $25k", subText: "per year", isActive: true },
      { text: "$25k - $49k", subText: "", isActive: true },
      { text: "$50k+", subText: "", isActive: false },
    ]);

    const [a, b, c] = q.qualificationOptions;
    const upd = await t.api(Lib.updateQualificationCall, {
      params: { id: q._id },
      token,
      body: {
        qualificationName: "Household Income",
        qualificationKey: "hh_income",
        qualificationIcon: "wallet",
        qualificationOptions: [c, { text: "$100k+" }, a],
      },
    });
    assertEquals([upd.status, upd.json.message], [200, "Qualification updated successfully"]);
    const opts = upd.json.result.qualificationOptions;
    assertEquals(upd.json.result.qualificationKey, "hh_income");
    assertEquals(opts.map((o: { text: string }) => o.text), ["$50k+", "$100k+", "Under $25k"]);
    assertEquals(
      [opts[0]._id, opts[2]._id],
      [c._id, a._id],
      "kept options keep their ids (quotas point at them)",
    );
    const retired = await t.deps.db.selectFrom("qualification_options").select(["text", "isDeleted"])
      .where("id", "=", b._id).executeTakeFirstOrThrow();
    assertEquals(retired, { text: "$25k - $49k", isDeleted: 1 }, "a removed option is retired, not erased");

    const all = await t.api(Lib.listQualificationsCall, { as: "MANAGER" });
    assertEquals(all.json.result.length, 1);
    assertEquals(all.json.result[0].qualificationOptions.length, 3);
    assertEquals((await auditOf(t, q._id)).map((l) => l.activity), [
      "Created qualification Household Income (3 options)",
      "Updated qualification Household Income (3 options): Key: household_income -> hh_income; " +
      "Options: added $100k+, removed $25k - $49k",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("qualifications: the spec's messages, at least two options, a unique key (409); delete and switch", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const empty = await t.api(Lib.addQualification, { token, body: {} });
    assertEquals(empty.status, 400);
    assertEquals(empty.json.errors, [
      { path: "qualificationName", message: "question name  is required" },
      { path: "qualificationIcon", message: "question name  is required" },
      { path: "qualificationOptions", message: MSG.optionsTooFew },
    ]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ qualificationName: "   " }, "qualificationName", "question name  is required"],
      [{ qualificationIcon: "" }, "qualificationIcon", "question name  is required"],
      [
        { qualificationOptions: [{ text: "A" }, { text: " " }] },
        "qualificationOptions.1.text",
        "option is required",
      ],
      [{ qualificationOptions: [{ text: "A" }, {}] }, "qualificationOptions.1.text", "option is required"],
      [{ qualificationOptions: [{ text: "Only" }] }, "qualificationOptions", MSG.optionsTooFew],
      [{ qualificationKey: "has space" }, "qualificationKey", "Key may use letters, digits and _ only"],
    ];
    for (const [patch, path, message] of cases) {
      const r = await t.api(Lib.addQualification, { token, body: qualificationBody(patch) });
      assertEquals(r.status, 400, `${JSON.stringify(patch)} -> ${r.text}`);
      assertEquals(r.json.errors?.find((e: { path: string }) => e.path === path)?.message, message, r.text);
    }
    const age = await created(
      t,
      token,
      Lib.addQualification,
      qualificationBody({ qualificationName: "Age" }),
    );
    const dup = await t.api(Lib.addQualification, {
      token,
      body: qualificationBody({ qualificationName: "AGE" }),
    });
    assertEquals(dup.status, 409);
    assertEquals(dup.json.errors, [{ path: "qualificationKey", message: MSG.qualificationKeyTaken }]);
    const other = await created(
      t,
      token,
      Lib.addQualification,
      qualificationBody({ qualificationName: "Gender" }),
    );
    const clash = await t.api(Lib.updateQualificationCall, {
      params: { id: other._id },
      token,
      body: qualificationBody({ qualificationName: "Gender", qualificationKey: "age" }),
    });
    assertEquals(clash.status, 409);

    const off = await t.api(Lib.updateQualificationCall, {
      params: { id: age._id },
      token,
      body: { isActive: false },
    });
    assertEquals([off.status, off.json.result.isActive], [200, false]);
    const del = await t.api(Lib.updateQualificationCall, {
      params: { id: age._id },
      token,
      body: { isDeleted: true },
    });
    assertEquals([del.status, del.json.message], [200, "Qualification deleted successfully"]);
    const all = await t.api(Lib.listQualificationsCall, { token });
    assertEquals(all.json.result.map((q: { qualificationName: string }) => q.qualificationName), ["Gender"]);
    assert(
      (await t.api(Lib.addQualification, {
        token,
        body: qualificationBody({ qualificationName: "Age" }),
      })).status === 200,
      "a deleted key is free again",
    );
    assertEquals(
      (await t.api(Lib.updateQualificationCall, { params: { id: age._id }, token, body: { isActive: true } }))
        .status,
      404,
    );
  } finally {
    await t.close();
  }
});

Deno.test("qualifications: admins manage; project editors may read; others are refused", async () => {
  const t = await testApp();
  try {
    const q = await created(t, await t.tokenFor("ADMIN"), Lib.addQualification, qualificationBody());
    await expectCallGuarded(t, Lib.listQualificationsCall, "ACCOUNTANT");
    await expectCallGuarded(t, Lib.addQualification, "MANAGER", { body: qualificationBody() });
    await expectCallGuarded(t, Lib.updateQualificationCall, "MANAGER", {
      params: { id: q._id },
      body: { isDeleted: true },
    });
    assertEquals(
      (await t.api(Lib.listQualificationsCall, { as: "APIMANAGER" })).status,
      200,
    );
  } finally {
    await t.close();
  }
});
