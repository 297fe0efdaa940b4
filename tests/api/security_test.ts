/**
 * The web app's cookie session and its CSRF proof, Bearer for everyone else, secrets kept out of lists,
 * exports and logs, and security.txt.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, TEST_PASSWORD, type TestApp, testApp } from "../helpers/app.ts";
import { auditOf, clientBody, created, supplierBody } from "../helpers/master.ts";
import { CSRF_COOKIE, CSRF_MESSAGE, SESSION_COOKIE } from "../../server/http/session-cookie.ts";
import { MSG } from "../../shared/messages.ts";
import { createLogger } from "../../server/logger.ts";
import { EnvError, loadEnv } from "../../server/env.ts";
import { maskSecret } from "../../shared/secrets.ts";
import * as C from "../../shared/api/clients.ts";
import { type AnyContract, pathOf } from "../../shared/api/contract.ts";
import * as Dash from "../../shared/api/dashboard.ts";
import * as Sess from "../../shared/api/session.ts";
import * as Sup from "../../shared/api/suppliers.ts";
import * as Users from "../../shared/api/users.ts";

type Cookie = { value: string; attrs: string[] };

/** The cookies a response sets, by name, with their attributes (lower case). */
function setCookies(res: Response): Map<string, Cookie> {
  const out = new Map<string, Cookie>();
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(";").map((s) => s.trim());
    const i = pair.indexOf("=");
    out.set(pair.slice(0, i), { value: pair.slice(i + 1), attrs: attrs.map((a) => a.toLowerCase()) });
  }
  return out;
}

