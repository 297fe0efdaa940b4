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

/** Whether an If-None-Match header (a list of tags, weak or strong, or `*`) matches `etag`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").map((t) => t.trim().replace(/^W\//, "")).some((t) => t === "*" || t === etag);
}

/** The success envelope `{ result, message }` with its ETag, or a 304 when the client has it. */
export async function okTagged<T>(c: Context, result: T, message = "Success") {
  const json = JSON.stringify({ result, message });
  const etag = await etagOf(json);
  c.header("etag", etag);
  if (matchesEtag(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  return c.body(json, 200, { "content-type": "application/json; charset=UTF-8" });
}
