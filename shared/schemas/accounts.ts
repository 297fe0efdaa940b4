/**
 * Accounts forms (part 2: 2 "Accounts", 3 Invoice and Purchase order, 4, 5 "Invoice generation" and
 * "Invoice status edit", 7 "Accounts"): generating and editing an invoice, its status edit, the
 * manual project, a purchase order, the Upload Ref. No. rows and the issuing company edit.
 */
import * as v from "valibot";
import { taxLinesProblem } from "../tax.ts";
import { MSG, requiredMsg } from "../messages.ts";
import { PROJECT_STATUS, PROJECT_STATUS_LIST } from "../status.ts";
import type { RecordKind } from "./refs.ts";
import {
  isoDate,
  MAX_COUNT,
  MAX_LEN,
  MAX_MONEY,
  money,
  optionalBlock,
  optionalText,
  recordId,
  requiredId,
  requiredText,
  tooLargeMsg,
} from "./common.ts";

/** The accounts area's own messages (the spec's are in shared/messages.ts). */
export const ACCOUNT_MSG = {
  invoiceStatusInvalid: "Status must be Pending (1) or Paid (2)",
  invoiceLinesRequired: "Add at least one project to the invoice",
  uploadRowsRequired: "The file holds no rows",
} as const;

/** An optional record id of a kind: absent, null or blank is null. */
const optionalRef = (message: string, kind: RecordKind) =>
  v.pipe(
    v.optional(v.nullable(v.string(message)), null),
    v.transform((s) => (s ? s.trim() : null)),
    v.nullable(recordId(message, kind)),
  );

/** A whole number from 0 to `max`, as a number or numeric string. */
const count = (message: string, max = MAX_COUNT) =>
  v.pipe(
    v.optional(v.nullable(v.union([v.number(message), v.string(message)], message)), 0),
    v.transform((x) => (x === null || x === "" ? 0 : Number(x))),
    v.check((n) => Number.isInteger(n) && n >= 0, message),
    v.maxValue(max, tooLargeMsg(message.replace(/ must.*$/, ""), max)),
  );

/** The invoice's payment status (part 2, 4): 1 Pending, 2 Paid. */
export const INVOICE_STATUS_VALUES = [1, 2] as const;
const invoiceStatus = v.pipe(
  v.optional(
    v.union([v.number(ACCOUNT_MSG.invoiceStatusInvalid), v.string(ACCOUNT_MSG.invoiceStatusInvalid)]),
    1,
  ),
  v.transform(Number),
  v.check((n) => (INVOICE_STATUS_VALUES as readonly number[]).includes(n), ACCOUNT_MSG.invoiceStatusInvalid),
);

/** The largest invoice or PO: lines, and the amount of one line. */
export const MAX_LINES = 500;
export const MAX_LINE_TOTAL = MAX_MONEY * 1000;

/** One line of an invoice: a Ready To Invoice project of the client, or one typed by hand (no projectId). */
export const InvoiceLine = v.object({
  projectId: optionalRef("Unknown project", "Project"),
  projectCode: requiredText(MSG.projectCodeRequired, 1, MAX_LEN.code),
  projectName: requiredText(MSG.projectNameRequired, 1, MAX_LEN.longName),
  poNumber: optionalText(MAX_LEN.code, "PO Number"),
  complete: count("Complete must be a whole number"),
  cpi: money(requiredMsg("CPI"), "CPI must be a number"),
  /** complete x cpi unless typed otherwise; the grand total is the sum of these. */
  total: money(requiredMsg("Total"), "Total must be a number", MAX_LINE_TOTAL),
});
export type InvoiceLine = v.InferOutput<typeof InvoiceLine>;

/** POST /admin/invoice/add and the edit form (PUT /admin/invoice/update/:id with lines). */
export const InvoiceForm = v.object({
  clientId: requiredId(MSG.clientRequired, "Client"),
  netTerms: count("Net terms must be a whole number of days", 3650),
  invoiceStatus,
  projects: v.pipe(
    v.array(InvoiceLine, ACCOUNT_MSG.invoiceLinesRequired),
    v.minLength(1, ACCOUNT_MSG.invoiceLinesRequired),
    v.maxLength(MAX_LINES, `An invoice takes at most ${MAX_LINES} lines`),
  ),
  currentDate: isoDate(requiredMsg("Date")),
  dueDate: isoDate(requiredMsg("Due date")),
});
export type InvoiceForm = v.InferOutput<typeof InvoiceForm>;

/** The status edit (/admin/invoice/status/:id/edit): reference, received date, comment, status. */
export const InvoiceStatusForm = v.strictObject({
  referenceNo: requiredText(MSG.referenceRequired, 1, MAX_LEN.code),
  recievedDate: isoDate(MSG.receivedDateRequired),
  comment: optionalText(MAX_LEN.note, "Comment"),
  invoiceStatus,
});
export type InvoiceStatusForm = v.InferOutput<typeof InvoiceStatusForm>;

/**
 * PUT /admin/invoice/update/:id {form}: the whole invoice (a body with `projects`) or its status
 * edit (exactly its four fields), each read by its own schema so each gets its own messages.
 */
