/**
 * The identifiers of a reconcile upload: from the file's text (parsed by the shared parser, a large
 * file on a worker) or from the spec's `uid` list, deduplicated, with the figures the summary tells.
 */
import { invalid } from "../errors.ts";
import {
  isIdentifier,
  MAX_IDENTIFIERS,
  parseIdentifierFile,
  parseIdentifierFileAsync,
  type ParseResult,
} from "../../../shared/reconcile-file.ts";
import { PARSE_OFF_THREAD, parseOffThread } from "./offthread.ts";

export type Identifiers = {
  identifiers: string[];
  lines: number;
  duplicates: number;
  fileName?: string;
  /** How long the file's parse held the loop (ms): the upload counts it as its own time. */
  parseMs?: number;
};

/**
 * `identifiersOf` for the server: a large file is parsed on a worker (./offthread.ts), a smaller
 * one here handing the event loop back as it goes, so a big upload never holds up the requests
 * served meanwhile. `offThread` forces the choice (tests).
 */
export async function identifiersOfUpload(
  input: { csv?: string; uid?: string[]; fileName?: string },
  offThread?: boolean,
): Promise<Identifiers> {
  if (input.csv === undefined) return identifiersOf(input);
  const stats = { busyMs: 0 };
  const csv = input.csv;
  const here = () => parseIdentifierFileAsync(csv, undefined, stats);
  // a worker that cannot run leaves the parse to this thread
  const parsed = offThread ?? csv.length > PARSE_OFF_THREAD
    ? await parseOffThread(csv, MAX_IDENTIFIERS, stats).catch(here)
    : await here();
  const ids = identifiersOf(input, parsed);
  return { ...ids, parseMs: (ids.parseMs ?? 0) + stats.busyMs };
}

/** The identifiers of an upload's body: the file's text (parsed here) or the spec's `uid` list. */
export function identifiersOf(
  input: { csv?: string; uid?: string[]; fileName?: string },
  parsed?: ParseResult,
): Identifiers {
  if (input.csv !== undefined) {
    const t0 = performance.now();
    const r = parsed ?? parseIdentifierFile(input.csv);
    if (!r.ok) throw invalid(r.error.message, [{ path: "csv", message: r.error.message }]);
    if (!r.value.identifiers.length) {
      throw invalid("The file holds no identifiers", [{
        path: "csv",
        message: "The file holds no identifiers",
      }]);
    }
    return { ...r.value, fileName: input.fileName, parseMs: performance.now() - t0 };
  }
  const list = input.uid ?? [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (let i = 0; i < list.length; i++) {
    const id = list[i].trim();
    if (!id) continue;
    if (!isIdentifier(id)) {
      const message = `Identifier ${i + 1}: not a valid identifier`;
      throw invalid(message, [{ path: `uid.${i}`, message }]);
    }
    if (seen.has(id)) duplicates++;
    else seen.add(id);
  }
  if (!seen.size) {
    throw invalid("A parsed identifier file is required", [{
      path: "uid",
      message: "A parsed identifier file is required",
    }]);
  }
  return { identifiers: [...seen], lines: list.length, duplicates, fileName: input.fileName };
}
