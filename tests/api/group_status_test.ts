/**
 * Issue 21, item 3: reopening a group project reopens what the group stopped. A child paused or
 * closed by its group comes back with it, a child stopped on its own stays as it is, the router
 * takes respondents on the reopened children at once, and the answer says which.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { makeChild, makeParent } from "../helpers/fixtures.ts";
import { enter, liveProject, PANEL } from "../helpers/router.ts";
import type { ChildStatusOutcome } from "../../shared/api/projects.ts";
import * as migration0021 from "../../db/migrations/0021_group_status_holds.ts";
import * as Proj from "../../shared/api/projects.ts";
import * as SysLog from "../../shared/api/system-log.ts";

type Answer = { status: number; message: string; childStatus?: ChildStatusOutcome; projectStatus: number };

async function setStatus(t: TestApp, id: string, projectStatus: number): Promise<Answer> {
  const token = await t.tokenFor("ADMIN");
  const r = await t.api(Proj.updateProjectCall, { params: { id }, token, body: { projectStatus } });
  return { status: r.status, message: r.json.message, ...r.json.result };
}

async function closeGroup(t: TestApp, projectCode: string): Promise<Answer> {
  const token = await t.tokenFor("ADMIN");
  const r = await t.api(Proj.closeProjectByCode, {
    params: { projectCode },
    token,
    body: { poNumber: "PO-9" },
  });
  return { status: r.status, message: r.json.message, ...r.json.result };
}

const statusOf = async (t: TestApp, id: string) =>
  (await t.deps.db.selectFrom("projects").select("projectStatus").where("id", "=", id)
    .executeTakeFirstOrThrow())
    .projectStatus;

const takes = (location: string) => location.startsWith("https://client.example/");

/** A group with three Live children, each with a mapped supplier; the third paused on its own. */
async function group(t: TestApp) {
  const parent = await makeParent(t);
  const a = await liveProject(t, { parent });
  const b = await liveProject(t, { parent });
  const c = await liveProject(t, { parent });
  assertEquals((await setStatus(t, parent._id, 1)).status, 200);
  assertEquals((await setStatus(t, c.child._id, 3)).status, 200);
  return { parent, a, b, c };
}

Deno.test("group status: Paused -> Live on a group brings back the children it paused; one paused on its own stays, and the router knows at once", async () => {
  const t = await testApp();
  try {
    const { parent, a, b, c } = await group(t);
    // the router has every child cached before the change
    assert(takes((await enter(t, a.mapId, "a0")).location));
    assertEquals((await enter(t, c.mapId, "c0")).location, `${PANEL}/closed?sid=c0`);

    const paused = await setStatus(t, parent._id, 3);
    assertEquals(paused.status, 200);
    assertEquals(paused.message, "Project updated successfully: 2 child projects Paused with it");
    assertEquals(
      paused.childStatus?.changed.map((x) => [x.projectCode, x.from, x.to]),
      [[a.child.projectCode, 1, 3], [b.child.projectCode, 1, 3]],
    );
    assertEquals((await enter(t, a.mapId, "a1")).location, `${PANEL}/closed?sid=a1`);
    assertEquals((await enter(t, b.mapId, "b1")).location, `${PANEL}/closed?sid=b1`);

    const live = await setStatus(t, parent._id, 1);
    assertEquals(live.status, 200);
    assertEquals(live.projectStatus, 1);
    assertEquals(
      live.message,
      `Project updated successfully: 2 child projects live again; ${c.child.projectCode} stays Paused`,
    );
    assertEquals(
      live.childStatus?.changed.map((x) => [x.projectCode, x.from, x.to]),
      [[a.child.projectCode, 3, 1], [b.child.projectCode, 3, 1]],
    );
    assertEquals(live.childStatus?.kept, [{
      _id: c.child._id,
      projectCode: c.child.projectCode,
      projectStatus: 3,
    }]);
    assertEquals([
      await statusOf(t, a.child._id),
      await statusOf(t, b.child._id),
      await statusOf(t, c.child._id),
    ], [
      1,
      1,
      3,
    ]);
    // traffic flows again where the group stopped it, and not where the child was stopped on its own
    assert(takes((await enter(t, a.mapId, "a2")).location));
    assert(takes((await enter(t, b.mapId, "b2")).location));
    assertEquals((await enter(t, c.mapId, "c2")).location, `${PANEL}/closed?sid=c2`);

    // the children's logs say they came back with their group
    const token = await t.tokenFor("ADMIN");
    const logs = await t.api(SysLog.systemLogCall, { token, body: { filter: a.child._id } });
    assert(
      logs.json.result.some((l: { activity: string }) =>
        l.activity ===
          `Status of ${a.child.projectCode} changed from Paused to Live with its group ${parent.projectCode}`
      ),
    );
  } finally {
    await t.close();
  }
});

