/**
 * Metrics an operator can alert on (issue 25, item 9): request latency and a status-class counter
 * per route template and method (never the raw path), database statement timing by kind, the
 * outbox by state; the whole scrape checked by promtool.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { makeParent } from "../helpers/fixtures.ts";
import { GIVE_UP_AFTER_MS, PERMANENT } from "../../server/domain/email/deliver.ts";
import { routeLabel } from "../../server/http/metrics.ts";
import { statementKind } from "../../server/domain/ops/metrics.ts";
import * as P from "../../shared/api/projects.ts";

const TOKEN = "metrics-token-0123456789";

async function scrape(t: TestApp) {
  const res = await t.app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  assertEquals(res.status, 200);
  return await res.text();
}
/** The value of the series with exactly these labels (0 when absent). */
function value(text: string, name: string, labels: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

Deno.test("metrics: requests by route template, method and status class; ids and unknown paths make no series", async () => {
  const t = await testApp({ METRICS_TOKEN: TOKEN });
  try {
    const token = await t.tokenFor("ADMIN");
    const project = await makeParent(t);
    const before = await scrape(t);
    // the route's label as the metrics spell it (the label is under test)
    const route = 'group="api",method="GET",route="/api/v1/admin/project/:id"';
    for (let i = 0; i < 3; i++) {
      assertEquals((await t.api(P.getProjectCall, { params: { id: project._id }, token })).status, 200);
    }
    assertEquals(
      (await t.api(P.getProjectCall, { params: { id: "65a0000000000000000000ff" }, token })).status,
      404,
    );
    assertEquals((await t.api(P.getProjectCall, { params: { id: project._id } })).status, 401);
    // paths no call answers, with ids and junk in them, and a made-up method
    for (let i = 0; i < 20; i++) await t.app.request(`/api/v1/nothing/${crypto.randomUUID()}`);
    await t.app.request(`/api/v1/admin/project/${project._id}`, { method: "BREW" });
    const after = await scrape(t);

    const moved = (name: string, labels: string) => value(after, name, labels) - value(before, name, labels);
    assertEquals(moved("samplex_http_requests_total", `${route},status="2xx"`), 3);
    assertEquals(moved("samplex_http_requests_total", `${route},status="4xx"`), 2);
    assertEquals(moved("samplex_http_request_duration_seconds_count", route), 5);
    assertEquals(
      moved("samplex_http_requests_total", 'group="api",method="GET",route="/api/*",status="4xx"'),
      20,
    );
    assertEquals(
      moved("samplex_http_requests_total", 'group="api",method="OTHER",route="/api/*",status="4xx"'),
      1,
    );
    assert(
      value(after, "samplex_http_request_duration_seconds_bucket", `${route},le="+Inf"`) >= 5,
      "a latency histogram per route",
    );
    // no raw path in any label: not the project's id, not the random ones
    assert(!after.includes(project._id), "no record id in a label");
    assert(!/nothing\//.test(after), "no unknown path in a label");
    assert(!after.includes("BREW"));
    // the respondent router's routes by template too, without their id patterns
    await t.app.request("/survey/start/65a0000000000000000000aa?sid=x");
    assertMatch(
      await scrape(t),
      /samplex_http_requests_total\{group="survey",method="GET",route="\/survey\/start\/:mapId",status="\dxx"\} 1/,
    );
    assertEquals(routeLabel("/survey/start/:mapId{[0-9a-f]{24}}"), "/survey/start/:mapId");
    assertEquals(routeLabel(""), "*");
  } finally {
    await t.close();
  }
});

Deno.test("metrics: database statements timed by kind", async () => {
  const t = await testApp({ METRICS_TOKEN: TOKEN });
  try {
    const before = await scrape(t);
    const name = "samplex_db_statement_duration_seconds_count";
    await makeParent(t);
    const after = await scrape(t);
    assertMatch(after, /^# TYPE samplex_db_statement_duration_seconds histogram$/m);
    for (const kind of ["select", "insert"]) {
      assert(value(after, name, `kind="${kind}"`) > value(before, name, `kind="${kind}"`), kind);
    }
    // a small fixed label set: the kind, never the SQL
    const kinds = after.split("\n").filter((l) => l.startsWith(`${name}{`)).map((l) =>
      /kind="([^"]+)"/.exec(l)![1]
    );
    assertEquals(kinds.sort(), ["delete", "insert", "other", "select", "update"]);
    assert(value(after, "samplex_db_statement_duration_seconds_sum", 'kind="select"') > 0);
  } finally {
    await t.close();
  }
});

Deno.test("metrics: the outbox by state, read when scraped; failed counts only mail refused for good or given up", async () => {
  const t = await testApp({ METRICS_TOKEN: TOKEN });
  try {
    const now = new Date().toISOString();
    const old = new Date(Date.now() - GIVE_UP_AFTER_MS - 60_000).toISOString();
    let n = 0;
    const mail = (status: string, lastError = "", createdAt = now) => ({
      id: `m${++n}`,
      toAddress: "a@b.example",
      subject: "s",
      bodyHtml: "",
      bodyText: "",
      status: status as "queued",
      attempts: 1,
      lastError,
      module: "test",
      recordId: null,
      createdAt,
      updatedAt: now,
      sentAt: null,
    });
    await t.deps.db.insertInto("email_outbox").values([
      mail("queued"),
      mail("queued"),
      mail("sending"),
      mail("sent"),
      mail("sent"),
      mail("failed", "421 try later"),
      mail("failed", `${PERMANENT}550 no such user`),
      mail("failed", "ETIMEDOUT", old),
      mail("cancelled"),
    ]).execute();
    const text = await scrape(t);
    const state = (s: string) => value(text, "samplex_email_outbox_mails", `state="${s}"`);
    assertEquals(
      ["queued", "sending", "retrying", "failed", "cancelled"].map(state),
      [2, 1, 1, 2, 1],
    );
    assertMatch(text, /^# TYPE samplex_email_outbox_mails gauge$/m);
    assertMatch(text, /^samplex_email_outbox_depth 4$/m);
    // what it says is what it counts: failed for good, not the one about to be retried
    assertMatch(
      text,
      /^# HELP samplex_email_outbox_failed E-mails that failed for good: refused by the mail server or given up after retrying/m,
    );
    assertMatch(text, /^samplex_email_outbox_failed 2$/m);
  } finally {
    await t.close();
  }
});

Deno.test("metrics: the whole scrape passes promtool check metrics", async () => {
  const t = await testApp({ METRICS_TOKEN: TOKEN });
  try {
    const token = await t.tokenFor("ADMIN");
    await makeParent(t);
    await t.api(P.getProjectCall, { params: { id: "65a0000000000000000000ff" }, token });
    await t.app.request('/api/v1/x"y\\z');
    await t.deps.db.insertInto("email_outbox").values({
      id: "m1",
      toAddress: "a@b.example",
      subject: "s",
      bodyHtml: "",
      bodyText: "",
      status: "failed",
      attempts: 1,
      lastError: "421 later",
      module: "test",
      recordId: null,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      sentAt: null,
    }).execute();
    const text = await scrape(t);
    // the families an operator alerts on are in what promtool checks
    for (
      const line of [
        /^samplex_http_request_duration_seconds_bucket\{group="api",method="GET",route="\/api\/v1\/admin\/project\/:id",le="0\.005"\} /m,
        /^samplex_http_requests_total\{group="api",method="GET",route="\/api\/v1\/admin\/project\/:id",status="4xx"\} [1-9]\d*$/m,
        /^samplex_db_statement_duration_seconds_bucket\{kind="select",le="\+Inf"\} [1-9]/m,
        /^samplex_email_outbox_mails\{state="retrying"\} 1$/m,
      ]
    ) assertMatch(text, line);
    const promtool = new Deno.Command("promtool", {
      args: ["check", "metrics"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    })
      .spawn();
    const writer = promtool.stdin.getWriter();
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
    const out = await promtool.output();
    const report = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, report);
    assertEquals(report.trim(), "", "no lint problem");
  } finally {
    await t.close();
  }
});

Deno.test("metrics: a statement's kind from its query node or its first word", () => {
  const cases: [string, string, string][] = [
    ["SelectQueryNode", "select 1", "select"],
    ["InsertQueryNode", "insert into x", "insert"],
    ["RawNode", "  SELECT count(*) from x", "select"],
    ["RawNode", "with t as (select 1) select * from t", "select"],
    ["RawNode", "\n insert into x values (1)", "insert"],
    ["RawNode", "REPLACE INTO x values (1)", "insert"],
    ["RawNode", "update x set a = 1", "update"],
    ["RawNode", "delete from x", "delete"],
    ["RawNode", "drop table x", "other"],
    ["RawNode", 'savepoint "a"', "other"],
    ["RawNode", 'release "a"', "other"],
    ["RawNode", "rollback", "other"],
    ["RawNode", "pragma page_count", "other"],
    ["RawNode", "", "other"],
  ];
  for (const [node, text, kind] of cases) assertEquals(statementKind(node, text), kind, text);
});
