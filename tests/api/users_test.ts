/** The Users screens' API (part 2: Users): grids, CSV export, add/edit/delete, validation, roles. */
import { assert, assertEquals, assertMatch, assertRejects } from "../helpers/assert.ts";
import { expectGuarded, TEST_PASSWORD, type TestApp, testApp } from "../helpers/app.ts";
import { createUser, updateUser } from "../../server/domain/users/users.ts";
import { httpErrorOf } from "../../server/http/errors.ts";
import { MSG } from "../../shared/messages.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import type { Role } from "../../shared/roles.ts";
import { sql } from "kysely";
import { supplierBody } from "../helpers/master.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

async function withApp(fn: (t: TestApp, admin: string) => Promise<void>, env: Record<string, string> = {}) {
  const t = await testApp(env);
  try {
    await fn(t, await t.tokenFor("SUPERADMIN"));
  } finally {
    await t.close();
  }
}

type Seed = { first: string; last?: string; email: string; role?: Role; phone?: string; active?: boolean };

/** Adds users straight through the domain (fast set-up); returns their ids in order. */
async function seed(t: TestApp, users: Seed[]) {
  const ids: string[] = [];
  for (const u of users) {
    const created = await createUser({ db: t.deps.db, actor: SYSTEM_ACTOR, now: wallClock }, {
      firstName: u.first,
      lastName: u.last ?? "Tester",
      email: u.email,
      phoneNumber: u.phone ?? "",
      role: u.role ?? "MANAGER",
      supplierId: u.role === "SUPPLIER" ? "65f000000000000000000001" : null,
      password: TEST_PASSWORD,
      isActive: u.active ?? true,
    });
    ids.push(created._id);
  }
  return ids;
}

const valid = (extra: Record<string, unknown> = {}) => ({
  firstName: "Valentina",
  lastName: "Ortiz",
  email: "valentina@samplex.test",
  phoneNumber: "+1 555 0100",
  role: "MANAGER",
  password: "first-pass-1",
  isActive: true,
  ...extra,
});

const emails = (r: { json: { result: { data: { email: string }[] } } }) =>
  r.json.result.data.map((u) => u.email);