export const InvoiceUpdate = v.lazy((input: unknown) =>
  input && typeof input === "object" && "projects" in input ? InvoiceForm : InvoiceStatusForm
);
export type InvoiceUpdate = v.InferOutput<typeof InvoiceUpdate>;

/** POST /admin/invoice/projects/all: the Ready To Invoice projects of a client (and those on an invoice). */
export const InvoiceProjectsBody = v.object({
  clientId: requiredId(MSG.clientRequired, "Client"),
  invoiceId: optionalRef("Unknown invoice", "Invoice"),
});

/**
 * POST /admin/invoice/manual/add: a project entered by hand for invoicing (part 2, 5 "Manual
 * project"), with the completes and CPI it bills.
 */
const MANUAL_STATUSES = PROJECT_STATUS_LIST.map((s) => s.value).filter((s) => s !== PROJECT_STATUS.INVOICED);
export const ManualProjectForm = v.pipe(
  v.object({
    clientId: requiredId(MSG.clientRequired, "Client"),
    projectCode: requiredText(MSG.projectCodeRequired, 1, MAX_LEN.code),
    projectName: requiredText(MSG.projectNameRequired, 4, MAX_LEN.longName),
    projectStatus: v.pipe(
      v.optional(v.nullable(v.union([v.number(), v.string()])), ""),
      v.transform((x) => (x === null || x === "" ? NaN : Number(x))),
      v.check((n) => (MANUAL_STATUSES as number[]).includes(n), MSG.projectStatusRequired),
    ),
    poNumber: optionalText(MAX_LEN.code, "PO Number"),
    complete: count("Complete must be a whole number"),
    cpi: v.optional(money(requiredMsg("CPI"), "CPI must be a number"), 0),
  }),
  v.forward(
    v.partialCheck(
      [["projectStatus"], ["poNumber"]],
      (p) => p.projectStatus !== PROJECT_STATUS.CLOSED || p.poNumber !== "",
      MSG.poNumberRequired,
    ),
    ["poNumber"],
  ),
);
export type ManualProjectForm = v.InferOutput<typeof ManualProjectForm>;

/** POST /admin/invoice/supplier/add: a purchase order for a supplier's reconciled projects not yet on one. */
export const PurchaseOrderForm = v.object({
  supplierId: requiredId(MSG.supplierRequired, "Supplier"),
});

/**
 * POST /admin/invoice/upload and /admin/invoice/supplier/upload {data: rows}: the CSV's rows as
 * parsed (no header row): code, reference number, then optionally the received date and a comment.
 */
export const MAX_UPLOAD_ROWS = 10_000;
/** A cell of a file that was not UTF-8 text (binary, UTF-16) as the browser read it: NULs, U+FFFD. */
export const NOT_UTF8_TEXT = "The file is not UTF-8 text: save it as CSV UTF-8 and upload it again";
const cell = v.pipe(
  v.optional(v.nullable(v.union([v.string(), v.number(), v.boolean()])), ""),
  v.transform((x) => (x === null ? "" : String(x)).trim()),
  v.maxLength(MAX_LEN.note, tooLongText("A cell", MAX_LEN.note)),
  // deno-lint-ignore no-control-regex
  v.check((s) => !/[\u0000\uFFFD]/.test(s), NOT_UTF8_TEXT),
);
function tooLongText(label: string, max: number) {
  return `${label} must be at most ${max} characters`;
}
export const RefUploadBody = v.object({
  data: v.pipe(
    v.array(
      v.union([
        v.pipe(v.array(cell), v.maxLength(20, "A row has at most 20 cells")),
        v.pipe(v.record(v.pipe(v.string(), v.maxLength(100)), cell), v.transform((r) => Object.values(r))),
      ], "Each row must be a list of cells"),
      "data must be a list of rows",
    ),
    v.minLength(1, ACCOUNT_MSG.uploadRowsRequired),
    v.maxLength(MAX_UPLOAD_ROWS, `At most ${MAX_UPLOAD_ROWS} rows`),
  ),
  /** Replace the reference and received date of records already Paid (else such rows are refused). */
  overwrite: v.optional(v.boolean("overwrite must be true or false"), false),
});
export type RefUploadBody = v.InferOutput<typeof RefUploadBody>;

/** PUT /admin/issuing-company/update/:id (SUPERADMIN): an issuing company's details and bank blocks. */
export const IssuingCompanyForm = v.object({
  companyName: requiredText(requiredMsg("Company name"), 1, MAX_LEN.name),
  address: optionalBlock(MAX_LEN.note, "Address"),
  email: optionalText(MAX_LEN.email, "Email"),
  phone: optionalText(MAX_LEN.phone, "Phone"),
  taxNumber: optionalText(MAX_LEN.code, "Tax number"),
  taxLines: v.pipe(
    optionalBlock(MAX_LEN.note, "Tax lines"),
    v.check((s) => taxLinesProblem(s) === null, (i) => taxLinesProblem(String(i.input)) ?? ""),
  ),
  serviceDescription: optionalBlock(MAX_LEN.note, "Service description"),
  bankUs: optionalBlock(MAX_LEN.note, "US bank details"),
  bankInternational: optionalBlock(MAX_LEN.note, "International bank details"),
});
export type IssuingCompanyForm = v.InferOutput<typeof IssuingCompanyForm>;
