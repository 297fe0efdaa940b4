/** E-mail forms (part 1: entity E-mail form; 'Body is required'). */
import * as v from "valibot";
import { MSG } from "../messages.ts";
import { htmlToText } from "../html.ts";
import { noControlChars } from "./common.ts";

/** Rich text that must say something: blank, or only empty tags (`<p><br></p>`), is 'Body is required'. */
export const emailBody = v.pipe(
  v.optional(v.string(MSG.bodyRequired), ""),
  v.trim(),
  v.check((s) => htmlToText(s).trim() !== "", MSG.bodyRequired),
  noControlChars("Body"),
  v.maxLength(200_000, "The message is too long"),
);

export const DEFAULT_BULK_SUBJECT = "A message from Samplex";

/** POST /admin/email/supplier/bulk/send */
export const BulkSupplierEmail = v.object({
  emailBody,
  subject: v.pipe(
    v.optional(v.nullable(v.string()), ""),
    v.transform((s) => (s ?? "").trim() || DEFAULT_BULK_SUBJECT),
    v.maxLength(200, "The subject is too long"),
  ),
});
export type BulkSupplierEmail = v.InferOutput<typeof BulkSupplierEmail>;
