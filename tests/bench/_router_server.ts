/**
 * The server side of router_bench.ts, in its own process so the load generator does not share its
 * core: `bare` serves a bare Hono 302 (the ceiling), `app` the whole app (router included) over the
 * database given: a file path, or a remote URL (sqld) with, optionally, the path of this instance's
 * embedded replica, and `panel` the panel's server that receives the callbacks-on project's
 * callbacks (_router_callbacks.ts). Prints `listening <port>`; on SIGTERM it finishes the router's
 * writes, prints `stats <json>` and exits.
 */
import "../../server/node-env.ts"; // first, as in server/main.ts: React's production server build
import { Hono } from "hono";
import { loadEnv } from "../../server/env.ts";
import { buildDeps } from "../../server/boot.ts";
import { createApp } from "../../server/app.ts";
import { listen } from "../../server/http-front.ts";

const [mode, dbPath, replicaPath] = Deno.args;
const ac = new AbortController();
let fetchHandler: (req: Request, info: { remoteAddr: Deno.NetAddr }) => Response | Promise<Response>;
let finish = (): Promise<Record<string, unknown>> => Promise.resolve({});

if (mode === "panel") {
  // the panel's server, which in life runs on another machine: what it costs this machine's two
  // cores is the bench's, not the router's, so it is as cheap as HTTP/1.1 allows: requests read
  // straight off the connection (pipelined ones answered in order, in one write), a 200 to each one
  // for /cb (404 otherwise), each counted by its idempotency key (stats: received, distinct)
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  console.log(`listening ${(listener.addr as Deno.NetAddr).port}`);
  const keys = new Set<string>();
  let received = 0, refused = 0;
  const OK = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
  const NOT_FOUND = "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n";
  const serveConn = async (conn: Deno.Conn) => {
    // latin1: one char per byte, so a body's Content-Length counts chars
    const dec = new TextDecoder("latin1"), enc = new TextEncoder();
    const buf = new Uint8Array(64 * 1024);
    let pending = "";
    try {
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) return;
        pending += dec.decode(buf.subarray(0, n));
        let out = "", close = false;
        for (;;) {
          const end = pending.indexOf("\r\n\r\n");
          if (end < 0) break;
          const head = pending.slice(0, end);
          const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
          if (pending.length < end + 4 + length) break;
          pending = pending.slice(end + 4 + length);
          const ok = /^(GET|POST) \/cb[?\s]/.test(head);
          const key = /\r\nidempotency-key:\s*([^\r]*)/i.exec(head)?.[1];
          if (ok && key) keys.add(key);
          if (ok) received++;
          else refused++;
          out += ok ? OK : NOT_FOUND;
          if (/\r\nconnection:\s*close/i.test(head)) {
            close = true;
            break;
          }
        }
        if (out) await conn.write(enc.encode(out));
        if (close) return;
      }
    } catch {
      /* the client went away */
    } finally {
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  (async () => {
    for await (const conn of listener) serveConn(conn);
  })().catch(() => {});
  Deno.addSignalListener("SIGTERM", () => {
    listener.close();
    console.log(`stats ${JSON.stringify({ received, distinct: keys.size, refused })}`);
    Deno.exit(0);
  });
} else if (mode === "bare") {
  const app = new Hono();
  app.get("/r", (c) => c.redirect("https://client.example/survey?uid=0123456789abcdef01234567", 302));
  // the receiver of the callbacks-on project's signed callbacks (_router_callbacks.ts)
  app.get("/cb", (c) => c.text("ok"));
  fetchHandler = (req) => app.fetch(req);
} else {
  const env = loadEnv({
    DATABASE_URL: /^(https?|libsql|wss?):/.test(dbPath) ? dbPath : `file:${dbPath}`,
    ...(replicaPath ? { DATABASE_REPLICA_PATH: replicaPath } : {}),
    SEED: "none",
    LOG_LEVEL: Deno.env.get("ROUTER_BENCH_LOG") ?? "silent",
    JWT_SECRET: "bench-secret-bench-secret-bench-secret",
    DENO_ENV: "development",
    HTTP_GUARD: Deno.env.get("HTTP_GUARD"),
    ROUTER_HOLDS: Deno.env.get("ROUTER_HOLDS"),
    DATABASE_CHECKPOINT: Deno.env.get("DATABASE_CHECKPOINT"),
    DATABASE_SYNC_INTERVAL: Deno.env.get("DATABASE_SYNC_INTERVAL"),
    OUTBOUND_ALLOW: Deno.env.get("OUTBOUND_ALLOW"),
  });
  const { deps, handle } = await buildDeps(env);
  const app = createApp(deps);
  const router = deps.services.router;
  fetchHandler = (req, info) => app.fetch(req, { remoteAddr: info.remoteAddr });
  finish = async () => {
    await router.idle();
    const w = router.writer;
    const stats = {
      flushes: w.flushes,
      writeBatches: w.writeBatches,
      staleBatches: w.staleBatches,
      leanBatches: w.leanBatches,
      readMs: Math.round(w.readMs),
      writeMs: Math.round(w.writeMs),
    };
    await deps.services.close();
    await handle.close();
    return stats;
  };
}

// as the server listens (server/http-front.ts): HTTP_GUARD=off measures Deno.serve instead
if (mode !== "panel") serve();

function serve() {
  const server = listen(
    loadEnv({ HTTP_GUARD: Deno.env.get("HTTP_GUARD") }),
    {
      port: 0,
      hostname: "127.0.0.1",
      signal: ac.signal,
      onListen: ({ port }) => console.log(`listening ${port}`),
    },
    fetchHandler,
  );
  Deno.addSignalListener("SIGTERM", async () => {
    ac.abort();
    await server.finished;
    console.log(`stats ${JSON.stringify(await finish())}`);
    Deno.exit(0);
  });
}