Deno.test("users: no token is 401; MANAGER and ACCOUNTANT get 403 on every Users call", async () => {
  const t = await testApp();
  try {
    const [id] = await seed(t, [{ first: "Target", email: "target@samplex.test" }]);
    for (const role of ["MANAGER", "ACCOUNTANT", "SUPPLIER", "BDE"] as const) {
      await expectGuarded(t, "POST", "/admin/users", role, {});
      await expectGuarded(t, "POST", "/admin/users/supplier", role, {});
      await expectGuarded(t, "POST", "/admin/user/add", role, valid());
      await expectGuarded(t, "PUT", `/admin/user/update/${id}`, role, { isActive: false });
      assertEquals((await t.call("GET", `/admin/user/${id}`)).status, 401);
      assertEquals((await t.call("GET", `/admin/user/${id}`, { token: await t.tokenFor(role) })).status, 403);
    }
    // the refused calls changed nothing
    const row = await t.deps.db.selectFrom("users").select("isActive").where("id", "=", id)
      .executeTakeFirstOrThrow();
    assertEquals(row.isActive, 1);
    assertEquals(
      (await t.deps.db.selectFrom("users").select("id").where("email", "=", "valentina@samplex.test")
        .execute())
        .length,
      0,
    );
    // ADMIN is allowed, like SUPERADMIN
    assertEquals(
      (await t.call("POST", "/admin/users", { token: await t.tokenFor("ADMIN"), body: {} })).status,
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("users list: paging metadata, default page size 10, capped limit, pages past the end", () =>
  withApp(async (t, admin) => {
    await seed(
      t,
      Array.from({ length: 12 }, (_, i) => ({ first: `Pager${i}`, email: `pager${i}@samplex.test` })),
    );
    // 12 seeded + the SUPERADMIN making the calls
    const first = await t.call("POST", "/admin/users", { token: admin, body: {} });
    assertEquals(first.status, 200);
    assertEquals(first.json.result.metadata, { total: 13, limit: 10, pageNo: 1 });
    assertEquals(first.json.result.data.length, 10);

    const second = await t.call("POST", "/admin/users", { token: admin, body: { pageNo: 2, limit: 5 } });
    assertEquals(second.json.result.metadata, { total: 13, limit: 5, pageNo: 2 });
    assertEquals(second.json.result.data.length, 5);
    const third = await t.call("POST", "/admin/users", { token: admin, body: { pageNo: 3, limit: 5 } });
    assertEquals(third.json.result.data.length, 3);
    const all = new Set([...emails(first)]);
    const paged = [
      ...emails(await t.call("POST", "/admin/users", { token: admin, body: { limit: 5 } })),
      ...emails(second),
      ...emails(third),
    ];
    assertEquals(new Set(paged).size, 13, "pages do not overlap");
    assert(emails(first).every((e) => all.has(e)));

    const big = await t.call("POST", "/admin/users", { token: admin, body: { limit: 500 } });
    assertEquals(big.json.result.metadata.limit, 100, "limit is capped at 100");
    const past = await t.call("POST", "/admin/users", { token: admin, body: { pageNo: 9 } });
    assertEquals(past.json.result.data, []);
    assertEquals(past.json.result.metadata.total, 13);

    // newest first: the SUPERADMIN was created before the others
    assertEquals(emails(first).slice(0, 2), ["pager11@samplex.test", "pager10@samplex.test"]);
    assertEquals(emails(third).at(-1), "superadmin@test.local");

    // the exact count alone, with the same filters, for grids whose total was a lower bound
    const exact = await t.call("POST", "/admin/users", {
      token: admin,
      body: { count: "exact", search: "pager1", pageNo: 4, limit: 5 },
    });
    assertEquals(exact.status, 200);
    assertEquals(exact.json.result, { data: [], metadata: { total: 3, limit: 5, pageNo: 4 } });
  }));

Deno.test("users list: malformed bodies are 400s, never 500", () =>
  withApp(async (t, admin) => {
    for (
      const body of [
        { pageNo: 0 },
        { pageNo: "two" },
        { limit: -1 },
        { limit: 1.5 },
        {
          filter: "role=ADMIN",
        },
        { count: "approximate" },
        { status: "maybe" },
        { status: 5 },
      ]
    ) {
      const r = await t.call("POST", "/admin/users", { token: admin, body });
      assertEquals(r.status, 400, JSON.stringify(body));
      assert(r.json.message && r.json.errors?.length, "says what is wrong");
    }
    assertEquals((await t.call("POST", "/admin/users", { token: admin, raw: "{" })).status, 400);
    const count = await t.call("POST", "/admin/users", { token: admin, body: { count: true } });
    assertEquals(count.json.message, 'count must be "exact"');
  }));

Deno.test("users list: search over name, e-mail and phone; % and _ are literal", () =>
  withApp(async (t, admin) => {
    await seed(t, [
      { first: "Beatrice", last: "Holm", email: "bea@samplex.test", phone: "+44 20 7946 0001" },
      { first: "Carlos", last: "Beaumont", email: "carlos@samplex.test" },
      { first: "Dmitri", last: "Ivanov", email: "d_ivanov@samplex.test" },
      { first: "Eleanor", last: "Price", email: "e100%@samplex.test" },
    ]);
    const search = async (s: string) =>
      emails(await t.call("POST", "/admin/users", { token: admin, body: { search: s } })).sort();
    assertEquals(
      await search("BEA"),
      ["bea@samplex.test", "carlos@samplex.test"],
      "first or last name, any case",
    );
    assertEquals(await search("7946"), ["bea@samplex.test"], "phone number");
    assertEquals(await search("carlos@"), ["carlos@samplex.test"], "e-mail");
    assertEquals(await search("_"), ["d_ivanov@samplex.test"], "underscore is not a wildcard");
    assertEquals(await search("%"), ["e100%@samplex.test"], "percent is not a wildcard");
    assertEquals(await search("  holm  "), ["bea@samplex.test"], "trimmed");
    assertEquals(await search("nobody-matches"), []);
  }));

Deno.test("users list: role and status filters; staff and supplier grids are separate", () =>
  withApp(async (t, admin) => {
    await seed(t, [
      { first: "Bernard", email: "bde1@samplex.test", role: "BDE" },
      { first: "Bettina", email: "bde2@samplex.test", role: "BDE", active: false },
      { first: "Anthony", email: "acc@samplex.test", role: "ACCOUNTANT" },
      { first: "Supplier", email: "sup@samplex.test", role: "SUPPLIER" },
    ]);
    const list = async (path: string, body: unknown) =>
      emails(await t.call("POST", path, { token: admin, body })).sort();
    assertEquals(await list("/admin/users", { filter: { role: "BDE" } }), [
      "bde1@samplex.test",
      "bde2@samplex.test",
    ]);
    assertEquals(await list("/admin/users", { filter: { role: ["BDE", "ACCOUNTANT"] }, status: true }), [
      "acc@samplex.test",
      "bde1@samplex.test",
    ]);
    assertEquals(await list("/admin/users", { status: false }), ["bde2@samplex.test"]);
    assertEquals(await list("/admin/users", { status: "false" }), ["bde2@samplex.test"]);
    assertEquals((await list("/admin/users", { status: "any" })).length, 4, "any: all staff");
    assertEquals(
      (await list("/admin/users", { status: null, filter: { role: null } })).length,
      4,
      "unset filters",
    );
    assertEquals(await list("/admin/users", { filter: { isActive: false } }), ["bde2@samplex.test"]);
    const unknown = await t.call("POST", "/admin/users", {
      token: admin,
      body: { filter: { nonsense: "x", "role; drop table users": 1 } },
    });
    assertEquals([unknown.status, unknown.json.errors[0].path], [400, "filter.nonsense"]);
    assert(!(await list("/admin/users", {})).includes("sup@samplex.test"), "suppliers are not staff");
    assertEquals(await list("/admin/users/supplier", {}), ["sup@samplex.test"]);
  }));

Deno.test("users CSV export: header, every matching row across pages, filters honoured, formulas defused", () =>
  withApp(async (t, admin) => {
    await seed(t, [
      { first: "=cmd|' /C calc'!A0", last: "+Plus", email: "formula@samplex.test", phone: "@SUM(1)" },
      { first: "Comma, Person", last: 'Quote "Q"', email: "comma@samplex.test" },
      ...Array.from({ length: 12 }, (_, i) => ({ first: `Exporter${i}`, email: `export${i}@samplex.test` })),
      { first: "Hidden", email: "hidden@samplex.test", role: "BDE" as const },
    ]);
    const r = await t.call("POST", "/admin/users?format=csv", {
      token: admin,
      body: { filter: { role: "MANAGER" }, limit: 5, pageNo: 2 },
    });
    assertEquals(r.status, 200);
    assertMatch(r.headers.get("content-type")!, /^text\/csv/);
    assertMatch(
      r.headers.get("content-disposition")!,
      /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = r.text.replace(/^\uFEFF/, "").trimEnd().split("\r\n");
    assertEquals(lines[0], "First name,Last name,Email,Phone number,Role,Active,Created");
    assertEquals(
      lines.length,
      1 + 14,
      "all 14 managers, not one page of them; the BDE and the SUPERADMIN filtered out",
    );
    assert(!r.text.includes("hidden@samplex.test"));
    const formula = lines.find((l) => l.includes("formula@samplex.test"))!;
    assert(
      formula.startsWith("'=cmd|' /C calc'!A0,'+Plus,formula@samplex.test,'@SUM(1),Manager,Active,"),
      formula,
    );
    const comma = lines.find((l) => l.includes("comma@samplex.test"))!;
    assert(comma.startsWith('"Comma, Person","Quote ""Q""",comma@samplex.test,'), comma);

    const searched = await t.call("POST", "/admin/users?format=csv", {
      token: admin,
      body: { search: "export1" },
    });
    // export1, export10, export11
    assertEquals(searched.text.trimEnd().split("\r\n").length, 1 + 3);

    const supplierCsv = await t.call("POST", "/admin/users/supplier?format=csv", { token: admin, body: {} });
    assertMatch(supplierCsv.headers.get("content-disposition")!, /filename="supplier-users-/);
    const noToken = await t.call("POST", "/admin/users?format=csv", { body: {} });
    assertEquals(noToken.status, 401);
  }));

Deno.test("users add: created, readable, audited with who and from where", () =>
  withApp(async (t, admin) => {
    const r = await t.call("POST", "/admin/user/add", {
      token: admin,
      body: valid({ email: "  Valentina@Samplex.TEST " }),
      headers: { "x-forwarded-for": "198.51.100.7" },
    });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.message, "User added successfully");
    const u = r.json.result;
    assertEquals(
      { ...u, _id: undefined, createdAt: undefined },
      {
        _id: undefined,
        firstName: "Valentina",
        lastName: "Ortiz",
        fullName: "Valentina Ortiz",
        email: "valentina@samplex.test",
        phoneNumber: "+1 555 0100",
        role: "MANAGER",
        supplierId: null,
        isActive: true,
        createdAt: undefined,
      },
    );
    assert(!("password" in u) && !("passwordHash" in u));
    const got = await t.call("GET", `/admin/user/${u._id}`, { token: admin });
    assertEquals(got.json.result.email, "valentina@samplex.test");

    const log = await t.deps.db.selectFrom("system_logs").selectAll().where("recordId", "=", u._id).execute();
    assertEquals(log.length, 1);
    assertEquals(log[0].activity, "Created user valentina@samplex.test (MANAGER)");
    assertEquals(log[0].module, "Users");
    assertEquals(log[0].name, "TestSUPERADMIN User");
    assertEquals(log[0].ipAddress, "198.51.100.7");

    const login = await t.call("POST", "/admin/login", {
      body: { email: "valentina@samplex.test", password: "first-pass-1" },
    });
    assertEquals(login.status, 200);
  }, { TRUST_PROXY_HOPS: "1" })); // behind one proxy: X-Forwarded-For's last entry is the caller

Deno.test("users add/edit: the spec's validation messages, verbatim, on their fields", () =>
  withApp(async (t, admin) => {
    const cases: [Record<string, unknown>, string, string][] = [
      [valid({ firstName: undefined }), "firstName", "First name  is required"],
      [valid({ firstName: "Al" }), "firstName", "First name  is required"],
      [valid({ lastName: "" }), "lastName", "Last name is required"],
      [valid({ lastName: undefined }), "lastName", "Last name is required"],
      [valid({ email: "" }), "email", "Email is required"],
      [valid({ email: undefined }), "email", "Email is required"],
      [valid({ email: `${"x".repeat(250)}@samplex.test` }), "email", "Email is required"],
      [valid({ role: "SUPPLIER" }), "supplierId", "Supplier is required"],
      [valid({ role: "SUPPLIER", supplierId: "" }), "supplierId", "Supplier is required"],
      [valid({ role: "OWNER" }), "role", "Supplier is required"],
      [valid({ password: "123456" }), "password", "Password must be more than 6 character"],
      [valid({ password: undefined }), "password", "Password must be more than 6 character"],
    ];
    for (const [body, path, message] of cases) {
      const r = await t.call("POST", "/admin/user/add", { token: admin, body });
      assertEquals(r.status, 400, JSON.stringify(body));
      assertEquals(r.json.message, message, JSON.stringify(body));
      assertEquals(r.json.errors.find((e: { path: string }) => e.path === path)?.message, message);
    }
    const [id] = await seed(t, [{ first: "Editable", email: "editable@samplex.test" }]);
    const edit = await t.call("PUT", `/admin/user/update/${id}`, {
      token: admin,
      body: valid({ email: "editable@samplex.test", password: "short" }),
    });
    assertEquals(edit.status, 400);
    assertEquals(edit.json.message, "Password must be more than 6 character");
    const noFirst = await t.call("PUT", `/admin/user/update/${id}`, {
      token: admin,
      body: valid({ email: "editable@samplex.test", firstName: "" }),
    });
    assertEquals(noFirst.json.message, "First name  is required");
    // nothing was written by the refused calls
    assertEquals((await t.deps.db.selectFrom("users").select("id").execute()).length, 2);
  }));

Deno.test("users add/edit: a duplicate e-mail is a 409, whatever its case", () =>
  withApp(async (t, admin) => {
    const [, otherId] = await seed(t, [
      { first: "Original", email: "taken@samplex.test" },
      { first: "Another", email: "another@samplex.test" },
    ]);
    const dup = await t.call("POST", "/admin/user/add", {
      token: admin,
      body: valid({ email: "TAKEN@samplex.test" }),
    });
    assertEquals(dup.status, 409);
    assertEquals(dup.json.message, "A user with this email already exists");
    assertEquals(dup.json.errors, [{ path: "email", message: "A user with this email already exists" }]);
    const edit = await t.call("PUT", `/admin/user/update/${otherId}`, {
      token: admin,
      body: valid({ email: "taken@samplex.test" }),
    });
    assertEquals(edit.status, 409);
  }));

Deno.test("users edit: fields change; an empty password keeps the old one, a new one replaces it", () =>
  withApp(async (t, admin) => {
    const created = await t.call("POST", "/admin/user/add", { token: admin, body: valid() });
    const id = created.json.result._id;
    const login = (password: string) =>
      t.call("POST", "/admin/login", { body: { email: "valentina@samplex.test", password } }).then((r) =>
        r.status
      );

    const edit = await t.call("PUT", `/admin/user/update/${id}`, {
      token: admin,
      body: valid({ lastName: "Ortiz-Vega", role: "BDE", password: "" }),
    });
    assertEquals(edit.status, 200, edit.text);
    assertEquals(edit.json.message, "User updated successfully");
    assertEquals([edit.json.result.lastName, edit.json.result.role], ["Ortiz-Vega", "BDE"]);
    assertEquals(await login("first-pass-1"), 200, "empty password kept the old one");

    const noPassword = await t.call("PUT", `/admin/user/update/${id}`, {
      token: admin,
      body: { ...valid(), password: undefined },
    });
    assertEquals(noPassword.status, 200);
    assertEquals(await login("first-pass-1"), 200, "absent password kept the old one");

    const changed = await t.call("PUT", `/admin/user/update/${id}`, {
      token: admin,
      body: valid({ password: "second-pass-2" }),
    });
    assertEquals(changed.status, 200);
    assertEquals(await login("second-pass-2"), 200);
    assertEquals(await login("first-pass-1"), 401);

    // a supplier id must name a supplier, whatever the role
    const nowhere = await t.call("PUT", `/admin/user/update/${id}`, {
      token: admin,
      body: valid({ role: "MANAGER", supplierId: "65f000000000000000000001", password: "" }),
    });
    assertEquals([nowhere.status, nowhere.json.message], [404, "Supplier not found"]);
    const real = await t.call("POST", "/admin/supplier/add", { token: admin, body: supplierBody() });
    const supplier = await t.call("PUT", `/admin/user/update/${id}`, {
      token: admin,
      body: valid({ role: "MANAGER", supplierId: real.json.result._id, password: "" }),
    });
    assertEquals(supplier.json.result.supplierId, null, "supplierId is dropped unless the role is SUPPLIER");

    const logs = await t.deps.db.selectFrom("system_logs").select("activity").where("recordId", "=", id)
      .where("module", "=", "Users").orderBy(sql`rowid`).execute();
    assertEquals(logs.map((l) => l.activity), [
      "Created user valentina@samplex.test (MANAGER)",
      "Updated user valentina@samplex.test: Last name: Ortiz -> Ortiz-Vega; Role: Manager -> BDE",
      "Updated user valentina@samplex.test: Last name: Ortiz-Vega -> Ortiz; Role: BDE -> Manager",
      "Updated user valentina@samplex.test: Password: changed",
      // the last save (a supplier id the MANAGER role drops) changed nothing: no row
    ]);
  }));

Deno.test("users: active switch and soft delete; deleted users vanish but their e-mail can be reused", () =>
  withApp(async (t, admin) => {
    const [id] = await seed(t, [{ first: "Deletable", email: "gone@samplex.test" }]);
    const off = await t.call("PUT", `/admin/user/update/${id}`, { token: admin, body: { isActive: false } });
    assertEquals(off.status, 200);
    assertEquals(off.json.result.isActive, false);

    const del = await t.call("PUT", `/admin/user/update/${id}`, { token: admin, body: { isDeleted: true } });
    assertEquals(del.status, 200);
    assertEquals(del.json.message, "User deleted successfully");
    assertEquals((await t.call("GET", `/admin/user/${id}`, { token: admin })).status, 404);
    assert(
      !emails(await t.call("POST", "/admin/users", { token: admin, body: {} })).includes("gone@samplex.test"),
    );
    assertEquals(
      (await t.call("PUT", `/admin/user/update/${id}`, { token: admin, body: { isDeleted: true } })).status,
      404,
    );
    // the row stays for reports and the audit log
    const row = await t.deps.db.selectFrom("users").select("isDeleted").where("id", "=", id)
      .executeTakeFirstOrThrow();
    assertEquals(row.isDeleted, 1);
    const logs = await t.deps.db.selectFrom("system_logs").select("activity").where("recordId", "=", id)
      .orderBy(sql`rowid`)
      .execute();
    assertEquals(logs.map((l) => l.activity).slice(-2), [
      "Deactivated user gone@samplex.test",
      "Deleted user gone@samplex.test",
    ]);

    const again = await t.call("POST", "/admin/user/add", {
      token: admin,
      body: valid({ email: "gone@samplex.test" }),
    });
    assertEquals(again.status, 200, again.text);

    const mixed = await t.call("PUT", `/admin/user/update/${again.json.result._id}`, {
      token: admin,
      body: { isDeleted: false },
    });
    assertEquals(mixed.status, 400, "isDeleted:false is not a way to undelete");
  }));

Deno.test("users: unknown and malformed ids are 404", () =>
  withApp(async (t, admin) => {
    assertEquals((await t.call("GET", "/admin/user/000000000000000000000000", { token: admin })).status, 404);
    assertEquals((await t.call("GET", "/admin/user/not-an-id", { token: admin })).status, 404);
    const upd = await t.call("PUT", "/admin/user/update/000000000000000000000000", {
      token: admin,
      body: valid(),
    });
    assertEquals(upd.status, 404);
    assertEquals(upd.json.message, "User not found");
  }));

Deno.test("user pickers: BDE list for Assigned To, staff lists without suppliers or inactive users", () =>
  withApp(async (t, admin) => {
    await seed(t, [
      { first: "Bernard", last: "Active", email: "bde1@samplex.test", role: "BDE" },
      { first: "Bettina", last: "Inactive", email: "bde2@samplex.test", role: "BDE", active: false },
      { first: "Supplier", email: "sup@samplex.test", role: "SUPPLIER" },
    ]);
    const bde = await t.call("GET", "/admin/users/role/bde", { token: await t.tokenFor("ACCOUNTANT") });
    assertEquals(bde.status, 200);
    assertEquals(bde.json.result.map((u: { label: string }) => u.label), ["Bernard Active"]);
    assertEquals(bde.json.result[0].value, bde.json.result[0]._id);
    for (const path of ["/admin/users/all", "/admin/usersall"]) {
      const all = await t.call("GET", path, { token: admin });
      const mails = all.json.result.map((u: { email: string }) => u.email);
      assert(mails.includes("bde1@samplex.test") && mails.includes("superadmin@test.local"));
      assert(!mails.includes("sup@samplex.test") && !mails.includes("bde2@samplex.test"));
      assertEquals((await t.call("GET", path)).status, 401);
      assertEquals((await t.call("GET", path, { token: await t.tokenFor("SUPPLIER") })).status, 403);
    }
  }));

Deno.test("users: nobody deletes or deactivates their own account (403); editing one's own details works", () =>
  withApp(async (t) => {
    for (const role of ["SUPERADMIN", "ADMIN"] as const) {
      const me = await t.userWith(role);
      const self = `/admin/user/update/${me.id}`;
      const off = await t.call("PUT", self, { token: me.token, body: { isActive: false } });
      assertEquals(off.status, 403, `${role}: ${off.text}`);
      assertEquals(off.json.message, MSG.cannotDeactivateSelf);
      const del = await t.call("PUT", self, { token: me.token, body: { isDeleted: true } });
      assertEquals(del.status, 403);
      assertEquals(del.json.message, MSG.cannotDeleteSelf);
      const form = valid({ email: me.email, role, firstName: "Myself", isActive: false });
      const viaForm = await t.call("PUT", self, { token: me.token, body: form });
      assertEquals(viaForm.status, 403);
      assertEquals(viaForm.json.errors, [{ path: "isActive", message: MSG.cannotDeactivateSelf }]);
      const row = await t.deps.db.selectFrom("users").select(["isActive", "isDeleted", "firstName"])
        .where("id", "=", me.id).executeTakeFirstOrThrow();
      assertEquals([row.isActive, row.isDeleted, row.firstName], [1, 0, `Test${role}`]);
      // the same form, still active, saves
      const ok = await t.call("PUT", self, { token: me.token, body: { ...form, isActive: true } });
      assertEquals(ok.status, 200, ok.text);
      assertEquals(ok.json.result.firstName, "Myself");
    }
  }));

Deno.test("users: only a SUPERADMIN adds, edits, switches off or deletes a SUPERADMIN, or gives the role (403)", () =>
  withApp(async (t, superadmin) => {
    const admin = await t.tokenFor("ADMIN");
    const [sa, manager] = await seed(t, [
      { first: "Second", email: "second.sa@samplex.test", role: "SUPERADMIN" },
      { first: "Plain", email: "plain@samplex.test", role: "MANAGER" },
    ]);
    const refused = async (method: string, path: string, body: unknown, field?: string) => {
      const r = await t.call(method, path, { token: admin, body });
      assertEquals(r.status, 403, `${path} ${JSON.stringify(body)}: ${r.text}`);
      assertEquals(r.json.message, MSG.superadminOnly);
      if (field) assertEquals(r.json.errors, [{ path: field, message: MSG.superadminOnly }]);
    };
    await refused("POST", "/admin/user/add", valid({ role: "SUPERADMIN" }), "role");
    await refused(
      "PUT",
      `/admin/user/update/${manager}`,
      valid({ email: "plain@samplex.test", role: "SUPERADMIN" }),
      "role",
    );
    await refused(
      "PUT",
      `/admin/user/update/${sa}`,
      valid({ email: "second.sa@samplex.test", role: "SUPERADMIN" }),
    );
    await refused("PUT", `/admin/user/update/${sa}`, { isActive: false });
    await refused("PUT", `/admin/user/update/${sa}`, { isDeleted: true });
    const rows = await t.deps.db.selectFrom("users").select(["email", "role", "isActive", "isDeleted"])
      .where("email", "in", ["second.sa@samplex.test", "plain@samplex.test", "valentina@samplex.test"])
      .orderBy("email").execute();
    assertEquals(rows.map((r) => [r.email, r.role, r.isActive, r.isDeleted]), [
      ["plain@samplex.test", "MANAGER", 1, 0],
      ["second.sa@samplex.test", "SUPERADMIN", 1, 0],
    ]);
    // an ADMIN still manages everyone else
    assertEquals(
      (await t.call("PUT", `/admin/user/update/${manager}`, { token: admin, body: { isActive: false } }))
        .status,
      200,
    );
    // a SUPERADMIN may do all of it
    const added = await t.call("POST", "/admin/user/add", {
      token: superadmin,
      body: valid({ role: "SUPERADMIN" }),
    });
    assertEquals(added.status, 200, added.text);
    const promoted = await t.call("PUT", `/admin/user/update/${manager}`, {
      token: superadmin,
      body: valid({ email: "plain@samplex.test", role: "SUPERADMIN" }),
    });
    assertEquals(promoted.status, 200, promoted.text);
    assertEquals(
      (await t.call("PUT", `/admin/user/update/${sa}`, { token: superadmin, body: { isActive: false } }))
        .status,
      200,
    );
    assertEquals(
      (await t.call("PUT", `/admin/user/update/${sa}`, { token: superadmin, body: { isDeleted: true } }))
        .status,
      200,
    );
  }));

Deno.test("users: the last active SUPERADMIN cannot be demoted, deactivated or deleted (409)", () =>
  withApp(async (t, superadmin) => {
    const me = await t.userWith("SUPERADMIN");
    // an inactive SUPERADMIN does not count
    const [idle] = await seed(t, [{
      first: "Dormant",
      email: "dormant.sa@samplex.test",
      role: "SUPERADMIN",
      active: false,
    }]);
    const demote = valid({ email: me.email, role: "ADMIN" });
    const alone = await t.call("PUT", `/admin/user/update/${me.id}`, { token: superadmin, body: demote });
    assertEquals(alone.status, 409, alone.text);
    assertEquals(alone.json.message, MSG.lastSuperadmin);
    assertEquals(alone.json.errors, [{ path: "role", message: MSG.lastSuperadmin }]);
    assertEquals(
      (await t.deps.db.selectFrom("users").select("role").where("id", "=", me.id).executeTakeFirstOrThrow())
        .role,
      "SUPERADMIN",
    );
    // acting as the system (no signed-in user, as the CLI does), switching off or deleting is refused too
    for (const patch of [{ isActive: false }, { isDeleted: true as const }]) {
      await assertRejects(
        () => updateUser({ db: t.deps.db, actor: SYSTEM_ACTOR, now: wallClock }, { ...patch, id: me.id }),
        (e: unknown) => httpErrorOf(e)?.status === 409 && (e as Error).message === MSG.lastSuperadmin,
      );
    }
    // with a second active SUPERADMIN the first may step down
    assertEquals(
      (await t.call("PUT", `/admin/user/update/${idle}`, { token: superadmin, body: { isActive: true } }))
        .status,
      200,
    );
    const stepDown = await t.call("PUT", `/admin/user/update/${me.id}`, { token: superadmin, body: demote });
    assertEquals(stepDown.status, 200, stepDown.text);
    assertEquals(stepDown.json.result.role, "ADMIN");
  }));

Deno.test("users: supplier logins read with their supplier's name, in the grid and on their own", () =>
  withApp(async (t, admin) => {
    const supplier = await t.call("POST", "/admin/supplier/add", {
      token: admin,
      body: supplierBody({ supplierName: "Maple Voices" }),
    });
    assertEquals(supplier.status, 200, supplier.text);
    const add = await t.call("POST", "/admin/user/add", {
      token: admin,
      body: valid({ role: "SUPPLIER", supplierId: supplier.json.result._id }),
    });
    assertEquals(add.status, 200, add.text);
    const grid = await t.call("POST", "/admin/users/supplier", { token: admin, body: {} });
    assertEquals(grid.json.result.data.map((u: { supplierName: string }) => u.supplierName), [
      "Maple Voices",
    ]);
    // the edit form's read names the supplier too, so a supplier switched off since still shows
    await t.call("PUT", `/admin/supplier/update/${supplier.json.result._id}`, {
      token: admin,
      body: { isActive: false },
    });
    const one = await t.call("GET", `/admin/user/${add.json.result._id}`, { token: admin });
    assertEquals(one.status, 200);
    assertEquals([one.json.result.supplierId, one.json.result.supplierName], [
      supplier.json.result._id,
      "Maple Voices",
    ]);
  }));
