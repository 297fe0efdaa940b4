/**
 * Faults in the money path: the real server (server/main.ts, a child process over a file database)
 * is killed with SIGKILL in the middle of a reconcile upload, of concurrent invoice generations, of
 * provider imports and of heavy router traffic, then started again on the same file; the database
 * must be consistent: counters equal recounts, no upload half applied, no invoice code used twice
 * or invoice half written, no offer imported twice, quotas never exceeded, and the work can go on.
 *
 * Each kill is made to land mid-operation: the test polls the database (or counts answers) until the
 * operation is visibly under way, kills, and then asserts that it did catch it half done (an upload
 * `applying` with some chunks in, some invoices saved and some not, ...) before the restart.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { liveProject } from "../helpers/router.ts";
import { day, makeClient, readyProject } from "../helpers/accounts.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { closedPort } from "../helpers/smtp.ts";
import { type ServerProcess, startServer, TEST_JWT_SECRET, until } from "../helpers/process.ts";
import { openDatabase } from "../../server/db/connection.ts";
import type { Db } from "../../server/db/connection.ts";
import { reconcileMismatches } from "../../server/domain/reconcile/recount.ts";
import { HOOK_HELD } from "../../server/domain/reconcile/reconcile.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { sql } from "kysely";

/** A scratch folder with a database file migrated and filled by `fill` (in this process, then closed). */
async function prepared<T>(fill: (t: TestApp) => Promise<T>) {
  const dir = await Deno.makeTempDir({ prefix: "samplex-faults-" });
  const dbPath = `${dir}/faults.db`;
  const t = await testApp({ DATABASE_URL: `file:${dbPath}`, JWT_SECRET: TEST_JWT_SECRET });
  let data: T;
  try {
    data = await fill(t);
  } finally {
    await t.close();
  }
  return {
    dir,
    dbPath,
    data,
    /** A connection of the test's own to the same file: it watches the server's work and checks it. */
    open: () => openDatabase(`file:${dbPath}`),
    remove: () => Deno.remove(dir, { recursive: true }),
  };
}

const hex = (i: number, salt: number) => (salt * 1_000_000_000 + i).toString(16).padStart(24, "0");

// ---------------------------------------------------------------- reconcile upload

/**
 * A Closed project with `n` live completes written straight into the tables (sessions, counters and
 * the daily rollup as the router leaves them), its supplier with an approved post-back hook.
 */
async function closedWithCompletes(t: TestApp, n: number) {
  const s = await liveProject(t, {
    child: { sampleSize: 0 },
    supplier: { supplierApprovedHook: `http://127.0.0.1:${closedPort()}/approved?uid=[uid]` },
  });
  const db = t.deps.db;
  const at = new Date().toISOString();
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, n - i) }, (_, k) => {
      const id = hex(i + k, 5);
      ids.push(id);
      return sql`(${id}, ${s.child._id}, ${s.parent._id}, ${s.parent.clientId}, ${s.mapId}, ${s.supplierId}, ${`r${
        i + k
      }`}, 'complete', ${at}, ${at}, ${at})`;
    });
    await sql`INSERT INTO sessions (id, projectId, parentProjectId, clientId, supplierMapId, supplierId, sid, status, createdAt, updatedAt, endedAt)
      VALUES ${sql.join(rows)}`.execute(db);
  }
  await db.updateTable("projects").set({ complete: n, clicked: n }).where("id", "=", s.child._id).execute();
  await db.updateTable("supplier_maps").set({ complete: n, clicked: n }).where("id", "=", s.mapId).execute();
  await db.insertInto("router_daily").values({
    date: at.slice(0, 10),
    projectId: s.child._id,
    supplierId: s.supplierId,
    supplierMapId: s.mapId,
    parentProjectId: s.parent._id,
    clientId: s.parent.clientId,
    clicked: n,
    complete: n,
  }).execute();
  const admin = await t.tokenFor("SUPERADMIN");
  for (const id of [s.child._id, s.parent._id]) {
    const r = await t.call("PUT", `/admin/project/update/${id}`, {
      token: admin,
      body: { projectStatus: 6, poNumber: "PO-1" },
    });
    assertEquals(r.status, 200, r.text);
  }
  assertEquals(await counterMismatches(db, [s.child._id]), []);
  return { ...s, ids, admin, accountant: await t.tokenFor("ACCOUNTANT") };
}

