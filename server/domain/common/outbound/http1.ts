/**
 * The outbound client's network side: HTTP/1.1 written and read here, over Deno.connect to the
 * address the policy checked (TLS started on that socket with the URL's name, so SNI and the
 * certificate check use the name). Deno's fetch cannot pin an address (Deno.createHttpClient takes
 * no resolver) and reads HTTP(S)_PROXY; node:http can, but costs about six times the CPU per call,
 * which a router sending a callback per outcome pays on its one thread (issue 23: callbacks on must
 * keep 0.9x of the router's throughput).
 *
 * With a ConnectionPool, connections are kept alive between calls to the same origin at the same
 * checked address (a different address after a new look-up is another connection: no rebinding
 * through a pooled socket). A pooled connection idle longer than `idleMs` (2 s, under the usual
 * servers' 5 s and more) is closed, not used. A server may still close one just as it is taken: a
 * call on a reused connection that gets no byte of answer is sent once more on a new connection
 * when that is safe (GET, PUT, or a call with an Idempotency-Key: supplier callbacks carry one).
 * Without a pool every call has its own connection and says `Connection: close`. Calls sent together
 * (`many`, Outbound.requestMany) that are safe to repeat are pipelined: written in one go on one
 * connection per origin and address, answered in order (see http1Transport).
 *
 * Bounds: the connection within `connectTimeoutMs`, the whole call within the deadline, the
 * answer's head within 32 KiB, its body within `maxBytes` (whatever its framing: length, chunked or
 * until the connection closes). Headers a caller passes are checked (no CR, LF or NUL, names are
 * tokens) and the ones that frame the message are the transport's own: no request smuggling.
 */
import type { Transport } from "./transport.ts";
import { type ConnectionPool, quietClose } from "./pool.ts";
import { AnswerReader, concat, headersOf, NothingBack } from "./answer-reader.ts";
import { once } from "../../../lib/memo.ts";

export { ConnectionPool } from "./pool.ts";
export { concat, MAX_ANSWER_HEAD, tooLarge } from "./answer-reader.ts";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const UNSAFE_VALUE = /[\r\n\0]/;
/** Headers that frame the message: the transport writes them, a caller's are dropped. */
const FRAMING: ReadonlySet<string> = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-connection",
]);

/** One encoder for every call (it keeps no state between uses). */
const encoder = once(() => new TextEncoder());

const TOO_LATE = "no complete answer in time";

type Call = Parameters<Transport>[0];
/** A call's answer, or why it has none. */
export type Answered = Awaited<ReturnType<Transport>> | Error;

/** Whether a call may be sent again when a connection fails before its answer (RFC 9110 9.2.2). */
const retryable = (x: Call) => {
  if (x.method === "GET" || x.method === "PUT") return true;
  for (const k in x.headers) if (k.length === 15 && k.toLowerCase() === "idempotency-key") return true;
  return false;
};

/**
 * The transport over a pool (keep-alive) or without one (a connection per call), and `many`: calls
 * sent together, those to one origin and address that may be sent again (retryable) written in one
 * go on one kept-alive connection and answered in order (HTTP/1.1 pipelining, RFC 9112 9.3.2): a
 * batch of supplier callbacks costs one write and a few reads instead of a round trip each. An
 * answer that ends the connection (Connection: close) leaves the calls behind it to a new
 * connection; an origin that did not answer every call of a batch is sent one call at a time from
 * then on (the pool remembers it).
 */
export function http1Transport(
  pool?: ConnectionPool,
): Transport & { many: (xs: Call[]) => Promise<Answered[]> } {
  const cas = new WeakMap<string[], number>();
  const keyOf = (x: Call) => {
    const secure = x.url.protocol === "https:";
    const port = Number(x.url.port || (secure ? 443 : 80));
    // a private CA set is its own pool (tests): a connection verified under one is not another's
    const ca = x.caCerts ? cas.get(x.caCerts) ?? cas.set(x.caCerts, Math.random()).get(x.caCerts) : 0;
    return { key: `${x.url.protocol}//${x.url.hostname}:${port}@${x.address}#${ca}`, port, secure };
  };
  const one = async (x: Call) => {
    const { key, port, secure } = keyOf(x);
    const [a] = await send(pool, { key, port, secure }, [x]);
    if (a instanceof Error) throw a;
    return a;
  };
  const many = async (xs: Call[]): Promise<Answered[]> => {
    const out: Answered[] = new Array(xs.length);
    const alone: number[] = [];
    const groups = new Map<string, { at: ReturnType<typeof keyOf>; idx: number[] }>();
    xs.forEach((x, i) => {
      const at = keyOf(x);
      if (!pool || !retryable(x) || pool.serial(at.key)) return void alone.push(i);
      const g = groups.get(at.key) ?? { at, idx: [] };
      g.idx.push(i);
      groups.set(at.key, g);
    });
    await Promise.all([
      ...alone.map(async (i) => out[i] = await one(xs[i]).catch(asError)),
      ...[...groups.values()].map(async ({ at, idx }) => {
        const answers = await send(pool, at, idx.map((i) => xs[i]));
        idx.forEach((i, j) => out[i] = answers[j]);
      }),
    ]);
    return out;
  };
  return Object.assign(one, { many });
}

