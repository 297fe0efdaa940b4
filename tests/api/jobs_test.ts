/**
 * Scheduled jobs: the calls (add, edit, Soft and Status toggles, delete, get, list; roles, no token,
 * malformed input) and the scheduler inside the server: a tick with a moved clock pauses a Live
 * project at its sample size, closes one past its end date, and logs it; a Soft job changes nothing
 * and only e-mails the progress report; two schedulers on one database run a tick once.
 */
import { type TestApp, testApp } from "../helpers/app.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { liveProject } from "../helpers/router.ts";
import { JobScheduler } from "../../server/domain/support/scheduler.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { parseAttachments } from "../../server/domain/email/outbox.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const MINUTE = 60_000;

async function addJob(t: TestApp, body: Record<string, unknown>) {
  const r = await t.call("POST", "/admin/schedule/job/add", { token: await t.tokenFor("MANAGER"), body });
  assertEquals(r.status, 200, r.text);
  return r.json.result;
}

/** A clock the test moves. */
function clock(start = Date.now()) {
  let at = start;
  return { now: () => at, move: (ms: number) => (at += ms) };
}

async function statusOf(t: TestApp, id: string) {
  return (await t.deps.db.selectFrom("projects").select("projectStatus").where("id", "=", id)
    .executeTakeFirstOrThrow()).projectStatus;
}

Deno.test("jobs: add, get, list, edit, Soft and Status toggles, delete", opts, async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const job = await addJob(t, {
      projectCode: ` ${s.child.projectCode} `,
      interval: "5",
      comment: "watch it",
    });
    assertEquals(job.projectCode, s.child.projectCode);
    assertEquals(job.interval, 5);
    assertEquals(job.isSoft, false);
    assertEquals(job.isActive, true);
    assertEquals(job.fullName, "TestMANAGER User");
    assertEquals(job.lastRunAt, null);
    const token = await t.tokenFor("ADMIN");
    const got = await t.call("GET", `/admin/schedule/job/${job._id}`, { token });
    assertEquals(got.json.result._id, job._id);

    const list = await t.call("POST", "/admin/schedule/jobs", { token, body: { pageNo: 1, limit: 10 } });
    assertEquals(list.status, 200);
    assertEquals(list.json.result.data.map((j: { _id: string }) => j._id), [job._id]);
    assertEquals(list.json.result.data[0].projectName, s.child.projectName);

    const soft = await t.call("PUT", `/admin/schedule/job/update/${job._id}`, {
      token,
      body: { isSoft: true },
    });
    assertEquals(soft.status, 200);
    assertEquals(soft.json.result.isSoft, true);
    assertEquals(soft.json.message, "Scheduled job set to soft successfully");
    const off = await t.call("PUT", `/admin/schedule/job/update/${job._id}`, {
      token,
      body: { isActive: false },
    });
    assertEquals(off.json.result.isActive, false);
    const edited = await t.call("PUT", `/admin/schedule/job/update/${job._id}`, {
      token,
      body: {
        projectCode: s.parent.projectCode,
        interval: 10,
        comment: "the group",
        isSoft: false,
        isActive: true,
      },
    });
    assertEquals(edited.status, 200, edited.text);
    assertEquals(edited.json.result.projectCode, s.parent.projectCode);
    assertEquals(edited.json.result.interval, 10);
    assertEquals(edited.json.message, "Scheduled job updated successfully");

    const inactive = await t.call("POST", "/admin/schedule/jobs", { token, body: { status: false } });
    assertEquals(inactive.json.result.data.length, 0);

    const del = await t.call("PUT", `/admin/schedule/job/update/${job._id}`, {
      token,
      body: { isDeleted: true },
    });
    assertEquals(del.json.result, { _id: job._id, isDeleted: true });
    assertEquals((await t.call("GET", `/admin/schedule/job/${job._id}`, { token })).status, 404);
    const after = await t.call("POST", "/admin/schedule/jobs", { token, body: {} });
    assertEquals(after.json.result.data.length, 0);

    const logs = await t.deps.db.selectFrom("system_logs").select("activity").where("recordId", "=", job._id)
      .orderBy("createdAt").execute();
    assert(logs.length >= 5, JSON.stringify(logs));
  } finally {
    await t.close();
  }
});

