/**
 * The one outbound HTTP client for URLs a user or a supplier typed (post-back hooks, supplier
 * callbacks, webhooks, API-integrated clients): every call and every redirect hop is checked
 * against the policy (policy.ts), its host resolved and each address checked, and the connection
 * made to the very address that was checked: no second look-up, so no DNS-rebinding window.
 *
 * The network side is ./http1.ts: HTTP/1.1 over a socket to the checked address (the URL keeps the
 * name, so the Host header, TLS SNI and the certificate check use the name), nothing ambient (no
 * proxy variables, no cookies), connections kept alive only in the app's own pool (`pooled()`,
 * closed by `close()`). Short connect and total time limits and a response size cap bound what a
 * slow or huge answer can cost.
 */
import { lookup } from "node:dns/promises";
import { type AddressBytes, formatAddress, parseAddress } from "./address.ts";
import { asError, concat, ConnectionPool, http1Transport, tooLarge } from "./http1.ts";
import type { OutboundRequest, OutboundResponse, Transport } from "./transport.ts";
import { addressRefusal, type OutboundPolicy, urlRefusal } from "./policy.ts";

/** A call the policy refuses: `reason` names the rule. Not worth retrying. */
export class OutboundRefused extends Error {
  constructor(readonly reason: string) {
    super(`Refused: ${reason}`);
  }
}

export type { OutboundRequest, OutboundResponse, Transport } from "./transport.ts";

export type OutboundOptions = {
  /** A host name to its addresses (default: the system resolver, as getaddrinfo answers). */
  resolve?: (host: string) => Promise<string[]>;
  transport?: Transport;
  connectTimeoutMs?: number;
  /** The whole call: look-ups, connections, every redirect and the answer. */
  timeoutMs?: number;
  /** Bytes of an answer read at most; a longer one fails the call. */
  maxBytes?: number;
  maxRedirects?: number;
  /** PEM certificates trusted besides the system's (a private CA; tests). */
  caCerts?: string[];
  /** Keep-alive connections shared by this client and every `with()` of it (see pooled()). */
  pool?: ConnectionPool;
};

/** An outbound client as it can be sent to a worker (structured clone: data only). */
export type PortableOutbound = {
  policy: OutboundPolicy;
  opts: Omit<OutboundOptions, "transport" | "resolve" | "pool">;
};

/** Origins with an address for a host that a client keeps as passed. */
const LITERALS_MAX = 256;

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/**
 * The caller's headers that go on to a redirect's other origin: none that may carry a key. The Fetch
 * standard drops Authorization there; a supplier's or a client's key goes under a name of their own
 * (X-Api-Key, a header set on the record), so only these go.
 */
const CROSS_ORIGIN_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "accept-language",
  "content-language",
  "content-type",
  "idempotency-key",
  "user-agent",
]);

/** The headers of a hop to another origin than the call's (CROSS_ORIGIN_HEADERS). */
const crossOrigin = (headers: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => CROSS_ORIGIN_HEADERS.has(k.toLowerCase())));
const originOf = (u: URL) => `${u.protocol}//${u.host}`;

/** One call of `requestMany`. */
export type OutboundCall = { url: string; req?: OutboundRequest };

export class Outbound {
  readonly #transport: Transport;
  /** The transport's calls sent together (http1's pipelining), or null: each call on its own. */
  readonly #many: ReturnType<typeof http1Transport>["many"] | null;
  /** Origins whose host is an address and passed the policy (LITERALS_MAX at most): the address. */
  readonly #literals = new Map<string, string>();

  constructor(readonly policy: OutboundPolicy, private readonly opts: OutboundOptions = {}) {
    const http1 = opts.transport ? null : http1Transport(opts.pool);
    this.#transport = opts.transport ?? http1!;
    this.#many = http1?.many ?? null;
  }

  /**
   * What another thread needs to make the same client (its policy and limits), or null when this one
   * has a resolver or a transport of its own (a test's), which cannot go there.
   */
  get portable(): PortableOutbound | null {
    const { transport, resolve, pool: _pool, ...limits } = this.opts;
    return transport || resolve ? null : { policy: this.policy, opts: limits };
  }

