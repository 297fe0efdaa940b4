import type { Context } from "hono";

/** The success envelope of every call: HTTP 200 `{ result, message }`. */
export function ok<T>(c: Context, result: T, message = "Success") {
  return c.json({ result, message }, 200);
}
