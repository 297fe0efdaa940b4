import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { TEST_PASSWORD, testApp } from "../helpers/app.ts";
import { loginFrom } from "../helpers/signin.ts";
import { SignJWT } from "jose";
import { MSG } from "../../shared/messages.ts";
import { API } from "../../shared/permissions.ts";
import { type Role, ROLES } from "../../shared/roles.ts";
import * as Session from "../../shared/api/session.ts";
import * as Users from "../../shared/api/users.ts";

Deno.test("login: right password gives a token and the admin object; wrong one a 401", async () => {
  const t = await testApp();
  try {
    const { email } = await t.userWith("ADMIN");
    const good = await t.api(Session.loginCall, { body: { email, password: TEST_PASSWORD } });
    assertEquals(good.status, 200);
    assertEquals(good.json.result.admin.email, email);
    assertEquals(good.json.result.admin.role, "ADMIN");
    assert(!("passwordHash" in good.json.result.admin));
    assertMatch(good.json.result.accessToken, /^ey/);
    const bad = await t.api(Session.loginCall, { body: { email, password: "wrong-password" } });
    assertEquals(bad.status, 401);
    assertEquals(bad.json.message, MSG.invalidCredentials);
  } finally {
    await t.close();
  }
});

Deno.test("login: malformed input answers 400 with the spec's messages, never 500", async () => {
  const t = await testApp();
  try {
    const r = await t.api(Session.loginCall, { body: { email: "nope", password: "123" } });
    assertEquals(r.status, 400);
    assertEquals(r.json.errors, [
      { path: "email", message: "Email must be valid" },
      { path: "password", message: "Password must be more than 6 character" },
    ]);
    const junk = await t.api(Session.loginCall, { raw: "{not json" });
    assertEquals(junk.status, 400);
    const arr = await t.api(Session.loginCall, { raw: "[1,2]" });
    assertEquals(arr.status, 400);
    const types = await t.api(Session.loginCall, { bad: { email: 5, password: null } });
    assertEquals(types.status, 400);
    const empty = await t.api(Session.loginCall, { body: {} });
    assertEquals(empty.status, 400);
    assertEquals(empty.json.errors, [
      { path: "email", message: "Email must be valid" },
      { path: "password", message: "Password must be more than 6 character" },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("logout revokes the token: the same token then gets 401", async () => {
  const t = await testApp();
  try {
    const { token } = await t.userWith("MANAGER");
    assertEquals((await t.api(Session.adminMeCall, { token })).status, 200);
    const out = await t.api(Session.logoutCall, { token });
    assertEquals(out.status, 200);
    assertEquals(out.json.message, "Logout Successfully");
    assertEquals((await t.api(Session.adminMeCall, { token })).status, 401);
    assertEquals((await t.api(Session.logoutCall, { token })).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("missing, malformed and forged tokens get 401", async () => {
  const t = await testApp();
  try {
    assertEquals((await t.api(Session.adminMeCall)).status, 401);
    assertEquals((await t.api(Session.adminMeCall, { token: "garbage" })).status, 401);
    const { token } = await t.userWith("ADMIN");
    const [h, p] = token.split(".");
    assertEquals((await t.api(Session.adminMeCall, { token: `${h}.${p}.forgedsignature` })).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("a deactivated or deleted user's token stops working at once", async () => {
  const t = await testApp();
  try {
    const admin = await t.tokenFor("SUPERADMIN");
    const m = await t.userWith("MANAGER");
    assertEquals((await t.api(Session.adminMeCall, { token: m.token })).status, 200);
    assertEquals(
      (await t.api(Users.updateUserCall, { params: { id: m.id }, token: admin, body: { isActive: false } }))
        .status,
      200,
    );
    assertEquals((await t.api(Session.adminMeCall, { token: m.token })).status, 401);
    const again = await t.api(Session.loginCall, { body: { email: m.email, password: TEST_PASSWORD } });
    assertEquals(again.status, 401);

    const s = await t.userWith("ACCOUNTANT");
    assertEquals(
      (await t.api(Users.updateUserCall, { params: { id: s.id }, token: admin, body: { isDeleted: true } }))
        .status,
      200,
    );
    assertEquals((await t.api(Session.adminMeCall, { token: s.token })).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("repeated failed logins are slowed with a 429 and a message, even for the right password", async () => {
  const t = await testApp();
  try {
    const { email } = await t.userWith("ADMIN");
    for (let i = 0; i < 5; i++) {
      assertEquals(
        (await t.api(Session.loginCall, { body: { email, password: "wrong-pass" } })).status,
        401,
      );
    }
    const locked = await t.api(Session.loginCall, { body: { email, password: TEST_PASSWORD } });
    assertEquals(locked.status, 429);
    assertEquals(locked.json.message, MSG.tooManyAttempts);
  } finally {
    await t.close();
  }
});

Deno.test("the address lock is per known address: callers with no address never share one lock", async () => {
  const t = await testApp(); // in-process requests carry no address
  try {
    // many failures across many e-mails: each e-mail is below its own limit
    for (let i = 0; i < 30; i++) {
      const r = await t.api(Session.loginCall, {
        body: { email: `nobody${i % 10}@test.local`, password: "wrong-pass" },
      });
      assertEquals(r.status, 401, `attempt ${i}`);
    }
    const { email } = await t.userWith("MANAGER");
    const ok = await t.api(Session.loginCall, { body: { email, password: TEST_PASSWORD } });
    assertEquals(ok.status, 200, "someone else's failures do not lock this user out");

    // a known address is counted across e-mails
    const behind = await testApp({ TRUST_PROXY_HOPS: "1" });
    try {
      const headers = { "x-forwarded-for": "198.51.100.7" };
      const statuses = [];
      for (let i = 0; i < 60; i++) {
        const r = await behind.api(Session.loginCall, {
          body: { email: `guess${i}@test.local`, password: "wrong-pass" },
          headers,
        });
        statuses.push(r.status);
      }
      assert(statuses.includes(429), "one address guessing many e-mails is slowed");
    } finally {
      await behind.close();
    }
  } finally {
    await t.close();
  }
});

Deno.test("lock expires: after the lock window the right password works again", async () => {
  let now = Date.now();
  const t = await testApp({}, { now: () => now });
  try {
    const { email } = await t.userWith("ADMIN");
    for (let i = 0; i < 5; i++) {
      await t.api(Session.loginCall, { body: { email, password: "wrong-pass" } });
    }
    assertEquals(
      (await t.api(Session.loginCall, { body: { email, password: TEST_PASSWORD } })).status,
      429,
    );
    now += 16 * 60_000;
    assertEquals(
      (await t.api(Session.loginCall, { body: { email, password: TEST_PASSWORD } })).status,
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("sign-in and sign-out are written to the system log with IP and device", async () => {
  const t = await testApp({ TRUST_PROXY_HOPS: "1" }); // behind one proxy that appends the caller
  try {
    const { email } = await t.userWith("ADMIN");
    const r = await t.api(Session.loginCall, {
      body: { email, password: TEST_PASSWORD },
      headers: {
        "x-forwarded-for": "203.0.113.9",
        "user-agent":
          "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
      },
    });
    await t.api(Session.logoutCall, { token: r.json.result.accessToken });
    const logs = await t.deps.db.selectFrom("system_logs").selectAll().where("module", "=", "Session")
      .orderBy("createdAt").execute();
    const signIn = logs.find((l) => l.activity === "Signed in" && l.ipAddress === "203.0.113.9");
    assert(signIn, "sign-in logged with the forwarded IP");
    assertMatch(signIn.device, /Chrome 130 on Windows/);
    assert(logs.some((l) => l.activity === "Signed out"));
  } finally {
    await t.close();
  }
});

Deno.test("the audit log's IP is the socket address unless proxies or an edge header are trusted; forged hops are ignored", async () => {
  const forged = {
    "x-forwarded-for": "6.6.6.6, 203.0.113.9",
    "x-real-ip": "6.6.6.7",
    "cf-connecting-ip": "6.6.6.8",
    "cf-ipcountry": "ZZ",
    "cf-ipcity": "Forgetown",
  };
  /** Signs in through a socket from 192.0.2.50 and returns the sign-in's log row. */
  async function signInLogged(env: Record<string, string>, headers: Record<string, string>) {
    const t = await testApp(env);
    try {
      const { email } = await t.userWith("ADMIN");
      const res = await t.app.request("/api/v1/admin/login", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ email, password: TEST_PASSWORD }),
      }, { remoteAddr: { hostname: "192.0.2.50", port: 40000, transport: "tcp" } });
      assertEquals(res.status, 200);
      const log = await t.deps.db.selectFrom("system_logs").select(["ipAddress", "country", "city"])
        .where("activity", "=", "Signed in").orderBy("createdAt", "desc").executeTakeFirstOrThrow();
      return log;
    } finally {
      await t.close();
    }
  }
  assertEquals(
    await signInLogged({}, forged),
    { ipAddress: "192.0.2.50", country: "", city: "" },
    "default: no forwarding or edge header is believed",
  );
  assertEquals(
    (await signInLogged({ TRUST_PROXY_HOPS: "1" }, forged)).ipAddress,
    "203.0.113.9",
    "one proxy: the entry it appended, not the forged one left of it",
  );
  assertEquals(
    (await signInLogged({ TRUST_PROXY_HOPS: "2" }, { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.1.1.1" }))
      .ipAddress,
    "203.0.113.9",
  );
  assertEquals(
    (await signInLogged({ TRUST_PROXY_HOPS: "2" }, { "x-forwarded-for": "203.0.113.9" })).ipAddress,
    "192.0.2.50",
    "fewer entries than trusted proxies: the socket address",
  );
  assertEquals(
    await signInLogged({
      CLIENT_IP_HEADER: "cf-connecting-ip",
      COUNTRY_HEADER: "cf-ipcountry",
      CITY_HEADER: "cf-ipcity",
    }, forged),
    { ipAddress: "6.6.6.8", country: "ZZ", city: "Forgetown" },
    "the edge's headers, once the deployment names them",
  );
});

Deno.test("unknown API path is a JSON 404, with or without a token", async () => {
  const t = await testApp();
  try {
    // an unknown path: spelled literally
    const r = await t.call("GET", "/admin/nothing-here");
    assertEquals(r.status, 404);
    assertEquals(r.json.message, "Not found");
  } finally {
    await t.close();
  }
});

Deno.test("every call of the permission table: no token is 401, a role it does not list is 403", async () => {
  const t = await testApp();
  try {
    const tokens = new Map<Role, string>();
    for (const role of ROLES) tokens.set(role, await t.tokenFor(role));
    const fill = (path: string) => path.replace(/:[A-Za-z]+/g, "0123456789abcdef01234567");
    let refused = 0;
    // every entry of the permission table, by its "METHOD /path" key (what is under test)
    for (const [key, roles] of Object.entries(API)) {
      const [method, path] = key.split(" ");
      const body = method === "GET" ? undefined : {};
      const none = await t.call(method, fill(path), { body });
      assertEquals(none.status, 401, `${key} without a token`);
      const outsider = ROLES.find((r) => !roles.includes(r));
      if (!outsider) continue;
      const r = await t.call(method, fill(path), { token: tokens.get(outsider), body });
      assertEquals(r.status, 403, `${key} as ${outsider}`);
      refused++;
    }
    assert(refused > 100, `most calls are limited to some roles (${refused})`);
    // a supplier user reaches /supplier/* only; their own profile is there
    const supplier = tokens.get("SUPPLIER");
    assertEquals((await t.api(Session.adminMeCall, { token: supplier })).status, 403);
    const me = await t.api(Session.supplierMeCall, { token: supplier });
    assertEquals([me.status, me.json.result.role], [200, "SUPPLIER"]);
    for (const key of Object.keys(API).filter((k) => k.split(" ")[1].startsWith("/admin/"))) {
      assert(key === "POST /admin/logout" || !API[key].includes("SUPPLIER"), `${key} is open to SUPPLIER`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a password change by an admin ends the user's earlier tokens at once; a new sign-in works", async () => {
  const t = await testApp();
  try {
    const admin = await t.tokenFor("SUPERADMIN");
    const m = await t.userWith("MANAGER");
    const m2 = await t.api(Session.loginCall, { body: { email: m.email, password: TEST_PASSWORD } });
    const form = (await t.api(Users.getUserCall, { params: { id: m.id }, token: admin })).json.result;
    const edit = await t.api(Users.updateUserCall, {
      params: { id: m.id },
      token: admin,
      body: {
        firstName: form.firstName,
        lastName: form.lastName,
        email: form.email,
        phoneNumber: form.phoneNumber,
        role: form.role,
        supplierId: form.supplierId,
        isActive: true,
        password: "Changed-pass-9",
      },
    });
    assertEquals(edit.status, 200, edit.text);
    assertEquals((await t.api(Session.adminMeCall, { token: m.token })).status, 401);
    assertEquals((await t.api(Session.adminMeCall, { token: m2.json.result.accessToken })).status, 401);
    const fresh = await t.api(Session.loginCall, {
      body: { email: m.email, password: "Changed-pass-9" },
    });
    assertEquals(fresh.status, 200);
    assertEquals((await t.api(Session.adminMeCall, { token: fresh.json.result.accessToken })).status, 200);
    // an edit without a password leaves sessions alone
    const keep = await t.api(Users.updateUserCall, {
      params: { id: m.id },
      token: admin,
      body: { ...form, firstName: "Renamed", isActive: true, password: "" },
    });
    assertEquals(keep.status, 200, keep.text);
    assertEquals((await t.api(Session.adminMeCall, { token: fresh.json.result.accessToken })).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("tokens issued before a deactivation stay dead after the user is reactivated", async () => {
  const t = await testApp();
  try {
    const admin = await t.tokenFor("SUPERADMIN");
    const m = await t.userWith("ACCOUNTANT");
    const off = await t.api(Users.updateUserCall, {
      params: { id: m.id },
      token: admin,
      body: { isActive: false },
    });
    assertEquals(off.status, 200);
    const on = await t.api(Users.updateUserCall, {
      params: { id: m.id },
      token: admin,
      body: { isActive: true },
    });
    assertEquals(on.status, 200);
    assertEquals((await t.api(Session.adminMeCall, { token: m.token })).status, 401);
    const fresh = await t.api(Session.loginCall, { body: { email: m.email, password: TEST_PASSWORD } });
    assertEquals((await t.api(Session.adminMeCall, { token: fresh.json.result.accessToken })).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("users changing their own password keep that session; their other sessions end", async () => {
  const t = await testApp();
  try {
    const me = await t.userWith("ADMIN");
    const other = await t.api(Session.loginCall, {
      body: { email: me.email, password: TEST_PASSWORD },
    });
    const form = (await t.api(Users.getUserCall, { params: { id: me.id }, token: me.token })).json.result;
    const edit = await t.api(Users.updateUserCall, {
      params: { id: me.id },
      token: me.token,
      body: { ...form, isActive: true, password: "My-new-pass-1" },
    });
    assertEquals(edit.status, 200, edit.text);
    assertEquals(
      (await t.api(Session.adminMeCall, { token: me.token })).status,
      200,
      "the session that changed it",
    );
    assertEquals((await t.api(Session.adminMeCall, { token: other.json.result.accessToken })).status, 401);
    // and a later deactivation by someone else ends the kept session too
    const admin = await t.tokenFor("SUPERADMIN");
    await t.api(Users.updateUserCall, { params: { id: me.id }, token: admin, body: { isActive: false } });
    await t.api(Users.updateUserCall, { params: { id: me.id }, token: admin, body: { isActive: true } });
    assertEquals((await t.api(Session.adminMeCall, { token: me.token })).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("a signed token without an expiry, or without the user's token generation, is refused", async () => {
  const t = await testApp();
  try {
    const { id } = await t.userWith("ADMIN");
    const key = t.deps.jwtKey;
    const sign = (claims: Record<string, unknown>, exp: boolean) => {
      let jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(id)
        .setJti(crypto.randomUUID()).setIssuedAt();
      if (exp) jwt = jwt.setExpirationTime("1h");
      return jwt.sign(key);
    };
    assertEquals(
      (await t.api(Session.adminMeCall, { token: await sign({ role: "ADMIN", gen: 0 }, true) })).status,
      200,
      "the control: a well-formed token",
    );
    assertEquals(
      (await t.api(Session.adminMeCall, { token: await sign({ role: "ADMIN", gen: 0 }, false) })).status,
      401,
    );
    assertEquals(
      (await t.api(Session.adminMeCall, { token: await sign({ role: "ADMIN" }, true) })).status,
      401,
    );
  } finally {
    await t.close();
  }
});

Deno.test("100 simultaneous wrong passwords for one e-mail: at most the limit are checked, the rest get 429", async () => {
  const t = await testApp({ TRUST_PROXY_HOPS: "1" });
  try {
    const { email } = await t.userWith("ADMIN");
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () => loginFrom(t, "203.0.113.20", email, "wrong-pass")),
    );
    const checked = statuses.filter((s) => s === 401).length;
    assert(checked <= 5, `${checked} passwords were checked (limit 5)`);
    assertEquals(statuses.filter((s) => s === 429).length, 100 - checked);
    // the same without a known address (one pair per e-mail)
    const t2 = await testApp();
    try {
      const u = await t2.userWith("MANAGER");
      const r = await Promise.all(
        Array.from(
          { length: 50 },
          () =>
            t2.api(Session.loginCall, { body: { email: u.email, password: "wrong-pass" } }).then((c) =>
              c.status
            ),
        ),
      );
      assert(r.filter((s) => s === 401).length <= 5, `${r.filter((s) => s === 401).length} checked`);
    } finally {
      await t2.close();
    }
  } finally {
    await t.close();
  }
});

Deno.test("a lockout from one address does not lock the same e-mail out from another address", async () => {
  const t = await testApp({ TRUST_PROXY_HOPS: "1" });
  try {
    const { email } = await t.userWith("ADMIN");
    for (let i = 0; i < 5; i++) assertEquals(await loginFrom(t, "198.51.100.66", email, "wrong-pass"), 401);
    assertEquals(
      await loginFrom(t, "198.51.100.66", email, TEST_PASSWORD),
      429,
      "locked from the attacker's",
    );
    assertEquals(await loginFrom(t, "203.0.113.5", email, TEST_PASSWORD), 200, "the user's own address");
  } finally {
    await t.close();
  }
});
