/**
 * Slow clients against the real server process (server/http-front.ts): connections that trickle
 * their headers or their body, idle keep-alive connections and clients that leave mid-body are cut
 * by the header, request and idle bounds while the server keeps answering others; one address
 * cannot open more than HTTP_MAX_CONNECTIONS_PER_IP connections; nothing of it is an error line.
 * Loopback only, a bounded number of connections (SLOW_CLIENTS, default 240) and a bounded time.
 * The RSS of the server before, during and after is printed (not asserted).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { startServer } from "../helpers/process.ts";

const enc = new TextEncoder();
const COUNT = Number(Deno.env.get("SLOW_CLIENTS") ?? 240);
/** Nothing here may take longer than this: a connection still open then was never cut. */
const WAIT_MS = 45_000;

type Slow = { done: Promise<{ cut: boolean; answer: string }>; stop(): void };

/**
 * A connection that writes `first`, then one byte of `drip` every `everyMs`, and reads until the
 * server closes it (cut: true) or WAIT_MS passes (cut: false).
 */
async function slow(port: number, first: string, drip = "", everyMs = 300): Promise<Slow> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  let stopped = false;
  let i = 0;
  if (first) await conn.write(enc.encode(first));
  const timer = drip
    ? setInterval(() => {
      if (stopped) return;
      conn.write(enc.encode(drip[i++ % drip.length])).catch(() => (stopped = true));
    }, everyMs)
    : undefined;
  const done = (async () => {
    let answer = "";
    const buf = new Uint8Array(4096);
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      conn.close();
    }, WAIT_MS);
    try {
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        answer += new TextDecoder().decode(buf.subarray(0, n));
      }
    } catch {
      /* a reset by the server is a cut too; our own close at the deadline is not */
    } finally {
      clearTimeout(deadline);
      clearInterval(timer);
      stopped = true;
      try {
        conn.close();
      } catch { /* closed */ }
    }
    return { cut: !timedOut, answer };
  })();
  return {
    done,
    stop() {
      stopped = true;
    },
  };
}

async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

const errorLines = (out: string) =>
  out.split("\n").filter((l) => /"level":"error"|unhandled error|\bstack\b/i.test(l));

Deno.test("slow clients: trickled headers and bodies, idle keep-alives and leavers are cut, the server answers meanwhile", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-slow-" });
  await using server = await startServer(`${dir}/db.sqlite`, {
    HTTP_HEADERS_TIMEOUT: "2",
    HTTP_REQUEST_TIMEOUT: "4",
    HTTP_IDLE_TIMEOUT: "2",
    HTTP_MAX_CONNECTIONS_PER_IP: String(COUNT * 2),
  });
  try {
    const port = Number(new URL(server.url).port);
    const before = await rssMb(server.pid);
    const third = Math.floor(COUNT / 3);
    const body = JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }).padEnd(900);
    const post = (path: string) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const clients: Slow[] = [];
    for (let i = 0; i < third; i++) {
      // headers that never end
      clients.push(await slow(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n", "X-Slow: a\r\n"));
      // a body that trickles: to a call that reads its body (login), and to one that answers first (401)
      clients.push(await slow(port, post(i % 2 ? "/api/v1/admin/login" : "/api/v1/admin/users"), body));
      // a keep-alive connection left idle after its answer
      clients.push(await slow(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    }
    // clients that leave half way through their body
    for (let i = 0; i < 20; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(enc.encode(post("/api/v1/admin/login") + body.slice(0, 100)));
      await new Promise((r) => setTimeout(r, 20));
      conn.close();
    }
    // the server answers others while they hang on
    const during = await rssMb(server.pid);
    for (let i = 0; i < 5; i++) {
      const res = await server.fetch("/healthz");
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }
    let peak = during;
    const sampler = setInterval(
      () => rssMb(server.pid).then((mb) => (peak = Math.max(peak, mb)), () => {}),
      500,
    );
    const results = await Promise.all(clients.map((c) => c.done)).finally(() => clearInterval(sampler));
    const open = results.filter((r) => !r.cut).length;
    assertEquals(open, 0, `${open} of ${results.length} slow connections were never cut`);
    // the trickled requests were told why (or just closed), never a 5xx
    for (const r of results) assert(!/^HTTP\/1\.1 5/m.test(r.answer), r.answer.slice(0, 200));
    assert(results.some((r) => r.answer.startsWith("HTTP/1.1 408")), "a request time-out says 408");
    await new Promise((r) => setTimeout(r, 1500));
    const after = await rssMb(server.pid);
    console.log(
      `server RSS: before ${before} MB, during ${during} MB (peak ${peak}), after ${after} MB (${results.length} clients)`,
    );
    const res = await server.fetch("/healthz");
    assertEquals(res.status, 200);
    await res.body?.cancel();
    assertEquals(errorLines(server.output()), []);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("slow clients: one address holds at most HTTP_MAX_CONNECTIONS_PER_IP connections", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-slow-" });
  await using server = await startServer(`${dir}/db.sqlite`, {
    HTTP_HEADERS_TIMEOUT: "60",
    HTTP_REQUEST_TIMEOUT: "60",
    HTTP_IDLE_TIMEOUT: "60",
    HTTP_MAX_CONNECTIONS_PER_IP: "10",
  });
  try {
    const port = Number(new URL(server.url).port);
    // ten idle connections that have sent nothing (with the start-up health check's, kept alive, over the cap)
    const held: Deno.TcpConn[] = [];
    for (let i = 0; i < 10; i++) held.push(await Deno.connect({ hostname: "127.0.0.1", port }));
    const extra = await slow(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    const r = await extra.done;
    assert(r.cut && r.answer === "", `the connection over the cap was served: ${r.answer.slice(0, 80)}`);
    // they leave: a new connection is served
    for (const c of held.splice(0)) c.close();
    let served = false;
    for (let i = 0; i < 50 && !served; i++) {
      const again = await slow(port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      served = (await again.done).answer.startsWith("HTTP/1.1 200");
      if (!served) await new Promise((res) => setTimeout(res, 50));
    }
    assert(served, "a connection under the cap is served");
    assertEquals(errorLines(server.output()), []);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("slow clients: with HTTP_GUARD=off (Deno.serve), a client that leaves mid-body is a 400, not an error line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-slow-" });
  await using server = await startServer(`${dir}/db.sqlite`, { HTTP_GUARD: "off" });
  try {
    const port = Number(new URL(server.url).port);
    const body = JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }).padEnd(900);
    for (let i = 0; i < 10; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(enc.encode(
        `POST /api/v1/admin/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${
          body.slice(0, 100)
        }`,
      ));
      await new Promise((r) => setTimeout(r, 50));
      conn.close();
    }
    const seen = () =>
      server.output().split("\n").filter((l) => l.includes('"path":"/api/v1/admin/login"')).length;
    for (let i = 0; i < 200 && seen() < 10; i++) await new Promise((r) => setTimeout(r, 25));
    assertEquals(errorLines(server.output()), []);
    assertEquals(seen(), 10, "each left request is logged once, as a 4xx");
    assert(!/"path":"\/api\/v1\/admin\/login","status":5/.test(server.output()));
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
