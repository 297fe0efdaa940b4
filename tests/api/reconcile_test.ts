/**
 * Reconcile: uploads of approved or rejected identifier files applied all or nothing, the result
 * summary, undo back to exactly the state before, uploads racing on one project, the approved
 * counts flowing into the lists and figures, the suppliers' approved post-backs, revoke and the
 * status step, the supplier summary, and the guards of every call.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { enter, liveProject, router } from "../helpers/router.ts";
import { closedProject, type Traffic } from "../helpers/reconcile.ts";
import { reconcileMismatches } from "../../server/domain/reconcile/recount.ts";
import {
  HOOK_HELD,
  identifiersOfUpload,
  reconcileUpload,
  recoverReconciles,
  undoReconcile,
} from "../../server/domain/reconcile/reconcile.ts";
import { MAX_IDENTIFIERS, parseIdentifierFile } from "../../shared/reconcile-file.ts";
import { parseOffThread } from "../../server/domain/reconcile/offthread.ts";
import Papa from "papaparse";
import { setImmediate } from "node:timers";
import { sqldSupported, startSqld } from "../helpers/sqld.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { sql } from "kysely";
import * as Cl from "../../shared/api/clients.ts";
import * as P from "../../shared/api/projects.ts";
import * as Rec from "../../shared/api/reconcile.ts";
import * as Sup from "../../shared/api/suppliers.ts";

async function upload(
  t: TestApp,
  projectId: string,
  body: unknown,
  role: "SUPERADMIN" | "ACCOUNTANT" = "SUPERADMIN",
) {
  return await t.api(Rec.reconcileUpload, {
    params: { id: projectId },
    as: role,
    // the body under test, valid or not: sent as is
    bad: body,
  });
}
const csvOf = (lines: string[]) => lines.join("\n") + "\n";

async function approvedOf(t: TestApp, table: "projects" | "supplier_maps", id: string) {
  return await t.deps.db.selectFrom(table).select(["approved", "rejected"]).where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function snapshot(t: TestApp, s: Traffic) {
  // every session of the project with its reconcile state (0: no row in session_reconciles)
  const sessions = (await sql<{ id: string; reconciled: number }>`
    SELECT s.id, coalesce(r.state, 0) AS reconciled FROM sessions s
      LEFT JOIN session_reconciles r ON r.sessionId = s.id
    WHERE s.projectId = ${s.child._id} ORDER BY s.id`.execute(t.deps.db)).rows;
  const rollup = await sql<{ date: string; approved: number; rejected: number }>`
    SELECT date, approved, rejected FROM router_daily WHERE projectId = ${s.child._id} ORDER BY date`
    .execute(t.deps.db);
  return {
    sessions,
    project: await approvedOf(t, "projects", s.child._id),
    map: await approvedOf(t, "supplier_maps", s.mapId),
    rollup: rollup.rows,
  };
}

Deno.test("reconcile: an upload with unknown, duplicate and already reconciled identifiers says so, and applies only the new completes", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 6, terminate: 2 });
    const [a, b, c, d] = s.completes;
    // first upload approves a and b
    const first = await upload(t, s.parent._id, { type: 1, csv: csvOf([a, b]), fileName: "first.csv" });
    assertEquals(first.status, 200, first.text);
    assertEquals(first.json.result.matched, 2);
    // second: a header, blank lines, quotes, a duplicate, an unknown id, one already approved, a terminate
    const file = ['"UID"', "", `"${c}"`, d, `${c}`, "  ", "ffffffffffffffffffffffff", a, s.terminates[0], ""]
      .join("\r\n");
    const second = await upload(t, s.parent._id, { type: 2, csv: file, fileName: "rejects.csv" });
    assertEquals(second.status, 200, second.text);
    const r = second.json.result;
    assertEquals(
      {
        matched: r.matched,
        unknown: r.unknown,
        duplicates: r.duplicates,
        alreadyReconciled: r.alreadyReconciled,
        notComplete: r.notComplete,
        identifiers: r.identifiers,
        type: r.typeLabel,
        status: r.status,
      },
      {
        matched: 2,
        unknown: 1,
        duplicates: 1,
        alreadyReconciled: 1,
        notComplete: 1,
        identifiers: 5,
        type: "Rejected",
        status: "applied",
      },
    );
    assertMatch(second.json.message, /2 identifiers rejected/);
    assertEquals(await approvedOf(t, "projects", s.child._id), { approved: 2, rejected: 2 });
    assertEquals(await approvedOf(t, "supplier_maps", s.mapId), { approved: 2, rejected: 2 });
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);

    // the approved count flows on: the projects list (group sums), the reconcile list, client and supplier figures
    const admin = await t.tokenFor("SUPERADMIN");
    const projects = await t.api(P.listProjects, {
      token: admin,
      body: { search: s.parent.projectCode },
    });
    assertEquals(projects.json.result.data[0].approved, 2);
    const list = await t.api(Rec.listReconcileProjects, {
      token: admin,
      body: { filter: { projectStatus: [6] }, limit: 20 },
    });
    assertEquals(list.status, 200, list.text);
    const row = list.json.result.data.find((x: { _id: string }) => x._id === s.parent._id);
    assertEquals([row.complete, row.approved, row.rejected, row.pending], [6, 2, 2, 2]);
    assertEquals(row.lastReconcile.fileName, "rejects.csv");
    const clients = await t.api(Cl.listClients, { token: admin, body: {} });
    const client = clients.json.result.data.find((x: { _id: string }) => x._id === s.parent.clientId);
    assertEquals(client.approved, 2);
    const suppliers = await t.api(Sup.listSuppliers, { token: admin, body: {} });
    const supplier = suppliers.json.result.data.find((x: { _id: string }) => x._id === s.supplierId);
    assertEquals([supplier.approved, supplier.actualExpense], [2, 2.5]);
    // the CSV of the reconcile grid
    const csv = await t.api(Rec.listReconcileProjects, { search: { format: "csv" }, token: admin, body: {} });
    assertMatch(
      csv.text.split("\n")[0],
      /^Project code,Project name,Client,Status,Complete,Approved,Rejected/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: a file that breaks the rules is a 400 naming the line, and nothing is applied", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 2 });
    const [a, b] = s.completes;
    const two = await upload(t, s.parent._id, { type: 1, csv: `${a}\n\n${a},${b}\n` });
    assertEquals([two.status, two.json.message], [400, "Line 3: one identifier a line, found 2 values"]);
    const spaced = await upload(t, s.parent._id, { type: 1, csv: `${a}\nnot an id\n` });
    assertEquals([spaced.status, spaced.json.message], [
      400,
      "Line 2: an identifier holds no spaces or control characters",
    ]);
    const empty = await upload(t, s.parent._id, { type: 1, csv: "\n\n" });
    assertEquals([empty.status, empty.json.message], [400, "The file holds no identifiers"]);
    for (
      const body of [
        { type: 3, csv: a },
        { type: 1 },
        { csv: a },
        { type: 1, csv: 5 },
        { type: 1, uid: "x" },
        [],
      ]
    ) {
      const r = await upload(t, s.parent._id, body);
      assertEquals(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert(typeof r.json.message === "string" && r.json.message.length > 0);
    }
    const notJson = await t.api(Rec.reconcileUpload, {
      params: { id: s.parent._id },
      as: "ADMIN",
      raw: "{type:1",
    });
    assertEquals(notJson.status, 400);
    // the spec's own body: a list of identifiers
    const list = await upload(t, s.parent._id, { type: "1", uid: [a, a, " "] });
    assertEquals([list.status, list.json.result.matched, list.json.result.duplicates], [200, 1, 1]);
    // an unknown or malformed project id
    assertEquals((await upload(t, "0".repeat(24), { type: 1, csv: a })).status, 404);
    assertEquals((await upload(t, "nope", { type: 1, csv: a })).status, 404);
    // a body over the call's limit
    const big = await t.api(Rec.reconcileUpload, {
      params: { id: s.parent._id },
      as: "ADMIN",
      raw: JSON.stringify({ type: 1, csv: "x".repeat(21 * 1024 * 1024) }),
    });
    assertEquals(big.status, 413);
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: a failure half way leaves nothing applied (sessions, counters, rollup, hooks, staging)", async () => {
  const t = await testApp({}, { router: { fetch: () => Promise.resolve(new Response("ok")) } });
  try {
    const supplier = await makeSupplier(t, {
      supplierApprovedHook: "https://panel.example/a?uid=[uid]&s=[status]",
    });
    const s = await closedProject(t, { complete: 4 }, { supplierId: supplier._id });
    await router(t).idle();
    const hooksBefore = await t.deps.db.selectFrom("router_hooks").select("id").execute();
    const before = await snapshot(t, s);
    // the sessions are marked before the supplier map's counter moves: that statement fails
    await sql`CREATE TRIGGER fail_map BEFORE UPDATE OF approved ON supplier_maps
      BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`.execute(t.deps.db);
    let failed = "";
    try {
      await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
        projectId: s.parent._id,
        type: 1,
        ids: {
          identifiers: s.completes,
          lines: 4,
          duplicates: 0,
        },
      });
    } catch (e) {
      failed = String(e);
    }
    assertMatch(failed, /disk on fire/);
    assertEquals(await snapshot(t, s), before);
    assertEquals(
      (await t.deps.db.selectFrom("router_hooks").select("id").execute()).length,
      hooksBefore.length,
    );
    assertEquals((await t.deps.db.selectFrom("reconcile_stage").select("sessionId").execute()).length, 0);
    assertEquals((await t.deps.db.selectFrom("reconciles").select("id").execute()).length, 0);
    // through the API: an error answer, not a half-applied upload
    const r = await upload(t, s.parent._id, { type: 1, uid: s.completes });
    assert(r.status >= 400, `${r.status}: ${r.text}`);
    assertEquals(await snapshot(t, s), before);
    await sql`DROP TRIGGER fail_map`.execute(t.deps.db);
    const ok = await upload(t, s.parent._id, { type: 1, uid: s.completes });
    assertEquals([ok.status, ok.json.result.matched], [200, 4]);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: undo restores exactly the state before its upload; queued approved post-backs are withdrawn, sent ones never go twice; logged", async () => {
  const sent: string[] = [];
  let hold = true;
  const t = await testApp({}, {
    router: {
      fetch: (url) => {
        if (hold) return Promise.resolve(new Response("busy", { status: 503 }));
        sent.push(String(url));
        return Promise.resolve(new Response("ok"));
      },
      hookRetryDelaysMs: [60_000, 60_000, 60_000],
    },
  });
  try {
    const supplier = await makeSupplier(t, {
      supplierApprovedHook: "https://panel.example/hook?uid=[uid]&status=[status]&key=[key]",
    });
    const s = await closedProject(t, { complete: 5 }, { supplierId: supplier._id });
    hold = false;
    await router(t).idle();
    assertEquals(sent.length, 0, "the complete hooks failed once and wait a minute to retry");
    sent.length = 0;
    const initial = await snapshot(t, s);
    const [a, b, c, d] = s.completes;

    const first = await upload(t, s.parent._id, { type: 1, csv: csvOf([a, b]) });
    assertEquals(first.json.result.hooksQueued, 2);
    await router(t).idle();
    assertEquals(
      sent.sort(),
      [a, b].map((u) => `https://panel.example/hook?uid=${u}&status=a&key=${u}-a`).sort(),
    );
    const afterFirst = await snapshot(t, s);

    hold = true; // the next approvals stay queued (their first attempt fails, the retry waits)
    const second = await upload(t, s.parent._id, { type: 1, csv: csvOf([c, d, a]) });
    assertEquals([second.json.result.matched, second.json.result.alreadyReconciled], [2, 1]);
    await router(t).idle();
    const undo = await t.api(Rec.reconcileUndo, {
      params: { id: s.parent._id },
      as: "MANAGER",
    });
    assertEquals(undo.status, 200, undo.text);
    assertEquals(
      [undo.json.result.restored, undo.json.result.hooksWithdrawn, undo.json.result.hooksAlreadySent],
      [2, 2, 0],
    );
    assertEquals(await snapshot(t, s), afterFirst, "back to exactly the state after the first upload");
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);

    // undo the first: its post-backs were sent, and re-approving does not send them again
    const undo1 = await t.api(Rec.reconcileUndo, {
      params: { id: s.parent._id },
      as: "ACCOUNTANT",
    });
    assertEquals([undo1.json.result.restored, undo1.json.result.hooksAlreadySent], [2, 2]);
    assertEquals(await snapshot(t, s), initial);
    const nothing = await t.api(Rec.reconcileUndo, {
      params: { id: s.parent._id },
      as: "ADMIN",
    });
    assertEquals(nothing.status, 409);
    hold = false;
    sent.length = 0;
    const again = await upload(t, s.parent._id, { type: 1, uid: [a, b, c] });
    assertEquals([again.json.result.matched, again.json.result.hooksQueued], [3, 1]);
    await router(t).idle();
    assertEquals(sent, [`https://panel.example/hook?uid=${c}&status=a&key=${c}-a`]);
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);

    const logs = await t.deps.db.selectFrom("system_logs").select(["activity", "module"])
      .where("module", "=", "Reconcile").orderBy("createdAt").execute();
    assert(
      logs.some((l) =>
        /^Undid the approved reconcile of .*: 2 sessions back to not reconciled; 2 queued approved post-backs withdrawn, 0 already sent/
          .test(l.activity)
      ),
      JSON.stringify(logs),
    );
    assert(logs.some((l) => /2 already sent are not sent again/.test(l.activity)));
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: two uploads racing on one project count every session once", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 8 });
    const one = s.completes.slice(0, 6), two = s.completes.slice(3);
    const [r1, r2] = await Promise.all([
      upload(t, s.parent._id, { type: 1, uid: one }),
      upload(t, s.parent._id, { type: 2, uid: two }),
    ]);
    assertEquals([r1.status, r2.status], [200, 200]);
    const m1 = r1.json.result, m2 = r2.json.result;
    assertEquals(m1.matched + m2.matched, 8);
    assertEquals(m1.alreadyReconciled + m2.alreadyReconciled, 3);
    assertEquals(await approvedOf(t, "projects", s.child._id), {
      approved: m1.matched,
      rejected: m2.matched,
    });
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: status step with sendEmail, revoke with its rules, settled projects refuse uploads", async () => {
  const t = await testApp();
  try {
    const supplier = await makeSupplier(t, { supplierEmail: "panel@example.com" });
    const s = await closedProject(t, { complete: 2 }, { supplierId: supplier._id });
    const token = await t.tokenFor("ACCOUNTANT");
    const revokeClosed = await t.api(Rec.revokeProjectCall, {
      params: { id: s.parent._id },
      token,
      body: {},
    });
    assertEquals(revokeClosed.status, 409);
    const mails = () => t.deps.db.selectFrom("email_outbox").select(["toAddress", "subject"]).execute();
    const toInvoice = await t.api(Rec.reconcileStatusCall, {
      params: { id: s.parent._id },
      token,
      body: { projectStatus: 4, sendEmail: true },
    });
    assertEquals([toInvoice.status, toInvoice.json.result.projectStatus], [200, 4], toInvoice.text);
    assertEquals((await mails()).map((m) => [m.toAddress, m.subject]), [
      ["panel@example.com", `${s.parent.projectCode} is ready to invoice`],
    ]);
    const revoked = await t.api(Rec.revokeProjectCall, {
      params: { id: s.parent._id },
      token,
      body: { sendEmail: false },
    });
    assertEquals([revoked.status, revoked.json.result.projectStatus], [200, 6], revoked.text);
    const child = await t.deps.db.selectFrom("projects").select("projectStatus").where("id", "=", s.child._id)
      .executeTakeFirstOrThrow();
    assertEquals(child.projectStatus, 6, "the child comes back with its group");
    assertEquals((await mails()).length, 1, "no mail without sendEmail");
    const archived = await t.api(Rec.reconcileStatusCall, {
      params: { id: s.parent._id },
      token,
      body: { projectStatus: 7 },
    });
    assertEquals(archived.status, 200);
    const refused = await upload(t, s.parent._id, { type: 1, uid: s.completes });
    assertEquals(refused.status, 409);
    await t.api(Rec.revokeProjectCall, { params: { id: s.parent._id }, token, body: { sendEmail: true } });
    assert((await mails()).some((m) => /is back in reconciliation/.test(m.subject)));
    const bad = await t.api(Rec.reconcileStatusCall, {
      params: { id: s.parent._id },
      token,
      bad: { projectStatus: 1 },
    });
    assertEquals(bad.status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: the supplier summary shows and edits supplier CPI and the admin-approved count", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 3 });
    await upload(t, s.parent._id, { type: 1, uid: s.completes.slice(0, 2) });
    const token = await t.tokenFor("MANAGER");
    const sum = await t.api(Rec.supplierSummaryCall, {
      token,
      body: { projectId: s.parent._id },
    });
    assertEquals(sum.status, 200, sum.text);
    const row = sum.json.result[0];
    assertEquals([row.complete, row.approved, row.supplierCPI, row.totalAccepted, row.cost], [
      3,
      2,
      1.25,
      2,
      2.5,
    ]);
    const cpi = await t.api(Rec.approveSummaryCall, {
      token,
      body: { projectId: s.parent._id, supplierId: s.supplierId, supplierCPI: "2" },
    });
    assertEquals([cpi.status, cpi.json.result.cost], [200, 4], cpi.text);
    const adm = await t.api(Rec.approveSummaryCall, {
      token,
      body: { projectId: s.parent._id, supplierId: s.supplierId, adminApproved: 3 },
    });
    assertEquals([adm.json.result.adminApproved, adm.json.result.totalAccepted, adm.json.result.cost], [
      3,
      3,
      6,
    ]);
    for (
      const body of [
        { projectId: s.parent._id, supplierId: s.supplierId, supplierCPI: -1 },
        { projectId: s.parent._id, supplierId: s.supplierId, adminApproved: 1.5 },
        { projectId: s.parent._id, supplierId: s.supplierId },
        { projectId: s.parent._id, supplierId: s.supplierId, supplierCPI: "abc" },
        {},
      ]
    ) {
      const r = await t.api(Rec.approveSummaryCall, { token, bad: body });
      assertEquals(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
    }
    const unknown = await t.api(Rec.approveSummaryCall, {
      token,
      body: { projectId: s.parent._id, supplierId: "0".repeat(24), supplierCPI: 1 },
    });
    assertEquals(unknown.status, 404);
    assertEquals(
      (await t.api(Rec.supplierSummaryCall, { token, body: { projectId: "0".repeat(24) } }))
        .status,
      404,
    );
    assertEquals((await t.api(Rec.supplierSummaryCall, { token, bad: {} })).status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: every call refuses no token (401) and a role without reconcile (403)", async () => {
  const t = await testApp();
  try {
    const id = "0".repeat(24);
    await expectCallGuarded(t, Rec.listReconcileProjects, "BDE");
    await expectCallGuarded(t, Rec.reconcileUpload, "SUBSCRIBER", {
      params: { id },
      body: { type: 1, uid: ["x"] },
    });
    await expectCallGuarded(t, Rec.reconcileUndo, "BDE", { params: { id } });
    await expectCallGuarded(t, Rec.reconcileStatusCall, "SUBSCRIBER", {
      params: { id },
      body: {
        projectStatus: 4,
      },
    });
    await expectCallGuarded(t, Rec.revokeProjectCall, "BDE", { params: { id } });
    await expectCallGuarded(t, Rec.approveSummaryCall, "SUBSCRIBER", { bad: { projectId: id } });
    await expectCallGuarded(t, Rec.supplierSummaryCall, "SUPPLIER", { body: { projectId: id } });
    // the supplier portal's users reach none of them
    await expectCallGuarded(t, Rec.reconcileUpload, "SUPPLIER", {
      params: { id },
      body: { type: 1, uid: ["x"] },
    });
    for (const call of [Rec.reconcileUndo, Rec.revokeProjectCall]) {
      const r = await t.api(call, { params: { id }, as: "ADMIN" });
      assertEquals(r.status, 404, `${call.path}: ${r.text}`);
    }
    const list = await t.api(Rec.listReconcileProjects, {
      as: "APIMANAGER",
      body: { pageNo: 0 },
    });
    assertEquals(list.status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: the demo seed reconciles its closed projects through the domain; counts agree with the sessions", async () => {
  const { seedDemo } = await import("../../server/seed/seed.ts");
  const t = await testApp();
  try {
    await seedDemo(t.deps);
    const ups = await t.deps.db.selectFrom("reconciles").select(["projectId", "type", "matched", "status"])
      .execute();
    assert(ups.length >= 2 && ups.every((u) => u.status === "applied"), JSON.stringify(ups));
    // made on group projects (as from the reconcile screen), naming their children's completes
    const groups = await t.deps.db.selectFrom("projects").select("parentProjectId")
      .where("id", "in", [...new Set(ups.map((u) => u.projectId))]).execute();
    assert(groups.every((g) => g.parentProjectId === null), JSON.stringify(groups));
    const ids = (await sql<{ id: string }>`SELECT DISTINCT s.projectId AS id FROM reconcile_items i
      JOIN sessions s ON s.id = i.sessionId`.execute(t.deps.db)).rows.map((r) => r.id);
    assert(ids.length >= 1);
    const approved = await t.deps.db.selectFrom("projects").select(["approved", "rejected", "complete"])
      .where("id", "in", ids).execute();
    assert(approved.every((p) => p.approved > 0 && p.approved + p.rejected === p.complete));
    const all = (await t.deps.db.selectFrom("projects").select("id").execute()).map((p) => p.id);
    assertEquals(await reconcileMismatches(t.deps.db, all), []);
    const list = await t.api(Rec.listReconcileProjects, {
      as: "ACCOUNTANT",
      body: { filter: { projectStatus: [6] }, limit: 20 },
    });
    assert(list.json.result.data.some((r: { approved: number }) => r.approved > 0), list.text);
  } finally {
    await t.close();
  }
});

/**
 * Everything an upload touches, whole rows: the project's sessions, its child and parent project
 * rows, its supplier maps, its daily rollup, every reconcile record and item, every queued or sent
 * post-back, and the reconcile log lines; and the counters against a recount from the sessions.
 */