/** A browser's view: signs in and keeps the two cookies. */
async function browserSignIn(
  t: TestApp,
  email: string,
  opts: { rememberMe?: boolean; headers?: Record<string, string>; url?: string } = {},
) {
  const res = await t.app.request(opts.url ?? `/api/v1${pathOf(Sess.loginCall)}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...opts.headers },
    body: JSON.stringify({ email, password: TEST_PASSWORD, rememberMe: opts.rememberMe }),
  });
  assertEquals(res.status, 200);
  const json = await res.json();
  const cookies = setCookies(res);
  const session = cookies.get(SESSION_COOKIE)!, csrf = cookies.get(CSRF_COOKIE)!;
  assert(session && csrf, "sign-in sets both cookies");
  return { json, session, csrf, cookie: `${SESSION_COOKIE}=${session.value}; ${CSRF_COOKIE}=${csrf.value}` };
}

/**
 * A declared call as the browser makes it, on the raw HTTP layer: the cookies, and the CSRF header
 * when given (no bearer token, no body unless one is given).
 */
async function cookieCall(
  t: TestApp,
  call: AnyContract,
  cookie: string,
  opts: { csrf?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { cookie, ...opts.headers };
  if (opts.csrf !== undefined) headers["x-csrf-token"] = opts.csrf;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await t.app.request(`/api/v1${pathOf(call)}`, {
    method: call.method,
    headers,
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: res.status, json, text, res };
}

const newUser = (email: string) => ({
  firstName: "Casey",
  lastName: "Cookie",
  email,
  phoneNumber: "+1 555 0101",
  role: "MANAGER",
  password: "first-pass-1",
  isActive: true,
});

Deno.test("sign-in sets an httpOnly SameSite=Strict session cookie living as long as the token", async () => {
  const t = await testApp();
  try {
    const { email } = await t.userWith("ADMIN");
    const s = await browserSignIn(t, email);
    // the body keeps the spec's contract: the admin and the token
    assertMatch(s.json.result.accessToken, /^ey/);
    assertEquals(s.session.value, s.json.result.accessToken);
    for (const a of ["httponly", "samesite=strict", "path=/", `max-age=${12 * 3600}`]) {
      assert(s.session.attrs.includes(a), `session cookie has ${a}: ${s.session.attrs}`);
    }
    assert(!s.session.attrs.includes("secure"), "no Secure over plain http");
    // the CSRF cookie is for the page to read
    assert(!s.csrf.attrs.includes("httponly"));
    assert(s.csrf.attrs.includes("samesite=strict"));
    assert(s.csrf.value.length >= 40);

    // remember me: the cookie lasts the token's 30 days; https (or a proxy saying so) adds Secure
    const long = await browserSignIn(t, email, {
      rememberMe: true,
      headers: { "x-forwarded-proto": "https" },
    });
    assert(long.session.attrs.includes(`max-age=${30 * 24 * 3600}`), long.session.attrs.join());
    assert(long.session.attrs.includes("secure") && long.csrf.attrs.includes("secure"));
    // the full URL, host and all, is what this sign-in is about: spelled by hand
    const direct = await browserSignIn(t, email, { url: "https://samplex.test/api/v1/admin/login" });
    assert(direct.session.attrs.includes("secure"));
  } finally {
    await t.close();
  }
});

Deno.test("cookie session: reads work; a write without the CSRF header is 403 and changes nothing", async () => {
  const t = await testApp();
  try {
    const { email } = await t.userWith("ADMIN");
    const s = await browserSignIn(t, email);
    const me = await cookieCall(t, Sess.adminMeCall, s.cookie);
    assertEquals(me.status, 200);
    assertEquals(me.json.result.email, email);

    const count = async () =>
      (await t.deps.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n"))
        .where("email", "=", "casey@samplex.test").executeTakeFirstOrThrow()).n;
    const body = newUser("casey@samplex.test");
    const none = await cookieCall(t, Users.addUser, s.cookie, { body });
    assertEquals(none.status, 403);
    assertEquals(none.json.message, CSRF_MESSAGE);
    const wrong = await cookieCall(t, Users.addUser, s.cookie, { body, csrf: "x".repeat(43) });
    assertEquals(wrong.status, 403);
    // another session's CSRF token is no proof for this one
    const other = await browserSignIn(t, email);
    const swapped = await cookieCall(t, Users.addUser, s.cookie, {
      body,
      csrf: other.csrf.value,
    });
    assertEquals(swapped.status, 403);
    // a page on another site is refused even with the token (the browser says where it comes from)
    const cross = await cookieCall(t, Users.addUser, s.cookie, {
      body,
      csrf: s.csrf.value,
      headers: { "sec-fetch-site": "cross-site" },
    });
    assertEquals(cross.status, 403);
    assertEquals(await count(), 0);
    // a cookie logout without proof does not end the session
    assertEquals((await cookieCall(t, Sess.logoutCall, s.cookie, { body: {} })).status, 403);
    assertEquals((await cookieCall(t, Sess.adminMeCall, s.cookie)).status, 200);

    const done = await cookieCall(t, Users.addUser, s.cookie, {
      body,
      csrf: s.csrf.value,
      headers: { "sec-fetch-site": "same-origin" },
    });
    assertEquals(done.status, 200);
    assertEquals(await count(), 1);
  } finally {
    await t.close();
  }
});

Deno.test("Bearer calls need no CSRF token, and the header wins over a cookie", async () => {
  const t = await testApp();
  try {
    const admin = await t.userWith("ADMIN");
    const r = await t.api(Users.addUser, {
      token: admin.token,
      body: newUser("bearer@samplex.test"),
    });
    assertEquals(r.status, 200);
    // a bad Authorization header is not rescued by a good cookie
    const s = await browserSignIn(t, admin.email);
    const bad = await cookieCall(t, Sess.adminMeCall, s.cookie, {
      headers: { authorization: "Bearer nope" },
    });
    assertEquals(bad.status, 401);
    // and the role check applies to cookie sessions as to Bearer ones
    const manager = await t.userWith("MANAGER");
    const m = await browserSignIn(t, manager.email);
    const refused = await cookieCall(t, Users.addUser, m.cookie, {
      body: newUser("m@samplex.test"),
      csrf: m.csrf.value,
    });
    assertEquals(refused.status, 403);
    assertEquals(refused.json.message, MSG.forbidden);
  } finally {
    await t.close();
  }
});

Deno.test("sign-out clears both cookies and ends the token; a dead cookie is cleared with its 401", async () => {
  const t = await testApp();
  try {
    const { email } = await t.userWith("ACCOUNTANT");
    const s = await browserSignIn(t, email);
    const out = await cookieCall(t, Sess.logoutCall, s.cookie, { body: {}, csrf: s.csrf.value });
    assertEquals(out.status, 200);
    const cleared = setCookies(out.res);
    assertEquals(cleared.get(SESSION_COOKIE)?.value, "");
    assert(cleared.get(SESSION_COOKIE)!.attrs.includes("max-age=0"));
    assertEquals(cleared.get(CSRF_COOKIE)?.value, "");
    // the browser would drop it; one that kept it gets a 401 that clears it again
    const again = await cookieCall(t, Sess.adminMeCall, s.cookie);
    assertEquals(again.status, 401);
    assertEquals(again.json.message, MSG.unauthorized);
    assertEquals(setCookies(again.res).get(SESSION_COOKIE)?.value, "");
    // no cookie, no header: 401
    assertEquals((await cookieCall(t, Sess.adminMeCall, "")).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("the live dashboard's ticket call works from a cookie session with its CSRF token", async () => {
  const t = await testApp();
  try {
    const { email } = await t.userWith("ADMIN");
    const s = await browserSignIn(t, email);
    const ticket = await cookieCall(t, Dash.liveTicketCall, s.cookie, {
      body: {},
      csrf: s.csrf.value,
    });
    assertEquals(ticket.status, 200);
    const stream = await t.api(Dash.dashboardLiveCall, {
      query: { ticket: ticket.json.result.ticket },
      headers: { cookie: s.cookie },
    });
    assertEquals(stream.status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("the logger masks secret fields, Authorization and Cookie headers and tokens in text", () => {
  const lines: string[] = [];
  const log = createLogger("debug", (l) => lines.push(l));
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
  const apiKey = "sk_live_0123456789abcdefWXYZ";
  const hashKey = "hash-0123456789-QRST";
  log.info("request", {
    headers: new Headers({
      authorization: `Bearer ${jwt}`,
      cookie: `${SESSION_COOKIE}=${jwt}`,
      accept: "*/*",
    }),
    supplier: { apiKey, hashKey, supplierApiKey: "abcdefabcdefabcdefLMNO", name: "Panel One" },
    password: "Passw0rd!",
    accessToken: jwt,
  });
  log.error(`upstream said: Bearer ${apiKey}`, { error: new Error(`bad token ${jwt}`) });
  const text = lines.join("\n");
  for (const secret of [jwt, apiKey, hashKey, "abcdefabcdefabcdefLMNO", "Passw0rd!"]) {
    assert(!text.includes(secret), `${secret} is not in the log: ${text}`);
  }
  const first = JSON.parse(lines[0]);
  assertEquals(first.supplier.apiKey, maskSecret(apiKey));
  assert(first.supplier.apiKey.endsWith("WXYZ"));
  assertEquals(first.supplier.name, "Panel One");
  assertEquals(first.headers.accept, "*/*");
  assertEquals(first.headers.cookie, "[hidden]");
  assertEquals(first.password, "[hidden]");
  assert(first.headers.authorization.endsWith(jwt.slice(-4)));
  assert(JSON.parse(lines[1]).msg.endsWith(`Bearer ${maskSecret(apiKey)}`));
});

Deno.test("client and supplier keys: masked in records, lists and CSV; revealed whole to their owners only", async () => {
  const t = await testApp();
  try {
    const accountant = await t.tokenFor("ACCOUNTANT");
    const admin = await t.tokenFor("ADMIN");
    const clientKey = "client-outgoing-key-0123456789-CDEF";
    const client = await created(t, accountant, C.addClient, clientBody({ apiKey: clientKey }));
    const supplierKey = "supplier-secret-key-0123456789-WXYZ";
    const hashKey = "hash-key-0123456789-HASH";
    const supplier = await created(
      t,
      accountant,
      Sup.addSupplier,
      supplierBody({ apiKey: supplierKey, hashKey, clientId: [client._id] }),
    );
    const stored = {
      client: await t.deps.db.selectFrom("clients").selectAll().where("id", "=", client._id)
        .executeTakeFirstOrThrow(),
      supplier: await t.deps.db.selectFrom("suppliers").selectAll().where("id", "=", supplier._id)
        .executeTakeFirstOrThrow(),
    };
    const secrets = [
      clientKey,
      supplierKey,
      hashKey,
      stored.client.clientApiKey,
      stored.supplier.supplierApiKey,
    ];

    // every answer that carries a record or rows: none holds a key whole
    const answers = [
      await t.api(C.getClientCall, { params: { id: client._id }, token: admin }),
      await t.api(Sup.getSupplierCall, { params: { id: supplier._id }, token: admin }),
      await t.api(C.listClients, { token: admin, body: {} }),
      await t.api(Sup.listSuppliers, { token: admin, body: {} }),
      await t.api(C.listClients, { search: { format: "csv" }, token: admin, body: {} }),
      await t.api(Sup.listSuppliers, { search: { format: "csv" }, token: admin, body: {} }),
      await t.api(C.clientOptionsCall, { token: admin }),
      await t.api(Sup.supplierOptionsCall, { token: admin }),
    ];
    for (const a of answers) {
      assertEquals(a.status, 200, a.text);
      for (const s of secrets) assert(!a.text.includes(s), `a key shows whole in ${a.text.slice(0, 200)}`);
    }
    const record = answers[0].json.result, supplierRecord = answers[1].json.result;
    assertEquals(record.apiKey, maskSecret(clientKey));
    assert(record.apiKey.endsWith("CDEF"));
    assertEquals(supplierRecord.apiKey, maskSecret(supplierKey));
    assertEquals(supplierRecord.hashKey, maskSecret(hashKey));

    // the edit form sends the masked keys back as shown: they stay as they were
    const upd = await t.api(Sup.updateSupplierCall, {
      params: { id: supplier._id },
      token: accountant,
      body: supplierBody({ apiKey: supplierRecord.apiKey, hashKey: "a-new-hash-key-0000", clientId: [] }),
    });
    assertEquals(upd.status, 200, upd.text);
    const after = await t.deps.db.selectFrom("suppliers").select(["apiKey", "hashKey"]).where(
      "id",
      "=",
      supplier._id,
    )
      .executeTakeFirstOrThrow();
    assertEquals(after, { apiKey: supplierKey, hashKey: "a-new-hash-key-0000" });
    const cupd = await t.api(C.updateClientCall, {
      params: { id: client._id },
      token: accountant,
      body: clientBody({ apiKey: record.apiKey }),
    });
    assertEquals(cupd.status, 200, cupd.text);
    assertEquals(
      (await t.deps.db.selectFrom("clients").select("apiKey").where("id", "=", client._id)
        .executeTakeFirstOrThrow())
        .apiKey,
      clientKey,
    );

    // revealing is its own call, for SUPERADMIN and ADMIN, and it is logged
    await expectCallGuarded(t, C.revealClientKeysCall, "ACCOUNTANT", { params: { id: client._id } });
    await expectCallGuarded(t, Sup.revealSupplierKeysCall, "MANAGER", { params: { id: supplier._id } });
    const ck = await t.api(C.revealClientKeysCall, { params: { id: client._id }, token: admin });
    assertEquals(ck.json.result, { apiKey: clientKey, clientApiKey: stored.client.clientApiKey });
    const sk = await t.api(Sup.revealSupplierKeysCall, {
      params: { id: supplier._id },
      token: admin,
    });
    assertEquals(sk.json.result, {
      hashKey: "a-new-hash-key-0000",
      apiKey: supplierKey,
      supplierApiKey: stored.supplier.supplierApiKey,
    });
    assert(
      (await auditOf(t, client._id)).some((l) => l.activity.startsWith("Revealed the API keys of client")),
    );
    assertEquals(
      (await t.api(C.revealClientKeysCall, {
        params: { id: "000000000000000000000000" },
        token: admin,
      }))
        .status,
      404,
    );
    assertEquals(
      // a malformed id in the path itself: spelled by hand
      (await t.call("POST", "/admin/client/not-an-id/keys", { token: admin, body: {} })).status,
      404,
    );
  } finally {
    await t.close();
  }
});

Deno.test("security.txt (RFC 9116) is served with its contact, expiry, language, canonical URL and policy", async () => {
  const t = await testApp({ PUBLIC_URL: "https://samplex.example.com" });
  const d = await testApp({
    SECURITY_CONTACT: "psirt@example.org",
    SECURITY_POLICY_URL: "https://example.org/policy",
  });
  try {
    const res = await t.app.request("/.well-known/security.txt");
    assertEquals(res.status, 200);
    assertMatch(res.headers.get("content-type") ?? "", /^text\/plain; charset=utf-8/);
    const fields = Object.fromEntries(
      (await res.text()).trim().split("\n").map((
        l,
      ) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)]),
    );
    assertEquals(fields.Contact, "mailto:security@samplex.example.com");
    assertEquals(fields["Preferred-Languages"], "en");
    assertEquals(fields.Canonical, "https://samplex.example.com/.well-known/security.txt");
    assertEquals(fields.Policy, "https://samplex.example.com/.well-known/security-policy.txt");
    assertMatch(fields.Expires, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const days = (Date.parse(fields.Expires) - t.deps.now()) / 86_400_000;
    assert(days > 170 && days < 366, `expires in ${days} days`);
    const policy = await t.app.request("/.well-known/security-policy.txt");
    assertEquals(policy.status, 200);
    assertMatch(await policy.text(), /disclosure policy/);

    // the contact and policy come from the environment; the canonical URL from the request without PUBLIC_URL
    const own = await (await d.app.request("http://samplex.test:8000/.well-known/security.txt")).text();
    assert(own.includes("Contact: mailto:psirt@example.org\n"), own);
    assert(own.includes("Policy: https://example.org/policy\n"), own);
    assert(own.includes("Canonical: http://samplex.test:8000/.well-known/security.txt\n"), own);
  } finally {
    await t.close();
    await d.close();
  }
});

Deno.test("SECURITY_CONTACT takes an e-mail or a mailto:/https:/tel: URI; anything else stops the start", () => {
  assertEquals(loadEnv({ SECURITY_CONTACT: "sec@example.org" }).SECURITY_CONTACT, "mailto:sec@example.org");
  assertEquals(
    loadEnv({ SECURITY_CONTACT: "https://example.org/report" }).SECURITY_CONTACT,
    "https://example.org/report",
  );
  const problem = (env: Record<string, string>) => {
    try {
      loadEnv(env);
    } catch (e) {
      if (e instanceof EnvError) return e.message;
      throw e;
    }
    return "";
  };
  assertMatch(problem({ SECURITY_CONTACT: "call us" }), /SECURITY_CONTACT must be an e-mail address/);
  assertMatch(problem({ SECURITY_POLICY_URL: "ftp://x" }), /SECURITY_POLICY_URL must be an http\(s\) URL/);
});
