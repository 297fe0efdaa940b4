/**
 * Reading an HTTP/1.1 answer off a connection for ./http1.ts: the head found whole and read by its
 * framing headers (Headers made only when a caller asks), the body by its framing (length, chunked or
 * until the connection closes), each within its bound; an answer whose bytes came already is read at
 * once, without a promise.
 */
import { once } from "../../../lib/memo.ts";

/** The most an answer's status line and headers may take. */
export const MAX_ANSWER_HEAD = 32 * 1024;

export const tooLarge = (max: number) => new Error(`the answer is larger than ${max} bytes`);

/** No byte of an answer came before the connection failed: a reused one may have been closed. */
export class NothingBack extends Error {}

const codec = once(() => new TextDecoder());

export type Body = { bytes: Uint8Array; framed: boolean };
export type Head = {
  status: number;
  lines: string[];
  keepAlive: boolean;
  length: number | null;
  chunked: boolean;
};

/** An answer's header lines (after its status line) as Headers; a line Headers cannot hold is left out. */
export function headersOf(lines: string[]): Headers {
  const headers = new Headers();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i], colon = line.indexOf(":");
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch { /* a header Headers cannot hold is left out */ }
  }
  return headers;
}

/**
 * The values of the framing headers a head is read by (names in lower case), each name's values
 * joined as Headers joins them.
 */
function framing(
  lines: string[],
): Record<"connection" | "transfer-encoding" | "content-length", string | null> {
  const out: Record<string, string | null> = {
    connection: null,
    "transfer-encoding": null,
    "content-length": null,
  };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i], colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!Object.hasOwn(out, name)) continue;
    const value = line.slice(colon + 1).trim();
    out[name] = out[name] === null ? value : `${out[name]}, ${value}`;
  }
  return out as ReturnType<typeof framing>;
}

/**
 * Reads an answer off a connection, into a buffer that is never written over: a full one is followed
 * by a new one (twice the size when what is unread fills half of it), so a body is a view of the bytes
 * read, not a copy (pipelined callbacks' answers: no buffer of their own each).
 */
export class AnswerReader {
  // most answers (a callback's, an API's link) fit; a longer one doubles it as it comes
  #buf = new Uint8Array(2 * 1024);
  #start = 0;
  #end = 0;
  #any = false;

  constructor(private readonly conn: Deno.Conn) {}

  /** The next answer begins: whether any byte of it came is counted from here. */
  next() {
    this.#any = this.#end > this.#start;
  }

  /** More bytes into the buffer; false at the end of the stream. */
  async #fill(): Promise<boolean> {
    if (this.#end === this.#buf.length) {
      // full: what is unread goes to a new buffer (bodies handed out still see the old one's bytes)
      const live = this.#end - this.#start;
      const next = new Uint8Array(live * 2 > this.#buf.length ? this.#buf.length * 2 : this.#buf.length);
      next.set(this.#buf.subarray(this.#start, this.#end));
      this.#buf = next;
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
    const line = codec().decode(this.#buf.subarray(this.#start, i));
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
      const at = this.#seek(blank, max, what, scanned);
      if (at >= 0) return at;
      scanned = Math.max(0, this.#end - this.#start - width + 1);
      if (!(await this.#fill())) throw new Error("the connection closed mid-answer");
    }
  }

  /**
   * #find among the bytes read so far (the first `scanned` of them looked at already): where the
   * CRLF starts, or -1.
   */
  #seek(blank: boolean, max: number, what: string, scanned: number): number {
    const width = blank ? 4 : 2;
    const buf = this.#buf, start = this.#start, end = this.#end;
    for (let i = start + scanned; i + width <= end && i - start <= max; i++) {
      if (buf[i] === 13 && buf[i + 1] === 10 && (!blank || (buf[i + 2] === 13 && buf[i + 3] === 10))) {
        return i;
      }
    }
    if (end - start > max) throw new Error(`${what} is longer than ${max} bytes`);
    return -1;
  }

  /**
   * The status line and headers: found whole, decoded once. At once when they were read already
   * (pipelined answers mostly come together): no promise per answer.
   */
  head(): Head | Promise<Head> {
    const at = this.#seek(true, MAX_ANSWER_HEAD, "the answer's head", 0);
    if (at >= 0) return this.#headAt(at);
    return this.#find(true, MAX_ANSWER_HEAD, "the answer's head").then((end) => this.#headAt(end));
  }

  #headAt(end: number): Head {
    const lines = codec().decode(this.#buf.subarray(this.#start, end)).split("\r\n");
    this.#start = end + 4;
    const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]);
    if (!m) throw new Error(`not an HTTP/1.x answer: ${JSON.stringify(lines[0].slice(0, 60))}`);
    const f = framing(lines);
    const connection = (f.connection ?? "").toLowerCase();
    const keepAlive = m[1] === "1" ? !connection.includes("close") : connection.includes("keep-alive");
    const te = (f["transfer-encoding"] ?? "").toLowerCase();
    const cl = f["content-length"];
    const length = cl !== null && /^\d+$/.test(cl.trim()) ? Number(cl.trim()) : null;
    if (cl !== null && length === null) throw new Error("the answer's Content-Length is not a number");
    return { status: Number(m[2]), lines, keepAlive, length, chunked: te.endsWith("chunked") };
  }

  /** The body: at once when its length is known and its bytes were read already, else as it comes. */
  body(head: Head, max: number): Body | Promise<Body> {
    if (!head.chunked && head.length !== null) {
      if (head.length > max) throw tooLarge(max);
      if (this.#end - this.#start >= head.length) return { bytes: this.#takeNow(head.length), framed: true };
    }
    return this.#body(head, max);
  }

  /** The body as its framing says; `framed`: its end was known (the connection can carry another). */
  async #body(head: Head, max: number): Promise<Body> {
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
    return this.#takeNow(n);
  }

  /** The next n bytes, read already: a view (the buffer is not written over). */
  #takeNow(n: number): Uint8Array {
    const out = this.#buf.subarray(this.#start, this.#start + n);
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
