/**
 * Limits every API call keeps whoever calls it: a body size limit enforced while the body is read
 * (413 `{ message }`, ahead of authentication), and answers that no browser or proxy stores.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { TEST_PASSWORD, type TestApp, testApp } from "../helpers/app.ts";
import { DEFAULT_BODY_LIMIT } from "../../server/http/validate.ts";
import * as Session from "../../shared/api/session.ts";
import * as Users from "../../shared/api/users.ts";

const MiB = 1024 * 1024;

/** An endless body of spaces in 64 KiB chunks; `pulled()` says how many bytes were taken from it. */
function endlessBody() {
  let pulled = 0;
  const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
  const stream = new ReadableStream<Uint8Array>({
    pull(ctl) {
      pulled += chunk.byteLength;
      ctl.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

/** A raw request (streamed bodies, forged lengths): the HTTP layer is under test, so paths are spelled. */
async function send(t: TestApp, path: string, init: RequestInit) {
  const res = await t.app.request(`/api/v1${path}`, init);
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text), headers: res.headers };
}

Deno.test("body limit: a Content-Length over the limit is a 413 with a message, before the session is looked at", async () => {
  const t = await testApp();
  try {
    for (const path of ["/admin/login", "/admin/users"]) {
      // the declared length alone is refused: nothing of the body is read
      const { stream, pulled } = endlessBody();
      const r = await send(t, path, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(300 * MiB) },
        body: stream,
      });
      assertEquals(r.status, 413, `${path}: ${r.text}`);
      assertMatch(r.json.message, /too large \(at most 1 MiB\)/);
      assertEquals(Object.keys(r.json), ["message"]);
      assert(pulled() <= 2 * 64 * 1024, `${path}: ${pulled()} bytes read`);
    }
    // a signed-in caller gets no more than anyone else: 5 MB of JSON is refused
    const admin = await t.tokenFor("SUPERADMIN");
    const big = JSON.stringify({ search: "x".repeat(5_000_000) });
    const r = await send(t, "/admin/users", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(big.length),
        authorization: `Bearer ${admin}`,
      },
      body: big,
    });
    assertEquals(r.status, 413);
  } finally {
    await t.close();
  }
});