async function reconcileState(db: Db, projectId: string) {
  const uploads = await db.selectFrom("reconciles").select(["id", "status", "matched", "identifiers"])
    .where("projectId", "=", projectId).execute();
  const r = await sql<{ approved: number; items: number; held: number }>`SELECT
      (SELECT count(*) FROM sessions WHERE projectId = ${projectId} AND reconciled != 0) AS approved,
      (SELECT count(*) FROM reconcile_items) AS items,
      (SELECT count(*) FROM router_hooks WHERE nextAt = ${HOOK_HELD}) AS held`.execute(db);
  return { uploads, ...r.rows[0] };
}

Deno.test("SIGKILL mid reconcile upload: after a restart the upload is rolled back whole, counters equal a recount, and it can be uploaded again", async () => {
  const N = 40_000;
  const env = await prepared((t) => closedWithCompletes(t, N));
  const s = env.data;
  const watch = await env.open();
  let server: ServerProcess | undefined;
  try {
    server = await startServer(env.dbPath);
    const csv = "uid\n" + s.ids.join("\n") + "\n";
    const upload = server.call("POST", `/admin/project/reconsile/${s.child._id}`, {
      token: s.accountant,
      body: { type: 1, csv, fileName: "approved.csv" },
    }).catch((e) => e);
    // under way: the upload is `applying` and some of its chunks are in
    await until("the upload half applied", async () => {
      const st = await reconcileState(watch.db, s.child._id);
      return st.uploads.length === 1 && st.uploads[0].status === "applying" && st.uploads[0].matched > 0;
    }, { everyMs: 2 });
    await server.kill();
    assert((await upload) instanceof Error, "the upload's request died with the server");
    // what the kill left: an upload applying, part of it in (sessions, records, held post-backs)
    const left = await reconcileState(watch.db, s.child._id);
    assertEquals(left.uploads.map((u) => u.status), ["applying"]);
    assert(left.approved > 0 && left.approved < N, `half applied: ${left.approved} of ${N}`);
    assertEquals([left.items, left.held], [left.approved, left.approved]);
    // the counters moved with each chunk's sessions: exact even now
    assertEquals(await reconcileMismatches(watch.db, [s.child._id]), []);

    server = await startServer(env.dbPath);
    assertMatch(server.output(), /reconcile uploads left half applied were rolled back/);
    const after = await reconcileState(watch.db, s.child._id);
    assertEquals(after, { uploads: [], approved: 0, items: 0, held: 0 });
    assertEquals(await reconcileMismatches(watch.db, [s.child._id]), []);
    assertEquals(await counterMismatches(watch.db, [s.child._id]), []);
    const counters = await watch.db.selectFrom("projects").select(["approved", "rejected", "complete"])
      .where("id", "=", s.child._id).executeTakeFirstOrThrow();
    assertEquals(counters, { approved: 0, rejected: 0, complete: N });

    // the same file again, after the restart: applied whole
    const again = await server.call("POST", `/admin/project/reconsile/${s.child._id}`, {
      token: s.accountant,
      body: { type: 1, csv, fileName: "approved.csv" },
    });
    assertEquals(again.status, 200, again.text);
    assertEquals([again.json.result.status, again.json.result.matched], ["applied", N]);
    const done = await reconcileState(watch.db, s.child._id);
    assertEquals([done.uploads.map((u) => u.status), done.approved, done.items, done.held], [
      ["applied"],
      N,
      N,
      0,
    ]);
    assertEquals(await reconcileMismatches(watch.db, [s.child._id]), []);
    assertEquals(
      (await watch.db.selectFrom("supplier_maps").select("approved").where("id", "=", s.mapId)
        .executeTakeFirstOrThrow()).approved,
      N,
    );
    await server.stop();
  } finally {
    await server?.kill();
    await watch.close();
    await env.remove();
  }
});

// ---------------------------------------------------------------- invoice generation

type Ready = Awaited<ReturnType<typeof readyProject>>;
const invoiceBody = (projects: Ready[]) => ({
  clientId: projects[0].clientId,
  netTerms: 30,
  invoiceStatus: 1,
  currentDate: day(),
  dueDate: day(30),
  projects: projects.map((p) => ({
    projectId: p._id,
    projectCode: p.projectCode,
    projectName: p.projectName,
    poNumber: "PO-7788",
    complete: 100,
    cpi: 2.5,
    total: 250,
  })),
});

