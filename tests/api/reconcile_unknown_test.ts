/**
 * Reconcile says what it did not match (issue 21, item 5): an upload's result lists its unknown
 * identifiers (the first 100) and a CSV download has every one of them; an upload none of whose
 * identifiers belongs to the project is refused by name and leaves nothing behind; the uploads the
 * reconcile list shows as a project's Last upload (the demo's seeded ones, one made on a child)
 * are the ones its Undo takes back.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { expectCallGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { closedProject, type Traffic } from "../helpers/reconcile.ts";
import { reconcileMismatches } from "../../server/domain/reconcile/recount.ts";
import { reconcileUpload } from "../../server/domain/reconcile/reconcile.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { sql } from "kysely";
import * as Rec from "../../shared/api/reconcile.ts";

const csvOf = (lines: string[]) => lines.join("\r\n") + "\r\n";

async function upload(t: TestApp, projectId: string, body: unknown) {
  return await t.api(Rec.reconcileUpload, {
    params: { id: projectId },
    token: await t.tokenFor("ACCOUNTANT"),
    bad: body,
  });
}

/** The unknown identifiers CSV of an upload: status and the lines after the header (BOM dropped). */
async function unknownCsv(t: TestApp, reconcileId: string, role: "ACCOUNTANT" | "MANAGER" = "ACCOUNTANT") {
  const r = await t.api(Rec.reconcileUnknownCall, {
    params: { id: reconcileId },
    token: await t.tokenFor(role),
  });
  assertEquals(r.status, 200, r.text);
  const lines = r.text.replace(/^\uFEFF/, "").split("\r\n");
  assertEquals(lines.pop(), "", "the file ends with a line break");
  return { type: r.headers.get("content-type"), header: lines[0], rows: lines.slice(1), r };
}

/** Everything an upload records or moves: to compare before and after a refused one. */
async function recorded(t: TestApp, s: Traffic) {
  const db = t.deps.db;
  return {
    reconciles: await db.selectFrom("reconciles").selectAll().orderBy("id").execute(),
    unknown: (await sql`SELECT * FROM reconcile_unknown ORDER BY reconcileId, n`.execute(db)).rows,
    items: await db.selectFrom("reconcile_items").selectAll().orderBy("sessionId").execute(),
    states: await db.selectFrom("session_reconciles").selectAll().orderBy("sessionId").execute(),
    projects: await db.selectFrom("projects").select(["id", "approved", "rejected"])
      .where("id", "in", [s.child._id, s.parent._id]).orderBy("id").execute(),
    maps: await db.selectFrom("supplier_maps").select(["approved", "rejected"]).where("id", "=", s.mapId)
      .execute(),
    rollup: await db.selectFrom("router_daily").selectAll().where("projectId", "=", s.child._id)
      .orderBy("date").execute(),
    logs: await db.selectFrom("system_logs").select("activity").where("module", "=", "Reconcile").execute(),
  };
}

Deno.test("reconcile unknown: the result lists the first 100 unknown identifiers in the file's order, and the CSV download has all of them", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 3, terminate: 1 });
    const other = await closedProject(t, { complete: 1 });
    // 250 identifiers of no session, one of another project's session, one that a spreadsheet
    // would run as a formula; the project's completes and a terminate among them; a duplicate
    const strangers = Array.from({ length: 250 }, (_, i) => `nobody-${String(i).padStart(3, "0")}`);
    const unknown = [strangers[0], other.completes[0], "=cmd", ...strangers.slice(1)];
    const file = [
      "uid",
      s.completes[0],
      ...unknown.slice(0, 50),
      s.completes[1],
      strangers[7],
      ...unknown.slice(50),
      s.terminates[0],
    ];
    const r = await upload(t, s.parent._id, { type: 1, csv: csvOf(file), fileName: "client.csv" });
    assertEquals(r.status, 200, r.text);
    const res = r.json.result;
    assertEquals(
      [res.matched, res.unknown, res.notComplete, res.duplicates, res.identifiers],
      [2, 252, 1, 1, 255],
    );
    assertEquals(res.unknownIdentifiers, unknown.slice(0, 100));
    // the CSV: every one, in the file's order, through the CSV kit (a formula cell is quoted)
    const csv = await unknownCsv(t, res._id);
    assertEquals([csv.type, csv.header], ["text/csv; charset=utf-8", "Identifier"]);
    assertEquals(csv.rows, unknown.map((u) => (u === "=cmd" ? "'=cmd" : u)));
    assert(
      /attachment; filename=".+-unknown-identifiers\.csv"/.test(
        csv.r.headers.get("content-disposition") ?? "",
      ),
    );
    // an upload that matched everything lists none, and its file is the header alone
    const clean = await upload(t, s.parent._id, { type: 2, uid: [s.completes[2]] });
    assertEquals([clean.json.result.unknown, clean.json.result.unknownIdentifiers], [0, []]);
    assertEquals((await unknownCsv(t, clean.json.result._id)).rows, []);
    // still there after an undo (the upload's history), for every reconcile role
    const undo = await t.api(Rec.reconcileUndo, {
      params: { id: s.parent._id },
      token: await t.tokenFor("ADMIN"),
    });
    assertEquals(undo.status, 200, undo.text);
    assertEquals((await unknownCsv(t, res._id, "MANAGER")).rows.length, 252);
    // guards: no token 401, a role without reconcile 403, an upload that is not there 404
    await expectCallGuarded(t, Rec.reconcileUnknownCall, "BDE", { params: { id: res._id } });
    // ids spelled into the path as they are (an escaped slash, an overlong one): the path is the point
    for (const id of ["0123456789abcdef01234567", "..%2Fx", "x".repeat(300)]) {
      const missing = await t.call("GET", `/admin/reconcile/unknown/${id}`, {
        token: await t.tokenFor("ADMIN"),
      });
      assertEquals([missing.status, missing.json.message], [404, "Reconcile not found"], id);
    }
  } finally {
    await t.close();
  }
});

