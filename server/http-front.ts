/**
 * The listening socket, with bounds a slow or stalling client cannot get around.
 *
 * Deno.serve (Deno 2.9) has no header, body or idle time-out and does not show connections to the
 * handler: a client that trickles its headers or body, or keeps an idle connection open, holds it
 * (and its buffers) for ever. Deno's node:http server does have them (headersTimeout,
 * requestTimeout, keepAliveTimeout, enforced by its connections check) and hands over each socket,
 * so it fronts the app here: each request becomes a fetch Request for `app.fetch`, each Response is
 * written back, streamed. Bounds:
 * - headers: the whole header block within `headersMs` of the request's first byte;
 * - request: headers and the whole body within `requestMs` (a total per request: a trickled body is
 *   cut with a 408 and the connection closed);
 * - idle: a keep-alive connection with no request for `idleMs` is closed;
 * - per address: at most `perAddress` open connections from one socket address; more are closed
 *   at once (0: no cap; behind a proxy every client shares the proxy's address, so main.ts turns
 *   it off there).
 * A client that goes away before its body is in gets a 400 (nobody reads it) and no error line.
 * `HTTP_GUARD=off` serves through Deno.serve instead (faster, unbounded: only behind a proxy that
 * bounds clients itself; `auto`, the default, chooses so behind a trusted proxy).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { HttpError } from "./http/errors.ts";
import { BODY_INCOMPLETE } from "./http/validate.ts";

export type FrontLimits = { headersMs: number; requestMs: number; idleMs: number; perAddress: number };

export type FrontOptions = {
  port: number;
  hostname: string;
  signal: AbortSignal;
  limits: FrontLimits;
  onListen?: (addr: { hostname: string; port: number }) => void;
  /** A refused or cut client, for a debug line (nothing at info). */
  onRefused?: (why: string, address: string) => void;
};

export type FrontHandler = (
  req: Request,
  info: { remoteAddr: Deno.NetAddr },
) => Response | Promise<Response>;

const NO_BODY = new Set(["GET", "HEAD"]);

/** `::ffff:1.2.3.4` (an IPv4 client of a dual-stack socket) is 1.2.3.4, as Deno.serve says. */
export function plainAddress(a: string | undefined): string {
  if (!a) return "";
  return a.startsWith("::ffff:") && a.includes(".") ? a.slice(7) : a;
}

/** The request body as a stream that follows the socket's pace (paused while nobody reads). */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(ctrl) {
      req.on("data", (chunk: Uint8Array) => {
        // a copy: the socket's read buffer is not the body's to keep
        ctrl.enqueue(new Uint8Array(chunk));
        if ((ctrl.desiredSize ?? 0) <= 0) req.pause();
      });
      req.on("end", () => ctrl.close());
      const gone = () => {
        if (!req.complete) {
          try {
            ctrl.error(new HttpError(400, BODY_INCOMPLETE));
          } catch { /* already closed or errored */ }
        }
      };
      req.on("aborted", gone);
      req.on("error", gone);
      req.on("close", gone);
    },
    pull() {
      req.resume();
    },
    cancel() {
      // the rest is not wanted: left unread, and the socket goes once the answer is out
      req.pause();
    },
  }, { highWaterMark: 1 });
}

function toRequest(req: IncomingMessage, fallbackHost: string, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const target = req.url ?? "/";
  const url = target.startsWith("/") ? `http://${req.headers.host || fallbackHost}${target}` : target;
  const method = req.method ?? "GET";
  return new Request(url, {
    method,
    headers,
    signal,
    ...(NO_BODY.has(method) ? {} : { body: bodyOf(req), duplex: "half" } as RequestInit),
  });
}

/**
 * Writes `r` to `res`, streamed. A request whose body is not all in (answered before it was read,
 * or refused part way) closes its connection after the answer: a body nobody reads is not drained,
 * however slowly it comes.
 */
async function send(req: IncomingMessage, res: ServerResponse, r: Response): Promise<void> {
  const head = req.method === "HEAD";
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of r.headers) if (k !== "set-cookie") out[k] = v;
  const cookies = r.headers.getSetCookie();
  if (cookies.length) out["set-cookie"] = cookies;
  if (!req.complete) out.connection = "close";
  res.once("finish", () => {
    if (!req.complete) req.socket.destroy();
  });
  res.writeHead(r.status, r.statusText || undefined, out);
  if (!r.body || head) {
    await r.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = r.body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel().catch(() => {});
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off("drain", go);
            res.off("close", go);
            resolve();
          };
          res.on("drain", go);
          res.on("close", go);
        });
      }
    }
  } catch {
    // the response's own stream failed or the client left: nothing more can be said on this socket
    gone = true;
  } finally {
    res.off("close", onClose);
  }
  if (gone) res.destroy();
  else res.end();
}

