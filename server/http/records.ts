/**
 * The records a call's input names, checked against their tables by the registrar: the ids of the
 * path (`ids: { id: "Project" }`, a 404) and every id a body or query schema declares with
 * `refersTo` (shared/schemas/refs.ts, a 404 "<Kind> not found" of the first such field). An id of the right shape that is in no
 * row is refused here, whatever the handler would have made of it (a list of nothing, a summary of
 * zeros, a row pointing nowhere). Existence only: a handler still says when a record is deleted,
 * inactive or of the wrong type. The look-ups are the domain's (server/domain/common/records.ts).
 */
import * as v from "valibot";
import type { Db } from "../db/connection.ts";
import { collectRefs, refuseMissing } from "../../shared/schemas/refs.ts";
import { missingRecords } from "../domain/common/records.ts";
import { controlCharsMsg, hasControlChars } from "../../shared/text.ts";
import { badRequest, HttpError } from "./errors.ts";
import { parseWith } from "./validate.ts";
import { MSG } from "../../shared/messages.ts";

/**
 * The backstop of the text fields' own check: no string anywhere in the input (keys included) holds
 * a control character. Walked without recursion, so a deeply nested body cannot overflow the stack.
 */
export function refuseControlChars(input: unknown, fileFields: readonly string[] = []): void {
  const stack: [unknown, string][] = [[input, ""]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (fileFields.includes(path)) continue;
    if (typeof value === "string") {
      if (hasControlChars(value)) {
        const label = path.split(".").pop() || "The input";
        throw badRequest(controlCharsMsg(label), [{ path, message: controlCharsMsg(label) }]);
      }
    } else if (value && typeof value === "object") {
      for (const [k, item] of Object.entries(value)) {
        const at = path ? `${path}.${k}` : k;
        if (hasControlChars(k)) throw badRequest(MSG.invalidInput, [{ path: at, message: MSG.invalidInput }]);
        stack.push([item, at]);
      }
    }
  }
}

/**
 * Validates a body or query with its contract schema, then what the schema alone cannot: control
 * characters in any field, and every declared id naming a row. A missing one is refused with the
 * message of its field ("Client not found"), found by parsing once more with it marked.
 */
export async function parseInput<S extends v.GenericSchema>(
  db: Db,
  schema: S,
  input: unknown,
  /** Top-level fields holding a file's contents (the contract's `fileFields`). */
  fileFields?: readonly string[],
): Promise<v.InferOutput<S>> {
  const { value, refs } = collectRefs(() => parseWith(schema, input));
  refuseControlChars(input, fileFields);
  if (!refs.length) return value;
  const missing = await missingRecords(db, refs);
  if (!missing.length) return value;
  try {
    // an id noted in a branch of a union that did not match is not the input's: the parse then passes
    refuseMissing(() => parseWith(schema, input), missing);
  } catch (e) {
    // the record is not found, answered exactly as for an id of the path and as the handlers answer
    // a record the caller may not see (a supplier's portal): nothing tells the two apart
    if (e instanceof HttpError) throw new HttpError(404, e.message);
    throw e;
  }
  return value;
}
