/**
 * The CLI as a user runs it: a subprocess against a temporary database file. Each error path must
 * exit non-zero with its one-line reason; each success must be visible through the API.
 */
import { assertCliFails, runCli } from "../helpers/cli.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { migrations } from "../../db/migrations/index.ts";
import { DEMO_PASSWORD, DEMO_USERS, demoEmail } from "../../server/seed/seed.ts";
import * as Session from "../../shared/api/session.ts";
import * as Users from "../../shared/api/users.ts";

async function tempDb() {
  const dir = await Deno.makeTempDir({ prefix: "samplex-cli-" });
  return {
    env: { DATABASE_URL: `file:${dir}/samplex.db` },
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

async function canLogin(env: Record<string, string>, email: string, password: string) {
  const t = await testApp(env);
  try {
    const r = await t.api(Session.loginCall, { body: { email, password } });
    return r.status === 200 ? r.json.result.admin : null;
  } finally {
    await t.close();
  }
}

Deno.test("cli db migrate: applies the migrations once, then says the database is up to date", async () => {
  await using db = await tempDb();
  const first = await runCli(["db", "migrate"], db.env);
  assertEquals(first.code, 0, first.stderr);
  const names = Object.keys(migrations);
  assertEquals(
    first.stdout,
    `Applied ${names.length} migration${names.length === 1 ? "" : "s"}: ${names.join(", ")}`,
  );
  const again = await runCli(["db", "migrate"], db.env);
  assertEquals(again.code, 0, again.stderr);
  assertEquals(
    again.stdout,
    `Database is up to date (${names.length} migration${names.length === 1 ? "" : "s"})`,
  );
});

Deno.test("cli db reindex: rebuilds each search index from its table, and search still finds users", async () => {
  await using db = await tempDb();
  assertEquals((await runCli(["db", "migrate"], db.env)).code, 0);
  const add = await runCli(
    ["user", "add", "--email", "reindex.me@cli.test", "--password", "long-enough", "--role", "ADMIN"],
    db.env,
  );
  assertEquals(add.code, 0, add.stderr);
  const r = await runCli(["db", "reindex"], db.env);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "Rebuilt system_logs_fts (1 row), users_fts (1 row); statistics refreshed");
  const t = await testApp(db.env);
  try {
    const found = await t.api(Users.listUsers, {
      as: "SUPERADMIN",
      body: { search: "reindex.me" },
    });
    assertEquals(found.json.result.data.map((u: { email: string }) => u.email), ["reindex.me@cli.test"]);
  } finally {
    await t.close();
  }
  const broken = await runCli(["db", "reindex"], { DATABASE_URL: "file:/proc/nope/samplex.db" });
  assertCliFails(broken, /^error: /);
});

Deno.test("cli user add: the user can sign in through the API, and the CLI is in the audit log", async () => {
  await using db = await tempDb();
  const r = await runCli(
    ["user", "add", "--email", "Jane.Doe@Example.com", "--password", "s3cret-pass", "--role", "manager"],
    db.env,
  );
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /^Added MANAGER Jane Doe <jane\.doe@example\.com> \(id [0-9a-f]{24}\)$/);
  const admin = await canLogin(db.env, "jane.doe@example.com", "s3cret-pass");
  assertEquals(admin?.role, "MANAGER");
  assertEquals([admin?.firstName, admin?.lastName], ["Jane", "Doe"]);

  const panel = await (async () => {
    const t = await testApp(db.env);
    try {
      return await makeSupplier(t);
    } finally {
      await t.close();
    }
  })();
  const unknown = await runCli([
    "user",
    "add",
    "--email",
    "sam@example.com",
    "--password",
    "s3cret-pass",
    "--role",
    "SUPPLIER",
    "--supplier",
    "65f000000000000000000001",
    "--first",
    "Samantha",
  ], db.env);
  assertCliFails(unknown, "--supplier: no live supplier has the id 65f000000000000000000001");
  const named = await runCli([
    "user",
    "add",
    "--email",
    "sam@example.com",
    "--password",
    "s3cret-pass",
    "--role",
    "SUPPLIER",
    "--supplier",
    panel._id,
    "--first",
    "Samantha",
    "--last",
    "Ray",
  ], db.env);
  assertEquals(named.code, 0, named.stderr);
  assertEquals(named.stdout.replace(/ \(id .*\)$/, ""), "Added SUPPLIER Samantha Ray <sam@example.com>");
  const supplier = await canLogin(db.env, "sam@example.com", "s3cret-pass");
  assertEquals(supplier?.supplierId, panel._id);

  const t = await testApp(db.env);
  try {
    const logs = await t.deps.db.selectFrom("system_logs").selectAll().where("module", "=", "Users")
      .where("name", "=", "CLI").execute();
    assertEquals(logs.length, 2);
    assert(logs.every((l) => l.name === "CLI" && l.userId === null && l.device === "command line"));
    assertMatch(logs.map((l) => l.activity).join("|"), /Created user jane\.doe@example\.com \(MANAGER\)/);
  } finally {
    await t.close();
  }
});

