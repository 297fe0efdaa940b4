/**
 * The outbound client's calls sent together (Outbound.requestMany over http1's pipelining): calls
 * to one server are written on one kept-alive connection and answered in order; a refused call
 * is an error in its place; a redirect is followed on its own; a server that ends the connection
 * after one answer still answers every call (the rest on new connections), and is sent one call
 * at a time from then on.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { outboundFor } from "../../server/boot.ts";
import { loadEnv } from "../../server/env.ts";
import { OutboundRefused } from "../../server/domain/common/outbound/client.ts";
import { silentServer } from "../helpers/net.ts";

const client = () => outboundFor(loadEnv({ OUTBOUND_ALLOW: "127.0.0.1" }));
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const enc = new TextEncoder();

Deno.test("outbound pipelining: calls to one server go on one connection, answered in order; a refused call and a redirect each get their own answer", async () => {
  const ports: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req, info) => {
    ports.push(info.remoteAddr.port);
    const path = new URL(req.url).pathname;
    if (path === "/moved") return new Response(null, { status: 302, headers: { location: "/there" } });
    return new Response(`${path} ${req.headers.get("idempotency-key") ?? ""}`, {
      headers: { "x-path": path },
    });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const pooled = client().pooled();
  try {
    const calls = [0, 1, 2, 3, 4].map((i) => ({
      url: `${url}/c${i}`,
      req: { headers: { "Idempotency-Key": `k${i}` } },
    }));
    const answers = await pooled.requestMany(calls);
    assertEquals(answers.map((a) => a instanceof Error ? a.message : text(a.body)), [
      "/c0 k0",
      "/c1 k1",
      "/c2 k2",
      "/c3 k3",
      "/c4 k4",
    ]);
    assertEquals(new Set(ports).size, 1, "five calls, one connection");
    // each answer's own headers (made when first read), in a copy of an answer too
    const copy = { ...answers[4] } as { headers?: Headers };
    assertEquals(copy.headers?.get("x-path"), "/c4");
    assertEquals(answers.map((a) => a instanceof Error ? "" : a.headers.get("x-path")), [
      "/c0",
      "/c1",
      "/c2",
      "/c3",
      "/c4",
    ]);

    const mixed = await pooled.requestMany([
      { url: `${url}/a` },
      { url: "http://10.1.2.3/internal" },
      { url: `${url}/moved` },
      { url: `${url}/b`, req: { method: "POST", body: "{}" } },
    ]);
    assertEquals(mixed[0] instanceof Error ? "" : text(mixed[0].body), "/a ");
    assert(mixed[1] instanceof OutboundRefused, "the policy's refusal, in its place");
    assert(!(mixed[2] instanceof Error));
    assertEquals([mixed[2].status, mixed[2].url, text(mixed[2].body)], [200, `${url}/there`, "/there "]);
    assertEquals(mixed[2].headers.get("x-path"), "/there", "the last hop's headers");
    assertEquals(mixed[3] instanceof Error ? "" : text(mixed[3].body), "/b ");
  } finally {
    pooled.close();
    await server.shutdown();
  }
});

Deno.test("outbound pipelining: a server that closes after one answer still answers every call, and gets one call per connection from then on", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  // per connection: the requests its first read held
  const seen: string[][] = [];
  const done = (async () => {
    for await (const conn of listener) {
      const buf = new Uint8Array(16 * 1024);
      const n = await conn.read(buf);
      const got = text(buf.subarray(0, n ?? 0)).split("\r\n\r\n").filter(Boolean).map((r) => r.split(" ")[1]);
      seen.push(got);
      const body = got[0] ?? "";
      await conn.write(
        enc.encode(`HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`),
      );
      conn.close();
    }
  })().catch(() => {});
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  const pooled = client().pooled();
  try {
    const answers = await pooled.requestMany(["/x1", "/x2", "/x3"].map((p) => ({ url: url + p })));
    assertEquals(answers.map((a) => a instanceof Error ? a.message : text(a.body)), ["/x1", "/x2", "/x3"]);
    assertEquals(seen[0], ["/x1", "/x2", "/x3"], "written together on the first connection");
    assertEquals(
      seen.flat().filter((p) => p === "/x3").length >= 2,
      true,
      "the rest sent again on a new connection",
    );
    const before = seen.length;
    const later = await pooled.requestMany(["/y1", "/y2"].map((p) => ({ url: url + p })));
    assertEquals(later.map((a) => a instanceof Error ? a.message : text(a.body)), ["/y1", "/y2"]);
    assertEquals(seen.slice(before).map((s) => s.length), [1, 1], "one call per connection now");
  } finally {
    pooled.close();
    listener.close();
    await done;
  }
});

Deno.test("outbound pipelining: a server that never answers fails every call of the batch at the time limit", async () => {
  const silent = silentServer();
  const pooled = client().pooled().with({ timeoutMs: 300 });
  try {
    const answers = await pooled.requestMany([1, 2, 3].map((i) => ({ url: `${silent.url}/h${i}` })));
    assertEquals(answers.length, 3);
    for (const a of answers) {
      assertMatch(a instanceof Error ? a.message : "answered", /no complete answer in time/);
    }
  } finally {
    pooled.close();
    await silent.close();
  }
});

Deno.test("outbound pipelining: a server that answers the first of a batch and ignores the rest is sent one call per connection from then on", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: string[][] = [];
  const open: Deno.Conn[] = [];
  const done = (async () => {
    for await (const conn of listener) {
      open.push(conn);
      (async () => {
        const buf = new Uint8Array(16 * 1024);
        // every read: the first request it holds is answered, the others dropped (the connection stays)
        for (;;) {
          const n = await conn.read(buf).catch(() => null);
          if (!n) break;
          const got = text(buf.subarray(0, n)).split("\r\n\r\n").filter(Boolean).map((r) => r.split(" ")[1]);
          seen.push(got);
          const body = got[0] ?? "";
          await conn.write(enc.encode(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`))
            .catch(() => {});
        }
      })();
    }
  })().catch(() => {});
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  const pooled = client().pooled().with({ timeoutMs: 300 });
  try {
    const first = await pooled.requestMany(["/z1", "/z2"].map((p) => ({ url: url + p })));
    assertEquals(first[0] instanceof Error ? first[0].message : text(first[0].body), "/z1");
    assertMatch(first[1] instanceof Error ? first[1].message : "answered", /no complete answer in time/);
    const before = seen.length;
    const later = await pooled.requestMany(["/w1", "/w2"].map((p) => ({ url: url + p })));
    assertEquals(later.map((a) => a instanceof Error ? a.message : text(a.body)), ["/w1", "/w2"]);
    assert(seen.slice(before).every((s) => s.length === 1), "one call per write from then on");
  } finally {
    pooled.close();
    listener.close();
    open.forEach((c) => c.close());
    await done;
  }
});

Deno.test("outbound pipelining: each answer's body stays its own when many answers fill the reader's buffer again and again", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const n = new URL(req.url).pathname.slice(1);
    return new Response(`${n}:`.padEnd(60 + (Number(n) % 7), String.fromCharCode(97 + (Number(n) % 26))));
  });
  const pooled = client().pooled();
  try {
    const calls = Array.from({ length: 150 }, (_, i) => ({
      url: `http://127.0.0.1:${server.addr.port}/${i}`,
      req: { headers: { "Idempotency-Key": `b${i}` } },
    }));
    // ~24 KB of answers through a 2 KB buffer: the bodies handed out early are read after the last
    const answers = await pooled.requestMany(calls);
    assertEquals(
      answers.map((a) => a instanceof Error ? a.message : text(a.body)),
      calls.map((_, i) => `${i}:`.padEnd(60 + (i % 7), String.fromCharCode(97 + (i % 26)))),
    );
  } finally {
    pooled.close();
    await server.shutdown();
  }
});
