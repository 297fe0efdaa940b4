/**
 * The HTTP request of a supplier callback, built when it is sent from the supplier record's API
 * fields (no second set):
 *
 * - the URL: the event's callback URL with Samplex's variables filled (`[sid]`, `[uid]`, `[pid]`,
 *   `[status]`, `[key]`, `[event]`; a reconcile's also `[oldStatus]`, `[newStatus]`, `[cpi]`), and
 *   the supplier's own names for them: `variableMapping`, `name=[variable]` per line, as a client's
 *   (client-api.ts, mappedVariables);
 * - `apiBody`, when set: a JSON body template filled the same way (values JSON-escaped), sent with
 *   POST; without one the callback is a GET;
 * - `apiKey` (the Secret key) as an auth header, when set: `apiHeader` names the header (`X-Api-Key`),
 *   `Authorization` takes `Bearer <key>`), or gives whole headers, as `Name: value` lines or a JSON
 *   object, where `[apiKey]` stands for the key (`Authorization: Token [apiKey]`); a key no header
 *   carries goes as `Authorization: Bearer <key>`.
 *
 * The signature (shared/callbacks.ts) covers the method, the URL's path and query, the idempotency
 * key and the body, under the supplier's hashKey.
 */
import { fillPlaceholders } from "./outcomes.ts";
import { mappedVariables } from "./client-api.ts";
import {
  canonicalText,
  EVENT_HEADER,
  IDEMPOTENCY_HEADER,
  SIGNATURE_HEADER,
  signatureValue,
} from "../../../shared/callbacks.ts";
import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { randomKey } from "../common/values.ts";
import { boundedCache } from "../../lib/memo.ts";

/** SHA-256 of the empty body (a GET's), in hex. */
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/**
 * A key's HMAC-SHA256 (RFC 2104) with its two padded blocks hashed once: each signature copies
 * those states instead of hashing the key's pads again (half the cost of a fresh createHmac).
 */
type Keyed = { inner: ReturnType<typeof createHash>; outer: ReturnType<typeof createHash> };
const KEYED = boundedCache<string, Keyed>(1_000);
const BLOCK = 64;

function keyed(secret: string): Keyed {
  const known = KEYED.get(secret);
  if (known) return known;
  let key = new TextEncoder().encode(secret);
  if (key.length > BLOCK) key = new Uint8Array(createHash("sha256").update(key).digest());
  const pad = (x: number) => {
    const out = new Uint8Array(BLOCK).fill(x);
    key.forEach((b, i) => out[i] = b ^ x);
    return out;
  };
  return KEYED.set(secret, {
    inner: createHash("sha256").update(pad(0x36)),
    outer: createHash("sha256").update(pad(0x5c)),
  });
}

/** The hex HMAC-SHA256 of a text under a secret (the same as node:crypto's createHmac). */
export function hmacSha256Hex(secret: string, text: string): string {
  const k = keyed(secret);
  return k.outer.copy().update(k.inner.copy().update(text).digest()).digest("hex");
}

/**
 * The signature value (shared/callbacks.ts' recipe) with node:crypto: synchronous, where Web
 * Crypto's three awaited calls per callback cost the sender about half of its CPU.
 */
export function signWithNode(
  secret: string,
  x: { ts: number; method: string; url: string; key: string; body: string },
): string {
  if (!secret) throw new Error("a callback is never sent unsigned: the supplier has no hash key");
  const body = x.body ? createHash("sha256").update(x.body).digest("hex") : EMPTY_SHA256;
  return signatureValue(x.ts, hmacSha256Hex(secret, canonicalText(x, body)));
}

/** The supplier fields a callback is built from. */
export type CallbackSupplier = {
  hashKey: string;
  apiHeader: string;
  apiKey: string;
  apiBody: string;
  variableMapping: string;
};

export type CallbackRequest = {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
};

/** Headers the supplier's own may not replace. */
const RESERVED: ReadonlySet<string> = new Set(
  [IDEMPOTENCY_HEADER, SIGNATURE_HEADER, EVENT_HEADER, "content-type", "content-length", "host"].map((h) =>
    h.toLowerCase()
  ),
);
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const MAX_ENTRIES = 50;