  /** This client keeping its connections alive between calls (the app's: its close() ends them). */
  pooled(): Outbound {
    return this.opts.pool ? this : this.with({ pool: new ConnectionPool() });
  }

  /** Closes the pool's idle connections (a call after it opens its own and does not keep it). */
  close() {
    this.opts.pool?.close();
  }

  /** The same policy with other options (a test's resolver or transport, a shorter time-out). */
  with(opts: OutboundOptions): Outbound {
    return new Outbound(this.policy, { ...this.opts, ...opts });
  }

  /** Why a URL may not be called, before any look-up (for saving a URL), or null. */
  refusal(url: string): string | null {
    // the router's placeholders ([sid], [uid]...) may stand in the host: a name there
    const filled = url.replace(/\[[a-z_]+\]/gi, "x");
    const u = URL.canParse(filled) ? new URL(filled) : null;
    return u ? urlRefusal(u, this.policy) : "not a valid URL";
  }

  /** Calls a URL, following up to maxRedirects redirects, each hop checked like the first. */
  async request(url: string, req: OutboundRequest = {}): Promise<OutboundResponse> {
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    return await this.#hops(url, req, AbortSignal.timeout(timeoutMs), null);
  }

  /**
   * Several calls at once, each as `request` makes it (checked, redirects followed, the same time
   * limit), those to one server sent together when the transport can (http1: pipelined on one
   * connection); each answer, or the error of its call, in the calls' order.
   */
  async requestMany(calls: OutboundCall[]): Promise<(OutboundResponse | Error)[]> {
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    if (!this.#many || calls.length < 2) {
      return await Promise.all(
        calls.map((c) => this.#hops(c.url, c.req ?? {}, deadline, null).catch(asError)),
      );
    }
    const out: (OutboundResponse | Error)[] = new Array(calls.length);
    const sent: { i: number; target: { url: URL; address: string } }[] = [];
    // a URL whose address passed before is checked at once (no look-up); the others in turn
    const looked: Promise<void>[] = [];
    calls.forEach((c, i) => {
      const url = URL.parse(c.url), known = this.#known(url);
      if (known) return void sent.push({ i, target: known });
      looked.push(
        this.#check(c.url, deadline, timeoutMs, url).then((target) => void sent.push({ i, target }), (e) => {
          out[i] = asError(e);
        }),
      );
    });
    if (looked.length) {
      await Promise.all(looked);
      sent.sort((a, b) => a.i - b.i); // written in the calls' order
    }
    const answers = await this.#many(
      sent.map(({ i, target }) => this.#call(target, calls[i].req ?? {}, deadline)),
    );
    // a redirect is followed on its own, from the next hop
    const hops: Promise<void>[] = [];
    sent.forEach(({ i, target }, j) => {
      const a = answers[j];
      if (a instanceof Error) out[i] = a;
      else if (!REDIRECTS.has(a.status)) out[i] = Object.assign(a, { url: target.url.href });
      else {
        hops.push(
          this.#hops(target.url.href, calls[i].req ?? {}, deadline, { target, res: a })
            .then((r) => void (out[i] = r), (e) => void (out[i] = asError(e))),
        );
      }
    });
    if (hops.length) await Promise.all(hops);
    return out;
  }

  /** The transport's call to a checked target. */
  #call(target: { url: URL; address: string }, req: OutboundRequest, deadline: AbortSignal) {
    return {
      url: target.url,
      address: target.address,
      method: req.method ?? "GET",
      headers: req.headers ?? {},
      body: req.body,
      connectTimeoutMs: this.opts.connectTimeoutMs ?? 3_000,
      deadline,
      maxBytes: this.opts.maxBytes ?? 64 * 1024,
      caCerts: this.opts.caCerts,
    };
  }

  /** The hops of a call, from its first (`first`: its answer came already), redirects checked alike. */
  async #hops(
    url: string,
    req: OutboundRequest,
    deadline: AbortSignal,
    first: { target: { url: URL; address: string }; res: Awaited<ReturnType<Transport>> } | null,
  ): Promise<OutboundResponse> {
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    let method = req.method ?? "GET";
    let body = req.body;
    let current = url;
    let origin = "", headers = req.headers;
    for (let hop = 0;; hop++) {
      const target = first?.target ?? await this.#check(current, deadline, timeoutMs);
      // a hop to another origin than the call's carries none of its keys
      if (hop) headers = originOf(target.url) === origin ? req.headers : crossOrigin(req.headers);
      const res = first?.res ??
        await this.#transport(this.#call(target, { ...req, method, body, headers }, deadline));
      first = null;
      // the headers are read only for a redirect (the transport may make them when asked: http1's do)
      const location = REDIRECTS.has(res.status) ? res.headers.get("location") : null;
      if (!location) return Object.assign(res, { url: target.url.href });
      if (hop >= (this.opts.maxRedirects ?? 3)) throw new Error(`more than ${hop} redirects`);
      origin ||= originOf(target.url); // the call's own, made only when a redirect is followed
      current = new URL(location, target.url).href;
      if (res.status === 303 || (method === "POST" && res.status !== 307 && res.status !== 308)) {
        method = "GET";
        body = undefined;
      }
    }
  }

  /**
   * The URL and its address when the address is in the URL and passed before (it is not checked
   * again: nothing is looked up, it cannot change), else null.
   */
  #known(url: URL | null): { url: URL; address: string } | null {
    if (!url || url.username || url.password) return null;
    const address = this.#literals.get(`${url.protocol}//${url.host}`);
    return address ? { url, address } : null;
  }

  /** The URL and the address to connect to, both checked; OutboundRefused if the policy says no. */
  async #check(
    raw: string,
    deadline: AbortSignal,
    timeoutMs: number,
    /** The URL parsed already (requestMany), or parsed here. */
    url = URL.parse(raw),
  ): Promise<{ url: URL; address: string }> {
    const known = this.#known(url);
    if (known) return known;
    if (!url) throw new OutboundRefused(`not a valid URL: ${raw.slice(0, 200)}`);
    const origin = url.username || url.password ? "" : `${url.protocol}//${url.host}`;
    const early = urlRefusal(url, this.policy);
    if (early) throw new OutboundRefused(early);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const literal = parseAddress(host);
    const found: AddressBytes[] = literal ? [literal] : await this.#resolve(host, deadline, timeoutMs);
    if (!found.length) throw new Error(`${host} has no address`);
    // every address the name has must pass: a name that also points inside is refused outright
    for (const a of found) {
      const why = addressRefusal(url, a, this.policy);
      if (why) throw new OutboundRefused(why);
    }
    const address = formatAddress(found[0]);
    if (literal && origin) {
      if (this.#literals.size >= LITERALS_MAX) this.#literals.clear();
      this.#literals.set(origin, address);
    }
    return { url, address };
  }

  async #resolve(host: string, deadline: AbortSignal, timeoutMs: number): Promise<AddressBytes[]> {
    const resolve = this.opts.resolve ?? systemResolve;
    const names = await abortable(
      resolve(host),
      deadline,
      () => `no answer from ${host} within ${timeoutMs} ms`,
    );
    return names.map((n) => {
      const b = parseAddress(n);
      if (!b) throw new Error(`${host} resolved to ${n}, which is not an address`);
      return b;
    });
  }
}

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address of the name. */
async function systemResolve(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch (e) {
    throw new Error(`could not resolve ${host} (${(e as { code?: string }).code ?? String(e)})`);
  }
}

function abortable<T>(p: Promise<T>, signal: AbortSignal, why: () => string): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error(why()));
  return new Promise((resolve, reject) => {
    const stop = () => reject(new Error(why()));
    signal.addEventListener("abort", stop, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

/** A fetch as the transport (tests and fakes): the same checks ran before it, redirects come back. */
export const fetchTransport = (f: typeof fetch): Transport => async (x) => {
  const res = await f(x.url.href, {
    method: x.method,
    headers: x.headers,
    body: x.body,
    redirect: "manual",
    signal: x.deadline,
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > x.maxBytes) {
        await res.body.cancel().catch(() => {});
        throw tooLarge(x.maxBytes);
      }
      chunks.push(chunk);
    }
  }
  return { status: res.status, headers: res.headers, body: concat(chunks, size) };
};
