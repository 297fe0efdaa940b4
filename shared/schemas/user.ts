import * as v from "valibot";
import { MSG } from "../messages.ts";
import { ROLES } from "../roles.ts";
import { MAX_LEN, recordId, tooLongMsg } from "./common.ts";

const phone = v.optional(
  v.pipe(v.string(), v.trim(), v.maxLength(MAX_LEN.phone, tooLongMsg("Phone number", MAX_LEN.phone))),
  "",
);

/**
 * A text field that may be absent: a missing key reads as "" so the field's own required message
 * is given (valibot's generic 'Invalid key' text would otherwise reach the form).
 */
const text = (message: string) => v.optional(v.string(message), "");

/** Longer passwords only cost hashing time. */
export const MAX_PASSWORD = 128;
const passwordMax = v.maxLength<string, typeof MAX_PASSWORD, string>(
  MAX_PASSWORD,
  tooLongMsg("Password", MAX_PASSWORD),
);

/** Fields of the user form (part 2: Users; section 5). */
const userFields = {
  firstName: v.pipe(
    text(MSG.firstNameRequired),
    v.trim(),
    v.minLength(4, MSG.firstNameRequired),
    v.maxLength(MAX_LEN.name, tooLongMsg("First name", MAX_LEN.name)),
  ),
  lastName: v.pipe(
    text(MSG.lastNameRequired),
    v.trim(),
    v.nonEmpty(MSG.lastNameRequired),
    v.maxLength(MAX_LEN.name, tooLongMsg("Last name", MAX_LEN.name)),
  ),
  email: v.pipe(
    text(MSG.emailRequired),
    v.trim(),
    v.nonEmpty(MSG.emailRequired),
    // an existing test (and users) know a too-long address as the spec's required message
    v.maxLength(MAX_LEN.email, MSG.emailRequired),
    v.email(MSG.emailInvalid),
    v.toLowerCase(),
  ),
  phoneNumber: phone,
  // the spec's role message also reads 'Supplier is required'
  role: v.pipe(text(MSG.supplierRequired), v.picklist(ROLES, MSG.supplierRequired)),
  supplierId: v.optional(
    v.nullable(v.union([v.literal(""), recordId("Unknown supplier", "Supplier")], "Unknown supplier")),
  ),
  isActive: v.optional(v.boolean(), true),
};

export const UserCreate = v.pipe(
  v.object({
    ...userFields,
    password: v.pipe(text(MSG.passwordShort), v.minLength(7, MSG.passwordShort), passwordMax),
  }),
  // supplier is required when the role is SUPPLIER; the message lands on the supplier field
  v.forward(
    v.partialCheck(
      [["role"], ["supplierId"]],
      (u) => u.role !== "SUPPLIER" || !!u.supplierId,
      MSG.supplierRequired,
    ),
    ["supplierId"],
  ),
);
export type UserCreate = v.InferOutput<typeof UserCreate>;

/** Edit: the empty password is dropped; other fields as on create. Also {isActive} or {isDeleted} alone. */
export const UserUpdate = v.union([
  v.strictObject({ isActive: v.boolean("isActive must be true or false") }),
  v.strictObject({ isDeleted: v.literal(true, "isDeleted can only be true") }),
  v.pipe(
    v.object({
      ...userFields,
      password: v.optional(
        v.union([v.literal(""), v.pipe(v.string(), v.minLength(7, MSG.passwordShort), passwordMax)]),
      ),
    }),
    v.forward(
      v.partialCheck(
        [["role"], ["supplierId"]],
        (u) => u.role !== "SUPPLIER" || !!u.supplierId,
        MSG.supplierRequired,
      ),
      ["supplierId"],
    ),
  ),
]);
export type UserUpdate = v.InferOutput<typeof UserUpdate>;

/** Ten random alphanumerics (the form's password generator). */
export function generatePassword(
  random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const out: string[] = [];
  while (out.length < 10) {
    for (const b of random(16)) {
      if (b < 248 && out.length < 10) out.push(chars[b % 62]);
    }
  }
  return out.join("");
}
