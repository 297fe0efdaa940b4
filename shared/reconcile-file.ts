/**
 * The identifier file of a reconcile upload (spec part 2, sections 2, 4, 5, 7): its rules and its
 * parser, here once for the web's preview, the server's parse and the worker that parses a large
 * file off the app's thread (server/domain/reconcile/worker.ts; nothing here but papaparse).
 *
 * The file: one identifier a line, no header row (a first line that reads as a header, its name
 * lowercased with non-word characters replaced by underscores, e.g. "UID" or "User Id", is skipped);
 * blank lines are skipped; quotes around an identifier, or stray ones in it, are dropped. Anything
 * else (two values on a line, an identifier with spaces or control characters, or longer than 128
 * characters) is refused, naming the line.
 */
import Papa from "papaparse";

/** The most identifiers one upload takes. */
export const MAX_IDENTIFIERS = 1_000_000;
/** The longest identifier. */
export const MAX_IDENTIFIER = 128;

/** Header names (after the spec's transform) a first line may carry instead of an identifier. */
const HEADER_NAMES = new Set([
  "uid",
  "uids",
  "user_id",
  "userid",
  "user_identifier",
  "identifier",
  "identifiers",
  "id",
  "ids",
  "respondent_id",
  "respondentid",
  "rid",
]);

/** The spec's header rule: lowercased, non-word characters replaced by underscores. */
export const headerName = (s: string) => s.trim().toLowerCase().replace(/\W/g, "_");

export type ParsedIdentifiers = {
  /** Unique identifiers in the order first seen. */
  identifiers: string[];
  /** Lines of the file (blank ones included). */
  lines: number;
  /** Identifiers that appeared again further down the file. */
  duplicates: number;
  /** Whether the first line was a header and skipped. */
  header: boolean;
};
export type ParseFailure = { line: number; message: string };

// deno-lint-ignore no-control-regex
const BAD_CHARS = /[\s\u0000-\u001f\u007f]/;
/** An identifier as a file may hold it: 1 to 128 characters, no spaces or control characters. */
export const isIdentifier = (s: string) => s.length > 0 && s.length <= MAX_IDENTIFIER && !BAD_CHARS.test(s);

/**
 * A file that is not UTF-8 text, as the browser's (or the CLI's) UTF-8 reading leaves it: UTF-16
 * (its byte-order mark read as two U+FFFD, a NUL after every ASCII character) or binary (NULs or
 * bytes that are no UTF-8 at all). Refused with what to do instead of a confusing line message.
 */
function notTextProblem(src: string): ParseFailure | null {
  // deno-lint-ignore no-control-regex
  const at = src.search(/[\u0000\uFFFD]/);
  if (at < 0) return null;
  const line = lineAt(src, at);
  if (looksUtf16(src)) {
    return { line, message: "The file is UTF-16 text: save it as CSV UTF-8 and upload it again" };
  }
  return { line, message: `Line ${line}: the file is not a text (CSV) file` };
}

/**
 * UTF-16 text of ASCII as UTF-8 reading leaves it: after its byte-order mark (two U+FFFD, or none),
 * a NUL in every other place (little- or big-endian) over the first characters. A mark alone is no
 * proof: random bytes often decode to two U+FFFD at the start.
 */
function looksUtf16(src: string): boolean {
  const body = src.replace(/^(\uFFFD\uFFFD|\uFEFF)/, "").slice(0, 64);
  const pairs = Math.floor(body.length / 2);
  if (pairs < 1) return false;
  const nulAt = (parity: number) => {
    for (let i = 0; i < pairs * 2; i++) if ((body[i] === "\u0000") !== (i % 2 === parity)) return false;
    return true;
  };
  return nulAt(1) || nulAt(0);
}

const lineAt = (src: string, index: number) => {
  let line = 1;
  for (let i = src.indexOf("\n"); i >= 0 && i < index; i = src.indexOf("\n", i + 1)) line++;
  return line;
};

/**
 * The file's rows of cells. A file without quotes or any delimiter papaparse could pick is one cell a
 * line: read line by line as the parse goes (no array of a million rows first), many times faster
 * than the parser (the same rows). Otherwise papaparse; on a quoting problem the file is read again
 * with quoting off (stray quotes never fail the parse: one identifier a line, so a quote is never
 * needed to hold a delimiter).
 */
