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
 * Without a pool every call has its own connection and says `Connection: close`.
 *
 * Bounds: the connection within `connectTimeoutMs`, the whole call within the deadline, the
 * answer's head within 32 KiB, its body within `maxBytes` (whatever its framing: length, chunked or
 * until the connection closes). Headers a caller passes are checked (no CR, LF or NUL, names are
 * tokens) and the ones that frame the message are the transport's own: no request smuggling.
 */
import type { Transport } from "./transport.ts";

/** The most an answer's status line and headers may take. */
export const MAX_ANSWER_HEAD = 32 * 1024;
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

const enc = new TextEncoder();
const dec = new TextDecoder();

export const tooLarge = (max: number) => new Error(`the answer is larger than ${max} bytes`);
const TOO_LATE = "no complete answer in time";

/** No byte of an answer came before the connection failed: a reused one may have been closed. */
class NothingBack extends Error {}

type Idle = { conn: Deno.Conn; since: number };

export type PoolOptions = {
  /** A pooled connection idle longer than this is closed instead of used (default 2 s). */
  idleMs?: number;
  /** Idle connections kept per origin and address (default 32); more are closed. */
  perOrigin?: number;
};

/** Keep-alive connections of one outbound client; `close()` ends them (the app's close does). */
export class ConnectionPool {
  readonly #idle = new Map<string, Idle[]>();
  #sweptAt = 0;
  #closed = false;

  constructor(private readonly opts: PoolOptions = {}) {}

