/** What invoices and purchase orders share: the Upload Ref. No. rows, id filters. */
import type { AnyQB, FilterFn } from "../../db/list.ts";
import { invalid } from "../errors.ts";
import { parseDay } from "./dates.ts";

export type RefRow = {
  line: number;
  code: string;
  referenceNo: string;
  recievedDate: string;
  comment: string;
};

const bad = (message: string) => invalid(message, [{ path: "data", message }]);

/**
 * The rows of an Upload Ref. No. file (no header row): code, reference number, received date
 * (optional: today), comment (optional). Blank rows are skipped; a row without a code or a
 * reference, with a date that is not one, or repeating a code refuses the file, naming its line.
 */
export function readRefRows(data: string[][], today: string, what: string): RefRow[] {
  const out: RefRow[] = [];
  const seen = new Map<string, number>();
  data.forEach((cells, i) => {
    const line = i + 1;
    const [code = "", referenceNo = "", date = "", comment = ""] = cells.map((c) => String(c ?? "").trim());
    if (!cells.some((c) => String(c ?? "").trim() !== "")) return;
    if (!code) throw bad(`Line ${line}: the ${what} number is missing`);
    if (!referenceNo) throw bad(`Line ${line}: the reference number of ${code} is missing`);
    const recievedDate = date ? parseDay(date) : today;
    if (!recievedDate) throw bad(`Line ${line}: "${date.slice(0, 40)}" is not a date (dd/mm/yyyy)`);
    const key = code.toUpperCase();
    if (seen.has(key)) throw bad(`Line ${line}: ${code} is already on line ${seen.get(key)}`);
    seen.set(key, line);
    out.push({ line, code: key, referenceNo: referenceNo.slice(0, 50), recievedDate, comment });
  });
  if (!out.length) throw bad("The file holds no rows");
  return out;
}

/** A filter of record ids (one or a list). */
export const inIds = (column: string): FilterFn => (qb: AnyQB, val) => {
  const list = (Array.isArray(val) ? val : [val]).map(String).filter((s) => s !== "");
  return list.length ? qb.where(column, "in", list) : qb;
};
