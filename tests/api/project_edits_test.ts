/**
 * Saving a project's edit form with its status as it is (Ready To Invoice and Invoiced included),
 * the project picker's query validation, and the domain writing with the app's clock (Deps.now).
 */
import * as v from "valibot";
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { childProjectBody, makeChild, makeClient, makeParent } from "../helpers/fixtures.ts";
import { MSG } from "../../shared/messages.ts";
import { ChildProject, GroupProject } from "../../shared/schemas/project.ts";
import { PROJECT_STATUS, PROJECT_TYPE } from "../../shared/status.ts";
import { setStatus } from "../../server/domain/projects/status.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

type Rec = Record<string, unknown>;

/** What the group edit form holds for a project (GroupProjectFormPage's defaults), as it submits it. */
const groupForm = (p: Rec, changes: Rec) => ({
  projectName: p.projectName,
  projectDescription: p.projectDescription ?? "",
  notes: p.notes ?? "",
  clientId: p.clientId,
  userId: p.userId,
  isDynamicThanksUrl: p.isDynamicThanksUrl,
  projectStatus: String(p.projectStatus),
  poNumber: p.poNumber ?? "",
  averageLOI: String(p.averageLOI),
  ir: String(p.ir),
  clientEmail: p.clientEmail ?? "",
  projectSpecs: p.projectSpecs ?? "",
  ...changes,
});

/** What the child edit form holds for a child project, as it submits it. */
const childForm = (p: Rec, changes: Rec) => ({
  ...childProjectBody({ _id: p.parentProjectId as string, clientId: p.clientId as string }),
  projectName: p.projectName,
  projectDescription: p.projectDescription ?? "",
  countryId: p.countryId,
  languageId: p.languageId,
  currencyId: p.currencyId,
  averageLOI: String(p.averageLOI),
  ir: String(p.ir),
  sampleSize: String(p.sampleSize),
  respondentClickQuota: String(p.respondentClickQuota),
  cpi: String(p.cpi),
  startDate: p.startDate,
  endDate: p.endDate,
  projectStatus: String(p.projectStatus),
  poNumber: p.poNumber ?? "",
  ...changes,
});

