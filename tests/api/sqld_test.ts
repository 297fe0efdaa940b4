/**
 * The API against a real libSQL server (sqld over HTTP), not the embedded engine: migrations,
 * sessions, the users API, concurrent requests, and transactions that roll back on error. Each test
 * gets its own server with an empty database.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { TEST_PASSWORD, type TestApp, testApp } from "../helpers/app.ts";
import { type Sqld, sqldSupported, startSqld } from "../helpers/sqld.ts";
import { sql } from "kysely";
import { migrations } from "../../db/migrations/index.ts";
import { rebuildSearchIndexes, refreshPlannerStats } from "../../server/db/maintenance.ts";
import * as Session from "../../shared/api/session.ts";
import * as Users from "../../shared/api/users.ts";

async function onSqld(fn: (t: TestApp, server: Sqld) => Promise<void>) {
  await using server = await startSqld();
  const t = await testApp({ DATABASE_URL: server.url });
  try {
    await fn(t, server);
  } catch (e) {
    if (e instanceof Error) e.message += `\n--- sqld log tail ---\n${server.log().slice(-1500)}`;
    throw e;
  } finally {
    await t.close();
  }
}

const test = (name: string, fn: (t: TestApp, server: Sqld) => Promise<void>) =>
  Deno.test({
    name: `sqld: ${name}`,
    ignore: !sqldSupported,
    fn: () => onSqld(fn),
  });

if (!sqldSupported) {
  console.warn(`sqld tests skipped: sqld is only packaged for linux x64 (this is ${Deno.build.target})`);
}

const newUser = (n: string, extra: Record<string, unknown> = {}) => ({
  firstName: `Person${n}`,
  lastName: "Remote",
  email: `person${n}@remote.test`,
  phoneNumber: "",
  password: "remote-pass-1",
  role: "MANAGER",
  ...extra,
});

test(
  "migrations run on the server once; a second app on the same server sees the same data",
  async (t, server) => {
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      t.deps.db,
    );
    assertEquals(applied.rows.map((r) => r.name), Object.keys(migrations));
    const tables = await sql<
      { name: string }
    >`select name from sqlite_master where type = 'table' order by name`
      .execute(t.deps.db);
    for (const name of ["users", "system_logs", "revoked_tokens", "login_throttle", "settings"]) {
      assert(tables.rows.some((r) => r.name === name), `table ${name} exists on the server`);
    }
    const { email } = await t.userWith("ADMIN");

    // another process, same server: migrating again is a no-op, and the user is there
    const other = await testApp({ DATABASE_URL: server.url });
    try {
      const again = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(
        other.deps.db,
      );
      assertEquals(Number(again.rows[0].n), Object.keys(migrations).length);
      const r = await other.api(Session.loginCall, { body: { email, password: TEST_PASSWORD } });
      assertEquals(r.status, 200, r.text);
    } finally {
      await other.close();
    }
  },
);

test("search indexes work on the server as on a file; ANALYZE is refused and that is not an error", async (t) => {
  const { token } = await t.userWith("SUPERADMIN");
  for (const n of ["Ann", "Bo"]) {
    const r = await t.api(Users.addUser, { token, body: newUser(n) });
    assertEquals(r.status, 200, r.text);
  }
  assertEquals(await refreshPlannerStats(t.deps.db), false, "sqld refuses ANALYZE: said, not thrown");
  const indexes = await rebuildSearchIndexes(t.deps.db);
  assertEquals(indexes.users_fts, 3, "the SUPERADMIN and two more");
  const found = await t.api(Users.listUsers, { token, body: { search: "personann" } });
  assertEquals(found.json.result.data.map((u: { firstName: string }) => u.firstName), ["PersonAnn"]);
});

test("login, then logout revokes the token", async (t) => {
  const { email } = await t.userWith("MANAGER");
  const bad = await t.api(Session.loginCall, { body: { email, password: "wrong-password" } });
  assertEquals(bad.status, 401);
  const r = await t.api(Session.loginCall, { body: { email, password: TEST_PASSWORD } });
  assertEquals(r.status, 200);
  const token = r.json.result.accessToken;
  assertEquals((await t.api(Session.adminMeCall, { token })).json.result.email, email);
  assertEquals((await t.api(Session.logoutCall, { token })).status, 200);
  assertEquals((await t.api(Session.adminMeCall, { token })).status, 401);
  const logs = await t.deps.db.selectFrom("system_logs").select("activity").where("module", "=", "Session")
    .execute();
  assertEquals(logs.map((l) => l.activity).sort(), ["Signed in", "Signed in", "Signed out"]);
});

test("users: create, list with search and paging, update, duplicate e-mail, soft delete", async (t) => {
  const token = await t.tokenFor("SUPERADMIN");
  const ids: string[] = [];
  for (const n of ["1", "2", "3"]) {
    const r = await t.api(Users.addUser, { token, body: newUser(n) });
    assertEquals(r.status, 200, r.text);
    ids.push(r.json.result._id);
  }
  const page = await t.api(Users.listUsers, {
    token,
    body: { search: "remote.test", pageNo: 2, limit: 2 },
  });
  assertEquals(page.status, 200);
  assertEquals(page.json.result.metadata, { total: 3, limit: 2, pageNo: 2 });
  assertEquals(page.json.result.data.length, 1);

  const dup = await t.api(Users.addUser, { token, body: newUser("1") });
  assertEquals(dup.status, 409);

  const upd = await t.api(Users.updateUserCall, {
    params: { id: ids[0] },
    token,
    body: { ...newUser("1"), firstName: "Renamed", password: "" },
  });
  assertEquals(upd.status, 200, upd.text);
  assertEquals(upd.json.result.firstName, "Renamed");
  const login = await t.api(Session.loginCall, {
    body: { email: "person1@remote.test", password: "remote-pass-1" },
  });
  assertEquals(login.status, 200, "empty password on edit kept the old one");

  assertEquals(
    (await t.api(Users.updateUserCall, { params: { id: ids[1] }, token, body: { isDeleted: true } })).status,
    200,
  );
  const after = await t.api(Users.listUsers, { token, body: { search: "remote.test" } });
  assertEquals(after.json.result.metadata.total, 2);
  assert(!after.json.result.data.some((u: { _id: string }) => u._id === ids[1]));

  const csv = await t.api(Users.listUsers, {
    search: { format: "csv" },
    token,
    body: { search: "remote.test" },
  });
  assertEquals(csv.status, 200);
  assertEquals(csv.text.trim().split("\r\n").length, 3, "header and two rows");
});

test("a failing statement inside a transaction rolls back its earlier writes", async (t) => {
  const token = await t.tokenFor("SUPERADMIN");
  // the audit insert that follows the user insert fails for this e-mail
  await sql`CREATE TRIGGER fail_audit BEFORE INSERT ON system_logs
    WHEN NEW.activity LIKE '%doomed@remote.test%'
    BEGIN SELECT RAISE(ABORT, 'audit refused'); END`.execute(t.deps.db);

  const r = await t.api(Users.addUser, {
    token,
    body: newUser("x", { email: "doomed@remote.test" }),
  });
  // the request fails (a constraint-class error is answered 409 by the app, anything else 500)
  assert([409, 500].includes(r.status), `expected the create to fail, got ${r.status} ${r.text}`);
  const rows = await t.deps.db.selectFrom("users").select("id").where("email", "=", "doomed@remote.test")
    .execute();
  assertEquals(rows.length, 0, "the user row inserted before the failure was rolled back");

  // the connection is usable afterwards, and the e-mail is free again
  await sql`DROP TRIGGER fail_audit`.execute(t.deps.db);
  const ok = await t.api(Users.addUser, {
    token,
    body: newUser("x", { email: "doomed@remote.test" }),
  });
  assertEquals(ok.status, 200, ok.text);

  // and directly through Kysely: a thrown error inside transaction() leaves nothing behind
  const err = await t.deps.db.transaction().execute(async (trx) => {
    await trx.insertInto("settings").values({ key: "tx-probe", value: "1" }).execute();
    const inside = await trx.selectFrom("settings").select("value").where("key", "=", "tx-probe")
      .executeTakeFirst();
    assertEquals(inside?.value, "1", "the transaction sees its own write");
    throw new Error("boom");
  }).catch((e: Error) => e);
  assertMatch(String(err), /boom/);
  const probe = await t.deps.db.selectFrom("settings").select("value").where("key", "=", "tx-probe")
    .executeTakeFirst();
  assertEquals(probe, undefined);
});

test("concurrent requests: parallel creates and logins all succeed and are all counted", async (t) => {
  const token = await t.tokenFor("SUPERADMIN");
  const creates = await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) => t.api(Users.addUser, { token, body: newUser(`c${i}`) }),
    ),
  );
  assertEquals(creates.map((r) => r.status), Array(20).fill(200));
  const logins = await Promise.all(
    Array.from(
      { length: 10 },
      (_, i) =>
        t.api(Session.loginCall, {
          body: { email: `personc${i}@remote.test`, password: "remote-pass-1" },
        }),
    ),
  );
  assertEquals(logins.map((r) => r.status), Array(10).fill(200));
  const list = await t.api(Users.listUsers, { token, body: { search: "remote.test" } });
  assertEquals(list.json.result.metadata.total, 20);
  const audit = await t.deps.db.selectFrom("system_logs").select("id").where("module", "=", "Users")
    .execute();
  assertEquals(audit.length, 20 + 1, "one audit row per create (and the SUPERADMIN's own)");
});
