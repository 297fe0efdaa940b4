/**
 * Routing offers only surveys with room (issue 24 item 3), between two reads of a supplier's
 * candidates: a survey its completes filled, or one whose refusal says it is full (another instance
 * filled it), is not offered again, so no routed respondent spends a place of their chain on it.
 */
import { assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { back, enter, router, uidOf } from "../helpers/router.ts";
import { addLibraryQuestion, chainOf, market, surveyOf } from "../helpers/routing.ts";
import { addGenderQuota } from "../helpers/fixtures.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { newId } from "../../server/db/ids.ts";
import * as P from "../../shared/api/projects.ts";
import * as Parts from "../../shared/api/project-parts.ts";

// candidates kept for ten minutes: only what the writer tells routing can drop a survey meanwhile
const kept = { router: { configTtlMs: 10 * 60_000 } };

Deno.test("routing: a survey the last complete filled is not offered again while the candidates are kept", async () => {
  const t = await testApp({}, kept);
  try {
    // B earns most per click and has one place; C has room
    const { s } = await market(t, ["A", "B", "C"], { cpi: { A: 1, B: 5, C: 2 } });
    await t.deps.db.updateTable("projects").set({ sampleSize: 1 }).where("id", "=", s.B.child._id).execute();
    const first = await enter(t, s.A.mapId, "r-0");
    const inB = await back(t, uidOf(first.location), "t");
    assertEquals(surveyOf(inB.location), "B", "the candidates are read: B has room");
    // the complete fills B: the next terminate from A goes to C, no hop spent on B's refusal
    await back(t, uidOf(inB.location), "c");
    const second = await enter(t, s.A.mapId, "r-1");
    const next = await back(t, uidOf(second.location), "t");
    assertEquals(surveyOf(next.location), "C", next.location);
    assertEquals((await chainOf(t, "r-1")).map((c) => c.projectId), [s.A.child._id, s.C.child._id]);
    await router(t).idle();
    assertEquals(await counterMismatches(t.deps.db), []);
  } finally {
    await t.close();
  }
});

Deno.test("routing: a survey that refused a respondent as full (filled elsewhere) is not offered to the next", async () => {
  const t = await testApp({}, kept);
  try {
    const { s } = await market(t, ["A", "B", "C"], { cpi: { A: 1, B: 5, C: 2 } });
    const first = await enter(t, s.A.mapId, "f-0");
    assertEquals(surveyOf((await back(t, uidOf(first.location), "t")).location), "B");
    // another instance's complete fills B (this one only sees it at B's next entry)
    await t.deps.db.updateTable("projects").set({ sampleSize: 1, complete: 1 }).where(
      "id",
      "=",
      s.B.child._id,
    )
      .execute();
    const second = await enter(t, s.A.mapId, "f-1");
    assertEquals(surveyOf((await back(t, uidOf(second.location), "t")).location), "C");
    assertEquals(
      (await chainOf(t, "f-1")).map((c) => [c.projectId, c.status]),
      [[s.A.child._id, "terminate"], [s.B.child._id, "overQuota"], [s.C.child._id, "redirected"]],
      "the list was read before B filled: one refusal by B",
    );
    // that refusal took B out of the kept list: the next respondent goes straight to C
    const third = await enter(t, s.A.mapId, "f-2");
    assertEquals(surveyOf((await back(t, uidOf(third.location), "t")).location), "C");
    assertEquals((await chainOf(t, "f-2")).map((c) => c.projectId), [s.A.child._id, s.C.child._id]);
  } finally {
    await t.close();
  }
});

Deno.test("routing: a survey whose quota cell a member's known answer puts them in is full is skipped; others still go", async () => {
  const t = await testApp({}, kept);
  try {
    const { supplierId, s } = await market(t, ["A", "B", "C"], { cpi: { A: 1, B: 5, C: 2 } });
    const now = new Date().toISOString();
    // B is pre-screened on gender (a library question) and its quota takes one woman and five men
    const lib = newId(), female = newId(), male = newId();
    await addLibraryQuestion(t, s.B.child._id, {
      libraryId: lib,
      title: "Gender",
      options: [{ _id: female, title: "Female", formvalidate: true }, {
        _id: male,
        title: "Male",
        formvalidate: true,
      }],
    });
    await t.ok(P.updateProjectCall, {
      as: "SUPERADMIN",
      params: { id: s.B.child._id },
      body: { isPreScreen: true },
    });
    await t.deps.db.updateTable("supplier_maps").set({ isPreScreen: 1 }).where("id", "=", s.B.mapId)
      .execute();
    const { quotaId, female: qf, male: qm } = await addGenderQuota(t.deps.db, s.B.child._id, {
      female: 1,
      male: 5,
    });
    for (const [sid, answer] of [["w-0", female], ["w-1", female], ["m-1", male], ["w-2", female]]) {
      await t.deps.db.insertInto("member_profiles").values({
        supplierId,
        memberId: sid,
        questionId: lib,
        answer: JSON.stringify([answer]),
        answeredAt: now,
        source: "prescreen",
      }).execute();
    }
    // a woman terminates on A, goes to B (her known answer is all it asks) and completes: the
    // Female cell is full
    const first = await enter(t, s.A.mapId, "w-0");
    const inB = await back(t, uidOf(first.location), "t");
    assertEquals(surveyOf(inB.location), "B", inB.location);
    await back(t, uidOf(inB.location), "c");
    // the next woman goes to C: no hop spent on B's refusal
    const second = await enter(t, s.A.mapId, "w-1");
    assertEquals(surveyOf((await back(t, uidOf(second.location), "t")).location), "C");
    assertEquals((await chainOf(t, "w-1")).map((c) => c.projectId), [s.A.child._id, s.C.child._id]);
    // a man still goes to B: his cell has room
    const third = await enter(t, s.A.mapId, "m-1");
    assertEquals(surveyOf((await back(t, uidOf(third.location), "t")).location), "B");
    // staff give the Female cell two more places: women go to B again
    await t.ok(Parts.updateQuotaSizesCall, {
      as: "SUPERADMIN",
      params: { quotaId, projectId: s.B.child._id },
      body: { quotaValue: [{ quotaOptionId: qf, quotaSize: 3 }, { quotaOptionId: qm, quotaSize: 5 }] },
    });
    const fourth = await enter(t, s.A.mapId, "w-2");
    assertEquals(surveyOf((await back(t, uidOf(fourth.location), "t")).location), "B");
    await router(t).idle();
    assertEquals(await counterMismatches(t.deps.db), []);
  } finally {
    await t.close();
  }
});

Deno.test("router: a commit listener that fails is logged; the batch stays written once and answered", async () => {
  const t = await testApp();
  try {
    const { s } = await market(t, ["A"]);
    // what routing and the callbacks hear after each commit: down
    router(t).writer.onCommit = () => {
      throw new Error("listener down");
    };
    const r = await enter(t, s.A.mapId, "cl-1");
    assertEquals(surveyOf(r.location), "A", `answered as written: ${r.status} ${r.location}`);
    assertEquals((await chainOf(t, "cl-1")).map((c) => c.status), ["redirected"], "one session, no retry");
    await router(t).idle();
    assertEquals(await counterMismatches(t.deps.db), []);
  } finally {
    await t.close();
  }
});