Deno.test("projects: a Ready To Invoice or Invoiced project (group or child) saves a new note and keeps its status; choosing Ready To Invoice on the form is still refused", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const get = async (id: string) =>
      (await t.call("GET", `/admin/project/${id}`, { token })).json.result as Rec;
    // the edit form checks its values with the shared schema before sending, then PUTs them
    const save = async (schema: typeof GroupProject | typeof ChildProject, id: string, form: Rec) => {
      const checked = v.safeParse(schema, form);
      assert(checked.success, `the form refuses: ${JSON.stringify(checked.issues?.map((i) => i.message))}`);
      return await t.call("PUT", `/admin/project/update/${id}`, { token, body: checked.output });
    };

    // Closed with its PO number (the child follows), then Proceed to Invoice (the child follows again)
    assertEquals(
      (await t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, {
        token,
        body: { poNumber: "PO-1" },
      }))
        .status,
      200,
    );
    const proceed = await t.call("PUT", `/admin/project/update/${parent._id}`, {
      token,
      body: { projectStatus: PROJECT_STATUS.READY_TO_INVOICE },
    });
    assertEquals(proceed.status, 200, proceed.text);
    assertEquals((await get(child._id)).projectStatus, PROJECT_STATUS.READY_TO_INVOICE);

    for (const status of [PROJECT_STATUS.READY_TO_INVOICE, PROJECT_STATUS.INVOICED]) {
      if (status === PROJECT_STATUS.INVOICED) {
        const caller = { actor: SYSTEM_ACTOR, userId: parent.userId, role: "ADMIN" as const };
        await setStatus({ ...t.deps, now: wallClock, ...caller }, { id: parent._id, action: "invoice" });
        await setStatus({ ...t.deps, now: wallClock, ...caller }, { id: child._id, action: "invoice" });
      }
      const group = await get(parent._id);
      assertEquals(group.projectStatus, status);
      const note = `Invoice sent to the client (${status})`;
      const saved = await save(GroupProject, parent._id, groupForm(group, { notes: note }));
      assertEquals(saved.status, 200, saved.text);
      assertEquals([saved.json.result.notes, saved.json.result.projectStatus], [note, status]);
      assertEquals(saved.json.message, "Project updated successfully");

      const kid = await get(child._id);
      assertEquals(kid.projectStatus, status);
      const description = `Fieldwork done (${status})`;
      const savedChild = await save(
        ChildProject,
        child._id,
        childForm(kid, { projectDescription: description }),
      );
      assertEquals(savedChild.status, 200, savedChild.text);
      assertEquals([savedChild.json.result.projectDescription, savedChild.json.result.projectStatus], [
        description,
        status,
      ]);
      // a note through the update call keeps the child's status too
      const noted = await t.call("PUT", `/admin/project/update/${child._id}`, {
        token,
        body: { notes: note, projectStatus: status },
      });
      assertEquals([noted.status, noted.json.result?.projectStatus, noted.json.result?.notes], [
        200,
        status,
        note,
      ]);
    }

    // choosing Ready To Invoice or Invoiced on a form is still refused: a Live project cannot go there
    const other = await makeParent(t);
    const live = await save(GroupProject, other._id, groupForm(await get(other._id), { projectStatus: "1" }));
    assertEquals(live.json.result.projectStatus, PROJECT_STATUS.LIVE);
    const toReady = await save(
      GroupProject,
      other._id,
      groupForm(await get(other._id), { projectStatus: "4" }),
    );
    assertEquals(toReady.status, 409);
    assertEquals(toReady.json.message, "Proceed to Invoice needs a Closed project; this one is Live");
    const toInvoiced = await save(
      GroupProject,
      other._id,
      groupForm(await get(other._id), { projectStatus: "5" }),
    );
    assertEquals(toInvoiced.status, 400);
    assertEquals(toInvoiced.json.errors, [{ path: "projectStatus", message: MSG.projectStatusNotEditable }]);
    assertEquals((await get(other._id)).projectStatus, PROJECT_STATUS.LIVE);
    // and a new project never starts there, whichever form
    const client = await makeClient(t);
    const m = await t.userWith("MANAGER");
    const newGroup = await t.call("POST", "/admin/project/add", {
      token,
      body: {
        projectName: "Straight to 4",
        clientId: client._id,
        userId: m.id,
        averageLOI: 5,
        ir: 5,
        projectStatus: 4,
      },
    });
    assertEquals(newGroup.status, 400);
    assertEquals(newGroup.json.errors, [{ path: "projectStatus", message: MSG.projectStatusNotEditable }]);
    const newChild = await t.call("POST", "/admin/project/add", {
      token,
      body: { ...childProjectBody(other), projectStatus: "4" },
    });
    assertEquals(newChild.status, 400);
    assertEquals(newChild.json.errors, [{ path: "projectStatus", message: MSG.projectStatusNotEditable }]);
  } finally {
    await t.close();
  }
});

