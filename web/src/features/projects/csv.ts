/**
 * CSV uploads of the child project screens (zip codes, multi-link URLs): one value per row in the
 * first column, no header row (part 1, 5; part 2, 5). Blank lines are skipped and duplicates kept
 * once. A first row that is plainly a column title ("zip", "url", ...) is dropped rather than
 * taken as data. papaparse is loaded on first use.
 */
export type CsvColumn = { values: string[]; rejected: string[] };

export async function readFirstColumn(
  file: File,
  accept: (value: string) => boolean,
  isTitle: (value: string) => boolean,
): Promise<CsvColumn> {
  const { default: Papa } = await import("papaparse");
  const text = await textOf(file);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: "greedy" });
  const cells = parsed.data.map((row) => String(row?.[0] ?? "").trim()).filter(Boolean);
  if (cells.length && isTitle(cells[0]) && !accept(cells[0])) cells.shift();
  const values: string[] = [];
  const rejected: string[] = [];
  const seen = new Set<string>();
  for (const c of cells) {
    if (!accept(c)) {
      rejected.push(c);
      continue;
    }
    if (!seen.has(c)) {
      seen.add(c);
      values.push(c);
    }
  }
  return { values, rejected };
}

/**
 * A file's text: UTF-8, or UTF-16 when it starts with that byte-order mark (Excel's "Unicode text");
 * a file with NULs or bytes that are no UTF-8 is not a text file (the screens say it could not be
 * read as CSV) rather than a list of garbled rows.
 */
export async function textOf(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe
    ? "utf-16le"
    : bytes[0] === 0xfe && bytes[1] === 0xff
    ? "utf-16be"
    : "utf-8";
  // TextDecoder drops the byte-order mark of its encoding
  const text = new TextDecoder(encoding).decode(bytes);
  // deno-lint-ignore no-control-regex
  if (/[\u0000\uFFFD]/.test(text)) throw new Error("The file is not a text (CSV) file");
  return text;
}

/** Postal codes: letters, digits, spaces and dashes, up to 20 characters (the schema's limit). */
export const isZipCode = (s: string) => /^[A-Za-z0-9][A-Za-z0-9 -]{0,19}$/.test(s) && /\d/.test(s);
export const isZipTitle = (s: string) => /^[a-z _-]*(zip|postal|post|code)[a-z _-]*$/i.test(s);

const URL_SHAPE = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
export const isSurveyUrl = (s: string) => URL_SHAPE.test(s);
export const isUrlTitle = (s: string) => !/^https?:/i.test(s);
