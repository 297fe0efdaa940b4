import { assert, assertEquals } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { makeChild, makeParent } from "../helpers/fixtures.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as PRep from "../../shared/api/project-reports.ts";
import * as P from "../../shared/api/projects.ts";
import * as SysLog from "../../shared/api/system-log.ts";

const gender = {
  qualificationName: "Gender",
  qualificationIcon: "user",
  qualificationOptions: [{ text: "Male" }, { text: "Female" }, { text: "Other" }],
};

Deno.test("quotas: add from a qualification, choose options, sizes with percent and total vs sample size", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent, { sampleSize: 200 });
    const qual = (await t.api(Lib.addQualification, { token, body: gender })).json.result;
    const added = await t.api(Parts.addQuotaCall, {
      params: { projectId: child._id },
      token,
      body: { quotaId: qual._id },
    });
    assertEquals(added.status, 200);
    const quota = added.json.result[0];
    assertEquals(quota.quotaId.qualificationName, "Gender");
    assertEquals(quota.options.length, 3);
    assertEquals(
      (await t.api(Parts.addQuotaCall, {
        params: { projectId: child._id },
        token,
        body: { quotaId: qual._id },
      })).status,
      409,
    );
    const [male, female] = qual.qualificationOptions.map((o: { _id: string }) => o._id);
    const chosen = await t.api(Parts.updateQuotaCall, {
      params: { quotaId: quota._id, projectId: child._id },
      token,
      body: { quotaOptionId: [male, female] },
    });
    assertEquals(chosen.json.result[0].quotaValue.length, 2);
    const sized = await t.api(Parts.updateQuotaSizesCall, {
      params: { quotaId: quota._id, projectId: child._id },
      token,
      body: {
        quotaValue: [{ quotaOptionId: male, quotaSize: 100 }, { quotaOptionId: female, quotaSize: "50" }],
      },
    });
    const q = sized.json.result[0];
    assertEquals(q.total, 150);
    assertEquals(q.totalMatchesSampleSize, false);
    assertEquals(q.options.find((o: { quotaOptionId: string }) => o.quotaOptionId === male).percent, 50);
    assertEquals(q.options.find((o: { quotaOptionId: string }) => o.quotaOptionId === female).percent, 25);
    const bad = await t.api(Parts.updateQuotaSizesCall, {
      params: { quotaId: quota._id, projectId: child._id },
      token,
      body: { quotaValue: [{ quotaOptionId: male, quotaSize: "ten" }] },
    });
    assertEquals(bad.status, 400);
    assertEquals(bad.json.message, "Only digits are allowed for this field ");
    const gone = await t.api(Parts.updateQuotaCall, {
      params: { quotaId: quota._id, projectId: child._id },
      token,
      body: { isDeleted: true },
    });
    assertEquals(gone.json.result.length, 0);
    await expectCallGuarded(t, Parts.listQuotasCall, "ACCOUNTANT", { params: { projectId: child._id } });
  } finally {
    await t.close();
  }
});

Deno.test("pre-screen questions: add new or from the library, count badge, reorder, soft delete", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const lib = (await t.api(Lib.addTempQuestion, {
      token,
      body: {
        questionTitle: { en: "What is your age band?" },
        questionType: "RADIO",
        questionOption: [{ title: "18-34" }, { title: "35+" }],
      },
    })).json.result;
    const copied = await t.api(Parts.addProjectQuestion, {
      token,
      body: { projectId: child._id, questionId: lib._id },
    });
    assertEquals(copied.status, 200);
    assertEquals(copied.json.result.title, "What is your age band?");
    const own = await t.api(Parts.addProjectQuestion, {
      token,
      body: {
        projectId: child._id,
        questionTitle: { en: "Which city do you live in?" },
        questionType: "TEXT",
      },
    });
    assertEquals(own.status, 200);
    const invalid = await t.api(Parts.addProjectQuestion, {
      token,
      body: {
        projectId: child._id,
        questionTitle: { en: "Hi" },
        questionType: "RADIO",
        questionOption: [{ title: "" }],
      },
    });
    assertEquals(invalid.status, 400);
    assert(invalid.json.errors.some((e: { message: string }) => e.message === "question name  is required"));
    assert(invalid.json.errors.some((e: { message: string }) => e.message === "option is required"));
    assertEquals(
      (await t.api(P.getProjectCall, { params: { id: child._id }, token })).json.result.questionCount,
      2,
    );
    const order = await t.api(Parts.reorderProjectQuestions, {
      params: { id: child._id },
      token,
      body: { ids: [own.json.result._id, copied.json.result._id] },
    });
    assertEquals(order.json.result.map((q: { _id: string }) => q._id), [
      own.json.result._id,
      copied.json.result._id,
    ]);
    const group = await t.api(PRep.groupQuestionsCall, { params: { projectId: parent._id }, token });
    assertEquals(group.json.result.map((q: { label: string }) => q.label), [
      "Q1. Which city do you live in?",
      "Q2. What is your age band?",
    ]);
    const del = await t.api(Parts.updateProjectQuestion, {
      params: { questionId: own.json.result._id },
      token,
      body: { projectId: child._id, isDeleted: true },
    });
    assertEquals(del.status, 200);
    assertEquals(
      (await t.api(Parts.listProjectQuestions, { params: { projectId: child._id }, token })).json.result
        .length,
      1,
    );
    // the library question is untouched
    assertEquals((await t.api(Lib.listTempQuestions, { token })).json.result.length, 1);
    // a library question cannot be edited through the project call
    assertEquals(
      (await t.api(Parts.updateProjectQuestion, {
        params: { questionId: lib._id },
        token,
        body: { isDeleted: true },
      }))
        .status,
      404,
    );
  } finally {
    await t.close();
  }
});