/** What was thrown, as an Error (an answer's place holds one or the other). */
export const asError = (e: unknown) => e instanceof Error ? e : new Error(String(e));

/**
 * Sends calls to one origin and address, in order, on one connection at a time: a pooled one or a
 * new one (all written at once, their answers read in turn). A connection that fails before a
 * call's answer began is replaced when that is safe: the call was retryable and the connection was
 * a reused one, or answered calls before it (a server closing after so many). A call whose answer
 * failed otherwise gets its error; the calls after it go on a new connection.
 */
async function send(
  pool: ConnectionPool | undefined,
  at: { key: string; port: number; secure: boolean },
  xs: Call[],
): Promise<Answered[]> {
  const out: Answered[] = new Array(xs.length);
  const requests: Wire[] = new Array(xs.length);
  let todo: number[] = [];
  xs.forEach((x, i) => {
    try {
      if (x.deadline.aborted) throw new Error(TOO_LATE);
      requests[i] = requestWire(x, !pool);
      todo.push(i);
    } catch (e) {
      out[i] = asError(e);
    }
  });
  let reused = pool?.take(at.key) ?? null;
  while (todo.length) {
    const calls = todo.map((i) => xs[i]);
    let conn: Deno.Conn;
    try {
      conn = reused ?? await connect(calls[0], at.port, at.secure);
    } catch (e) {
      for (const i of todo) out[i] = asError(e);
      break;
    }
    const wasReused = reused !== null;
    reused = null;
    const { answers, failure } = await exchange(conn, todo.map((i) => requests[i]), calls);
    answers.forEach((a, j) => out[todo[j]] = a);
    const last = answers.at(-1);
    if (!failure && answers.length === todo.length && last?.reusable && pool) pool.give(at.key, conn);
    else quietClose(conn);
    const rest = todo.slice(answers.length);
    // a server that answered some of the calls written together but not all (it closed the
    // connection, or went silent: some servers and proxies drop pipelined requests) gets one call per
    // connection from then on
    if (rest.length && answers.length && todo.length > 1) pool?.markSerial(at.key);
    todo = rest;
    if (!rest.length) break;
    // the server ended the connection after answering some: the rest on a new one
    if (!failure) continue;
    if (xs[rest[0]].deadline.aborted) {
      for (const i of rest) out[i] = new Error(TOO_LATE);
      break;
    }
    if (failure.nothing && (wasReused || answers.length > 0) && retryable(xs[rest[0]])) continue;
    out[rest[0]] = asError(
      failure.nothing ? (failure.error as NothingBack).cause ?? failure.error : failure.error,
    );
    todo = rest.slice(1);
  }
  return out;
}

/** A request as written: its head (request line and headers, ASCII) and its body's bytes. */
type Wire = { head: string; body: Uint8Array | null };