async function fullState(t: TestApp, s: Traffic) {
  const db = t.deps.db;
  return {
    sessions: await db.selectFrom("sessions").selectAll().where("projectId", "=", s.child._id).orderBy("id")
      .execute(),
    projects: await db.selectFrom("projects").selectAll().where("id", "in", [s.child._id, s.parent._id])
      .orderBy("id").execute(),
    maps: await db.selectFrom("supplier_maps").selectAll().where("projectId", "=", s.child._id).orderBy("id")
      .execute(),
    rollup: await db.selectFrom("router_daily").selectAll().where("projectId", "=", s.child._id)
      .orderBy("date").orderBy("supplierId").execute(),
    reconciles: await db.selectFrom("reconciles").selectAll().orderBy("id").execute(),
    items: await db.selectFrom("reconcile_items").selectAll().orderBy("reconcileId").orderBy("sessionId")
      .execute(),
    stage: await db.selectFrom("reconcile_stage").selectAll().execute(),
    hooks: await db.selectFrom("router_hooks").selectAll().orderBy("id").execute(),
    logs: await db.selectFrom("system_logs").select("activity").where("module", "=", "Reconcile")
      .orderBy("activity").execute(),
    recount: await counterMismatches(db, [s.child._id]),
    reconcileRecount: await reconcileMismatches(db, [s.child._id]),
  };
}

