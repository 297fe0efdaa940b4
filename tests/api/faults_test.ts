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
import { liveProject, panelRedirects } from "../helpers/router.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { closeForReconcile } from "../helpers/reconcile.ts";
import { day, makeClient, readyProject } from "../helpers/accounts.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { closedPort } from "../helpers/smtp.ts";
import { startSandbox } from "../helpers/providers.ts";
import { SANDBOX_KEY } from "../../server/providers/sandbox/index.ts";
import { type ServerProcess, startServer, TEST_JWT_SECRET, until } from "../helpers/process.ts";
import { openDatabase } from "../../server/db/connection.ts";
import type { Db } from "../../server/db/connection.ts";
import { reconcileMismatches } from "../../server/domain/reconcile/recount.ts";
import { HOOK_HELD } from "../../server/domain/reconcile/reconcile.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { sql } from "kysely";
import * as Acc from "../../shared/api/accounts.ts";
import * as Prov from "../../shared/api/providers.ts";
import * as Rec from "../../shared/api/reconcile.ts";
import * as Maps from "../../shared/api/supplier-maps.ts";

/** A scratch folder with a database file migrated and filled by `fill` (in this process, then closed). */
async function prepared<T>(fill: (t: TestApp) => Promise<T>) {
  const dir = await Deno.makeTempDir({ prefix: "samplex-faults-" });
  const dbPath = `${dir}/faults.db`;
  // the approved hook is a local (closed) port: internal, so listed as the operator would
  const t = await testApp({
    DATABASE_URL: `file:${dbPath}`,
    JWT_SECRET: TEST_JWT_SECRET,
    OUTBOUND_ALLOW: LOCAL_HOOKS,
  });
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

/** OUTBOUND_ALLOW of the apps whose suppliers' hooks point at local ports. */
const LOCAL_HOOKS = "127.0.0.1";

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
  await closeForReconcile(t, s);
  assertEquals(await counterMismatches(db, [s.child._id]), []);
  return { ...s, ids, admin: await t.tokenFor("SUPERADMIN"), accountant: await t.tokenFor("ACCOUNTANT") };
}

async function reconcileState(db: Db, projectId: string) {
  const uploads = await db.selectFrom("reconciles").select(["id", "status", "matched", "identifiers"])
    .where("projectId", "=", projectId).execute();
  const r = await sql<{ approved: number; items: number; held: number }>`SELECT
      (SELECT count(*) FROM sessions s JOIN session_reconciles r ON r.sessionId = s.id
        WHERE s.projectId = ${projectId}) AS approved,
      (SELECT count(*) FROM reconcile_items) AS items,
      (SELECT count(*) FROM router_hooks WHERE nextAt = ${HOOK_HELD}) AS held`.execute(db);
  return { uploads, ...r.rows[0] };
}