Deno.test("exclusions: add with default flags, no duplicates or self, change flags, remove", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("MANAGER");
    const parent = await makeParent(t);
    const a = await makeChild(t, parent);
    const b = await makeChild(t, parent);
    const missing = await t.api(Parts.addExclusionCall, { token, body: { projectId: a._id } });
    assertEquals(missing.status, 400);
    assertEquals(missing.json.message, "Project is required");
    const added = await t.api(Parts.addExclusionCall, {
      token,
      body: { projectId: a._id, excludedProjectId: b._id },
    });
    assertEquals(added.status, 200);
    const row = added.json.result[0];
    assertEquals([row.isExcluded, row.complete, row.terminate, row.overQuota, row.dropout], [
      true,
      true,
      true,
      true,
      true,
    ]);
    assertEquals(
      (await t.api(Parts.addExclusionCall, {
        token,
        body: { projectId: a._id, excludedProjectId: b._id },
      })).status,
      409,
    );
    assertEquals(
      (await t.api(Parts.addExclusionCall, {
        token,
        body: { projectId: a._id, excludedProjectId: a._id },
      })).status,
      400,
    );
    assertEquals(
      (await t.api(Parts.updateExclusionCall, { params: { id: row._id }, token, body: { terminate: false } }))
        .status,
      200,
    );
    const list = await t.api(Parts.listExclusionsCall, {
      params: { id: a._id },
      token,
      body: { search: b.projectCode },
    });
    assertEquals(list.json.result[0].terminate, false);
    assertEquals(
      (await t.api(Parts.updateExclusionCall, { params: { id: row._id }, token, body: {} })).status,
      400,
    );
    assertEquals(
      (await t.api(Parts.updateExclusionCall, { params: { id: row._id }, token, body: { isDeleted: true } }))
        .status,
      200,
    );
    assertEquals(
      (await t.api(Parts.listExclusionsCall, { params: { id: a._id }, token, body: {} })).json.result.length,
      0,
    );
    await expectCallGuarded(t, Parts.addExclusionCall, "SUBSCRIBER");
  } finally {
    await t.close();
  }
});

Deno.test("pre-screen questions: adding, editing, reordering and deleting show in the project's Logs", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const add = (title: string) =>
      t.api(Parts.addProjectQuestion, {
        token,
        body: { projectId: child._id, questionTitle: { en: title }, questionType: "TEXT" },
      });
    const a = (await add("Which city do you live in?")).json.result;
    const b = (await add("How old are you?")).json.result;
    assertEquals(
      (await t.api(Parts.updateProjectQuestion, {
        params: { questionId: a._id },
        token,
        body: {
          projectId: child._id,
          questionTitle: { en: "Which town do you live in?" },
          questionType: "TEXT",
        },
      })).status,
      200,
    );
    await t.api(Parts.reorderProjectQuestions, {
      params: { id: child._id },
      token,
      body: { ids: [b._id, a._id] },
    });
    await t.api(Parts.updateProjectQuestion, {
      params: { questionId: b._id },
      token,
      body: { projectId: child._id, isDeleted: true },
    });
    const logs = await t.api(SysLog.systemLogCall, { token, body: { filter: child._id } });
    const activities = logs.json.result.map((l: { activity: string }) => l.activity);
    // (rows written in the same millisecond have no set order)
    for (
      const want of [
        'Created question "Which city do you live in?" (TEXT)',
        'Created question "How old are you?" (TEXT)',
        'Updated question "Which town do you live in?" (TEXT): Title: Which city do you live in? -> Which town do you live in?',
        "Reordered project questions",
        'Deleted question "How old are you?"',
      ]
    ) assert(activities.includes(want), `${want} in ${activities.join(" | ")}`);
  } finally {
    await t.close();
  }
});