/** A write that fails once `uid` is marked reconciled (a chunk that breaks half way). */
const failOn = (t: TestApp, uid: string) =>
  sql`CREATE TRIGGER fail_chunk BEFORE INSERT ON session_reconciles
    WHEN NEW.sessionId = ${sql.lit(uid)}
    BEGIN SELECT RAISE(ABORT, 'chunk three on fire'); END`.execute(t.deps.db);

/** 60 completes and 2 terminates of a supplier with an approved hook, 5 approved by a first upload. */
async function chunkedSetup(t: TestApp) {
  const supplier = await makeSupplier(t, {
    supplierApprovedHook: "https://panel.example/a?uid=[uid]&s=[status]",
  });
  const s = await closedProject(t, { complete: 60, terminate: 2 }, { supplierId: supplier._id });
  const first = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
    projectId: s.parent._id,
    type: 1,
    ids: {
      identifiers: s.completes.slice(0, 5),
      lines: 5,
      duplicates: 0,
    },
  });
  assertEquals([first.matched, first.hooksQueued, first.status], [5, 5, "applied"]);
  await router(t).idle();
  // in upload order: 5 already approved, 55 completes, 2 terminates, 1 unknown; chunk 3 is 20-29
  const identifiers = [...s.completes, ...s.terminates, "ffffffffffffffffffffffff"];
  return { s, identifiers, input: { identifiers, lines: identifiers.length, duplicates: 0 } };
}