Deno.test("SIGKILL mid reconcile upload: after a restart the upload is rolled back whole, counters equal a recount, and it can be uploaded again", async () => {
  const N = 30_000;
  const env = await prepared((t) => closedWithCompletes(t, N));
  const s = env.data;
  const watch = await env.open();
  let server: ServerProcess | undefined;
  try {
    server = await startServer(env.dbPath, { OUTBOUND_ALLOW: LOCAL_HOOKS });
    const csv = "uid\n" + s.ids.join("\n") + "\n";
    const upload = server.api(Rec.reconcileUpload, {
      params: { id: s.child._id },
      token: s.accountant,
      body: { type: 1, csv, fileName: "approved.csv" },
    }).catch((e) => e);
    // under way: the upload is `applying` and some of its chunks are in
    await until("the upload half applied", async () => {
      const st = await reconcileState(watch.db, s.child._id);
      // (the upload's own figures are written when it is done: its sessions tell how far it is)
      return st.uploads.length === 1 && st.uploads[0].status === "applying" && st.approved > 0;
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

    server = await startServer(env.dbPath, { OUTBOUND_ALLOW: LOCAL_HOOKS });
    assertMatch(server.output(), /reconcile uploads left half applied were rolled back/);
    const after = await reconcileState(watch.db, s.child._id);
    assertEquals(after, { uploads: [], approved: 0, items: 0, held: 0 });
    assertEquals(await reconcileMismatches(watch.db, [s.child._id]), []);
    assertEquals(await counterMismatches(watch.db, [s.child._id]), []);
    const counters = await watch.db.selectFrom("projects").select(["approved", "rejected", "complete"])
      .where("id", "=", s.child._id).executeTakeFirstOrThrow();
    assertEquals(counters, { approved: 0, rejected: 0, complete: N });

    // the same file again, after the restart: applied whole
    const again = await server.api(Rec.reconcileUpload, {
      params: { id: s.child._id },
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
  assertEquals(
    lines.filter((l) => !invoices.some((i) => i.id === l.invoiceId)),
    [],
    "no line without invoice",
  );
  // a project is Invoiced (group and child) exactly when one invoice bills it
  const billed = new Map<string, number>();
  for (const l of lines) if (l.projectId) billed.set(l.projectId, (billed.get(l.projectId) ?? 0) + 1);
  const status = new Map(
    (await db.selectFrom("projects").select(["id", "projectStatus"]).execute()).map((
      p,
    ) => [p.id, p.projectStatus]),
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
    for (let c = 0; c < 3; c++) {
      const client = await makeClient(t);
      for (let i = 0; i < 8; i++) projects.push(await readyProject(t, { clientId: client._id }));
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
    const bodies = [
      ...projects.map((p) => invoiceBody([p])),
      ...projects.slice(0, 5).map((p) => invoiceBody([p])),
    ];
    const answers = bodies.map((body) => srv.api(Acc.addInvoiceCall, { token, body }).catch((e) => e));
    await until("some invoices saved", async () => {
      const n = await watch.db.selectFrom("invoices").select(sql<number>`count(*)`.as("n"))
        .executeTakeFirstOrThrow();
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
    const next = await server.api(Acc.nextInvoiceCodeCall, { token });
    assertEquals(next.json.result.invoiceCode, `INV${10001 + before.numbers.length}`, next.text);
    // the rest are invoiced now, again all at once; the ones billed before the kill are refused
    const rest = projects.filter((p) => !before.billed.has(p._id));
    const again = await Promise.all(
      projects.map((p) => server!.api(Acc.addInvoiceCall, { token, body: invoiceBody([p]) })),
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

// ---------------------------------------------------------------- provider import

/** Every invariant of imported offers a crash must not break; returns the imported survey ids. */
async function importsConsistent(db: Db) {
  const imports = await db.selectFrom("offer_imports").select([
    "provider",
    "surveyId",
    "groupProjectId",
    "projectId",
  ])
    .execute();
  const projects = await db.selectFrom("projects")
    .select([
      "id",
      "projectType",
      "parentProjectId",
      "projectCode",
      "provider",
      "providerSurveyId",
      "isDeleted",
    ])
    .execute();
  const byId = new Map(projects.map((p) => [p.id, p]));
  const surveys = imports.map((i) => `${i.provider} ${i.surveyId}`);
  assertEquals(new Set(surveys).size, surveys.length, "an offer imported once");
  for (const i of imports) {
    const group = byId.get(i.groupProjectId), child = byId.get(i.projectId);
    assert(group && child, `import of ${i.surveyId} has its group and child`);
    assertEquals(child.parentProjectId, group.id);
    assertEquals([child.providerSurveyId, group.providerSurveyId], [i.surveyId, i.surveyId]);
  }
  // no project of a provider without its import, no group without its child, no child twice
  const imported = projects.filter((p) => p.provider);
  assertEquals(imported.length, imports.length * 2, "a group and a child per import, nothing else");
  for (const g of imported.filter((p) => !p.parentProjectId)) {
    assertEquals(
      projects.filter((p) => p.parentProjectId === g.id).length,
      1,
      `group ${g.projectCode}'s child`,
    );
  }
  const codes = projects.map((p) => p.projectCode);
  assertEquals(new Set(codes).size, codes.length, "project codes used once");
  // questions linked once per provider question, each to a qualification that is there
  const links = await db.selectFrom("provider_questions").leftJoin(
    "qualifications",
    "qualifications.id",
    "provider_questions.qualificationId",
  ).select(["provider_questions.questionId", "qualifications.id as q"]).execute();
  assert(links.every((l) => l.q), "every provider question's qualification exists");
  const logged = await db.selectFrom("system_logs").select(sql<number>`count(*)`.as("n"))
    .where("activity", "like", "Imported % survey %").executeTakeFirstOrThrow();
  assertEquals(Number(logged.n), imports.length, "one log row per import");
  return new Set(imports.map((i) => i.surveyId));
}

Deno.test("SIGKILL during provider imports (add as project): no offer imported twice, no group without its child; after a restart a re-import works or is a 409", async () => {
  const sb = startSandbox();
  const env = await prepared(async (t) => ({
    token: await t.tokenFor("APIMANAGER"),
    clientId: (await makeClient(t))._id as string,
  }));
  const { token, clientId } = env.data;
  const offers = sb.states.precision.offers.map((o) => o.id);
  const watch = await env.open();
  const providerEnv = { PROVIDER_PRECISION_URL: `${sb.base}/precision`, PROVIDER_PRECISION_KEY: SANDBOX_KEY };
  let server: ServerProcess | undefined;
  const add = (srv: ServerProcess, surveyId: string) =>
    srv.api(Prov.addPrecisionOffer, {
      token,
      bad: { surveyId: Number(surveyId), title: "as the provider says", clientId },
    });
  try {
    server = await startServer(env.dbPath, providerEnv);
    const srv = server;
    // every offer at once, the first ten twice (racing imports of one offer)
    const answers = [...offers, ...offers.slice(0, 10)].map((id) => add(srv, id).catch((e) => e));
    await until("some offers imported", async () => {
      const n = await watch.db.selectFrom("offer_imports").select(sql<number>`count(*)`.as("n"))
        .executeTakeFirstOrThrow();
      return Number(n.n) >= 3;
    }, { everyMs: 1 });
    await server.kill();
    const lost = (await Promise.all(answers)).filter((a) => a instanceof Error).length;
    const done = await importsConsistent(watch.db);
    assert(done.size >= 3 && done.size < offers.length, `killed part way: ${done.size} of ${offers.length}`);
    assert(lost > 0, "imports were in flight at the kill");

    server = await startServer(env.dbPath, providerEnv);
    const before = await importsConsistent(watch.db);
    const again = await Promise.all(offers.map((id) => add(server!, id)));
    again.forEach((r, i) => {
      if (before.has(offers[i])) {
        assertEquals(r.status, 409, r.text);
        assertMatch(r.json.message, new RegExp(`survey ${offers[i]} is already imported as project `));
      } else assertEquals(r.status, 200, r.text);
    });
    assertEquals((await importsConsistent(watch.db)).size, offers.length);
    await server.stop();
  } finally {
    await server?.kill();
    await watch.close();
    await env.remove();
    await sb.close();
  }
});

// ---------------------------------------------------------------- router load

const SAMPLE = 150, MAP_QUOTA = 60;

/** What a respondent was told, by the panel page the router sent them to. */
const TOLD: Record<string, string> = { complete: "complete", quotafull: "overQuota", terminate: "terminate" };

/**
 * A respondent through the server: entry, then (when sent to the survey) the return with `status`.
 * `acked` gets every answer received: the uid with `redirected` once the survey link came back, then
 * the outcome the panel page says. Whatever the server answered must be in its database.
 */
async function respondent(
  srv: ServerProcess,
  mapId: string,
  sid: string,
  status: "c" | "t",
  acked: Map<string, string>,
  held?: string[],
) {
  const res = await srv.fetch(`/survey/start/${mapId}?sid=${sid}`, {
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0" },
  });
  await res.body?.cancel();
  const to = res.headers.get("location") ?? "";
  if (!to.startsWith("https://client.example/")) return;
  const uid = new URL(to).searchParams.get("uid")!;
  acked.set(uid, "redirected");
  // some respondents are still in the survey when the server dies; they come back after the restart
  if (held) return void held.push(uid);
  const end = await srv.fetch(`/survey/end?status=${status}&uid=${uid}`);
  await end.body?.cancel();
  const page = new URL(end.headers.get("location") ?? "http://x/none").pathname.slice(1);
  if (TOLD[page]) acked.set(uid, TOLD[page]);
}

/** Every answer the server gave is in its database: the session, and its outcome once told. */
async function answersKept(db: Db, acked: Map<string, string>) {
  const rows = await db.selectFrom("sessions").select(["id", "status"]).where("id", "in", [...acked.keys()])
    .execute();
  const status = new Map(rows.map((r) => [r.id, r.status]));
  for (const [uid, told] of acked) {
    assert(status.has(uid), `session ${uid}, answered before the kill, is in the database`);
    if (told !== "redirected") assertEquals(status.get(uid), told, `the outcome told to ${uid}`);
  }
}

async function quotasKept(db: Db, s: { childId: string; limitedMap: string }) {
  const p = await db.selectFrom("projects").select(["complete", "clicked"]).where("id", "=", s.childId)
    .executeTakeFirstOrThrow();
  const m = await db.selectFrom("supplier_maps").select("complete").where("id", "=", s.limitedMap)
    .executeTakeFirstOrThrow();
  assert(p.complete <= SAMPLE, `project completes ${p.complete} within its sample size ${SAMPLE}`);
  assert(m.complete <= MAP_QUOTA, `supplier completes ${m.complete} within the map's quota ${MAP_QUOTA}`);
  assertEquals(await counterMismatches(db, [s.childId]), []);
  return p;
}

Deno.test("SIGKILL under heavy entry and return traffic: counters equal recounts and quotas hold after a restart; respondents in the survey are counted once", async () => {
  const env = await prepared(async (t) => {
    const a = await liveProject(t, {
      child: { sampleSize: SAMPLE, respondentClickQuota: 0 },
      map: { supplierQuota: MAP_QUOTA },
    });
    const other = await makeSupplier(t);
    const admin = await t.tokenFor("SUPERADMIN");
    const m = await t.api(Maps.saveSupplierMapCall, {
      token: admin,
      body: { projectId: a.child._id, supplierId: other._id, supplierCPI: 1, ...panelRedirects },
    });
    assertEquals(m.status, 200, m.text);
    return {
      childId: a.child._id as string,
      limitedMap: a.mapId,
      maps: [a.mapId, m.json.result._id as string],
    };
  });
  const s = env.data;
  const watch = await env.open();
  let server: ServerProcess | undefined;
  try {
    server = await startServer(env.dbPath);
    const srv = server;
    let stop = false, n = 0, lost = 0;
    const held: string[] = [];
    const acked = new Map<string, string>();
    // 32 respondents at a time, on both maps; every fifth terminates, a few stay in the survey
    const workers = Array.from({ length: 32 }, async (_, w) => {
      while (!stop) {
        const i = n++;
        await respondent(
          srv,
          s.maps[i % 2],
          `w${w}-${i}`,
          i % 5 === 4 ? "t" : "c",
          acked,
          i % 7 === 3 ? held : undefined,
        )
          .catch(() => {
            lost++;
            stop = true;
          });
      }
    });
    await until("traffic under way", async () => {
      const p = await watch.db.selectFrom("projects").select("complete").where("id", "=", s.childId)
        .executeTakeFirstOrThrow();
      return p.complete >= 40 && held.length >= 5;
    }, { everyMs: 2 });
    await server.kill();
    stop = true;
    await Promise.all(workers);
    const atKill = await quotasKept(watch.db, s);
    assert(atKill.complete < SAMPLE, `killed before the sample filled: ${atKill.complete}`);
    assert(lost > 0, "requests were in flight at the kill");
    await answersKept(watch.db, acked);

    server = await startServer(env.dbPath);
    await quotasKept(watch.db, s);
    // those who were in the survey come back now, each counted once, whatever they say
    const srv2 = server;
    const returned = await Promise.all(held.map(async (uid, i) => {
      const r = await srv2.fetch(`/survey/end?status=${i % 2 ? "c" : "t"}&uid=${uid}`);
      await r.body?.cancel();
      return r.status;
    }));
    assert(returned.every((st) => st === 302), returned.join());
    const back = await watch.db.selectFrom("sessions").select("status").where("id", "in", held).execute();
    assertEquals(back.filter((r) => r.status === "redirected"), [], "each one back is counted");
    await quotasKept(watch.db, s);
    // more traffic than the sample takes: it fills exactly, never past
    let m = 0;
    await Promise.all(Array.from({ length: 32 }, async (_, w) => {
      for (let k = 0; k < 12; k++) {
        const i = m++;
        await respondent(srv2, s.maps[i % 2], `after-${w}-${k}`, "c", acked);
      }
    }));
    const full = await quotasKept(watch.db, s);
    assertEquals(full.complete, SAMPLE);
    const entered = await watch.db.selectFrom("sessions").select(sql<number>`count(*)`.as("n"))
      .where("projectId", "=", s.childId).where("status", "!=", "closed").executeTakeFirstOrThrow();
    assertEquals(full.clicked, Number(entered.n));
    await server.stop();
    assertEquals(await counterMismatches(watch.db, [s.childId]), []);
    await answersKept(watch.db, acked);
  } finally {
    await server?.kill();
    await watch.close();
    await env.remove();
  }
});

Deno.test("provider down, through the real server: the provider tab's call and add-as-project answer a 502 naming the provider, and nothing is written", async () => {
  const sb = startSandbox();
  const env = await prepared(async (t) => ({
    token: await t.tokenFor("APIMANAGER"),
    clientId: (await makeClient(t))._id as string,
  }));
  const { token, clientId } = env.data;
  const surveyId = Number(sb.states.precision.offers[0].id);
  const watch = await env.open();
  let server: ServerProcess | undefined;
  try {
    server = await startServer(env.dbPath, {
      PROVIDER_PRECISION_URL: `${sb.base}/precision`,
      PROVIDER_PRECISION_KEY: SANDBOX_KEY,
    });
    sb.states.precision.mode = "down";
    const tab = await server.api(Prov.precisionOffers, { token, body: {} });
    assertEquals(tab.status, 502, tab.text);
    assertMatch(tab.json.message, /^Precision is unavailable \(HTTP 5\d\d/);
    const add = await server.api(Prov.addPrecisionOffer, {
      token,
      bad: { surveyId, title: "x", clientId },
    });
    assertEquals(add.status, 502, add.text);
    assertMatch(add.json.message, /^Precision is unavailable/);
    // gone altogether: the same, saying it cannot be reached
    await sb.close();
    const gone = await server.api(Prov.precisionOffers, { token, body: {} });
    assertEquals(gone.status, 502, gone.text);
    assertMatch(gone.json.message, /^Precision cannot be reached/);
    const projects = await watch.db.selectFrom("projects").select("id").execute();
    const imports = await watch.db.selectFrom("offer_imports").select("id").execute();
    assertEquals([projects, imports], [[], []]);
    await server.stop();
  } finally {
    await server?.kill();
    await watch.close();
    await env.remove();
    await sb.close().catch(() => {});
  }
});