function* rowsOf(src: string): Generator<string[]> {
  // deno-lint-ignore no-control-regex
  if (!/["\t,;|\u001e\u001f]/.test(src)) {
    let start = 0;
    for (;;) {
      const end = src.indexOf("\n", start);
      if (end < 0) break;
      const cut = end > start && src.charCodeAt(end - 1) === 13 ? end - 1 : end;
      yield* splitOnCr(src.slice(start, cut));
      start = end + 1;
    }
    yield* splitOnCr(src.slice(start));
    return;
  }
  const parsed = Papa.parse<string[]>(src, { header: false, dynamicTyping: false, skipEmptyLines: false });
  if (!parsed.errors.some((e) => e.type === "Quotes")) return yield* parsed.data;
  yield* Papa.parse<string[]>(src, {
    header: false,
    dynamicTyping: false,
    skipEmptyLines: false,
    quoteChar: "\u0000",
  }).data;
}

/** A line of a file that may end its lines with a lone CR (old Mac) as well. */
const splitOnCr = (line: string): string[][] =>
  line.includes("\r") ? line.split("\r").map((l) => [l]) : [[line]];

/**
 * Parses an identifier file with papaparse: returns the identifiers or the first problem with its
 * line number. Stray quotes never fail the parse: when papaparse reports a quoting problem the file
 * is read again with quoting off and every quote dropped.
 */
export function parseIdentifierFile(text: string, max = MAX_IDENTIFIERS): ParseResult {
  const steps = parseSteps(text, max);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same parse for the server: it hands the event loop back every few thousand lines, so a file of
 * a million lines never holds up the requests being served meanwhile (respondents, other staff).
 */
export async function parseIdentifierFileAsync(
  text: string,
  max = MAX_IDENTIFIERS,
  /** Filled with the time the parse itself held the loop (ms), the waits between steps left out. */
  stats: { busyMs: number } = { busyMs: 0 },
): Promise<ParseResult> {
  const steps = parseSteps(text, max);
  for (;;) {
    const t0 = performance.now();
    const step = steps.next();
    stats.busyMs += performance.now() - t0;
    if (step.done) return step.value;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

export type ParseResult = { ok: true; value: ParsedIdentifiers } | { ok: false; error: ParseFailure };

/** Rows between two hand-backs of the event loop. */
const ROWS_A_STEP = 20_000;

function* parseSteps(text: string, max: number): Generator<void, ParseResult> {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const notText = notTextProblem(src);
  if (notText) return { ok: false, error: notText };
  yield;
  const seen = new Set<string>();
  const identifiers: string[] = [];
  let duplicates = 0, header = false, first = true;
  let line = 0, lastRow: string[] = [];
  for (const row of rowsOf(src)) {
    line++;
    lastRow = row;
    if (line % ROWS_A_STEP === 0) yield;
    // the row's non-blank cells, quotes dropped: their count and the first
    let count = 0, id = "";
    for (const c of row ?? []) {
      const cell = String(c ?? "");
      const value = (cell.includes('"') ? cell.replace(/"/g, "") : cell).trim();
      if (value !== "" && count++ === 0) id = value;
    }
    if (!count) continue; // blank line (or only commas and quotes)
    if (count > 1) {
      return {
        ok: false,
        error: { line, message: `Line ${line}: one identifier a line, found ${count} values` },
      };
    }
    if (first) {
      first = false;
      if (HEADER_NAMES.has(headerName(id))) {
        header = true;
        continue;
      }
    }
    if (id.length > MAX_IDENTIFIER) {
      return {
        ok: false,
        error: { line, message: `Line ${line}: an identifier is at most ${MAX_IDENTIFIER} characters` },
      };
    }
    if (BAD_CHARS.test(id)) {
      return {
        ok: false,
        error: { line, message: `Line ${line}: an identifier holds no spaces or control characters` },
      };
    }
    if (seen.has(id)) {
      duplicates++;
      continue;
    }
    if (seen.size >= max) {
      return { ok: false, error: { line, message: `Line ${line}: a file holds at most ${max} identifiers` } };
    }
    seen.add(id);
    identifiers.push(id);
  }
  // a file ending with a line break gives a last empty row: it is not a line of its own
  const lines = line && (lastRow ?? []).join("") === "" && /\r?\n$/.test(src) ? line - 1 : line;
  return { ok: true, value: { identifiers, lines, duplicates, header } };
}