Deno.test("reconcile: a failure in chunk 3, after chunks 1 and 2 were committed, rolls them back: sessions, counters (= recount), rollup, records, hooks and upload rows exactly as before", async () => {
  const sent: string[] = [];
  const t = await testApp({}, {
    router: { fetch: (url) => (sent.push(String(url)), Promise.resolve(new Response("ok"))) },
  });
  try {
    const { s, identifiers, input } = await chunkedSetup(t);
    const before = await fullState(t, s);
    assertEquals([before.recount, before.reconcileRecount], [[], []]);
    assertEquals(before.reconciles.length, 1);
    // a probe that records every item a chunk commits (a rolled-back chunk leaves none)
    await sql`CREATE TABLE probe (sessionId TEXT)`.execute(t.deps.db);
    await sql`CREATE TRIGGER probe_items AFTER INSERT ON reconcile_items
      BEGIN INSERT INTO probe VALUES (NEW.sessionId); END`.execute(t.deps.db);
    await failOn(t, identifiers[25]);
    const sentBefore = sent.length;
    let failed = "";
    try {
      await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
        projectId: s.parent._id,
        type: 1,
        ids: input,
        chunk: 10,
      });
    } catch (e) {
      failed = String(e);
    }
    assertMatch(failed, /chunk three on fire/);
    await sql`DROP TRIGGER fail_chunk`.execute(t.deps.db);
    await sql`DROP TRIGGER probe_items`.execute(t.deps.db);
    // chunks 1 and 2 were applied (15 new completes; the first 5 were approved already)
    const probed = (await sql<{ sessionId: string }>`SELECT sessionId FROM probe`.execute(t.deps.db)).rows
      .map((r) => r.sessionId).sort();
    await sql`DROP TABLE probe`.execute(t.deps.db);
    assertEquals(probed, identifiers.slice(5, 20).sort());
    assertEquals(await fullState(t, s), before);
    await router(t).idle();
    assertEquals(sent.length, sentBefore, "no approved post-back of the failed upload went out");

    // the same file goes in whole afterwards, in chunks
    const ok = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: s.parent._id,
      type: 1,
      ids: input,
      chunk: 10,
    });
    assertEquals(
      [ok.matched, ok.alreadyReconciled, ok.notComplete, ok.unknown, ok.hooksQueued, ok.status],
      [55, 5, 2, 1, 55, "applied"],
    );
    assertEquals(await counterMismatches(t.deps.db, [s.child._id]), []);
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: recovery rolls back an upload a crash left applying with chunks applied, and releases the held post-backs of an applied one", async () => {
  const sent: string[] = [];
  const t = await testApp({}, {
    router: { fetch: (url) => (sent.push(String(url)), Promise.resolve(new Response("ok"))) },
  });
  try {
    const { s, identifiers, input } = await chunkedSetup(t);
    const db = t.deps.db;
    const before = await fullState(t, s);
    assertEquals(await recoverReconciles({ db, now: Date.now }), 0, "nothing to recover");
    assertEquals(await fullState(t, s), before);

    // a crash in chunk 3: the in-process roll-back cannot run either (its deletes fail), as if dead
    await failOn(t, identifiers[25]);
    await sql`CREATE TRIGGER no_rollback BEFORE DELETE ON reconcile_items
      BEGIN SELECT RAISE(ABORT, 'process died'); END`.execute(db);
    let failed = "";
    try {
      await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
        projectId: s.parent._id,
        type: 1,
        ids: input,
        chunk: 10,
      });
    } catch (e) {
      failed = String(e);
    }
    assertMatch(failed, /process died/);
    await sql`DROP TRIGGER fail_chunk`.execute(db);
    await sql`DROP TRIGGER no_rollback`.execute(db);
    // left behind: the upload applying, chunks 1 and 2 applied (counters equal a recount), hooks held
    const left = await db.selectFrom("reconciles").selectAll().where("status", "=", "applying").execute();
    assertEquals(left.length, 1);
    const items = await db.selectFrom("reconcile_items").select("sessionId")
      .where("reconcileId", "=", left[0].id).execute();
    assertEquals(items.map((i) => i.sessionId).sort(), identifiers.slice(5, 20).sort());
    assertEquals(await approvedOf(t, "projects", s.child._id), { approved: 20, rejected: 0 });
    assertEquals(await reconcileMismatches(db, [s.child._id]), []);
    const held = await db.selectFrom("router_hooks").select("id").where("nextAt", "=", HOOK_HELD).execute();
    assertEquals(held.length, 15);

    assertEquals(await recoverReconciles({ db, now: Date.now }), 1);
    assertEquals(await fullState(t, s), before);
    assertEquals(await recoverReconciles({ db, now: Date.now }), 0, "idempotent");

    // a crash after the upload was applied, before its post-backs were released
    await sql`CREATE TRIGGER no_release BEFORE UPDATE OF nextAt ON router_hooks
      WHEN OLD.nextAt = ${sql.lit(HOOK_HELD)} BEGIN SELECT RAISE(ABORT, 'died before release'); END`
      .execute(db);
    failed = "";
    try {
      await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
        projectId: s.parent._id,
        type: 1,
        ids: input,
        chunk: 10,
      });
    } catch (e) {
      failed = String(e);
    }
    assertMatch(failed, /died before release/);
    await sql`DROP TRIGGER no_release`.execute(db);
    const applied = await db.selectFrom("reconciles").selectAll().orderBy("createdAt", "desc")
      .orderBy("id", "desc").executeTakeFirstOrThrow();
    assertEquals([applied.status, applied.matched, applied.hooksQueued], ["applied", 55, 55]);
    const approvals = () => sent.filter((u) => u.endsWith("&s=a"));
    const sentBefore = approvals().length;
    await router(t).idle();
    assertEquals(approvals().length, sentBefore, "held: none sent yet");
    assertEquals(
      (await db.selectFrom("router_hooks").select("id").where("nextAt", "=", HOOK_HELD).execute()).length,
      55,
    );
    assertEquals(await recoverReconciles({ db, now: Date.now }), 0, "an applied upload is not rolled back");
    assertEquals(
      (await db.selectFrom("router_hooks").select("id").where("nextAt", "=", HOOK_HELD).execute()).length,
      0,
    );
    router(t).hooks.kick();
    await router(t).idle();
    assertEquals(
      approvals().slice(sentBefore).sort(),
      identifiers.slice(5, 60).map((u) => `https://panel.example/a?uid=${u}&s=a`).sort(),
    );
    assertEquals(await approvedOf(t, "projects", s.child._id), { approved: 60, rejected: 0 });
    assertEquals(await reconcileMismatches(db, [s.child._id]), []);
    assertEquals(await counterMismatches(db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: while 5,000 identifiers are applied, router entries on another project are answered, none slower than a sanity bound", async () => {
  const t = await testApp();
  try {
    const target = await liveProject(t, { child: { sampleSize: 0 } });
    const other = await liveProject(t, { child: { sampleSize: 0 } });
    const db = t.deps.db;
    const N = 5_200;
    const at = new Date().toISOString();
    const uidAt = (i: number) => (7_000_000_000 + i).toString(16).padStart(24, "0");
    for (let i = 0; i < N; i += 500) {
      const rows = Array.from(
        { length: Math.min(500, N - i) },
        (_, k) =>
          sql`(${
            uidAt(i + k)
          }, ${target.child._id}, ${target.parent._id}, ${target.parent.clientId}, ${target.mapId}, ${target.supplierId}, ${`s${
            i + k
          }`}, 'complete', ${at}, ${at}, ${at})`,
      );
      await sql`INSERT INTO sessions (id, projectId, parentProjectId, clientId, supplierMapId, supplierId, sid, status, createdAt, updatedAt, endedAt)
        VALUES ${sql.join(rows)}`.execute(db);
    }
    await db.updateTable("projects").set({ complete: N, clicked: N }).where("id", "=", target.child._id)
      .execute();
    await db.updateTable("supplier_maps").set({ complete: N, clicked: N }).where("id", "=", target.mapId)
      .execute();
    const identifiers = Array.from({ length: 5_000 }, (_, i) => uidAt(i));

    let uploading = true;
    const upload = reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: target.child._id,
      type: 1,
      ids: {
        identifiers,
        lines: identifiers.length,
        duplicates: 0,
      },
    }).finally(() => uploading = false);
    const times: number[] = [];
    let during = 0, n = 0;
    await Promise.all(Array.from({ length: 4 }, async (_, w) => {
      while (uploading) {
        const t0 = performance.now();
        const r = await enter(t, other.mapId, `busy-${w}-${n++}`);
        times.push(performance.now() - t0);
        assertEquals(r.status, 302, r.text);
        if (uploading) during++;
      }
    }));
    const summary = await upload;
    assertEquals([summary.matched, summary.status], [5_000, "applied"]);
    assert(during >= 4, `entries answered during the upload: ${during}`);
    const slowest = Math.max(...times);
    assert(slowest < 1_000, `slowest entry during the upload: ${slowest.toFixed(0)} ms`);
    assertEquals(await reconcileMismatches(db, [target.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: a group project of two children, two suppliers and two days: each chunk's figures and counters (= recount) are exact after an upload, a failed upload's roll-back and an undo", async () => {
  const t = await testApp();
  try {
    // two children of one group project, each with its own supplier; some completes a day earlier
    const a = await closedProject(t, { complete: 9, terminate: 2 });
    const b = await closedProject(t, { complete: 7, terminate: 1 }, { parent: a.parent });
    const db = t.deps.db;
    const earlier = [...a.completes.slice(0, 4), ...b.completes.slice(0, 3)];
    await sql`UPDATE sessions SET endedAt = '2020-01-02T10:00:00.000Z'
      WHERE id IN (${sql.join(earlier)})`.execute(db);
    // their completes counted on that day's rollup, as the router counts a complete on its day
    await sql`INSERT INTO router_daily (date, projectId, supplierId, supplierMapId, parentProjectId, clientId, complete)
      SELECT '2020-01-02', projectId, supplierId, supplierMapId, parentProjectId, clientId, count(*) FROM sessions
      WHERE id IN (${sql.join(earlier)}) GROUP BY projectId, supplierId`.execute(db);
    await sql`UPDATE router_daily SET complete = complete - (SELECT count(*) FROM sessions s
        WHERE s.id IN (${sql.join(earlier)}) AND s.projectId = router_daily.projectId)
      WHERE date != '2020-01-02' AND projectId IN (${sql.join([a.child._id, b.child._id])})`.execute(db);
    const both = [a.child._id, b.child._id];
    const prior = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: a.parent._id,
      type: 2,
      ids: {
        identifiers: [a.completes[8], b.completes[6]],
        lines: 2,
        duplicates: 0,
      },
    });
    assertEquals(prior.matched, 2);
    // interleaved, so every chunk of 4 mixes children, suppliers, days and kinds
    const identifiers: string[] = [];
    for (let i = 0; i < 9; i++) {
      if (a.completes[i]) identifiers.push(a.completes[i]);
      if (b.completes[i]) identifiers.push(b.completes[i]);
    }
    identifiers.push(...a.terminates, ...b.terminates, "eeeeeeeeeeeeeeeeeeeeeeee", "not-a-session");
    const input = { identifiers, lines: identifiers.length + 1, duplicates: 1 };
    const before = await fullState(t, a);
    const beforeB = await fullState(t, b);

    // a failure in the last chunks: everything rolled back, the counters of both children included
    await failOn(t, b.completes[5]);
    let failed = "";
    try {
      await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
        projectId: a.parent._id,
        type: 1,
        ids: input,
        chunk: 4,
      });
    } catch (e) {
      failed = String(e);
    }
    assertMatch(failed, /chunk three on fire/);
    await sql`DROP TRIGGER fail_chunk`.execute(db);
    assertEquals(await fullState(t, a), before);
    assertEquals(await fullState(t, b), beforeB);

    const up = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: a.parent._id,
      type: 1,
      ids: input,
      chunk: 4,
    });
    assertEquals(
      [up.matched, up.alreadyReconciled, up.notComplete, up.unknown, up.duplicates, up.identifiers],
      [14, 2, 3, 2, 1, 21],
    );
    assertEquals(await reconcileMismatches(db, both), []);
    assertEquals(await approvedOf(t, "projects", a.child._id), { approved: 8, rejected: 1 });
    assertEquals(await approvedOf(t, "projects", b.child._id), { approved: 6, rejected: 1 });
    assertEquals(await approvedOf(t, "supplier_maps", b.mapId), { approved: 6, rejected: 1 });
    const days = await sql<{ projectId: string; date: string; approved: number }>`
      SELECT projectId, date, approved FROM router_daily WHERE projectId IN (${sql.join(both)})
        AND approved != 0 ORDER BY projectId = ${b.child._id}, date`.execute(db);
    assertEquals(days.rows.map((r) => [r.projectId, r.date.slice(0, 10) === "2020-01-02", r.approved]), [
      [a.child._id, true, 4],
      [a.child._id, false, 4],
      [b.child._id, true, 3],
      [b.child._id, false, 3],
    ]);
    const items = await db.selectFrom("reconcile_items").select("sessionId").where("reconcileId", "=", up._id)
      .execute();
    assertEquals(
      items.map((i) => i.sessionId).sort(),
      [...a.completes.slice(0, 8), ...b.completes.slice(0, 6)].sort(),
    );

    const undo = await undoReconcile({ ...t.deps, actor: SYSTEM_ACTOR }, a.parent._id);
    assertEquals(undo.restored, 14);
    assertEquals(await reconcileMismatches(db, both), []);
    const after = await fullState(t, a);
    assertEquals([after.sessions, after.maps, after.rollup], [before.sessions, before.maps, before.rollup]);
    const afterB = await fullState(t, b);
    assertEquals([afterB.sessions, afterB.maps, afterB.rollup], [
      beforeB.sessions,
      beforeB.maps,
      beforeB.rollup,
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: on an idle server the chunks go one after another without waiting on a timer; the loop is still given back between them", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 30 });
    const realTimeout = globalThis.setTimeout;
    let zeroTimers = 0, turns = 0;
    let counting = true;
    // deno-lint-ignore no-explicit-any
    (globalThis as any).setTimeout = (fn: () => void, ms?: number, ...rest: unknown[]) => {
      if (counting && !ms) zeroTimers++;
      return realTimeout(fn, ms, ...rest);
    };
    // a macrotask that counts how often the loop came round while the upload ran
    const tick = () => setImmediate(() => counting && (turns++, tick()));
    try {
      tick();
      const up = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
        projectId: s.parent._id,
        type: 1,
        ids: {
          identifiers: s.completes,
          lines: 30,
          duplicates: 0,
        },
        chunk: 2,
      });
      assertEquals(up.matched, 30);
    } finally {
      counting = false;
      globalThis.setTimeout = realTimeout;
    }
    assertEquals(zeroTimers, 0, "no zero timeout between chunks (each waits 1-2 ms on an idle loop)");
    // 15 chunks have 14 gaps between them: the loop comes round in each (the first chunk may start
    // before the counting macrotask first runs, as it did on a loaded CI machine)
    assert(turns >= 14, `the loop came round ${turns} times during 15 chunks`);
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: a plain identifier file reads as papaparse reads it, and the same as its quoted form", () => {
  const ids = ["5f1d7c0e2b3a4c5d6e7f8091", "abc-123", "x_y.z", "UID"];
  // plain files (no quotes, no delimiters) take the line-by-line path: the identifiers papaparse finds
  const plain = [
    ids.join("\n"),
    ids.join("\n") + "\n",
    ids.join("\r\n") + "\r\n",
    ["UID", "", ...ids, "", "  ", ""].join("\r\n"),
    ` ${ids[0]} \n\n${ids[1]}`,
    "one",
  ];
  for (const text of plain) {
    const papa = Papa.parse<string[]>(text, { header: false, skipEmptyLines: false }).data
      .map((r) => (assertEquals(r.length, 1, JSON.stringify(text)), r[0].trim()))
      .filter((x) => x !== "");
    const r = parseIdentifierFile(text);
    assert(r.ok, JSON.stringify(text));
    const expected = [...new Set(r.value.header ? papa.slice(1) : papa)];
    assertEquals(r.value.identifiers, expected, JSON.stringify(text));
  }
  // the same figures either way: a CRLF file with a header, blanks and a duplicate
  const file = ["UID", ids[0], "", ids[1], ids[0], ids[2], ""].join("\r\n");
  const quoted = ["UID", ids[0], "", `"${ids[1]}"`, ids[0], ids[2], ""].join("\r\n");
  const r1 = parseIdentifierFile(file), r2 = parseIdentifierFile(quoted);
  assert(r1.ok && r2.ok);
  assertEquals(r1.value, r2.value);
  assertEquals(r1.value, { identifiers: ids.slice(0, 3), lines: 6, duplicates: 1, header: true });
  const bad = parseIdentifierFile(`${ids[0]}\nnot an id\n`);
  assertEquals(
    bad.ok ? "" : bad.error.message,
    "Line 2: an identifier holds no spaces or control characters",
  );
});