  get #idleMs() {
    return this.opts.idleMs ?? 2_000;
  }

  /** A live idle connection to `key`, the most recently used, or null. */
  take(key: string): Deno.Conn | null {
    const now = performance.now();
    if (now - this.#sweptAt > this.#idleMs) this.#sweep(now);
    const list = this.#idle.get(key);
    while (list?.length) {
      const one = list.pop()!;
      if (now - one.since <= this.#idleMs) return one.conn;
      quietClose(one.conn);
    }
    return null;
  }

  give(key: string, conn: Deno.Conn) {
    const list = this.#idle.get(key) ?? [];
    if (this.#closed || list.length >= (this.opts.perOrigin ?? 32)) return quietClose(conn);
    list.push({ conn, since: performance.now() });
    this.#idle.set(key, list);
  }

  /** Idle connections now (tests). */
  get idle(): number {
    let n = 0;
    for (const list of this.#idle.values()) n += list.length;
    return n;
  }

  close() {
    this.#closed = true;
    for (const list of this.#idle.values()) list.forEach((one) => quietClose(one.conn));
    this.#idle.clear();
  }

  /** Closes what has been idle too long, everywhere (a name called once does not keep its socket). */
  #sweep(now: number) {
    this.#sweptAt = now;
    for (const [key, list] of this.#idle) {
      const live = list.filter((one) => now - one.since <= this.#idleMs || void quietClose(one.conn));
      if (live.length) this.#idle.set(key, live);
      else this.#idle.delete(key);
    }
  }
}

function quietClose(conn: Deno.Conn) {
  try {
    conn.close();
  } catch { /* closed already */ }
}

/** The transport over a pool (keep-alive) or without one (a connection per call). */
export function http1Transport(pool?: ConnectionPool): Transport {
  const cas = new WeakMap<string[], number>();
  return async (x) => {
    if (x.deadline.aborted) throw new Error(TOO_LATE);
    const secure = x.url.protocol === "https:";
    const port = Number(x.url.port || (secure ? 443 : 80));
    // a private CA set is its own pool (tests): a connection verified under one is not another's
    const ca = x.caCerts ? cas.get(x.caCerts) ?? cas.set(x.caCerts, Math.random()).get(x.caCerts) : 0;
    const key = `${x.url.protocol}//${x.url.hostname}:${port}@${x.address}#${ca}`;
    const request = requestBytes(x, !pool);
    const retryable = x.method === "GET" || x.method === "PUT" ||
      Object.keys(x.headers).some((k) => k.toLowerCase() === "idempotency-key");
    let reused = pool?.take(key) ?? null;
    for (;;) {
      const conn = reused ?? await connect(x, port, secure);
      let answer;
      try {
        answer = await exchange(conn, request, x);
      } catch (e) {
        quietClose(conn);
        if (e instanceof NothingBack) {
          if (reused && retryable && !x.deadline.aborted) {
            reused = null;
            continue;
          }
          throw x.deadline.aborted ? new Error(TOO_LATE) : e.cause ?? e;
        }
        throw e;
      }
      if (answer.reusable && pool) pool.give(key, conn);
      else quietClose(conn);
      return { status: answer.status, headers: answer.headers, body: answer.body };
    }
  };
}

/** The request line, headers and body, as bytes: the caller's headers checked, framing our own. */
function requestBytes(x: Parameters<Transport>[0], close: boolean): Uint8Array {
  let head = `${x.method} ${x.url.pathname || "/"}${x.url.search} HTTP/1.1\r\nHost: ${x.url.host}\r\n`;
  for (const [name, value] of Object.entries(x.headers)) {
    if (!TOKEN.test(name) || UNSAFE_VALUE.test(value)) {
      throw new Error(`the header ${JSON.stringify(name.slice(0, 100))} cannot be sent as given`);
    }
    if (!FRAMING.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
  }
  const body = x.body === undefined ? null : enc.encode(x.body);
  if (body || x.method !== "GET") head += `Content-Length: ${body?.length ?? 0}\r\n`;
  if (close) head += "Connection: close\r\n";
  const bytes = enc.encode(head + "\r\n");
  if (!body?.length) return bytes;
  const out = new Uint8Array(bytes.length + body.length);
  out.set(bytes);
  out.set(body, bytes.length);
  return out;
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

/** Writes the request and reads one answer (skipping 1xx); NothingBack if no byte came. */
async function exchange(conn: Deno.Conn, request: Uint8Array, x: Parameters<Transport>[0]): Promise<Answer> {
  const onAbort = () => quietClose(conn);
  x.deadline.addEventListener("abort", onAbort, { once: true });
  const r = new AnswerReader(conn);
  try {
    try {
      for (let at = 0; at < request.length;) at += await conn.write(request.subarray(at));
    } catch (e) {
      throw new NothingBack("the connection failed", { cause: e });
    }
    for (;;) {
      const head = await r.head();
      if (head.status >= 100 && head.status < 200) {
        if (head.status === 101) throw new Error("the server switched protocols");
        continue;
      }
      const body = head.status === 204 || head.status === 304
        ? { bytes: new Uint8Array(0), framed: true }
        : await r.body(head, x.maxBytes);
      return {
        status: head.status,
        headers: head.headers,
        body: body.bytes,
        reusable: head.keepAlive && body.framed,
      };
    }
  } catch (e) {
    if (x.deadline.aborted) throw e instanceof NothingBack ? e : new Error(TOO_LATE);
    throw e;
  } finally {
    x.deadline.removeEventListener("abort", onAbort);
  }
}

type Head = { status: number; headers: Headers; keepAlive: boolean; length: number | null; chunked: boolean };

/** Reads an answer off a connection: a buffer that grows as bytes come. */
class AnswerReader {
  // most answers (a callback's, an API's link) fit; a longer one doubles it as it comes
  #buf = new Uint8Array(2 * 1024);
  #start = 0;
  #end = 0;
  #any = false;

  constructor(private readonly conn: Deno.Conn) {}

  /** More bytes into the buffer; false at the end of the stream. */
  async #fill(): Promise<boolean> {
    if (this.#end === this.#buf.length) {
      // full: move what is unread to the front, or into a buffer twice the size
      const live = this.#end - this.#start;
      if (live * 2 > this.#buf.length) {
        const next = new Uint8Array(this.#buf.length * 2);
        next.set(this.#buf.subarray(this.#start, this.#end));
        this.#buf = next;
      } else this.#buf.copyWithin(0, this.#start, this.#end);
      this.#start = 0;
      this.#end = live;
    }
    let n: number | null;
    try {
      n = await this.conn.read(this.#buf.subarray(this.#end));
    } catch (e) {
      if (!this.#any) throw new NothingBack("the connection failed", { cause: e });
      throw e;
    }
    if (n === null) {
      if (!this.#any) {
        throw new NothingBack("the connection closed", {
          cause: new Error("the connection closed before an answer"),
        });
      }
      return false;
    }
    this.#any = true;
    this.#end += n;
    return true;
  }

  /** The bytes up to the next CRLF (at most `max` of them), consumed with it. */
  async #line(max: number, what: string): Promise<string> {
    const i = await this.#find(false, max, what);
    const line = dec.decode(this.#buf.subarray(this.#start, i));
    this.#start = i + 2;
    return line;
  }

  /**
   * Where the next CRLF (or CRLF CRLF: `blank`) starts in the buffer, reading more as needed (at most
   * `max` bytes before it). The scan goes on where it stopped, counted from the unread start, which
   * #fill may move.
   */
  async #find(blank: boolean, max: number, what: string): Promise<number> {
    const width = blank ? 4 : 2;
    for (let scanned = 0;;) {
      const buf = this.#buf, start = this.#start, end = this.#end;
      for (let i = start + scanned; i + width <= end && i - start <= max; i++) {
        if (buf[i] === 13 && buf[i + 1] === 10 && (!blank || (buf[i + 2] === 13 && buf[i + 3] === 10))) {
          return i;
        }
      }
      scanned = Math.max(0, end - start - width + 1);
      if (end - start > max) throw new Error(`${what} is longer than ${max} bytes`);
      if (!(await this.#fill())) throw new Error("the connection closed mid-answer");
    }
  }

  /** The status line and headers: found whole, decoded once. */
  async head(): Promise<Head> {
    const end = await this.#find(true, MAX_ANSWER_HEAD, "the answer's head");
    const lines = dec.decode(this.#buf.subarray(this.#start, end)).split("\r\n");
    this.#start = end + 4;
    const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]);
    if (!m) throw new Error(`not an HTTP/1.x answer: ${JSON.stringify(lines[0].slice(0, 60))}`);
    const headers = new Headers();
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i], colon = line.indexOf(":");
      if (colon <= 0) continue;
      try {
        headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      } catch { /* a header Headers cannot hold is left out */ }
    }
    const connection = (headers.get("connection") ?? "").toLowerCase();
    const keepAlive = m[1] === "1" ? !connection.includes("close") : connection.includes("keep-alive");
    const te = (headers.get("transfer-encoding") ?? "").toLowerCase();
    const cl = headers.get("content-length");
    const length = cl !== null && /^\d+$/.test(cl.trim()) ? Number(cl.trim()) : null;
    if (cl !== null && length === null) throw new Error("the answer's Content-Length is not a number");
    return { status: Number(m[2]), headers, keepAlive, length, chunked: te.endsWith("chunked") };
  }

  /** The body as its framing says; `framed`: its end was known (the connection can carry another). */
  async body(head: Head, max: number): Promise<{ bytes: Uint8Array; framed: boolean }> {
    if (head.chunked) {
      const parts: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const line = await this.#line(1024, "a chunk's size line");
        const n = parseInt(line.split(";")[0].trim(), 16);
        if (!Number.isFinite(n) || n < 0) throw new Error("the answer's chunked body is malformed");
        if (n === 0) break;
        size += n;
        if (size > max) throw tooLarge(max);
        parts.push(await this.#take(n));
        if ((await this.#line(2, "a chunk's end")) !== "") {
          throw new Error("the answer's chunked body is malformed");
        }
      }
      // trailers, up to the empty line
      for (let n = 0; (await this.#line(8 * 1024, "a trailer")) !== ""; n++) {
        if (n >= 64) throw new Error("the answer has more than 64 trailers");
      }
      return { bytes: concat(parts, size), framed: true };
    }
    if (head.length !== null) {
      if (head.length > max) throw tooLarge(max);
      return { bytes: await this.#take(head.length), framed: true };
    }
    // no length: the body runs to the end of the connection
    while (await this.#fill()) if (this.#end - this.#start > max) throw tooLarge(max);
    return { bytes: this.#buf.slice(this.#start, this.#end), framed: false };
  }

  async #take(n: number): Promise<Uint8Array> {
    while (this.#end - this.#start < n) {
      if (!(await this.#fill())) throw new Error("the connection closed mid-answer");
    }
    const out = this.#buf.slice(this.#start, this.#start + n);
    this.#start += n;
    return out;
  }
}

export function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