Deno.test("body limit: a chunked body without a Content-Length is counted while read and cut off at the limit", async () => {
  const t = await testApp();
  try {
    const { stream, pulled } = endlessBody();
    const r = await send(t, "/admin/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
    });
    assertEquals(r.status, 413, r.text);
    assertMatch(r.json.message, /too large/);
    assert(pulled() < DEFAULT_BODY_LIMIT + 4 * 64 * 1024, `read ${pulled()} bytes of an endless body`);

    // signed in, with a finite chunked body just over the limit
    const admin = await t.tokenFor("SUPERADMIN");
    const over = new TextEncoder().encode(JSON.stringify({ search: "y".repeat(DEFAULT_BODY_LIMIT) }));
    const authed = await send(t, "/admin/users", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${admin}` },
      body: ReadableStream.from([over.subarray(0, 1000), over.subarray(1000)]),
    });
    assertEquals(authed.status, 413);
  } finally {
    await t.close();
  }
});

Deno.test("body limit: a body under the limit is read as usual, with or without a Content-Length", async () => {
  const t = await testApp();
  try {
    const { email } = await t.userWith("ADMIN");
    // valid JSON padded with whitespace to just under the limit
    const json = JSON.stringify({ email, password: TEST_PASSWORD });
    const padded = json + " ".repeat(DEFAULT_BODY_LIMIT - json.length);
    assertEquals(padded.length, DEFAULT_BODY_LIMIT);
    const withLength = await send(t, "/admin/login", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(padded.length) },
      body: padded,
    });
    assertEquals(withLength.status, 200, withLength.text);
    const bytes = new TextEncoder().encode(padded);
    const chunked = await send(t, "/admin/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: ReadableStream.from([bytes.subarray(0, 4096), bytes.subarray(4096)]),
    });
    assertEquals(chunked.status, 200, chunked.text);
  } finally {
    await t.close();
  }
});

/** Writes all of `bytes` (a socket write may take only part of them). */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array) {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** Reads one HTTP/1.1 answer's head from a raw connection (status line and headers). */
async function readHead(conn: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(64 * 1024);
  let text = "";
  while (!text.includes("\r\n\r\n")) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  return text;
}

Deno.test("body limit under Deno.serve: a declared 300 MB body and an endless chunked one are both refused early", async () => {
  const t = await testApp();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  try {
    const port = server.addr.port;
    const head = (extra: string) =>
      new TextEncoder().encode(
        `POST /api/v1/admin/login HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${extra}\r\n`,
      );

    // a Content-Length of 300 MB: the answer comes before a byte of the body is sent
    const a = await Deno.connect({ port, hostname: "127.0.0.1" });
    try {
      await writeAll(a, head(`content-length: ${300 * MiB}\r\n`));
      const answer = await readHead(a);
      assertMatch(answer, /^HTTP\/1\.1 413 /);
      assertMatch(answer, /cache-control: no-store/i);
    } finally {
      a.close();
    }

    // chunked, no Content-Length: keep sending until the server answers; it must answer soon after
    // the limit (or stop reading), never take the whole body
    const b = await Deno.connect({ port, hostname: "127.0.0.1" });
    try {
      await writeAll(b, head("transfer-encoding: chunked\r\n"));
      const piece = 16 * 1024;
      const chunk = new TextEncoder().encode(`${piece.toString(16)}\r\n${" ".repeat(piece)}\r\n`);
      let sent = 0;
      const answered = readHead(b);
      let done = false;
      answered.finally(() => (done = true));
      while (!done && sent < 50 * MiB) {
        try {
          await writeAll(b, chunk);
        } catch {
          break; // the server closed the connection after answering
        }
        sent += piece;
        await new Promise((r) => setTimeout(r, 0));
      }
      // a server that read it all gets the body's end, so the test fails rather than hangs
      if (!done) await writeAll(b, new TextEncoder().encode("0\r\n\r\n")).catch(() => {});
      const answer = await answered;
      assertMatch(answer, /^HTTP\/1\.1 413 /);
      assert(sent < 8 * MiB, `sent ${sent} bytes before the answer`);
    } finally {
      b.close();
    }
  } finally {
    await server.shutdown();
    await t.close();
  }
});

Deno.test("API answers carry Cache-Control: no-store: signed-in JSON, errors of every kind, CSV downloads", async () => {
  const t = await testApp();
  try {
    const admin = await t.tokenFor("SUPERADMIN");
    const manager = await t.tokenFor("MANAGER");
    const answers = {
      "signed-in JSON": await t.api(Session.adminMeCall, { token: admin }),
      "a list": await t.api(Users.listUsers, { token: admin, body: {} }),
      "CSV download": await t.api(Users.listUsers, { search: { format: "csv" }, token: admin, body: {} }),
      "400 invalid": await t.api(Users.addUser, { token: admin, body: {} }),
      "401 no token": await t.api(Session.adminMeCall),
      "403 role": await t.api(Users.listUsers, { token: manager, body: {} }),
      "404 record": await t.api(Users.getUserCall, {
        params: { id: "0123456789abcdef01234567" },
        token: admin,
      }),
      // an unknown path: spelled literally
      "404 path": await t.call("GET", "/admin/no-such-call", { token: admin }),
      "login": await t.api(Session.loginCall, {
        body: { email: "x@test.local", password: "wrong-pass" },
      }),
    };
    const statuses = Object.values(answers).map((a) => a.status);
    assertEquals(statuses, [200, 200, 200, 400, 401, 403, 404, 404, 401]);
    for (const [what, a] of Object.entries(answers)) {
      assertEquals(a.headers.get("cache-control"), "no-store", what);
    }
    const tooBig = await send(t, "/admin/me", {
      method: "POST",
      headers: { "content-length": String(2 * MiB), authorization: `Bearer ${admin}` },
      body: "x",
    });
    assertEquals(tooBig.headers.get("cache-control"), "no-store");
  } finally {
    await t.close();
  }
});