Deno.test(
  "jobs: messages of the spec, interval at least 2, unknown project, roles, malformed",
  opts,
  async () => {
    const t = await testApp();
    try {
      const s = await liveProject(t);
      const token = await t.tokenFor("ACCOUNTANT");
      const add = (body: unknown) => t.call("POST", "/admin/schedule/job/add", { token, body });
      let r = await add({ projectCode: "  ", interval: 5 });
      assertEquals(r.status, 400);
      assertEquals(r.json.message, "Project Code  is required");
      r = await add({ projectCode: s.child.projectCode });
      assertEquals(r.json.message, "Interval  is required");
      r = await add({ projectCode: s.child.projectCode, interval: 1 });
      assertEquals(r.status, 400);
      assertEquals(r.json.message, "Interval must be at least 2 minutes");
      r = await add({ projectCode: s.child.projectCode, interval: "abc" });
      assertEquals(r.status, 400);
      r = await add({ projectCode: "NOPE-1", interval: 5 });
      assertEquals(r.status, 400);
      assertEquals(r.json.errors[0].path, "projectCode");
      r = await add({ projectCode: s.child.projectCode, interval: 5, isSoft: "yes" });
      assertEquals(r.status, 400);
      assertEquals((await t.call("POST", "/admin/schedule/job/add", { token, raw: "[" })).status, 400);

      const job = await addJob(t, { projectCode: s.child.projectCode, interval: 2 });
      const bad = await t.call("PUT", `/admin/schedule/job/update/${job._id}`, {
        token,
        body: { isDeleted: false },
      });
      assertEquals(bad.status, 400);
      assertEquals(
        (await t.call("PUT", "/admin/schedule/job/update/xyz", { token, body: { isActive: true } })).status,
        404,
      );
      assertEquals((await t.call("GET", `/admin/schedule/job/${"b".repeat(24)}`, { token })).status, 404);

      for (
        const [m, p] of [["POST", "/admin/schedule/jobs"], ["POST", "/admin/schedule/job/add"], [
          "GET",
          `/admin/schedule/job/${job._id}`,
        ]]
      ) {
        assertEquals((await t.call(m, p, { body: m === "GET" ? undefined : {} })).status, 401);
        assertEquals(
          (await t.call(m, p, { token: await t.tokenFor("SUBSCRIBER"), body: m === "GET" ? undefined : {} }))
            .status,
          403,
        );
      }
    } finally {
      await t.close();
    }
  },
);

Deno.test(
  "scheduler: a tick with a moved clock pauses a Live project at its sample size and logs it",
  opts,
  async () => {
    const t = await testApp();
    try {
      const s = await liveProject(t, { child: { sampleSize: 3 } });
      const job = await addJob(t, { projectCode: s.child.projectCode, interval: 5 });
      const c = clock();
      const scheduler = new JobScheduler(t.deps.db, t.deps.log, {
        changes: t.deps.services.changes,
        now: c.now,
      });
      assertEquals(await scheduler.tick(), [], "not due before its interval");
      c.move(5 * MINUTE + 1000);
      let runs = await scheduler.tick();
      assertEquals(runs.length, 1);
      assertMatch(runs[0].outcome, /^No change: Live, 0 \/ 3 completes$/);
      assertEquals(await statusOf(t, s.child._id), PROJECT_STATUS.LIVE);

      await t.deps.db.updateTable("projects").set({ complete: 3 }).where("id", "=", s.child._id).execute();
      c.move(2 * MINUTE);
      assertEquals(await scheduler.tick(), [], "the next run is one interval after the last");
      c.move(3 * MINUTE);
      runs = await scheduler.tick();
      assertEquals(runs.length, 1);
      assertEquals(runs[0].status, "ok");
      assertEquals(runs[0].outcome, `Paused ${s.child.projectCode}: 3 completes reached the sample size 3`);
      assertEquals(await statusOf(t, s.child._id), PROJECT_STATUS.PAUSED);

      const row = await t.deps.db.selectFrom("scheduled_jobs").selectAll().where("id", "=", job._id)
        .executeTakeFirstOrThrow();
      assertEquals(row.runs, 2);
      assertEquals(row.lastRunAt, new Date(c.now()).toISOString());
      assertEquals(row.lastStatus, "ok");
      assertEquals(row.nextRunAt, new Date(c.now() + 5 * MINUTE).toISOString());
      const logs = await t.deps.db.selectFrom("system_logs").select(["activity", "name"])
        .where("name", "=", "Scheduled job").execute();
      assert(
        logs.some((l) =>
          l.activity.startsWith(`Status of ${s.child.projectCode} changed from Live to Paused`)
        ),
      );
      assert(logs.some((l) => l.activity.startsWith(`Paused ${s.child.projectCode}`)));

      // shown in the grid
      const list = await t.call("POST", "/admin/schedule/jobs", {
        token: await t.tokenFor("ADMIN"),
        body: {},
      });
      assertEquals(list.json.result.data[0].lastOutcome, runs[0].outcome);
      assertEquals(list.json.result.data[0].lastRunAt, row.lastRunAt);
    } finally {
      await t.close();
    }
  },
);

