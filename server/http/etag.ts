/**
 * Conditional GETs: an answer's `ETag` is a hash of its JSON, and a request whose `If-None-Match`
 * names it gets a 304 without a body (a client polling every minute downloads only what changed).
 */
import type { Context } from "hono";

/** The strong entity tag of a JSON text. */
export async function etagOf(json: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(json));
  const hex = Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
  return `"${hex}"`;
}

/**
 * Whether an If-None-Match header (a list of tags, or `*`) matches `etag`, by the weak comparison
 * RFC 9110 asks of If-None-Match (W/ aside).
 */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").map(opaque).some((t) => t === "*" || t === opaque(etag));
}

/**
 * The success envelope `{ result, message }` with its ETag, or a 304 when the client has it. An
 * answer that carries a part which moves on every call (the time of the answer) names what the tag
 * covers (`covers`): the tag is then weak (W/), the same for answers that differ only in that part.
 */
export async function okTagged<T>(c: Context, result: T, opts: { covers?: unknown } = {}) {
  const json = JSON.stringify({ result, message: "Success" });
  const etag = "covers" in opts ? `W/${await etagOf(JSON.stringify(opts.covers))}` : await etagOf(json);
  c.header("etag", etag);
  if (matchesEtag(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  return c.body(json, 200, { "content-type": "application/json; charset=UTF-8" });
}