Deno.test("projects: GET /admin/projects/all checks its query: type 1 or 2 (else 400 naming type), search matched literally", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t, { projectName: "Tracker 100% wave" });
    const child = await makeChild(t, parent);
    const all = (query: string) => t.call("GET", `/admin/projects/all${query}`, { token });

    for (const bad of ["abc", "3", "1.5", "0"]) {
      const r = await all(`?type=${bad}`);
      assertEquals(r.status, 400, `type=${bad}: ${r.text}`);
      assert(/\btype\b/.test(r.json.message), r.json.message);
      assertEquals(r.json.errors, [{ path: "type", message: r.json.message }]);
    }
    const long = await all(`?search=${"x".repeat(101)}`);
    assertEquals([long.status, long.json.errors?.[0]?.path], [400, "search"]);

    const ids = (r: { json: { result: { _id: string }[] } }) => r.json.result.map((p) => p._id).sort();
    const groups = await all(`?type=${PROJECT_TYPE.GROUP}`);
    assertEquals(groups.status, 200);
    assertEquals(ids(groups), [parent._id]);
    assertEquals(groups.json.result[0].label, `${parent.projectCode} - Tracker 100% wave`);
    assertEquals(ids(await all(`?type=${PROJECT_TYPE.CHILD}`)), [child._id]);
    assertEquals(ids(await all("")), [parent._id, child._id].sort());
    assertEquals(ids(await all("?type=")), [parent._id, child._id].sort());
    // the search is a part of the code or name, its % and _ taken as they are
    assertEquals(ids(await all(`?search=${encodeURIComponent("100%")}`)), [parent._id]);
    assertEquals(ids(await all(`?search=${encodeURIComponent("0%w")}`)), []);
    assertEquals(ids(await all(`?search=${child.projectCode}&type=2`)), [child._id]);

    // the children picker of a group
    const kids = await t.call("GET", `/admin/project/child/all/${parent._id}`, { token });
    assertEquals(kids.json.result.map((k: { label: string }) => k.label), [child.projectCode]);
  } finally {
    await t.close();
  }
});

Deno.test("projects: creating, editing, closing, cloning and exclusions write the app's clock (Deps.now), in rows and logs", async () => {
  let time = Date.parse("2025-03-04T05:06:07.000Z");
  const t = await testApp({}, { now: () => time });
  try {
    const token = await t.tokenFor("ADMIN");
    const at = (ms: number) => new Date(ms).toISOString();
    const created = time;
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const row = (id: string) =>
      t.deps.db.selectFrom("projects").select(["createdAt", "updatedAt", "statusChangedAt"]).where(
        "id",
        "=",
        id,
      )
        .executeTakeFirstOrThrow();
    assertEquals(await row(parent._id), {
      createdAt: at(created),
      updatedAt: at(created),
      statusChangedAt: at(created),
    });
    assertEquals((await row(child._id)).createdAt, at(created));

    time += 60_000;
    const edited = time;
    assertEquals(
      (await t.call("PUT", `/admin/project/update/${child._id}`, { token, body: { wid: "W-1" } })).status,
      200,
    );
    assertEquals((await row(child._id)).updatedAt, at(edited));

    time += 60_000;
    const closed = time;
    const close = await t.call("PUT", `/admin/project/code/update/${parent.projectCode}`, {
      token,
      body: { poNumber: "PO-7" },
    });
    assertEquals(close.status, 200);
    // the group and the child that followed it
    for (const id of [parent._id, child._id]) {
      const r = await row(id);
      assertEquals([r.updatedAt, r.statusChangedAt], [at(closed), at(closed)]);
    }

    time += 60_000;
    const cloned = time;
    const clone = await t.call("POST", `/admin/project/clone/${parent._id}`, {
      token,
      body: { countryId: "US", languageId: "en" },
    });
    assertEquals(clone.status, 200, clone.text);
    assertEquals((await row(clone.json.result.parentProjectId)).createdAt, at(cloned));

    time += 60_000;
    const excluded = time;
    const other = await makeChild(t, parent);
    const ex = await t.call("POST", "/admin/project/exclude/add", {
      token,
      body: { projectId: child._id, excludedProjectId: other._id },
    });
    assertEquals(ex.status, 200, ex.text);
    const exclusion = await t.deps.db.selectFrom("project_exclusions").select("createdAt")
      .where("projectId", "=", child._id).executeTakeFirstOrThrow();
    assertEquals(exclusion.createdAt, at(excluded));

    // every log row of the child carries one of those times, in order
    const logs = await t.deps.db.selectFrom("system_logs").select(["createdAt", "activity"])
      .where("recordId", "=", child._id).orderBy("createdAt").execute();
    assertEquals(logs.map((l) => l.createdAt), [at(created), at(edited), at(closed), at(excluded)]);
  } finally {
    await t.close();
  }
});
