/**
 * Operations (issue 16): /metrics (token, router counters moved by the traffic sent), /healthz
 * (release, database, migrations), and the Support page's list of scheduled backups.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { back, enter, liveProject, uidOf } from "../helpers/router.ts";
import { sql } from "kysely";
import { runScheduledBackup } from "../../server/domain/ops/backup.ts";
import { createLogger } from "../../server/logger.ts";
import config from "../../deno.json" with { type: "json" };
import { migrations } from "../../db/migrations/index.ts";
import { createApp } from "../../server/app.ts";
import { MSG } from "../../shared/messages.ts";
import * as Ops from "../../shared/api/ops.ts";

const TOKEN = "metrics-token-0123456789";

/** The value of one series in a Prometheus text (0 when absent). */
function series(text: string, name: string, labels = ""): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}
/** The sum of every series of a metric whose labels contain `part`. */
function sumOf(text: string, name: string, part = ""): number {
  return text.split("\n").filter((l) => l.startsWith(`${name}{`) && l.includes(part))
    .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
}

async function scrape(t: Awaited<ReturnType<typeof testApp>>, token: string | null = TOKEN) {
  const res = await t.app.request("/metrics", token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" };
}

Deno.test("/metrics: off without METRICS_TOKEN, 403 without or with a wrong token", async () => {
  const off = await testApp();
  const webRoot = await Deno.makeTempDir({ prefix: "samplex-web-" });
  try {
    assertEquals((await scrape(off)).status, 404);
    // with the SPA mounted too: a 404, not its history fallback page
    await Deno.writeTextFile(`${webRoot}/index.html`, "<!doctype html><title>Samplex</title>");
    const withSpa = createApp(off.deps, { webRoot });
    const res = await withSpa.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    assertEquals(res.status, 404);
    assertEquals((await res.json()).message, MSG.notFound);
  } finally {
    await off.close();
    await Deno.remove(webRoot, { recursive: true });
  }
  const t = await testApp({ METRICS_TOKEN: TOKEN });
  try {
    const none = await scrape(t, null);
    assertEquals(none.status, 403);
    assertEquals(JSON.parse(none.text).message, "You do not have permission to do this.");
    assertEquals((await scrape(t, "not-the-token-0000000000")).status, 403);
    const ok = await scrape(t);
    assertEquals(ok.status, 200);
    assertMatch(ok.type, /^text\/plain; version=0\.0\.4/);
    for (
      const name of [
        "process_resident_memory_bytes",
        "samplex_database_size_bytes",
        "samplex_email_outbox_depth",
        "samplex_email_outbox_failed",
        "samplex_hook_deliveries_pending",
      ]
    ) {
      assertMatch(ok.text, new RegExp(`^# TYPE ${name} gauge$`, "m"), name);
      assert(ok.text.includes(`\n${name} `), `${name} has a value`);
    }
    assert(series(ok.text, "samplex_database_size_bytes") > 0, "the database has a size");
    assertEquals(series(ok.text, "samplex_database_up"), 1);
    assertMatch(ok.text, new RegExp(`samplex_build_info\\{version="${config.version}",commit="[^"]+"\\} 1`));
  } finally {
    await t.close();
  }
});

Deno.test("/metrics: the router counters move by the number of requests sent", async () => {
  const t = await testApp({ METRICS_TOKEN: TOKEN });
  try {
    const { mapId } = await liveProject(t);
    // an entry of the set-up traffic first, so every series below exists before the measure
    await enter(t, mapId, "warm-up");
    const before = (await scrape(t)).text;
    const N = 25, RETURNS = 10;
    const entries = await Promise.all(Array.from({ length: N }, (_, i) => enter(t, mapId, `resp-${i}`)));
    assert(entries.every((e) => e.status === 302), "every entry redirected");
    for (const e of entries.slice(0, RETURNS)) {
      assertEquals((await back(t, uidOf(e.location), "c")).status, 302);
    }
    const after = (await scrape(t)).text;

    const moved = (name: string, part: string) => sumOf(after, name, part) - sumOf(before, name, part);
    assertEquals(moved("samplex_router_events_total", 'kind="entry"'), N, "entries");
    assertEquals(moved("samplex_router_events_total", 'kind="entry",outcome="redirected"'), N, "redirected");
    assertEquals(
      moved("samplex_router_events_total", 'kind="return",outcome="complete"'),
      RETURNS,
      "completes",
    );
    // the survey group counts every request (entries and returns), with its latency histogram
    assertEquals(moved("samplex_http_requests_total", 'group="survey"'), N + RETURNS);
    assertEquals(
      sumOf(after, "samplex_http_request_duration_seconds_count", 'group="survey"') -
        sumOf(before, "samplex_http_request_duration_seconds_count", 'group="survey"'),
      N + RETURNS,
    );
    // the writer batched them: as many events as sent, in fewer transactions than events
    const events = series(after, "samplex_router_writer_batch_events_sum") -
      series(before, "samplex_router_writer_batch_events_sum");
    const flushes = series(after, "samplex_router_writer_batch_events_count") -
      series(before, "samplex_router_writer_batch_events_count");
    assertEquals(events, N + RETURNS);
    assert(flushes >= 1 && flushes < N + RETURNS, `${flushes} flushes for ${N + RETURNS} events`);
    assert(
      series(after, "samplex_router_writer_flush_seconds_count") >
        series(before, "samplex_router_writer_flush_seconds_count"),
    );
    // API calls count in their own group
    assert(sumOf(after, "samplex_http_requests_total", 'group="api"') > 0);
  } finally {
    await t.close();
  }
});

Deno.test("/metrics: the outbox depth and hooks pending are read from the database when scraped", async () => {
  const t = await testApp({ METRICS_TOKEN: TOKEN });
  try {
    const now = new Date().toISOString();
    const mail = (id: string, status: "queued" | "failed") => ({
      id,
      toAddress: "a@b.example",
      subject: "s",
      bodyHtml: "",
      bodyText: "",
      status,
      attempts: 0,
      lastError: "",
      module: "test",
      recordId: null,
      createdAt: now,
      updatedAt: now,
      sentAt: null,
    });
    await t.deps.db.insertInto("email_outbox").values([
      mail("m1", "queued"),
      mail("m2", "queued"),
      mail("m3", "failed"),
    ])
      .execute();
    await t.deps.db.insertInto("router_hooks").values({
      sessionId: "s1",
      supplierId: "x",
      url: "https://panel.example/hook",
      status: "queued",
      attempts: 0,
      lastError: "",
      nextAt: now,
      createdAt: now,
      updatedAt: now,
    }).execute();
    // a write batch's two outcome callbacks, claimed at birth and on their way (router_hook_claims)
    await t.deps.db.insertInto("router_hook_claims").values({
      lease: now,
      rows: JSON.stringify(["s2", "s3"].map((s) => [s, "x", "u", "complete", `${s}-c`, "{}"])),
      createdAt: now,
    }).execute();
    const text = (await scrape(t)).text;
    // the failed one will be tried again (no permanent refusal, queued just now): still to be sent
    assertEquals(series(text, "samplex_email_outbox_depth"), 3);
    assertEquals(series(text, "samplex_email_outbox_failed"), 0);
    assertEquals(series(text, "samplex_hook_deliveries_pending"), 3, "the queued one and the two claimed");
    assert(/samplex_callback_deliveries\{state="sending"\} 2\b/.test(text), text);
  } finally {
    await t.close();
  }
});

Deno.test("/healthz: the release, the database answering and the migrations current", async () => {
  const t = await testApp();
  try {
    const res = await t.app.request("/healthz");
    assertEquals(res.status, 200);
    const body = await res.json();
    assertEquals(body.status, "ok");
    assertEquals(body.version, config.version);
    assert(typeof body.commit === "string" && body.commit.length > 0, body.commit);
    assertEquals(body.database.answers, true);
    assertEquals(body.database.migrationsCurrent, true);
    assertEquals(body.database.latestMigration, Object.keys(migrations).sort().at(-1));

    // a database behind the code's migrations is reported (still "ok": it answers)
    const latest = body.database.latestMigration as string;
    await sql`delete from kysely_migration where name = ${latest}`.execute(t.deps.db);
    const behind = await (await t.app.request("/healthz")).json();
    assertEquals(behind.status, "ok");
    assertEquals(behind.database.migrationsCurrent, false);
  } finally {
    await t.close();
  }
});

Deno.test("Support backups: the SUPPORT_LOG roles see the scheduled backups with sizes; rotation keeps BACKUP_KEEP", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-backups-" });
  const t = await testApp({
    DATABASE_URL: `file:${dir}/live.db`,
    BACKUP_DIR: `${dir}/backups`,
    BACKUP_EVERY_HOURS: "6",
    BACKUP_KEEP: "2",
  });
  try {
    await expectCallGuarded(t, Ops.listBackupsCall, "MANAGER");
    const token = await t.tokenFor("ACCOUNTANT");
    const empty = await t.api(Ops.listBackupsCall, { token });
    assertEquals(empty.status, 200);
    assertEquals(empty.json.result.backups, []);
    assertEquals(empty.json.result.everyHours, 6);

    const lines: string[] = [];
    const log = createLogger("info", (l) => lines.push(l));
    const opts = { dir: `${dir}/backups`, everyHours: 6, keep: 2 };
    const base = Date.parse("2026-03-01T00:00:00Z");
    for (let i = 0; i < 3; i++) {
      assert(await runScheduledBackup(t.deps.db, `file:${dir}/live.db`, opts, log, base + i * 6 * 3_600_000));
    }
    const r = await t.api(Ops.listBackupsCall, { token });
    const names = r.json.result.backups.map((b: { name: string }) => b.name);
    assertEquals(
      names,
      ["samplex-20260301-120000.db", "samplex-20260301-060000.db"],
      "the oldest is removed",
    );
    for (const b of r.json.result.backups) {
      assertEquals(b.bytes, (await Deno.stat(`${dir}/backups/${b.name}`)).size);
      assert(b.bytes > 0);
    }
    assertEquals(r.json.result.backups[0].createdAt, "2026-03-01T12:00:00Z");
    assertEquals(lines.filter((l) => l.includes('"backup written"')).length, 3);
    assertEquals(lines.filter((l) => l.includes('"backup removed"')).length, 1);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Support backups: a server database says backups are done where it runs", async () => {
  const t = await testApp();
  try {
    const r = await t.api(Ops.listBackupsCall, { token: await t.tokenFor("SUPERADMIN") });
    assertEquals(r.status, 200);
    assertEquals(r.json.result.dir, null);
    assertMatch(r.json.result.note, /off|libSQL server/);
  } finally {
    await t.close();
  }
});

Deno.test("env: the operations variables are checked with clear messages", async () => {
  const { EnvError, loadEnv } = await import("../../server/env.ts");
  const bad = (env: Record<string, string>) => {
    try {
      loadEnv(env);
      return "";
    } catch (e) {
      assert(e instanceof EnvError);
      return e.message;
    }
  };
  assertMatch(bad({ BACKUP_EVERY_HOURS: "6" }), /BACKUP_EVERY_HOURS needs BACKUP_DIR/);
  assertMatch(
    bad({ BACKUP_DIR: "/b", BACKUP_EVERY_HOURS: "0" }),
    /BACKUP_EVERY_HOURS must be a number of hours above 0/,
  );
  assertMatch(bad({ BACKUP_KEEP: "0" }), /BACKUP_KEEP must be a whole number from 1 to 9999/);
  assertMatch(bad({ METRICS_TOKEN: "short" }), /METRICS_TOKEN must be at least 16 characters/);
  const ok = loadEnv({ BACKUP_DIR: "/b", BACKUP_EVERY_HOURS: "0.5", METRICS_TOKEN: TOKEN });
  assertEquals([ok.BACKUP_EVERY_HOURS, ok.BACKUP_KEEP, ok.METRICS_TOKEN], [0.5, 7, TOKEN]);
});
