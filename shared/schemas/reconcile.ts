/**
 * Reconcile (spec part 2, sections 2, 4, 5, 7): the upload of approved (1) or rejected (2) identifier
 * files, the supplier summary edits, and the status and revoke calls of the reconcile screens. The
 * identifier file's rules and its parser are in ../reconcile-file.ts.
 */
import * as v from "valibot";
import { MAX_LEN, tooLongMsg } from "./common.ts";
import { MAX_IDENTIFIER, MAX_IDENTIFIERS } from "../reconcile-file.ts";
import { refersTo } from "./refs.ts";

export const RECONCILE_TYPE = { APPROVED: 1, REJECTED: 2 } as const;
export type ReconcileType = (typeof RECONCILE_TYPE)[keyof typeof RECONCILE_TYPE];
export const RECONCILE_TYPES = [
  { value: RECONCILE_TYPE.APPROVED, label: "Approved" },
  { value: RECONCILE_TYPE.REJECTED, label: "Rejected" },
] as const;
export const reconcileTypeLabel = (t: number) => t === RECONCILE_TYPE.REJECTED ? "Rejected" : "Approved";

/** The largest upload body (the file's text inside its JSON). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

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

const idText = (what: "Project" | "Supplier") =>
  v.pipe(
    v.string(`${what} is required`),
    v.trim(),
    v.nonEmpty(`${what} is required`),
    v.maxLength(64, `${what} is not valid`),
    refersTo(what),
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
