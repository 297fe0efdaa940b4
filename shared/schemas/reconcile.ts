/**
 * Reconcile (spec part 2, sections 2, 4, 5, 7): the upload of approved (1) or rejected (2) identifier
 * files, the supplier summary edits, and the status and revoke calls of the reconcile screens. The
 * identifier file's rules live here once, for the web's preview and the server's parse alike.
 *
 * The file: one identifier a line, no header row (a first line that reads as a header, its name
 * lowercased with non-word characters replaced by underscores, e.g. "UID" or "User Id", is skipped);
 * blank lines are skipped; quotes around an identifier, or stray ones in it, are dropped. Anything
 * else (two values on a line, an identifier with spaces or control characters, or longer than 128
 * characters) is refused, naming the line.
 */
import * as v from "valibot";
import Papa from "papaparse";
import { MAX_LEN, tooLongMsg } from "./common.ts";

export const RECONCILE_TYPE = { APPROVED: 1, REJECTED: 2 } as const;
export type ReconcileType = (typeof RECONCILE_TYPE)[keyof typeof RECONCILE_TYPE];
export const RECONCILE_TYPES = [
  { value: RECONCILE_TYPE.APPROVED, label: "Approved" },
  { value: RECONCILE_TYPE.REJECTED, label: "Rejected" },
] as const;
export const reconcileTypeLabel = (t: number) => t === RECONCILE_TYPE.REJECTED ? "Rejected" : "Approved";