Deno.test("cli user add: each bad input exits 1 with its one-line reason, and nothing is added", async () => {
  await using db = await tempDb();
  const base = ["user", "add", "--email", "patricia.smith@example.com", "--password", "s3cret-pass"];
  assertCliFails(
    await runCli([...base, "--role", "boss"], db.env),
    '--role: unknown role "boss"; use one of SUBSCRIBER, APIMANAGER, SUPERADMIN, ADMIN, MANAGER, ACCOUNTANT, SUPPLIER, BDE',
  );
  assertCliFails(
    await runCli(
      [
        "user",
        "add",
        "--email",
        "pat@example.com",
        "--password",
        "short",
        "--role",
        "ADMIN",
        "--first",
        "Patricia",
      ],
      db.env,
    ),
    "--password: Password must be more than 6 character",
  );
  assertCliFails(
    await runCli([
      "user",
      "add",
      "--email",
      "not-an-email",
      "--password",
      "s3cret-pass",
      "--role",
      "ADMIN",
      "--first",
      "Patricia",
    ], db.env),
    "--email: Email must be valid",
  );
  assertCliFails(await runCli([...base, "--role", "SUPPLIER"], db.env), "--supplier: Supplier is required");
  assertCliFails(
    await runCli([...base, "--role", "ADMIN", "--supplier", "65f000000000000000000001"], db.env),
    "--supplier: only a user with role SUPPLIER belongs to a supplier",
  );
  assertCliFails(
    await runCli([...base, "--role", "ADMIN", "--first", "Pat"], db.env),
    "--first: First name  is required",
  );
  assertCliFails(
    await runCli([...base, "--role", "ADMIN", "--last", "  "], db.env),
    "--last: Last name is required",
  );
  assertCliFails(
    await runCli(
      ["user", "add", "--email", "bo@example.com", "--password", "s3cret-pass", "--role", "ADMIN"],
      db.env,
    ),
    "--first: First name  is required (the e-mail gives no first name of 4 letters or more: pass --first)",
  );
  // commander's own usage errors are one line too
  assertCliFails(
    await runCli(["user", "add", "--email", "x@example.com"], db.env),
    /^error: required option '--password/,
  );
  assertCliFails(await runCli(["nonsense"], db.env), "unknown command 'nonsense'");

  const t = await testApp(db.env);
  try {
    assertEquals((await t.deps.db.selectFrom("users").select("id").execute()).length, 0, "nothing added");
  } finally {
    await t.close();
  }
});

Deno.test("cli user add: a bad e-mail or password is told before the name rules", async () => {
  await using db = await tempDb();
  // "not-an-email" and "bo@..." give no first name of 4 letters: the typed values are still told first
  assertCliFails(
    await runCli(
      ["user", "add", "--email", "not-an-email", "--password", "s3cret-pass", "--role", "ADMIN"],
      db.env,
    ),
    "--email: Email must be valid",
  );
  assertCliFails(
    await runCli(
      ["user", "add", "--email", "bo@example.com", "--password", "short", "--role", "ADMIN"],
      db.env,
    ),
    "--password: Password must be more than 6 character",
  );
  assertCliFails(
    await runCli(
      ["user", "add", "--email", "bo@", "--password", "short", "--role", "ADMIN", "--last", " "],
      db.env,
    ),
    "--email: Email must be valid",
  );
});

Deno.test("cli user add: a duplicate e-mail (any case) is refused", async () => {
  await using db = await tempDb();
  const add = (email: string) =>
    runCli(
      ["user", "add", "--email", email, "--password", "s3cret-pass", "--role", "ADMIN", "--first", "Robin"],
      db.env,
    );
  assertEquals((await add("robin@example.com")).code, 0);
  assertCliFails(await add("ROBIN@example.com"), "A user with this email already exists");
});