Deno.test("reconcile: the held approved post-backs of a large upload are all released, slice after slice", async () => {
  const t = await testApp({}, { router: { fetch: () => Promise.resolve(new Response("ok")) } });
  try {
    const supplier = await makeSupplier(t, {
      supplierApprovedHook: "https://panel.example/a?uid=[uid]&s=[status]",
    });
    const s = await liveProject(t, { child: { sampleSize: 0 }, supplierId: supplier._id });
    const db = t.deps.db;
    const N = 1_234;
    const at = new Date().toISOString();
    const uidAt = (i: number) => (8_000_000_000 + i).toString(16).padStart(24, "0");
    const rows = Array.from(
      { length: N },
      (_, i) =>
        sql`(${
          uidAt(i)
        }, ${s.child._id}, ${s.parent._id}, ${s.parent.clientId}, ${s.mapId}, ${s.supplierId}, ${`s${i}`}, 'complete', ${at}, ${at}, ${at})`,
    );
    for (let i = 0; i < N; i += 400) {
      await sql`INSERT INTO sessions (id, projectId, parentProjectId, clientId, supplierMapId, supplierId, sid, status, createdAt, updatedAt, endedAt)
        VALUES ${sql.join(rows.slice(i, i + 400))}`.execute(db);
    }
    // the file in another order than the keys: slices go by key, chunks by the file
    const identifiers = Array.from({ length: N }, (_, i) => uidAt(N - 1 - i));
    const up = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: s.child._id,
      type: 1,
      ids: {
        identifiers,
        lines: N,
        duplicates: 0,
      },
      chunk: 300,
    });
    assertEquals([up.matched, up.hooksQueued], [N, N]);
    const hooks = await sql<{ held: number; due: number }>`SELECT sum(nextAt = ${HOOK_HELD}) AS held,
      sum(nextAt != ${HOOK_HELD}) AS due FROM router_hooks WHERE hookKey LIKE '%-a'`.execute(db);
    assertEquals([Number(hooks.rows[0].held), Number(hooks.rows[0].due)], [0, N]);
    assertEquals(await reconcileMismatches(db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile: a complete whose day has no rollup row yet gets one, and the counts agree with a recount after the upload and its undo", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 3 });
    const db = t.deps.db;
    await sql`UPDATE sessions SET endedAt = '2021-03-04T05:06:07.000Z' WHERE id = ${s.completes[0]}`.execute(
      db,
    );
    const up = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: s.parent._id,
      type: 1,
      ids: {
        identifiers: s.completes,
        lines: 3,
        duplicates: 0,
      },
    });
    assertEquals(up.matched, 3);
    const day = await sql<{ approved: number }>`SELECT approved FROM router_daily
      WHERE projectId = ${s.child._id} AND date = '2021-03-04'`.execute(db);
    assertEquals(day.rows.map((r) => r.approved), [1]);
    assertEquals(await reconcileMismatches(db, [s.child._id]), []);
    await undoReconcile({ ...t.deps, actor: SYSTEM_ACTOR }, s.parent._id);
    assertEquals(await reconcileMismatches(db, [s.child._id]), []);
    assertEquals(await approvedOf(t, "projects", s.child._id), { approved: 0, rejected: 0 });
  } finally {
    await t.close();
  }
});