/** Every invariant of the invoices a crash must not break; returns the invoice codes' numbers, sorted. */
async function invoicesConsistent(db: Db, projects: Ready[]) {
  const invoices = await db.selectFrom("invoices").select(["id", "invoiceCode", "total"]).execute();
  const lines = await db.selectFrom("invoice_lines").select(["invoiceId", "projectId", "total"]).execute();
  const numbers = invoices.map((i) => Number(i.invoiceCode.slice(3))).sort((a, b) => a - b);
  // codes: each used once, none skipped (the sequence moves only with a saved invoice)
  assertEquals(numbers, numbers.map((_, i) => 10001 + i), "invoice codes contiguous from INV10001");
  const seq = await db.selectFrom("sequences").select("value").where("name", "=", "invoice")
    .executeTakeFirst();
  assertEquals(seq?.value ?? 10000, 10000 + invoices.length, "the sequence stands at the last code");
  // no invoice half written: its lines all there, its total their sum
  for (const inv of invoices) {
    const own = lines.filter((l) => l.invoiceId === inv.id);
    assert(own.length > 0, `${inv.invoiceCode} has its lines`);
    assertEquals(Math.round(own.reduce((a, l) => a + l.total, 0) * 100) / 100, inv.total, inv.invoiceCode);
  }
  assertEquals(lines.filter((l) => !invoices.some((i) => i.id === l.invoiceId)), [], "no line without invoice");
  // a project is Invoiced (group and child) exactly when one invoice bills it
  const billed = new Map<string, number>();
  for (const l of lines) if (l.projectId) billed.set(l.projectId, (billed.get(l.projectId) ?? 0) + 1);
  const status = new Map(
    (await db.selectFrom("projects").select(["id", "projectStatus"]).execute()).map((p) => [p.id, p.projectStatus]),
  );
  for (const p of projects) {
    const want = billed.has(p._id) ? PROJECT_STATUS.INVOICED : PROJECT_STATUS.READY_TO_INVOICE;
    assert((billed.get(p._id) ?? 0) <= 1, `${p.projectCode} billed once at most`);
    assertEquals([status.get(p._id), status.get(p.childId)], [want, want], p.projectCode);
  }
  const logged = await db.selectFrom("system_logs").select(sql<number>`count(*)`.as("n"))
    .where("activity", "like", "Generated invoice %").executeTakeFirstOrThrow();
  assertEquals(Number(logged.n), invoices.length, "one log row per invoice saved");
  return { numbers, billed };
}

Deno.test("SIGKILL while invoices are generated at once: no code used twice or skipped, no invoice half written, the sequence goes on", async () => {
  const env = await prepared(async (t) => {
    const projects: Ready[] = [];
    for (let c = 0; c < 4; c++) {
      const client = await makeClient(t);
      for (let i = 0; i < 10; i++) projects.push(await readyProject(t, { clientId: client._id }));
    }
    return { projects, token: await t.tokenFor("ACCOUNTANT") };
  });
  const { projects, token } = env.data;
  const watch = await env.open();
  let server: ServerProcess | undefined;
  try {
    server = await startServer(env.dbPath);
    const srv = server;
    // one invoice per project, and a second one racing for each of the first five projects
    const bodies = [...projects.map((p) => invoiceBody([p])), ...projects.slice(0, 5).map((p) => invoiceBody([p]))];
    const answers = bodies.map((body) => srv.call("POST", "/admin/invoice/add", { token, body }).catch((e) => e));
    await until("some invoices saved", async () => {
      const n = await watch.db.selectFrom("invoices").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
      return Number(n.n) >= 3;
    }, { everyMs: 1 });
    await server.kill();
    const settled = await Promise.all(answers);
    const lost = settled.filter((a) => a instanceof Error).length;
    const saved = (await invoicesConsistent(watch.db, projects)).numbers.length;
    assert(saved >= 3 && saved < projects.length, `killed part way: ${saved} of ${projects.length} saved`);
    assert(lost > 0, "requests were in flight at the kill");

    server = await startServer(env.dbPath);
    const before = await invoicesConsistent(watch.db, projects);
    const next = await server.call("GET", "/admin/invoice/code/get", { token });
    assertEquals(next.json.result.invoiceCode, `INV${10001 + before.numbers.length}`, next.text);
    // the rest are invoiced now, again all at once; the ones billed before the kill are refused
    const rest = projects.filter((p) => !before.billed.has(p._id));
    const again = await Promise.all(
      projects.map((p) => server!.call("POST", "/admin/invoice/add", { token, body: invoiceBody([p]) })),
    );
    assertEquals(again.filter((r) => r.status === 200).length, rest.length);
    assert(again.every((r) => r.status === 200 || r.status === 409), again.map((r) => r.status).join());
    const after = await invoicesConsistent(watch.db, projects);
    assertEquals(after.numbers.length, projects.length);
    assertEquals(after.billed.size, projects.length);
    await server.stop();
  } finally {
    await server?.kill();
    await watch.close();
    await env.remove();
  }
});
