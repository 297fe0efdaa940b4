/**
 * Signed supplier callbacks (issue 23, item 3): what a panel receives from Samplex and how it checks
 * it. Every callback carries
 *
 * - `X-Samplex-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` under the supplier's hash key, over
 *   the canonical string `<t>\n<METHOD>\n<path and query of the URL>\n<idempotency key>\n<hex
 *   SHA-256 of the body>` (the body is empty for a GET: the SHA-256 of nothing);
 * - `Idempotency-Key: <key>`, the same on every send of one callback (redeliveries too);
 * - `X-Samplex-Event: <event>`.
 *
 * A receiver recomputes the signature over what it got and refuses a timestamp further than its
 * tolerance from its clock (a replay): {@link verifyCallbackSignature}. Runs in Deno and browsers
 * (Web Crypto only).
 */

/** The outcomes and changes a supplier may ask callbacks for (`approved`: a reconcile approval). */
export const CALLBACK_EVENTS = [
  "complete",
  "terminate",
  "overquota",
  "quality",
  "reconcile",
  "approved",
] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

export const SIGNATURE_HEADER = "X-Samplex-Signature";
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const EVENT_HEADER = "X-Samplex-Event";
/** How far a callback's timestamp may be from the receiver's clock by default (5 minutes). */
export const DEFAULT_TOLERANCE_SEC = 300;

/** What a callback's signature covers. */
export type CallbackParts = {
  method: string;
  /** The absolute URL called (only its path and query are signed). */
  url: string;
  headers: Headers | Record<string, string>;
  body: string;
};

const enc = new TextEncoder();
const hex = (b: ArrayBuffer) =>
  Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");

/** The hex SHA-256 of a body. */
export async function bodyHash(body: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", enc.encode(body)));
}

/**
 * The string a callback's signature is the HMAC of, given the hex SHA-256 of its body (a signer with
 * its own hash and HMAC, such as node:crypto's, builds the same string here).
 */
export function canonicalText(
  x: { ts: number; method: string; url: string; key: string },
  bodySha256: string,
): string {
  const u = new URL(x.url);
  return `${x.ts}\n${x.method.toUpperCase()}\n${u.pathname}${u.search}\n${x.key}\n${bodySha256}`;
}

/** The string a callback's signature is the HMAC of. */
export async function canonicalString(
  x: { ts: number; method: string; url: string; key: string; body: string },
): Promise<string> {
  return canonicalText(x, await bodyHash(x.body));
}

/** The `X-Samplex-Signature` value of a timestamp and a hex HMAC. */
export const signatureValue = (ts: number, hmacHex: string) => `t=${ts},v1=${hmacHex}`;

async function hmacHex(secret: string, text: string): Promise<string> {
  const k = await crypto.subtle.importKey(
    "raw",
    enc.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    [
      "sign",
    ],
  );
  return hex(await crypto.subtle.sign("HMAC", k, enc.encode(text)));
}

/** The `X-Samplex-Signature` value of a callback sent at `ts` (unix seconds). */
export async function signCallback(
  secret: string,
  x: { ts: number; method: string; url: string; key: string; body: string },
): Promise<string> {
  if (!secret) throw new Error("a callback is never sent unsigned: the supplier has no hash key");
  return signatureValue(x.ts, await hmacHex(secret, await canonicalString(x)));
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

export type Verified = { ok: true; ts: number; key: string } | { ok: false; reason: string };

/**
 * Checks a received callback: a `Request` (its body is read from a clone) or its parts. `ok: false`
 * with the reason when the signature header is missing or malformed, the timestamp is further than
 * `toleranceSec` from `now` (default {@link DEFAULT_TOLERANCE_SEC}; a replay), or the HMAC does not
 * match (a tampered body, URL, key or method, or another secret).
 */
export async function verifyCallbackSignature(
  secret: string,
  request: Request | CallbackParts,
  opts: { toleranceSec?: number; now?: number } = {},
): Promise<Verified> {
  const parts: CallbackParts = request instanceof Request
    ? {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: await request.clone().text(),
    }
    : request;
  const headers = parts.headers instanceof Headers ? parts.headers : new Headers(parts.headers);
  const sig = headers.get(SIGNATURE_HEADER) ?? "";
  const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(sig.trim());
  if (!m) return { ok: false, reason: `no valid ${SIGNATURE_HEADER} header` };
  const key = headers.get(IDEMPOTENCY_HEADER) ?? "";
  const ts = Number(m[1]);
  const now = Math.floor((opts.now ?? Date.now()) / 1000);
  const tolerance = opts.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  if (Math.abs(now - ts) > tolerance) {
    return { ok: false, reason: `timestamp outside the ${tolerance} s tolerance` };
  }
  if (!secret) return { ok: false, reason: "no secret to verify with" };
  const want = await hmacHex(
    secret,
    await canonicalString({ ts, method: parts.method, url: parts.url, key, body: parts.body }),
  );
  return sameText(want, m[2]) ? { ok: true, ts, key } : { ok: false, reason: "signature does not match" };
}
