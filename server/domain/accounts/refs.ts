/**
 * What invoices and purchase orders share: the Upload Ref. No. rows and their application (a paid
 * record's reference is not replaced unless the upload says so; every change of a reference is in
 * the system log with its old and new value), id filters.
 */
import type { LogModule } from "../../../shared/log-modules.ts";
import { sql } from "kysely";
import type { AnyQB, FilterFn } from "../../db/list.ts";
import type { RefUploadResult } from "../../../shared/api/accounts.ts";
import { INVOICE_STATUS } from "../../../shared/status.ts";
import { conflict, invalid } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import type { Ctx } from "../ctx.ts";
import { dmy, parseDay } from "./dates.ts";

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

/** The records an Upload Ref. No. marks paid: invoices (to clients) or purchase orders (from suppliers). */
export type RefTarget = {
  table: "invoices" | "purchase_orders";
  codeColumn: "invoiceCode" | "poCode";
  statusColumn: "invoiceStatus" | "poStatus";
  /** "Invoice", "Purchase order": how a line and the log name one. */
  what: string;
  module: LogModule;
};

/** The Paid status of invoices and purchase orders alike. */
const INVOICE_STATUS_PAID = INVOICE_STATUS.find((s) => s.label === "Paid")!.value;

type Stored = {
  id: string;
  code: string;
  referenceNo: string;
  recievedDate: string | null;
  comment: string;
  status: number;
};

/** How the log writes a reference and a received day ("(none)" when unset). */
const refText = (s: string) => (s ? `"${s}"` : "(none)");
const dayText = (d: string | null) => (d ? dmy(d) : "(none)");

/** At most this many refused lines are named in the message (all are in `errors`). */
const NAMED = 10;

/**
 * Marks each row's record Paid with its reference, received date (and comment, when given), in one
 * transaction: all or nothing. An unknown code refuses the file, naming its line. A record already
 * Paid whose reference or received date the row would change is refused by line and name, unless
 * `overwrite` (the dialog asks for it); a row that repeats what is stored changes nothing. Each
 * record changed writes a log row with its old and new reference and received date.
 */
export async function applyRefRows(
  ctx: Pick<Ctx, "db" | "actor">,
  target: RefTarget,
  opts: { refs: RefRow[]; overwrite: boolean; at: Date },
): Promise<RefUploadResult> {
  const { db, actor } = ctx, refs = opts.refs;
  const stamp = opts.at.toISOString();
  const t = sql.table(target.table),
    codeCol = sql.ref(target.codeColumn),
    statusCol = sql.ref(target.statusColumn);
  const lower = target.what.toLowerCase();
  return await db.transaction().execute(async (trx) => {
    const known = new Map<string, Stored>();
    for (let i = 0; i < refs.length; i += 500) {
      const part = refs.slice(i, i + 500).map((r) => r.code);
      const { rows } = await sql<Stored>`SELECT id, ${codeCol} AS code, referenceNo, recievedDate, comment,
        ${statusCol} AS status FROM ${t} WHERE isDeleted = 0 AND ${codeCol} IN (${sql.join(part)})`
        .execute(trx);
      rows.forEach((r) => known.set(r.code, r));
    }
    const unknown = refs.find((r) => !known.has(r.code));
    if (unknown) throw bad(`Line ${unknown.line}: there is no ${lower} ${unknown.code}`);
    const changes = refs.map((r) => ({ r, was: known.get(r.code)! }))
      .filter(({ r, was }) =>
        was.status !== INVOICE_STATUS_PAID || was.referenceNo !== r.referenceNo ||
        was.recievedDate !== r.recievedDate || (r.comment !== "" && r.comment !== was.comment)
      );
    const paid = changes.filter(({ r, was }) =>
      was.status === INVOICE_STATUS_PAID &&
      (was.referenceNo !== r.referenceNo || was.recievedDate !== r.recievedDate)
    );
    if (paid.length && !opts.overwrite) {
      const lines = paid.map(({ r, was }) =>
        `Line ${r.line}: ${r.code} is already Paid (reference ${refText(was.referenceNo)}, received ${
          dayText(was.recievedDate)
        })`
      );
      const more = lines.length > NAMED ? `; and ${lines.length - NAMED} more` : "";
      const m = `${lines.slice(0, NAMED).join("; ")}${more}. Upload again with overwrite to replace ${
        paid.length === 1 ? "its reference" : "their references"
      }`;
      throw conflict(m, lines.map((message) => ({ path: "data", message })));
    }
    for (const { r, was } of changes) {
      await sql`UPDATE ${t} SET referenceNo = ${r.referenceNo}, recievedDate = ${r.recievedDate},
        comment = CASE WHEN ${r.comment} = '' THEN comment ELSE ${r.comment} END,
        ${statusCol} = ${INVOICE_STATUS_PAID}, updatedAt = ${stamp} WHERE id = ${was.id}`.execute(trx);
      const moved = was.referenceNo !== r.referenceNo || was.recievedDate !== r.recievedDate;
      await writeLog(trx, actor, {
        activity: `${target.what} ${r.code} ${was.status === INVOICE_STATUS_PAID ? "" : "marked Paid, "}${
          moved
            ? `reference ${refText(was.referenceNo)} -> ${refText(r.referenceNo)}, received ${
              dayText(was.recievedDate)
            } -> ${dayText(r.recievedDate)}`
            : "comment updated"
        } (Upload Ref. No., line ${r.line}${paid.some((p) => p.r === r) ? ", overwrite" : ""})`,
        module: target.module,
        recordId: was.id,
      }, opts.at);
    }
    await writeLog(trx, actor, {
      activity: `Uploaded reference numbers of ${refs.length} ${lower}${
        refs.length === 1 ? "" : "s"
      } (${changes.length} changed)`,
      module: target.module,
    }, opts.at);
    return {
      updated: changes.length,
      codes: refs.map((r) => r.code),
      overwritten: paid.map((p) => p.r.code),
    };
  });
}

/** The log text of a status edit's reference change ("" when the reference and date stay). */
export function refChangeText(
  was: { referenceNo: string; recievedDate: string | null },
  now: { referenceNo: string; recievedDate: string | null },
): string {
  if (was.referenceNo === now.referenceNo && was.recievedDate === now.recievedDate) return "";
  return `reference ${refText(was.referenceNo)} -> ${refText(now.referenceNo)}, received ${
    dayText(was.recievedDate)
  } -> ${dayText(now.recievedDate)}`;
}