/** Serves `handler` on hostname:port behind the bounds; `finished` settles once it has closed. */
export function serveGuarded(opts: FrontOptions, handler: FrontHandler): { finished: Promise<void> } {
  const { limits } = opts;
  const server = createServer({
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    keepAliveTimeout: limits.idleMs,
    // the time-outs are checked this often (Node's default, 30 s, would let a cut come that late)
    connectionsCheckingInterval: Math.max(250, Math.min(1_000, Math.floor(limits.headersMs / 4))),
  });
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress);
    if (limits.perAddress > 0) {
      const n = (open.get(address) ?? 0) + 1;
      if (n > limits.perAddress) {
        opts.onRefused?.("too many connections from one address", address);
        socket.destroy();
        return;
      }
      open.set(address, n);
      socket.once("close", () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    }
    // a socket reset mid-request is that client's business, not a server error
    socket.on("error", () => {});
  });
  // malformed requests and time-outs: Node answers 400/408/431 itself and closes; at debug only
  server.on("clientError", (err: Error & { code?: string }, socket: Socket) => {
    opts.onRefused?.(err.code ?? err.message, plainAddress(socket.remoteAddress));
    if (socket.writable) {
      socket.end(
        err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"
          : err.code === "HPE_HEADER_OVERFLOW"
          ? "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n"
          : "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
      );
    }
    socket.destroy();
  });
  const fallbackHost = `${opts.hostname.includes(":") ? `[${opts.hostname}]` : opts.hostname}:${opts.port}`;
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    answer(req, res).catch(() => {
      // a response that cannot be written (a header Node refuses, a socket gone): end the connection
      res.destroy();
    });
  });
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const ac = new AbortController();
    // the client went away before the answer was all written (a stream it no longer reads): tell the
    // handler; after a whole answer nobody listens, and an abort costs a DOMException per request
    res.once("close", () => {
      if (!res.writableFinished) ac.abort();
    });
    const remoteAddr: Deno.NetAddr = {
      transport: "tcp",
      hostname: plainAddress(req.socket.remoteAddress),
      port: req.socket.remotePort ?? 0,
    };
    let request: Request;
    try {
      request = toRequest(req, fallbackHost, ac.signal);
    } catch {
      res.writeHead(400, { "content-type": "text/plain", connection: "close" }).end("Bad request");
      return;
    }
    let response: Response;
    try {
      response = await handler(request, { remoteAddr });
    } catch {
      response = new Response("Internal error", { status: 500 });
    }
    if (res.destroyed) {
      await response.body?.cancel().catch(() => {});
      return;
    }
    await send(req, res, response);
  };
  const finished = new Promise<void>((resolve) => server.once("close", () => resolve()));
  // a port that cannot be had stops the start-up with one line, as Deno.serve's AddrInUse does
  const cannotListen = (e: Error) => {
    console.error(`cannot listen on ${fallbackHost}: ${e.message}`);
    Deno.exit(1);
  };
  server.once("error", cannotListen);
  server.listen(opts.port, opts.hostname, () => {
    server.off("error", cannotListen);
    const a = server.address();
    const port = a && typeof a === "object" ? a.port : opts.port;
    opts.onListen?.({ hostname: opts.hostname, port });
  });
  opts.signal.addEventListener("abort", () => {
    // stop accepting; idle keep-alive connections go now, requests under way finish
    server.close();
    server.closeIdleConnections();
  }, { once: true });
  return { finished };
}

/**
 * The bounds from the environment. The per-address cap counts socket addresses: behind a trusted
 * proxy (TRUST_PROXY_HOPS, CLIENT_IP_HEADER) they are all the proxy's, so there it is off.
 */
export function frontLimits(env: {
  HTTP_HEADERS_TIMEOUT: number;
  HTTP_REQUEST_TIMEOUT: number;
  HTTP_IDLE_TIMEOUT: number;
  HTTP_MAX_CONNECTIONS_PER_IP: number;
  TRUST_PROXY_HOPS: number;
  CLIENT_IP_HEADER?: string;
}): FrontLimits {
  const proxied = env.TRUST_PROXY_HOPS > 0 || !!env.CLIENT_IP_HEADER;
  return {
    headersMs: env.HTTP_HEADERS_TIMEOUT,
    requestMs: env.HTTP_REQUEST_TIMEOUT,
    idleMs: env.HTTP_IDLE_TIMEOUT,
    perAddress: proxied ? 0 : env.HTTP_MAX_CONNECTIONS_PER_IP,
  };
}

/**
 * Whether the guarded front serves: HTTP_GUARD=on; off: Deno.serve; auto (the default): on when
 * clients connect directly, off behind a trusted proxy (TRUST_PROXY_HOPS, CLIENT_IP_HEADER), which
 * bounds slow clients itself (nginx's client_header_timeout, client_body_timeout, keepalive_timeout;
 * a cloud load balancer's own) and in front of which Deno.serve is the faster listener.
 */
export function guarded(
  env: { HTTP_GUARD: "auto" | "on" | "off"; TRUST_PROXY_HOPS: number; CLIENT_IP_HEADER?: string },
): boolean {
  if (env.HTTP_GUARD !== "auto") return env.HTTP_GUARD === "on";
  return !(env.TRUST_PROXY_HOPS > 0 || !!env.CLIENT_IP_HEADER);
}

/** Listens as the environment says (`guarded`). The server and the router bench both listen here. */
export function listen(
  env: Parameters<typeof frontLimits>[0] & { HTTP_GUARD: "auto" | "on" | "off" },
  opts: Omit<FrontOptions, "limits">,
  handler: FrontHandler,
): { finished: Promise<void> } {
  if (guarded(env)) return serveGuarded({ ...opts, limits: frontLimits(env) }, handler);
  return Deno.serve({
    port: opts.port,
    hostname: opts.hostname,
    signal: opts.signal,
    onListen: opts.onListen,
  }, handler);
}