Deno.test({
  name:
    "reconcile: on a libSQL server (no temporary tables) the chunks go through the migrated chunk table, exactly; an embedded database keeps it temporary",
  ignore: !sqldSupported,
  fn: async () => {
    // embedded: the chunk table is a temporary one, the migrated one stays untouched
    const local = await testApp();
    try {
      const s = await closedProject(local, { complete: 3 });
      const up = await reconcileUpload({ ...local.deps, actor: SYSTEM_ACTOR }, {
        projectId: s.parent._id,
        type: 1,
        ids: {
          identifiers: s.completes,
          lines: 3,
          duplicates: 0,
        },
      });
      assertEquals(up.matched, 3);
      const temp = await sql<
        { name: string }
      >`SELECT name FROM sqlite_temp_master WHERE name = 'reconcile_chunk'`
        .execute(local.deps.db);
      assertEquals(temp.rows.length, 1);
    } finally {
      await local.close();
    }
    await using server = await startSqld();
    const t = await testApp({ DATABASE_URL: server.url });
    try {
      const s = await closedProject(t, { complete: 12, terminate: 1 });
      const identifiers = [...s.completes.slice(0, 10), ...s.terminates, "ffffffffffffffffffffffff"];
      const up = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
        projectId: s.parent._id,
        type: 1,
        ids: {
          identifiers,
          lines: identifiers.length,
          duplicates: 0,
        },
        chunk: 5,
      });
      assertEquals([up.matched, up.notComplete, up.unknown, up.status], [10, 1, 1, "applied"]);
      assertEquals(await approvedOf(t, "projects", s.child._id), { approved: 10, rejected: 0 });
      assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
      const left = await sql<{ n: number }>`SELECT count(*) AS n FROM reconcile_chunk`.execute(t.deps.db);
      assertEquals(Number(left.rows[0].n), 0, "emptied by every chunk");
      const undo = await undoReconcile({ ...t.deps, actor: SYSTEM_ACTOR }, s.parent._id);
      assertEquals(undo.restored, 10);
      assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
    } finally {
      await t.close();
    }
  },
});

