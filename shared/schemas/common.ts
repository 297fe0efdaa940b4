/**
 * Building blocks of the form schemas: required and optional text, numbers that may arrive as
 * strings, URLs with a placeholder, id lists, and the `{isActive} | {isDeleted: true} | form`
 * update shape shared by clients, suppliers, categories, qualifications, questions and rules.
 *
 * A required field is declared optional with "" as its default and then checked: valibot reports a
 * missing key with its own wording, and the spec's message must show whether the key is missing,
 * null, blank or too short.
 */
import * as v from "valibot";
import { MSG } from "../messages.ts";
import { controlCharsMsg, hasControlChars } from "../text.ts";
import { type RecordKind, refersTo } from "./refs.ts";

/**
 * The longest value each kind of text field takes, declared once: the forms show them (the form kit
 * reads the schema's maxLength into the input's `maxLength`), the server refuses longer values with
 * "<Field> must be at most N characters", and searches and the system log stay bounded.
 */
export const MAX_LEN = {
  /** names of people, clients, suppliers, categories, questions, options */
  name: 100,
  /** project names, subjects */
  longName: 200,
  /** codes, keys, short codes, PO numbers */
  code: 50,
  /** RFC 5321: at most 254 characters in a path */
  email: 254,
  phone: 32,
  url: 2048,
  /** addresses, cities, one-line free text */
  line: 255,
  /** descriptions and notes */
  note: 5000,
  /** API headers, bodies, mappings typed as text */
  block: 20_000,
  /** rich text (e-mail bodies, project specs, questionnaires) */
  rich: 200_000,
} as const;

/** The largest count or quota a form takes (clicks, completes, sizes, minutes): a sane bound. */
export const MAX_COUNT = 1_000_000_000;
/** The largest amount of money a form takes (CPI and the like). */
export const MAX_MONEY = 1_000_000;

/** "Client name must be at most 100 characters". */
export const tooLongMsg = (label: string, max: number) => `${label} must be at most ${max} characters`;

/** The label in a required message: "Client name  is required" -> "Client name". */
export function labelOf(message: string): string {
  const label = message.replace(/\s+(is required|must be a number)\s*$/i, "").replace(/\s+/g, " ").trim();
  return label && label !== message.trim() ? label.charAt(0).toUpperCase() + label.slice(1) : "This field";
}

/** No control characters (NUL, escape, ...) in a text field: tab and line breaks are text. */
export const noControlChars = (label: string) =>
  v.check((s: string) => !hasControlChars(s), controlCharsMsg(label));

/** Trimmed text that must be present (and at least `min` long) else `message`; longer than `max` says so. */
export const requiredText = (
  message: string,
  min = 1,
  max: number = MAX_LEN.line,
  label = labelOf(message),
) =>
  v.pipe(
    v.optional(v.string(message), ""),
    v.trim(),
    v.minLength(Math.max(1, min), message),
    v.maxLength(max, tooLongMsg(label, max)),
    noControlChars(label),
  );

/** Trimmed text that may be absent or null (stored as ""). */
export const optionalText = (max: number = MAX_LEN.line, label = "This field") =>
  v.pipe(
    v.optional(v.nullable(v.string("Must be text")), ""),
    v.transform((s) => (s ?? "").trim()),
    v.maxLength(max, tooLongMsg(label, max)),
    noControlChars(label),
  );

/** Free text kept as typed (mappings, API bodies): only a size limit. */
export const optionalBlock = (max: number = MAX_LEN.block, label = "This field") =>
  v.pipe(
    v.optional(v.nullable(v.string("Must be text")), ""),
    v.transform((s) => s ?? ""),
    v.maxLength(max, tooLongMsg(label, max)),
    noControlChars(label),
  );

export const optionalPhone = v.pipe(
  optionalText(MAX_LEN.phone, "Phone number"),
  v.check((s) => s === "" || /^[+()\d\s.-]{4,32}$/.test(s), "Phone number is not valid"),
);

/** An e-mail that may be blank; lower-cased when present. */
export const optionalEmail = v.pipe(
  optionalText(MAX_LEN.email, "Email"),
  v.check((s) => s === "" || v.is(v.pipe(v.string(), v.email()), s), MSG.emailInvalid),
  v.toLowerCase(),
);

/** A required e-mail: `message` when blank, 'Email must be valid' when malformed. */
export const requiredEmail = (message: string) =>
  v.pipe(requiredText(message, 1, MAX_LEN.email), v.email(MSG.emailInvalid), v.toLowerCase());