/** The most identifiers one upload takes. */
export const MAX_IDENTIFIERS = 1_000_000;
/** The largest upload body (the file's text inside its JSON). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
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

/** A cell's text: quotes dropped, trimmed (the string itself when there is nothing to drop). */
function cellText(cell: unknown): string {
  const s = typeof cell === "string" ? cell : String(cell ?? "");
  return (s.includes('"') ? s.replace(/"/g, "") : s).trim();
}

/** The rows of a file as papaparse reads them; stray quotes dropped (see parseIdentifierFile). */
function papaRows(src: string): string[][] {
  let parsed = Papa.parse<string[]>(src, { header: false, dynamicTyping: false, skipEmptyLines: false });
  if (parsed.errors.some((e) => e.type === "Quotes")) {
    // stray quotes: one identifier a line, so a quote is never needed to hold a delimiter
    parsed = Papa.parse<string[]>(src, {
      header: false,
      dynamicTyping: false,
      skipEmptyLines: false,
      quoteChar: "\u0000",
    });
  }
  return parsed.data;
}

/** What papaparse may read as a quote or a delimiter (the ones it guesses among). */
// deno-lint-ignore no-control-regex
const NOT_PLAIN = /["\t,;|\u001e\u001f]/;

const countOf = (s: string, part: string) => {
  let n = 0;
  for (let i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + part.length)) n++;
  return n;
};

/**
 * The lines of a plain file, the common case: no quotes, no delimiter, every line break a LF or
 * every one a CRLF. Papaparse reads such a file as one cell a line, these lines exactly; this is
 * the same reading without an array per row (a file of 100,000 identifiers parses in half the
 * time). Null when the file is not plain: papaparse reads it. Exported for its test.
 */
export function plainLines(src: string): string[] | null {
  if (!src.length || NOT_PLAIN.test(src)) return null;
  const cr = countOf(src, "\r");
  if (!cr) return src.split("\n");
  return cr === countOf(src, "\n") && cr === countOf(src, "\r\n") ? src.split("\r\n") : null;
}

/**
 * Parses an identifier file with papaparse (a plain file, which papaparse reads as its lines, is
 * split into them directly: plainLines): returns the identifiers or the first problem with its
 * line number. Stray quotes never fail the parse: when papaparse reports a quoting problem the file
 * is read again with quoting off and every quote dropped.
 */
export function parseIdentifierFile(
  text: string,
  max = MAX_IDENTIFIERS,
): { ok: true; value: ParsedIdentifiers } | { ok: false; error: ParseFailure } {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // a row: its cells, or the line itself when the file is plain (one cell a line)
  const rows: (string | string[])[] = plainLines(src) ?? papaRows(src);
  const seen = new Set<string>();
  const identifiers: string[] = [];
  let duplicates = 0, header = false, first = true;
  for (let i = 0; i < rows.length; i++) {
    const line = i + 1;
    // the row's non-empty cells, counted without building arrays (a file may hold a million lines)
    const row = rows[i] ?? [];
    let id = "", values = 0;
    if (typeof row === "string") {
      id = cellText(row);
      values = id === "" ? 0 : 1;
    } else {
      for (let k = 0; k < row.length; k++) {
        const c = cellText(row[k]);
        if (c !== "" && values++ === 0) id = c;
      }
    }
    if (!values) continue; // blank line (or only commas and quotes)
    if (values > 1) {
      return {
        ok: false,
        error: { line, message: `Line ${line}: one identifier a line, found ${values} values` },
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
  const last = rows[rows.length - 1] ?? [];
  const lines = rows.length && (typeof last === "string" ? last : last.join("")) === "" && /\r?\n$/.test(src)
    ? rows.length - 1
    : rows.length;
  return { ok: true, value: { identifiers, lines, duplicates, header } };
}

const typeSchema = v.pipe(
  v.union([v.picklist([1, 2]), v.picklist(["1", "2"])], "Type must be Approved (1) or Rejected (2)"),
  v.transform((t) => Number(t) as ReconcileType),
);

/**
 * POST /admin/project/reconsile/:id: the type and the file's text (`csv`, parsed on the server with
 * the rules above), or the spec's list of identifiers (`uid`).
 */
export const ReconcileUpload = v.pipe(
  v.object({
    type: typeSchema,
    csv: v.optional(
      v.pipe(v.string("The file must be text"), v.maxLength(MAX_UPLOAD_BYTES, "The file is too large")),
    ),
    uid: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string("Each identifier must be text"),
            v.maxLength(MAX_IDENTIFIER, `An identifier is at most ${MAX_IDENTIFIER} characters`),
          ),
          "uid must be a list of identifiers",
        ),
        v.maxLength(MAX_IDENTIFIERS, `An upload holds at most ${MAX_IDENTIFIERS} identifiers`),
      ),
    ),
    fileName: v.optional(
      v.pipe(v.string(), v.maxLength(MAX_LEN.line, tooLongMsg("File name", MAX_LEN.line))),
      "",
    ),
  }),
  v.check((b) => b.csv !== undefined || b.uid !== undefined, "A parsed identifier file is required"),
);
export type ReconcileUpload = v.InferOutput<typeof ReconcileUpload>;

/** PUT /admin/project/reconsile/update/:id: Proceed to Invoice (4) or Archieve (7), e-mailing the suppliers or not. */
export const ReconcileStatus = v.object({
  projectStatus: v.union(
    [v.picklist([4, 7]), v.pipe(v.picklist(["4", "7"]), v.transform(Number))],
    "projectStatus must be 4 (Ready To Invoice) or 7 (Archieved)",
  ),
  sendEmail: v.optional(v.boolean("sendEmail must be true or false"), false),
});
export type ReconcileStatus = v.InferOutput<typeof ReconcileStatus>;

/** POST /admin/project/revoke/:id and the undo: whether to e-mail the suppliers. */
export const RevokeBody = v.optional(
  v.object({ sendEmail: v.optional(v.boolean("sendEmail must be true or false"), false) }),
  {},
);

const idText = (what: string) =>
  v.pipe(
    v.string(`${what} is required`),
    v.trim(),
    v.nonEmpty(`${what} is required`),
    v.maxLength(64, `${what} is not valid`),
  );

/** POST /admin/suppliers/summary {projectId}. */
export const SupplierSummaryBody = v.object({ projectId: idText("Project") });

/**
 * POST /admin/suppliers/approve/summary: one field of a supplier's summary row, the supplier CPI or
 * the admin-approved count (null: back to the reconciled count).
 */
export const ApproveSummaryBody = v.union([
  v.object({
    projectId: idText("Project"),
    supplierId: idText("Supplier"),
    supplierCPI: v.pipe(
      v.union([v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty("Supplier CPI is required"))]),
      v.transform(Number),
      v.number("Supplier CPI must be a number"),
      v.finite("Supplier CPI must be a number"),
      v.minValue(0, "Supplier CPI must be at least 0"),
      v.maxValue(1_000_000, "Supplier CPI must be at most 1000000"),
    ),
  }),
  v.object({
    projectId: idText("Project"),
    supplierId: idText("Supplier"),
    adminApproved: v.union([
      v.null(),
      v.pipe(
        v.union([v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty("Approved is required"))]),
        v.transform(Number),
        v.number("Approved must be a number"),
        v.integer("Approved must be a whole number"),
        v.minValue(0, "Approved must be at least 0"),
        v.maxValue(1_000_000_000, "Approved must be at most 1000000000"),
      ),
    ], "Approved must be a number"),
  }),
], "Send supplierCPI or adminApproved with projectId and supplierId");
export type ApproveSummaryBody = v.InferOutput<typeof ApproveSummaryBody>;