Deno.test("reconcile: a large file parsed on a worker reads exactly as parsed here, problems and their lines included", async () => {
  const ids = Array.from({ length: 3_000 }, (_, i) => `uid${String(i).padStart(6, "0")}`);
  const files = [
    "UID\r\n" + ids.join("\r\n") + "\r\n",
    ids.slice(0, 50).join("\n") + "\n\n" + ids.slice(0, 10).join("\n") + '\n"' + ids[60] + '"\n',
    ids.slice(0, 20).join("\n") + "\nuid 1, uid2\n",
    ids.slice(0, 5).join("\n") + "\n" + "x".repeat(200) + "\n",
  ];
  for (const csv of files) {
    // the worker's parse itself (identifiersOfUpload would parse here if the worker failed)
    assertEquals(await parseOffThread(csv, MAX_IDENTIFIERS), parseIdentifierFile(csv));
    const here = await identifiersOfUpload({ csv, fileName: "f.csv" }, false).catch((e) => String(e));
    const there = await identifiersOfUpload({ csv, fileName: "f.csv" }, true).catch((e) => String(e));
    const strip = (r: typeof here) => typeof r === "string" ? r : { ...r, parseMs: 0 };
    assertEquals(strip(there), strip(here));
  }
  const big = await identifiersOfUpload({ csv: "UID\n" + ids.join("\n") }, true);
  assertEquals([big.identifiers.length, big.identifiers[2_999], big.lines], [3_000, ids[2_999], 3_001]);
});
