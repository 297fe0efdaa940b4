import * as v from "valibot";
import type { Context } from "hono";
import { badRequest, type FieldError, notFound } from "./errors.ts";
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

/** Reads the JSON body (an empty body counts as {}) and validates it. */
export async function body<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const text = await c.req.text();
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
  return parseWith(schema, json);
}

/** Validates a route parameter as one of our 24-hex ids; a malformed id is simply not found. */
export const IdParam = v.pipe(v.string(), v.regex(/^[0-9a-f]{24}$/));

/** The `:id` (or another) route parameter as a record id; anything else is that record not found. */
export function idParam(c: Context, what: string, name = "id"): string {
  const r = v.safeParse(IdParam, c.req.param(name));
  if (!r.success) throw notFound(what);
  return r.output;
}
