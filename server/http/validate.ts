import * as v from "valibot";
import type { Context, MiddlewareHandler } from "hono";
import { badRequest, type FieldError, HttpError, httpNotFound } from "./errors.ts";
import { MSG } from "../../shared/messages.ts";

/**
 * A body that fits none of a union's shapes ({isActive} alone, or the whole form): the field that
 * was sent and is wrong says more than "Expected Object but received Object". The union's own
 * message is kept when the schema gave one.
 */
function explain(i: v.BaseIssue<unknown>): { path: string; message: string } {
  const path = v.getDotPath(i) ?? "";
  if (i.type === "union" && i.issues?.length) {
    const sent = i.issues.find((s) => (v.getDotPath(s) ?? "") !== "" && s.input !== undefined);
    if (sent) {
      const inner = explain(sent);
      return { path: inner.path, message: i.message.startsWith("Invalid type:") ? inner.message : i.message };
    }
  }
  return { path, message: i.message };
}

/** Turns valibot issues into the `errors: [{path, message}]` of a 400 answer. */
export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of issues) {
    const i = explain(issue);
    const path = i.path;
    if (seen.has(path)) continue; // first message per field, as a form shows it
    seen.add(path);
    out.push({ path, message: i.message });
  }
  return out;
}

/** Parses a value with a shared schema or throws a 400 whose message is the first field message. */
export function parseWith<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (r.success) return r.output;
  const errors = issuesToErrors(r.issues);
  throw badRequest(errors[0]?.message || MSG.invalidInput, errors);
}

/** The body size limit of an API call unless it declares another (an upload may need more). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const inUnits = (bytes: number) =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / 1024 / 1024} MiB`
    : bytes >= 1024 && bytes % 1024 === 0
    ? `${bytes / 1024} KiB`
    : `${bytes} bytes`;

export const bodyTooLarge = (max: number) =>
  new HttpError(413, `The request body is too large (at most ${inUnits(max)})`);

/** Each request's limit, set by `limitBody` ahead of authentication, used by `body()` when it reads. */
const limitOf = new WeakMap<Request, number>();
/** A body already read (a second `body()` of the same request reads it from here). */
const textOf = new WeakMap<Request, string>();

/**
 * A call's body size limit, run ahead of authentication: a Content-Length over the limit is refused
 * at once (413, nothing read); `body()` counts the bytes as it reads and stops at the limit, so a
 * chunked body without a Content-Length gets the same 413 as soon as it passes it (the rest is never
 * read). Nothing is read here: a call refused by authentication never pays for its body.
 */
export function limitBody(max = DEFAULT_BODY_LIMIT): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    if (Number(raw.headers.get("content-length") ?? NaN) > max) throw bodyTooLarge(max);
    limitOf.set(raw, max);
    await next();
  };
}

/** What a request whose body never arrived in full is answered (if its client still listens). */
export const BODY_INCOMPLETE = "The request body was not received in full";

/** The request body as text, counted while it is read: past `max` bytes it stops reading (413). */
async function readText(req: Request, max: number): Promise<string> {
  const done = textOf.get(req);
  if (done !== undefined) return done;
  if (!req.body) return "";
  const reader = req.body.getReader();
  const decoder = new TextDecoder();
  let seen = 0, text = "";
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (e) {
      // the client left (or stalled past the server's time-out) before its body was in: its
      // problem, a 400 nobody may read, never a 500 with a stack in the log
      throw e instanceof HttpError ? e : new HttpError(400, BODY_INCOMPLETE);
    }
    const { done, value } = chunk;
    if (done) break;
    seen += value.byteLength;
    if (seen > max) {
      // the rest of the body is left unread: the server drops it with the connection
      await reader.cancel().catch(() => {});
      throw bodyTooLarge(max);
    }
    text += decoder.decode(value, { stream: true });
  }
  text += decoder.decode();
  textOf.set(req, text);
  return text;
}

/**
 * Reads the JSON body (an empty body counts as {}) and validates it. The body is counted against
 * the call's limit while it is read (`limitBody`, which the API registrar puts on every call; the
 * default limit otherwise): a body over it is a 413 before it is all in memory.
 */
export async function body<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  return parseWith(schema, await jsonBody(c));
}

/** The JSON body as an object (an empty body is {}), read within the call's limit; 400 otherwise. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await readText(c.req.raw, limitOf.get(c.req.raw) ?? DEFAULT_BODY_LIMIT);
  let json: unknown = {};
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      throw badRequest(MSG.bodyNotJson, [{ path: "", message: MSG.bodyNotJson }]);
    }
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw badRequest(MSG.bodyNotObject, [{ path: "", message: MSG.bodyNotObject }]);
  }
  return json as Record<string, unknown>;
}

/** Validates a route parameter as one of our 24-hex ids; a malformed id is simply not found. */
export const IdParam = v.pipe(v.string(), v.regex(/^[0-9a-f]{24}$/));

/** The `:id` (or another) route parameter as a record id; anything else is that record not found. */
export function idParam(c: Context, what: string, name = "id"): string {
  const r = v.safeParse(IdParam, c.req.param(name));
  if (!r.success) throw httpNotFound(what);
  return r.output;
}