/**
 * A number that may arrive as a number or a numeric string; absent or blank is `message`, other
 * text (or a number too large to be finite) `invalid`.
 */
export const numberish = (message: string, invalid = message) =>
  v.pipe(
    v.optional(v.nullable(v.union([v.number(message), v.string(message)], message)), ""),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const raw = dataset.value;
      if (raw === null || (typeof raw === "string" && raw.trim() === "")) {
        addIssue({ message });
        return NEVER;
      }
      const n = typeof raw === "string" ? Number(raw.trim()) : raw;
      if (!Number.isFinite(n)) {
        addIssue({ message: invalid });
        return NEVER;
      }
      return n;
    }),
  );

/** "Supplier CPI must be at most 1000000". */
export const tooLargeMsg = (label: string, max: number) => `${label} must be at most ${max}`;

/** An amount of money: a finite number from 0 to MAX_MONEY (given as a number or numeric string). */
export const money = (message: string, invalid = message, max = MAX_MONEY, label = labelOf(message)) =>
  v.pipe(numberish(message, invalid), v.minValue(0, invalid), v.maxValue(max, tooLargeMsg(label, max)));

/** One of a fixed set of numbers (netDays, supplierType), given as a number or numeric string. */
export const numberChoice = <const T extends readonly number[]>(
  choices: T,
  message: string,
  fallback?: T[number],
) =>
  v.pipe(
    v.optional(v.nullable(v.union([v.number(message), v.string(message)], message)), ""),
    v.transform((x): number =>
      x === null || (typeof x === "string" && x.trim() === "")
        ? (fallback ?? NaN)
        : typeof x === "string"
        ? Number(x.trim())
        : x
    ),
    v.check((n: number) => (choices as readonly number[]).includes(n), message),
    v.transform((n) => n as T[number]),
  );

/** One of a fixed set of strings; absent, null or anything else is `message`. */
export const requiredChoice = <const T extends readonly string[]>(choices: T, message: string) =>
  v.pipe(
    v.optional(v.nullable(v.string(message)), ""),
    v.transform((s) => (s ?? "").trim()),
    v.picklist(choices, message),
  );

export const boolDefault = (fallback: boolean) => v.optional(v.boolean("Must be true or false"), fallback);

/** ISO 3166 alpha-2 code, upper-cased; the server also checks it names a real country. */
export const countryCode = (message: string) =>
  v.pipe(
    requiredText(message, 1, 8, labelOf(message)),
    v.toUpperCase(),
    v.regex(/^[A-Z]{2}$/, message),
  );

/**
 * One of our 24-hex record ids. With `kind` it names a record of that kind: the API registrar
 * refuses an id of no such record ("<Kind> not found", shared/schemas/refs.ts).
 */
export const recordId = (message = "Unknown record", kind?: RecordKind) =>
  kind
    ? v.pipe(v.string(message), v.trim(), v.regex(/^[0-9a-f]{24}$/, message), refersTo(kind))
    : v.pipe(v.string(message), v.trim(), v.regex(/^[0-9a-f]{24}$/, message));

/** A required record id of a kind: absent, null, blank or malformed all read `message`. */
export const requiredId = (message: string, kind?: RecordKind) =>
  v.pipe(v.optional(v.nullable(v.string(message)), ""), v.transform((s) => s ?? ""), recordId(message, kind));

/** A record id that may be absent, null or "" (stored as null). */
export const optionalId = (message: string, kind?: RecordKind) =>
  v.optional(v.nullable(v.union([v.literal(""), recordId(message, kind)], message)), null);

/** A list of record ids, without duplicates; absent or null means none. */
export const idList = (message = "Unknown record", kind?: RecordKind) =>
  v.pipe(
    v.optional(v.nullable(v.array(recordId(message, kind), message)), []),
    v.transform((ids) => [...new Set(ids ?? [])]),
  );

const URL_SHAPE = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/** Placeholders a supplier's redirect may use for its respondent id. */
export const SID_PLACEHOLDERS = ["[sid]", "{sid}", "%5bsid%5d", "%7bsid%7d", "<sid>", "##sid##"];
export const UID_PLACEHOLDERS = ["[uid]", "{uid}", "%5buid%5d", "%7buid%7d", "<uid>", "##uid##"];

export function hasPlaceholder(url: string, placeholders: readonly string[]): boolean {
  const s = url.toLowerCase();
  return placeholders.some((p) => s.includes(p));
}