Deno.test("group status: Closed -> Live (and Paused, then Closed, then Live) gives each child the status it had before its group stopped it", async () => {
  const t = await testApp();
  try {
    const { parent, a, b, c } = await group(t);
    const awarded = await makeChild(t, parent, { projectStatus: 2 });
    assertEquals((await setStatus(t, parent._id, 3)).status, 200);
    const closed = await closeGroup(t, parent.projectCode);
    assertEquals(closed.status, 200);
    assertEquals(closed.message, "Project closed successfully: 4 child projects Closed with it");
    for (const x of [a.child, b.child, c.child, awarded]) assertEquals(await statusOf(t, x._id), 6);
    assertEquals((await enter(t, a.mapId, "a1")).location, `${PANEL}/closed?sid=a1`);

    const live = await setStatus(t, parent._id, 1);
    assertEquals(
      live.message,
      `Project updated successfully: 2 child projects live again; 1 child project back to Awarded; ${c.child.projectCode} stays Paused`,
    );
    assertEquals(await statusOf(t, a.child._id), 1);
    assertEquals(await statusOf(t, b.child._id), 1);
    assertEquals(await statusOf(t, c.child._id), 3, "paused on its own before the group stopped it");
    assertEquals(await statusOf(t, awarded._id), 2);
    assert(takes((await enter(t, a.mapId, "a2")).location));
    assertEquals((await enter(t, c.mapId, "c2")).location, `${PANEL}/closed?sid=c2`);

    // once back, a later pause and reopen works again (nothing is left over from the first round)
    assertEquals((await setStatus(t, parent._id, 3)).status, 200);
    assertEquals((await setStatus(t, parent._id, 1)).childStatus?.changed.length, 3);
  } finally {
    await t.close();
  }
});

Deno.test("group status: a child whose own status is changed under a stopped group is no longer the group's to reopen", async () => {
  const t = await testApp();
  try {
    const { parent, a, b, c } = await group(t);
    assertEquals((await setStatus(t, parent._id, 3)).status, 200);
    // the manager takes `a` in hand: live on its own, then paused on its own again
    assertEquals((await setStatus(t, a.child._id, 1)).status, 200);
    assertEquals((await setStatus(t, a.child._id, 3)).status, 200);
    const live = await setStatus(t, parent._id, 1);
    assertEquals(live.childStatus?.changed.map((x) => x.projectCode), [b.child.projectCode]);
    assertEquals(
      live.message,
      `Project updated successfully: 1 child project live again; ${a.child.projectCode} and ${c.child.projectCode} stay Paused`,
    );
    assertEquals(await statusOf(t, a.child._id), 3);
    assertEquals(await statusOf(t, b.child._id), 1);
    // a group change that moves no child still says which stay stopped
    const again = await setStatus(t, parent._id, 9);
    assertEquals(
      again.message,
      `Project updated successfully: ${a.child.projectCode} and ${c.child.projectCode} stay Paused`,
    );
    assertEquals(again.childStatus?.changed, []);
    // a child's own change answers no children at all
    const own = await setStatus(t, b.child._id, 3);
    assertEquals(own.message, "Project updated successfully");
    assertEquals(own.childStatus, undefined);
  } finally {
    await t.close();
  }
});

Deno.test("group status: many children stopped on their own are named up to five, the rest counted", async () => {
  const t = await testApp();
  try {
    const parent = await makeParent(t);
    const kids = [];
    for (let i = 0; i < 7; i++) kids.push(await makeChild(t, parent, { projectStatus: 3 }));
    assertEquals((await setStatus(t, parent._id, 3)).status, 200);
    const live = await setStatus(t, parent._id, 1);
    const named = kids.slice(0, 5).map((k) => k.projectCode).join(", ");
    assertEquals(live.message, `Project updated successfully: ${named} and 2 more stay Paused`);
    assertEquals(live.childStatus?.kept.length, 7);
  } finally {
    await t.close();
  }
});

Deno.test("group status: migration 0021 finds, in their log, the children a stopped group holds today", async () => {
  const t = await testApp();
  try {
    const { parent, a, b, c } = await group(t);
    const awarded = await makeChild(t, parent, { projectStatus: 2 });
    // Paused then Closed with the group (a, b, awarded); c paused on its own, then closed with it
    assertEquals((await setStatus(t, parent._id, 3)).status, 200);
    assertEquals((await closeGroup(t, parent.projectCode)).status, 200);
    const holds = () =>
      t.deps.db.selectFrom("group_status_holds").select(["projectId", "groupId", "statusBefore"])
        .orderBy("projectId").execute();
    const kept = await holds();
    assertEquals(kept.length, 4);
    // a database from before the change: no holds; the migration rebuilds them from the log
    await t.deps.db.schema.dropTable("group_status_holds").execute();
    await migration0021.up(t.deps.db);
    assertEquals(await holds(), kept);
    const live = await setStatus(t, parent._id, 1);
    assertEquals(
      live.message,
      `Project updated successfully: 2 child projects live again; 1 child project back to Awarded; ${c.child.projectCode} stays Paused`,
    );
    assertEquals([await statusOf(t, a.child._id), await statusOf(t, b.child._id)], [1, 1]);
    assertEquals(await statusOf(t, awarded._id), 2, "the awarded child is back to Awarded");
  } finally {
    await t.close();
  }
});