Deno.test("cli user passwd: the new password works, the old one stops; unknown e-mail and short password fail", async () => {
  await using db = await tempDb();
  const add = await runCli(
    [
      "user",
      "add",
      "--email",
      "kimberly.lee@example.com",
      "--password",
      "old-pass-1",
      "--role",
      "ACCOUNTANT",
    ],
    db.env,
  );
  assertEquals(add.code, 0, add.stderr);
  const r = await runCli(
    ["user", "passwd", "--email", "KIMBERLY.LEE@example.com", "--password", "new-pass-2"],
    db.env,
  );
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "Password changed for kimberly.lee@example.com");
  assert(await canLogin(db.env, "kimberly.lee@example.com", "new-pass-2"), "new password signs in");
  assertEquals(
    await canLogin(db.env, "kimberly.lee@example.com", "old-pass-1"),
    null,
    "old password refused",
  );

  assertCliFails(
    await runCli(["user", "passwd", "--email", "ghost@example.com", "--password", "new-pass-2"], db.env),
    "No user with e-mail ghost@example.com",
  );
  assertCliFails(
    await runCli(["user", "passwd", "--email", "kimberly.lee@example.com", "--password", "123"], db.env),
    "--password: Password must be more than 6 character",
  );
});

Deno.test("cli user passwd: the user's tokens issued before the change stop working at once", async () => {
  await using db = await tempDb();
  const add = await runCli(
    ["user", "add", "--email", "morgan.hale@example.com", "--password", "old-pass-1", "--role", "MANAGER"],
    db.env,
  );
  assertEquals(add.code, 0, add.stderr);
  const t = await testApp(db.env);
  try {
    const login = await t.api(Session.loginCall, {
      body: { email: "morgan.hale@example.com", password: "old-pass-1" },
    });
    const token = login.json.result.accessToken;
    assertEquals((await t.api(Session.adminMeCall, { token })).status, 200);
    const r = await runCli(
      ["user", "passwd", "--email", "morgan.hale@example.com", "--password", "new-pass-2"],
      db.env,
    );
    assertEquals(r.code, 0, r.stderr);
    assertEquals((await t.api(Session.adminMeCall, { token })).status, 401, "the old session is over");
    const again = await t.api(Session.loginCall, {
      body: { email: "morgan.hale@example.com", password: "new-pass-2" },
    });
    assertEquals((await t.api(Session.adminMeCall, { token: again.json.result.accessToken })).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("cli db seed --demo: seeds one login per role into an empty database, refuses a second time", async () => {
  await using db = await tempDb();
  const r = await runCli(["db", "seed", "--demo"], db.env);
  assertEquals(r.code, 0, r.stderr);
  // other areas add their own demo records to the counts: only the users part is pinned here
  assertMatch(
    r.stdout,
    new RegExp(
      `^Seeded demo data \\((.+, )?${DEMO_USERS.length} users(, .+)?\\); sign in as superadmin@samplex\\.demo with ${DEMO_PASSWORD}$`,
    ),
  );

  for (const u of DEMO_USERS) {
    assertEquals((await canLogin(db.env, demoEmail(u.role), DEMO_PASSWORD))?.role, u.role);
  }
  assertCliFails(
    await runCli(["db", "seed", "--demo"], db.env),
    /^error: The database already has \d+ users: demo data is only seeded into an empty database$/,
  );
  assertCliFails(await runCli(["db", "seed"], db.env), "Say which data to seed: --demo");
});

Deno.test("cli: a bad environment is refused before touching any database", async () => {
  await using db = await tempDb();
  assertCliFails(
    await runCli(["db", "migrate"], { DATABASE_URL: "postgres://db.example.com/samplex" }),
    "Invalid environment: DATABASE_URL must be file:PATH, :memory:, libsql://HOST or http(s)://HOST",
  );
  assertCliFails(
    await runCli(["user", "passwd", "--email", "a@example.com", "--password", "long-enough"], {
      ...db.env,
      DENO_ENV: "production",
    }),
    "Invalid environment: JWT_SECRET is required when DENO_ENV=production (at least 32 characters)",
  );
  assertCliFails(
    await runCli(["db", "migrate"], { DATABASE_URL: "http://127.0.0.1:9" }),
    /^error: Cannot reach the database: /,
  );
  const path = db.env.DATABASE_URL.slice("file:".length);
  await assertRejectsMissing(path);
});

async function assertRejectsMissing(path: string) {
  try {
    await Deno.stat(path);
    throw new Error(`${path} was created although the environment was refused`);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}