/** Fills `[name]` in a JSON template with the value JSON-escaped, in one pass. */
function fillJson(template: string, values: Record<string, string>): string {
  const lower = new Map(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
  return template.replace(/\[([A-Za-z0-9_.-]{1,64})\]/g, (m, name: string) => {
    const v = lower.get(name.toLowerCase());
    return v === undefined ? m : JSON.stringify(v).slice(1, -1);
  });
}

/** `{"Name": "value"}` headers, or null when the text is not a JSON object of strings. */
function jsonHeaders(spec: string): [string, string][] | null {
  if (!spec.startsWith("{")) return null;
  try {
    const o = JSON.parse(spec);
    if (!o || typeof o !== "object" || Array.isArray(o)) return null;
    return Object.entries(o).filter((e): e is [string, string] => typeof e[1] === "string");
  } catch {
    return null;
  }
}

/** The key as its header carries it: Authorization takes a scheme (Bearer unless the key has one). */
const keyValue = (header: string, key: string) =>
  header.toLowerCase() === "authorization" && !/\s/.test(key) ? `Bearer ${key}` : key;

/** The supplier's auth headers (see the module's comment); reserved names and line breaks are left out. */
export function authHeaders(s: Pick<CallbackSupplier, "apiHeader" | "apiKey">): Record<string, string> {
  const out: Record<string, string> = {};
  const key = s.apiKey.trim();
  const spec = s.apiHeader.trim();
  let carried = false;
  if (HEADER_NAME.test(spec)) {
    if (key && !RESERVED.has(spec.toLowerCase())) out[spec] = keyValue(spec, key);
    carried = true;
  } else if (spec) {
    const entries: [string, string][] = jsonHeaders(spec) ??
      spec.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).map((line) => {
        const i = line.indexOf(":");
        return (i < 0 ? [line, ""] : [line.slice(0, i), line.slice(i + 1)]) as [string, string];
      });
    for (const [rawName, raw] of entries.slice(0, MAX_ENTRIES)) {
      const name = rawName.trim();
      carried ||= /\[apiKey\]|\{apiKey\}/i.test(raw);
      const value = raw.trim().replace(/\[apiKey\]|\{apiKey\}/gi, key);
      if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase()) || !value || /[\r\n\0]/.test(value)) {
        continue;
      }
      out[name] = value;
    }
  }
  if (key && !carried && !Object.keys(out).some((k) => k.toLowerCase() === "authorization")) {
    out["Authorization"] = `Bearer ${key}`;
  }
  return out;
}

/** Auth headers by the fields they are made of (a supplier's are the same for each of its callbacks). */
const AUTH = boundedCache<string, Readonly<Record<string, string>>>(1_000);
const authOf = (s: Pick<CallbackSupplier, "apiHeader" | "apiKey">) => {
  const key = `${s.apiHeader}\u0000${s.apiKey}`;
  return AUTH.get(key) ?? AUTH.set(key, Object.freeze(authHeaders(s)));
};

/** The request of one callback, signed at `nowMs`. */
export function buildCallback(
  s: CallbackSupplier,
  h: { url: string; vars: Record<string, string>; event: string; key: string },
  nowMs: number,
): CallbackRequest {
  // Samplex's names, then the supplier's own for them (mapped from Samplex's values)
  const values: Record<string, string> = { ...h.vars, event: h.event, key: h.key };
  if (s.variableMapping.trim()) Object.assign(values, mappedVariables(s.variableMapping, values));
  const url = fillPlaceholders(h.url, values);
  const template = s.apiBody.trim();
  const method = template ? "POST" : "GET";
  const body = template ? fillJson(template, values) : "";
  const ts = Math.floor(nowMs / 1000);
  const headers: Record<string, string> = {
    ...authOf(s),
    [IDEMPOTENCY_HEADER]: h.key,
    [EVENT_HEADER]: h.event,
    [SIGNATURE_HEADER]: signWithNode(s.hashKey, { ts, method, url, key: h.key, body }),
  };
  if (template) headers["Content-Type"] = "application/json";
  return template ? { url, method, headers, body } : { url, method, headers };
}

/** The values a queued callback's URL and body are filled with (its vars column). */
export function parseVars(vars: string | null): Record<string, string> {
  if (!vars) return {};
  try {
    const o = JSON.parse(vars);
    return o && typeof o === "object" ? o : {};
  } catch {
    return {};
  }
}

/**
 * The supplier fields a callback is built from. A supplier without a hash key (cleared by hand)
 * gets a new random one first: a callback is never sent unsigned.
 */
export async function callbackSupplier(
  db: Db,
  id: string,
): Promise<CallbackSupplier & { approvedHookRefusal: string }> {
  const read = () =>
    db.selectFrom("suppliers")
      .select(["hashKey", "apiHeader", "apiKey", "apiBody", "variableMapping", "approvedHookRefusal"])
      .where("id", "=", id).executeTakeFirst();
  let s = await read();
  if (!s) throw new Error("the supplier is gone");
  if (!s.hashKey.trim()) {
    await db.updateTable("suppliers").set({ hashKey: randomKey(32) }).where("id", "=", id)
      .where(sql<boolean>`trim(hashKey) = ''`).execute();
    s = await read();
    if (!s) throw new Error("the supplier is gone");
  }
  return s;
}
