/**
 * The outbound client's HTTP/1.1 transport (server/domain/common/outbound/http1.ts) over real
 * sockets: the app's pooled client keeps a connection alive between calls, a connection the server
 * closed while it idled is replaced when that is safe, the answer's framing (length, chunked, to the
 * end of the connection) is read within the size cap, and a header that would split the request is
 * refused before anything is written.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { outboundFor } from "../../server/boot.ts";
import { loadEnv } from "../../server/env.ts";
import { silentServer } from "../helpers/net.ts";

const client = () => outboundFor(loadEnv({ OUTBOUND_ALLOW: "127.0.0.1" }));
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const enc = new TextEncoder();

/** A Deno.serve listener recording each request's client port (one port: one connection). */
function listener(answer: (req: Request) => Response = () => new Response("ok")) {
  const ports: number[] = [];
  const connection: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req, info) => {
    ports.push(info.remoteAddr.port);
    connection.push(req.headers.get("connection"));
    return answer(req);
  });
  return { ports, connection, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/**
 * A raw listener that answers `reply` to each request and then closes the connection without saying
 * so (as a server whose keep-alive time ran out just then): what it read, per connection.
 */
function oneShot(reply: string) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: string[] = [];
  const done = (async () => {
    for await (const conn of listener) {
      const buf = new Uint8Array(8192);
      const n = await conn.read(buf);
      seen.push(text(buf.subarray(0, n ?? 0)));
      await conn.write(enc.encode(reply));
      conn.close();
    }
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    seen,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      listener.close();
      await done;
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

Deno.test("outbound http/1.1: the app's pooled client reuses one connection; a client without a pool closes each", async () => {
  const l = listener();
  const pooled = client().pooled();
  try {
    for (let i = 0; i < 3; i++) assertEquals((await pooled.request(`${l.url}/a${i}`)).status, 200);
    assertEquals(new Set(l.ports).size, 1, "three calls, one connection");
    assertEquals(l.connection, [null, null, null]);
    const plain = client();
    for (let i = 0; i < 2; i++) assertEquals(text((await plain.request(`${l.url}/b${i}`)).body), "ok");
    assertEquals(new Set(l.ports.slice(3)).size, 2, "without a pool, a connection per call");
    assert(l.ports.slice(3).every((p) => !l.ports.slice(0, 3).includes(p)));
  } finally {
    pooled.close();
    await l.close();
  }
});

Deno.test("outbound http/1.1: a pooled connection the server closed is replaced for a GET or a keyed call, not for a bare POST", async () => {
  const s = oneShot("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi");
  const pooled = client().pooled();
  try {
    assertEquals(text((await pooled.request(`${s.url}/one`)).body), "hi");
    await settle(); // the server has closed the connection the pool keeps
    assertEquals(text((await pooled.request(`${s.url}/two`)).body), "hi", "sent again on a new connection");
    await settle();
    const keyed = await pooled.request(`${s.url}/three`, {
      method: "POST",
      body: "{}",
      headers: { "Idempotency-Key": "k3" },
    });
    assertEquals(keyed.status, 200);
    await settle();
    const bare = await pooled.request(`${s.url}/four`, { method: "POST", body: "{}" }).then(
      () => null,
      (e) => e,
    );
    assertMatch(String(bare), /closed before an answer/);
    assertEquals(s.seen.map((r) => r.split(" ")[1]), ["/one", "/two", "/three"]);
    assertMatch(s.seen[2], /\r\nContent-Length: 2\r\n/);
    assertMatch(s.seen[2], /\r\n\r\n\{\}$/);
  } finally {
    pooled.close();
    await s.close();
  }
});

Deno.test("outbound http/1.1: an answer's head is read by its framing headers in any case, repeated headers joined; two lengths are refused", async () => {
  const shouting = oneShot(
    "HTTP/1.1 200 OK\r\nCONTENT-LENGTH: 2\r\nX-A: 1\r\nx-a: 2\r\nConnection: close\r\n\r\nokEXTRA",
  );
  const twoLengths = oneShot("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok!");
  const c = client();
  try {
    const a = await c.request(`${shouting.url}/`);
    assertEquals([a.status, text(a.body), a.headers.get("x-a"), a.headers.get("connection")], [
      200,
      "ok",
      "1, 2",
      "close",
    ]);
    const b = await c.request(`${twoLengths.url}/`).then(() => null, (e) => e);
    assertMatch(String(b), /Content-Length is not a number/);
  } finally {
    await shouting.close();
    await twoLengths.close();
  }
});

Deno.test("outbound http/1.1: answers that come in pieces (a head cut mid-line, a body cut in two) are read whole, pipelined ones too", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const pieces = [
    "HTTP/1.1 200 OK\r\nContent-Le",
    "ngth: 5\r\nX-N: 1\r\n\r\nfir",
    "stHTTP/1.1 201 Created\r\nContent-Length: 6\r\n\r\nsecond",
  ];
  const served = (async () => {
    for await (const conn of listener) {
      await conn.read(new Uint8Array(8192));
      for (const p of pieces) {
        await conn.write(enc.encode(p));
        await new Promise((r) => setTimeout(r, 20));
      }
      conn.close();
    }
  })().catch(() => {});
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  const pooled = client().pooled();
  try {
    const answers = await pooled.requestMany([
      { url: `${url}/a`, req: { headers: { "Idempotency-Key": "a" } } },
      { url: `${url}/b`, req: { headers: { "Idempotency-Key": "b" } } },
    ]);
    assertEquals(
      answers.map((a) =>
        a instanceof Error ? a.message : `${a.status} ${text(a.body)} ${a.headers.get("x-n")}`
      ),
      ["200 first 1", "201 second null"],
    );
  } finally {
    pooled.close();
    listener.close();
    await served;
  }
});

Deno.test("outbound http/1.1: chunked and unframed answers are read whole, and cut at the size cap", async () => {
  const big = "y".repeat(5000);
  const l = listener((req) => {
    const n = Number(new URL(req.url).searchParams.get("n"));
    // a stream: Deno.serve sends it chunked
    const body = new ReadableStream({
      start(c) {
        for (let i = 0; i < n; i++) c.enqueue(enc.encode(big));
        c.close();
      },
    });
    return new Response(body);
  });
  const raw = oneShot(`HTTP/1.1 200 OK\r\nX-Framing: none\r\n\r\n${big}`);
  const pooled = client().pooled().with({ maxBytes: 12_000 });
  try {
    const two = await pooled.request(`${l.url}/?n=2`);
    assertEquals([two.status, two.body.length, text(two.body.slice(0, 3))], [200, 10_000, "yyy"]);
    const three = await pooled.request(`${l.url}/?n=3`).then(() => null, (e) => e);
    assertMatch(String(three), /larger than 12000 bytes/);
    const unframed = await pooled.request(`${raw.url}/`);
    assertEquals([unframed.body.length, unframed.headers.get("x-framing")], [5000, "none"]);
    assertEquals(pooled.with({}).policy, pooled.policy);
  } finally {
    pooled.close();
    await l.close();
    await raw.close();
  }
});

Deno.test("outbound http/1.1: a header value with a line break or a bad name is refused before anything is sent; framing headers are the transport's", async () => {
  const l = listener((req) => new Response(req.headers.get("host") ?? ""));
  try {
    const o = client();
    const bad: Record<string, string>[] = [{ "X-A": "v\r\nX-Injected: 1" }, { "X A": "v" }, {
      "X-B": "v\nw",
    }];
    for (const headers of bad) {
      const e = await o.request(`${l.url}/`, { headers }).then(() => null, (e) => e);
      assertMatch(String(e), /cannot be sent as given/);
    }
    assertEquals(l.ports, [], "nothing reached the server");
    const res = await o.request(`${l.url}/`, { headers: { Host: "evil.example", "Content-Length": "99" } });
    assertEquals(text(res.body), new URL(l.url).host, "the Host is the URL's");
  } finally {
    await l.close();
  }
});

Deno.test("outbound http/1.1: a head or chunk line across the read buffer's end is read whole; a head over 32 KiB is refused", async () => {
  // 400 chunks of 100 bytes: their size lines fall across the 16 KiB buffer's refills
  const l = listener(() =>
    new Response(
      new ReadableStream({
        start(c) {
          for (let i = 0; i < 400; i++) c.enqueue(enc.encode(String(i % 10).repeat(100)));
          c.close();
        },
      }),
    )
  );
  const filler = (n: number) =>
    Array.from({ length: n }, (_, i) => `X-Fill-${i}: ${"v".repeat(90)}\r\n`).join("");
  const wide = oneShot(`HTTP/1.1 200 OK\r\n${filler(200)}Content-Length: 2\r\n\r\nok`);
  const huge = oneShot(`HTTP/1.1 200 OK\r\n${filler(400)}Content-Length: 2\r\n\r\nok`);
  const o = client().pooled();
  try {
    const res = await o.request(`${l.url}/`);
    assertEquals(res.body.length, 40_000);
    assertEquals(text(res.body.slice(39_900)), "9".repeat(100));
    const w = await o.request(`${wide.url}/`);
    assertEquals([text(w.body), w.headers.get("x-fill-199")?.length], ["ok", 90]);
    assertMatch(
      String(await o.request(`${huge.url}/`).then(() => null, (e) => e)),
      /longer than 32768 bytes/,
    );
  } finally {
    o.close();
    await l.close();
    await wide.close();
    await huge.close();
  }
});

Deno.test("outbound http/1.1: a server that takes the connection but never speaks TLS is cut at the connect limit", async () => {
  const silent = silentServer();
  try {
    const o = client().with({ connectTimeoutMs: 200 });
    const e = await o.request(`https://127.0.0.1:${silent.port}/`).then(() => null, (e) => e);
    assertMatch(String(e), /no connection within 200 ms/);
    assertEquals(silent.held.length, 1, "one connection, closed by the client after the limit");
  } finally {
    await silent.close();
  }
});