Deno.test(
  "scheduler: closes a project past its end date (PO number rule kept), logs what it did",
  opts,
  async () => {
    const t = await testApp();
    try {
      const s = await liveProject(t, { child: { endDate: "2026-12-01" } });
      await addJob(t, { projectCode: s.child.projectCode, interval: 2 });
      const c = clock(Date.parse("2026-12-02T10:00:00Z"));
      const scheduler = new JobScheduler(t.deps.db, t.deps.log, {
        changes: t.deps.services.changes,
        now: c.now,
      });
      // added before the clock: due at once
      let runs = await scheduler.tick();
      assertEquals(runs.length, 1);
      assertEquals(runs[0].status, "error");
      assertMatch(runs[0].outcome, /^Could not close .*: PO Number is required$/);
      assertEquals(await statusOf(t, s.child._id), PROJECT_STATUS.LIVE);

      await t.deps.db.updateTable("projects").set({ poNumber: "PO-77" }).where("id", "=", s.child._id)
        .execute();
      c.move(2 * MINUTE);
      runs = await scheduler.tick();
      assertEquals(runs[0].status, "ok");
      assertEquals(runs[0].outcome, `Closed ${s.child.projectCode}: its end date 2026-12-01 has passed`);
      assertEquals(await statusOf(t, s.child._id), PROJECT_STATUS.CLOSED);
      c.move(2 * MINUTE);
      runs = await scheduler.tick();
      assertMatch(runs[0].outcome, /^No change: Closed/);
    } finally {
      await t.close();
    }
  },
);

Deno.test(
  "scheduler: a Soft job changes nothing and only e-mails the progress report to the manager",
  opts,
  async () => {
    const t = await testApp();
    try {
      const s = await liveProject(t, { child: { sampleSize: 1, endDate: "2026-12-01" } });
      await t.deps.db.updateTable("projects").set({ complete: 5 }).where("id", "=", s.child._id).execute();
      await addJob(t, { projectCode: s.parent.projectCode, interval: 3, isSoft: true });
      let mailed = 0;
      const c = clock(Date.parse("2026-12-05T10:00:00Z"));
      const scheduler = new JobScheduler(t.deps.db, t.deps.log, {
        changes: t.deps.services.changes,
        now: c.now,
        onMail: () => mailed++,
      });
      const runs = await scheduler.tick();
      assertEquals(runs.length, 1);
      assertEquals(runs[0].status, "ok", runs[0].outcome);
      assertEquals(
        runs[0].outcome,
        `Queued the progress report of ${s.parent.projectCode} for manager@test.local`,
      );
      assertEquals(mailed, 1);
      assertEquals(await statusOf(t, s.child._id), PROJECT_STATUS.LIVE);
      const mails = await t.deps.db.selectFrom("email_outbox").selectAll().where(
        "module",
        "=",
        "Scheduled Jobs",
      )
        .execute();
      assertEquals(mails.length, 1);
      assertEquals(mails[0].toAddress, "manager@test.local");
      const [file] = parseAttachments(mails[0].attachments);
      assertEquals(file.contentType, "image/png");
      assertMatch(file.filename, /-progress-2026-12-05\.png$/);
      const png = Uint8Array.from(atob(file.content), (ch) => ch.charCodeAt(0));
      assertEquals([...png.slice(1, 4)], [0x50, 0x4e, 0x47]);
    } finally {
      await t.close();
    }
  },
);

Deno.test("scheduler: two instances on one database run a tick once", opts, async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t);
    const jobs = [];
    for (let i = 0; i < 4; i++) jobs.push(await addJob(t, { projectCode: s.child.projectCode, interval: 2 }));
    const c = clock();
    c.move(3 * MINUTE);
    const a = new JobScheduler(t.deps.db, t.deps.log, { changes: t.deps.services.changes, now: c.now });
    const b = new JobScheduler(t.deps.db, t.deps.log, { changes: t.deps.services.changes, now: c.now });
    const [ra, rb] = await Promise.all([a.tick(), b.tick()]);
    assertEquals(ra.length + rb.length, 4);
    const ran = [...ra, ...rb].map((r) => r.jobId).sort();
    assertEquals(ran, jobs.map((j) => j._id).sort());
    const rows = await t.deps.db.selectFrom("scheduled_jobs").select("runs").execute();
    assertEquals(rows.map((r) => r.runs), [1, 1, 1, 1]);
    // a run whose instance died leaves its lease; the job is due again once it runs out
    const [stuck] = jobs;
    const lease = new Date(c.now() + 60_000).toISOString();
    await t.deps.db.updateTable("scheduled_jobs").set({ nextRunAt: lease }).where("id", "=", stuck._id)
      .execute();
    c.move(30_000);
    assertEquals((await a.tick()).length, 0);
    c.move(40_000);
    assertEquals((await b.tick()).map((r) => r.jobId), [stuck._id]);
  } finally {
    await t.close();
  }
});