/** The request line, headers and body: the caller's headers checked, framing our own. */
function requestWire(x: Parameters<Transport>[0], close: boolean): Wire {
  let head = `${x.method} ${x.url.pathname || "/"}${x.url.search} HTTP/1.1\r\nHost: ${x.url.host}\r\n`;
  for (const name in x.headers) {
    const value = x.headers[name];
    if (!TOKEN.test(name) || UNSAFE_VALUE.test(value)) {
      throw new Error(`the header ${JSON.stringify(name.slice(0, 100))} cannot be sent as given`);
    }
    if (!FRAMING.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
  }
  const body = x.body === undefined ? null : encoder().encode(x.body);
  if (body || x.method !== "GET") head += `Content-Length: ${body?.length ?? 0}\r\n`;
  if (close) head += "Connection: close\r\n";
  return { head: head + "\r\n", body: body?.length ? body : null };
}

/**
 * Requests as the bytes written in one go: the heads between bodies encoded together (pipelined GETs:
 * one encoding, one buffer, whatever their number).
 */
function wireBytes(requests: Wire[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let heads = "";
  for (const r of requests) {
    heads += r.head;
    if (!r.body) continue;
    parts.push(encoder().encode(heads), r.body);
    heads = "";
  }
  if (!parts.length) return encoder().encode(heads);
  if (heads) parts.push(encoder().encode(heads));
  return concat(parts, parts.reduce((n, b) => n + b.length, 0));
}

/** A connection to the checked address within the connect time limit (and the call's deadline). */
async function connect(x: Parameters<Transport>[0], port: number, secure: boolean): Promise<Deno.Conn> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no connection within ${x.connectTimeoutMs} ms`)),
      x.connectTimeoutMs,
    );
    onAbort = () => reject(new Error(TOO_LATE));
    x.deadline.addEventListener("abort", onAbort, { once: true });
  });
  const tcp = Deno.connect({ hostname: x.address, port });
  let conn: Deno.Conn | null = null;
  try {
    conn = await Promise.race([tcp, limit]);
    (conn as Deno.TcpConn).setNoDelay(true);
    if (secure) {
      const tls = await Deno.startTls(conn as Deno.TcpConn, {
        hostname: x.url.hostname.replace(/^\[|\]$/g, ""),
        ...(x.caCerts ? { caCerts: x.caCerts } : {}),
      });
      conn = tls;
      const handshake = tls.handshake();
      handshake.catch(() => {}); // when the limit wins, the close below fails it: nobody waits then
      await Promise.race([handshake, limit]);
    }
    return conn;
  } catch (e) {
    if (conn) quietClose(conn);
    else tcp.then(quietClose, () => {}); // late: closed when it comes
    throw e;
  } finally {
    clearTimeout(timer);
    x.deadline.removeEventListener("abort", onAbort);
  }
}

type Answer = { status: number; headers: Headers; body: Uint8Array; reusable: boolean };

/**
 * Writes the requests (in one go) and reads their answers in order (skipping 1xx), until one ends
 * the connection. `failure`: the answer after the last one failed; `nothing`: no byte of it came.
 */
async function exchange(
  conn: Deno.Conn,
  requests: Wire[],
  xs: Call[],
): Promise<{ answers: Answer[]; failure?: { error: unknown; nothing: boolean } }> {
  // the first deadline to pass ends the connection, and every call still on it
  const signals = [...new Set(xs.map((x) => x.deadline))];
  const deadline = signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  const onAbort = () => quietClose(conn);
  deadline.addEventListener("abort", onAbort, { once: true });
  const r = new AnswerReader(conn);
  const answers: Answer[] = [];
  try {
    const request = wireBytes(requests);
    try {
      for (let at = 0; at < request.length;) at += await conn.write(request.subarray(at));
    } catch (e) {
      return {
        answers,
        failure: { error: new NothingBack("the connection failed", { cause: e }), nothing: true },
      };
    }
    for (const x of xs) {
      r.next();
      // awaited only when the answer is not all here yet
      let h = r.head();
      let head = h instanceof Promise ? await h : h;
      while (head.status >= 100 && head.status < 200) {
        if (head.status === 101) throw new Error("the server switched protocols");
        h = r.head();
        head = h instanceof Promise ? await h : h;
      }
      const b = head.status === 204 || head.status === 304
        ? { bytes: new Uint8Array(0), framed: true }
        : r.body(head, x.maxBytes);
      const body = b instanceof Promise ? await b : b;
      const reusable = head.keepAlive && body.framed;
      const lines = head.lines;
      let headers: Headers | null = null;
      answers.push({
        status: head.status,
        // made when asked for (a callback's sender reads only the status); an own getter, so a copy
        // of the answer ({ ...answer }) still has them
        get headers() {
          return headers ??= headersOf(lines);
        },
        body: body.bytes,
        reusable,
      });
      if (!reusable) break;
    }
    return { answers };
  } catch (e) {
    const nothing = e instanceof NothingBack;
    return { answers, failure: { error: deadline.aborted && !nothing ? new Error(TOO_LATE) : e, nothing } };
  } finally {
    deadline.removeEventListener("abort", onAbort);
  }
}