Deno.test("reconcile unknown: unknown identifiers found chunk after chunk keep the file's order; a failed upload leaves none behind", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 6 });
    // chunks of 4: unknowns in every chunk, a chunk with none, one with nothing but unknowns
    const ids = [
      "u01",
      s.completes[0],
      "u02",
      "u03",
      s.completes[1],
      s.completes[2],
      s.completes[3],
      s.completes[4],
      "u04",
      "u05",
      "u06",
      "u07",
      "u08",
      s.completes[5],
    ];
    const input = { identifiers: ids, lines: ids.length, duplicates: 0 };
    const out = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: s.parent._id,
      type: 1,
      ids: input,
      chunk: 4,
    });
    const expected = ["u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08"];
    assertEquals([out.matched, out.unknown, out.unknownIdentifiers], [6, 8, expected]);
    assertEquals((await unknownCsv(t, out._id)).rows, expected);

    // an upload that fails half way is rolled back whole: its unknown identifiers go with it
    await t.api(Rec.reconcileUndo, {
      params: { id: s.parent._id },
      token: await t.tokenFor("ADMIN"),
    });
    await sql`CREATE TRIGGER fail_late BEFORE INSERT ON session_reconciles
      WHEN NEW.sessionId = ${sql.lit(s.completes[5])}
      BEGIN SELECT RAISE(ABORT, 'late failure'); END`.execute(t.deps.db);
    const others = sql`SELECT n FROM reconcile_unknown WHERE reconcileId != ${out._id}`;
    const before = (await others.execute(t.deps.db)).rows;
    let failed = false;
    await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: s.parent._id,
      type: 1,
      ids: input,
      chunk: 4,
    }).catch(() => failed = true);
    assert(failed);
    assertEquals((await others.execute(t.deps.db)).rows, before);
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile unknown: an upload none of whose identifiers belongs to the project is refused by name, and nothing is recorded", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 3, terminate: 1 });
    const other = await closedProject(t, { complete: 3 });
    // a first upload, so that there is something to disturb
    const first = await upload(t, s.parent._id, { type: 1, uid: [s.completes[0]] });
    assertEquals(first.status, 200, first.text);
    const before = await recorded(t, s);
    const message = `none of these 4 identifiers belong to ${s.parent.projectCode}: wrong project?`;
    // another project's file (a duplicate line: 4 distinct identifiers), as a file and as the spec's list
    const wrong = [...other.completes, other.completes[0], "nobody-at-all"];
    const asFile = await upload(t, s.parent._id, { type: 1, csv: csvOf(wrong), fileName: "other.csv" });
    assertEquals([asFile.status, asFile.json.message], [400, message]);
    const asList = await upload(t, s.parent._id, { type: 2, uid: wrong });
    assertEquals([asList.status, asList.json.message], [400, message]);
    // on the child project: its own code in the message
    const onChild = await upload(t, s.child._id, { type: 1, uid: ["nobody-at-all"] });
    assertEquals(
      [onChild.status, onChild.json.message],
      [400, `none of these 1 identifiers belong to ${s.child.projectCode}: wrong project?`],
    );
    // through the domain in small slices: the whole file is looked through, then refused
    const many = Array.from({ length: 23 }, (_, i) => `stranger-${i}`);
    let refused = "";
    await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: s.parent._id,
      type: 1,
      ids: {
        identifiers: many,
        lines: many.length,
        duplicates: 0,
      },
      chunk: 5,
    }).catch((e) => refused = e.message);
    assertEquals(refused, `none of these 23 identifiers belong to ${s.parent.projectCode}: wrong project?`);
    assertEquals(await recorded(t, s), before, "no upload row, no counter, rollup, record or log line");
    // one identifier of the project is enough: a terminate (not a complete) belongs to it
    const late = await upload(t, s.parent._id, { type: 1, uid: [...many, s.terminates[0]] });
    assertEquals(late.status, 200, late.text);
    assertEquals([late.json.result.matched, late.json.result.notComplete, late.json.result.unknown], [
      0,
      1,
      23,
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile unknown: the demo's seeded reconciles are the list's Last upload, and Undo takes them back", async () => {
  const { seedDemo } = await import("../../server/seed/seed.ts");
  const t = await testApp();
  try {
    await seedDemo(t.deps);
    const token = await t.tokenFor("ACCOUNTANT");
    const list = async () =>
      (await t.api(Rec.listReconcileProjects, {
        token,
        body: { filter: { projectStatus: [PROJECT_STATUS.CLOSED] }, limit: 100 },
      })).json.result.data as {
        _id: string;
        projectCode: string;
        approved: number;
        rejected: number;
        lastReconcile: { _id: string; typeLabel: string; matched: number; fileName: string } | null;
      }[];
    const rows = (await list()).filter((r) => r.approved + r.rejected > 0);
    assert(rows.length >= 1, "the demo has a Closed project with reconciled completes");
    for (const r of rows) assert(r.lastReconcile, `${r.projectCode}: Last upload is shown`);
    const row = rows[0];
    const last = row.lastReconcile!;
    // the demo's files: approved first, rejected a minute later (the last)
    assertEquals([last.typeLabel, last.fileName], ["Rejected", "rejected.csv"]);
    const undo = await t.api(Rec.reconcileUndo, {
      params: { id: row._id },
      token: await t.tokenFor("ADMIN"),
    });
    assertEquals(undo.status, 200, undo.text);
    assertEquals([undo.json.result.reconcile._id, undo.json.result.restored], [last._id, last.matched]);
    const after = (await list()).find((r) => r._id === row._id)!;
    assertEquals([after.approved, after.rejected], [row.approved, row.rejected - last.matched]);
    assertEquals(after.lastReconcile?.fileName, "approved.csv");
    const again = await t.api(Rec.reconcileUndo, {
      params: { id: row._id },
      token: await t.tokenFor("ADMIN"),
    });
    assertEquals(again.status, 200, again.text);
    const emptied = (await list()).find((r) => r._id === row._id)!;
    assertEquals([emptied.approved, emptied.rejected, emptied.lastReconcile], [0, 0, null]);
    const all = (await t.deps.db.selectFrom("projects").select("id").execute()).map((p) => p.id);
    assertEquals(await reconcileMismatches(t.deps.db, all), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile unknown: an upload made on a child project (its code in the CLI) is its group's Last upload, and the group's Undo takes it back", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, { complete: 4 });
    const onGroup = await upload(t, s.parent._id, { type: 1, uid: s.completes.slice(0, 2) });
    assertEquals(onGroup.status, 200, onGroup.text);
    const onChild = await reconcileUpload({ ...t.deps, actor: SYSTEM_ACTOR }, {
      projectId: s.child._id,
      type: 2,
      ids: {
        identifiers: s.completes.slice(2),
        lines: 2,
        duplicates: 0,
        fileName: "child.csv",
      },
      at: t.deps.now() + 1_000,
    });
    const row = async () =>
      (await t.api(Rec.listReconcileProjects, {
        token: await t.tokenFor("ACCOUNTANT"),
        body: { filter: { projectId: s.parent._id } },
      })).json.result.data[0];
    assertEquals((await row()).lastReconcile._id, onChild._id);
    const undo = await t.api(Rec.reconcileUndo, {
      params: { id: s.parent._id },
      token: await t.tokenFor("ADMIN"),
    });
    assertEquals([undo.status, undo.json.result.reconcile._id, undo.json.result.restored], [
      200,
      onChild._id,
      2,
    ]);
    const after = await row();
    assertEquals([after.approved, after.rejected, after.lastReconcile._id], [2, 0, onGroup.json.result._id]);
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});