/** http(s) URL, any placeholder or none. */
export function looksLikeUrl(s: string): boolean {
  return URL_SHAPE.test(s);
}

/** Optional URL: blank is allowed; filled it must look like a URL (and hold a placeholder if given). */
export const optionalUrl = (
  placeholders?: readonly string[],
  message: string = MSG.invalidUrl,
  label = "URL",
) =>
  v.pipe(
    optionalText(MAX_LEN.url, label),
    v.check(
      (s) => s === "" || (looksLikeUrl(s) && (!placeholders || hasPlaceholder(s, placeholders))),
      message,
    ),
  );

// ---------------------------------------------------------------- {isActive} | {isDeleted} | form

export type StatusPatch = { isActive: boolean } | { isDeleted: true };

const ActivePatch = v.strictObject({ isActive: v.boolean("isActive must be true or false") });
const DeletePatch = v.strictObject({ isDeleted: v.literal(true, "isDeleted must be true") });

function onlyKey(input: unknown, key: string): boolean {
  if (!input || typeof input !== "object" || Array.isArray(input)) return false;
  const keys = Object.keys(input);
  return keys.length === 1 && keys[0] === key;
}

/**
 * The update body of a record with an active switch and soft delete: `{isActive}` alone toggles,
 * `{isDeleted: true}` alone deletes, anything else is the full form (with the form's messages).
 */
export function withStatusPatch<S extends v.GenericSchema>(form: S) {
  return v.lazy((input: unknown) =>
    onlyKey(input, "isActive") ? ActivePatch : onlyKey(input, "isDeleted") ? DeletePatch : form
  ) as v.GenericSchema<unknown, StatusPatch | v.InferOutput<S>>;
}

/** Only soft delete or the form (records without an active switch). */
export function withDeletePatch<S extends v.GenericSchema>(form: S) {
  return v.lazy((input: unknown) => (onlyKey(input, "isDeleted") ? DeletePatch : form)) as v.GenericSchema<
    unknown,
    { isDeleted: true } | v.InferOutput<S>
  >;
}

export function isStatusPatch(input: object): input is StatusPatch {
  const keys = Object.keys(input);
  return keys.length === 1 && (keys[0] === "isActive" || keys[0] === "isDeleted");
}

/** Adds an issue at a nested path (for cross-field checks over lists). */
export function issuePath(
  input: unknown,
  keys: (string | number)[],
): [v.IssuePathItem, ...v.IssuePathItem[]] {
  const path: v.IssuePathItem[] = [];
  let cur = input as Record<string | number, unknown>;
  for (const key of keys) {
    const value = cur?.[key];
    path.push(
      typeof key === "number"
        ? { type: "array", origin: "value", input: cur as unknown as unknown[], key, value }
        : { type: "object", origin: "value", input: cur as Record<string, unknown>, key, value },
    );
    cur = value as Record<string | number, unknown>;
  }
  return path as [v.IssuePathItem, ...v.IssuePathItem[]];
}

// ---------------------------------------------------------------- project forms

/**
 * A whole number from 0 to `max` typed as digits or sent as a number: blank is `message`, anything
 * else 'Only digits are allowed for this field ', a larger one "<Field> must be at most <max>".
 */
export const digits = (message: string, max = MAX_COUNT, label = labelOf(message)) =>
  v.pipe(
    v.optional(v.nullable(v.union([v.number(message), v.string(message)], message)), ""),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const raw = dataset.value;
      const s = raw === null ? "" : typeof raw === "number" ? String(raw) : raw.trim();
      if (s === "") {
        addIssue({ message });
        return NEVER;
      }
      if (!/^\d+$/.test(s)) {
        addIssue({ message: MSG.onlyDigits });
        return NEVER;
      }
      const n = Number(s);
      if (!(n <= max)) {
        addIssue({ message: tooLargeMsg(label, max) });
        return NEVER;
      }
      return n;
    }),
  );

/** A calendar date as ISO `yyyy-MM-dd` (the web shows dd/MM/yyyy); a longer ISO stamp is cut to its date. */
export const isoDate = (message: string) =>
  v.pipe(
    requiredText(message, 1, 40),
    v.regex(/^\d{4}-\d{2}-\d{2}/, message),
    v.transform((s) => s.slice(0, 10)),
    v.check((s) => !Number.isNaN(Date.parse(s)), message),
  );
