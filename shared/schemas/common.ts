/** Field validators shared by several forms. */
import * as v from "valibot";
import { MSG } from "../messages.ts";

/** A whole number typed as digits or sent as a number ('Only digits are allowed for this field '). */
export const digits = (requiredMessage: string) =>
  v.pipe(
    v.union([v.number(requiredMessage), v.string(requiredMessage)], requiredMessage),
    v.transform((x) => (typeof x === "number" ? String(x) : x.trim())),
    v.nonEmpty(requiredMessage),
    v.regex(/^\d+$/, MSG.onlyDigits),
    v.transform(Number),
  );

/** A non-negative decimal typed as text or sent as a number. */
export const decimal = (requiredMessage: string, invalidMessage = requiredMessage) =>
  v.pipe(
    v.union([v.number(requiredMessage), v.string(requiredMessage)], requiredMessage),
    v.transform((x) => (typeof x === "number" ? String(x) : x.trim())),
    v.nonEmpty(requiredMessage),
    v.regex(/^\d+(\.\d+)?$/, invalidMessage),
    v.transform(Number),
  );

export const requiredText = (message: string, min = 1) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.minLength(min, message));

export const optionalText = (max = 10_000) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max)), "");

const looksLikeUrl = (s: string) => {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
};

/** Placeholders a redirect or entry link may carry: [sid], {sid}, %sid%... */
export const hasPlaceholder = (s: string, name: string) =>
  new RegExp(`(\\[${name}\\]|\\{${name}\\}|%${name}%|<${name}>|#${name}#)`, "i").test(s);

/** Optional URL that, when filled, must look like a URL carrying the `name` placeholder ('Invalid Url'). */
export const placeholderUrl = (name: "sid" | "uid") =>
  v.optional(
    v.pipe(
      v.string(MSG.invalidUrl),
      v.trim(),
      v.check((s) => s === "" || (looksLikeUrl(s) && hasPlaceholder(s, name)), MSG.invalidUrl),
    ),
    "",
  );

export const isoDate = (message: string) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.regex(/^\d{4}-\d{2}-\d{2}/, message), v.transform((s) => s.slice(0, 10)));

export const id = (message: string) => v.pipe(v.string(message), v.trim(), v.nonEmpty(message));
export const idList = v.optional(v.array(v.string()), []);

/** `{isActive}` alone, `{isDeleted: true}` alone: the switch and the soft delete of every entity. */
export const ActiveToggle = v.strictObject({ isActive: v.boolean() });
export const SoftDelete = v.strictObject({ isDeleted: v.literal(true) });
