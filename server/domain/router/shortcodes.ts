/**
 * The short codes (placeholders) the router fills in links, with what each one stands for: one table
 * that the code filling them and the Support > ShortCodes screen both read. A filler takes its
 * values only through the functions below, typed by this table, so a code it fills is always listed
 * here, and the screen lists what the router really does.
 *
 * Each code may be written `[name]`, `{name}`, `<name>`, `##name##` or URL-encoded (`%5Bname%5D`,
 * `%7Bname%7D`), in any case (outcomes.ts, fillPlaceholders).
 */
import { type FinalStatus, STATUS_LETTER } from "./outcomes.ts";
import { hookKey } from "./hooks.ts";

export type ShortCode = {
  /** As written in a link: `[sid]`. */
  name: string;
  description: string;
  /** The links the router fills it in. */
  filledIn: string[];
};

const SUPPLIER_REDIRECTS =
  "Supplier redirects (complete, terminate, quota full, quality term, survey closed)";
const CLIENT_LINKS = "Client survey links (single, test and multi links)";
const APPROVED_HOOK = "Supplier approved hook";
const CLIENT_API = "API-integrated client's call for a survey link (URL, parameters, body, headers)";

/** Every short code the router fills, by name. */
export const SHORT_CODES = {
  sid: {
    description: "The supplier's respondent identifier, as the supplier sent it on the entry link (?sid=)",
    filledIn: [SUPPLIER_REDIRECTS, APPROVED_HOOK, CLIENT_API],
  },
  uid: {
    description:
      "The user identifier Samplex gives the respondent on entry (24 hex characters); the client's survey sends it back on its return link",
    filledIn: [CLIENT_LINKS, SUPPLIER_REDIRECTS, APPROVED_HOOK, CLIENT_API],
  },
  pid: {
    description: "The project code of the (child) project the respondent entered",
    filledIn: [SUPPLIER_REDIRECTS, APPROVED_HOOK, CLIENT_API],
  },
  status: {
    description: "The outcome's letter: c (complete), t (terminate), q (quota full) or f (quality term)",
    filledIn: [APPROVED_HOOK],
  },
  key: {
    description:
      "The hook's idempotency key, <uid>-<status letter>: the same on every retry of one hook (also sent as the Idempotency-Key header)",
    filledIn: [APPROVED_HOOK],
  },
} as const satisfies Record<string, Omit<ShortCode, "name">>;

export type ShortCodeName = keyof typeof SHORT_CODES;
type Values<K extends ShortCodeName> = { [P in K]: string };

/** The Support > ShortCodes list: every code with its description and where it is filled. */
export function shortCodeList(): ShortCode[] {
  return Object.entries(SHORT_CODES).map(([name, c]) => ({
    name: `[${name}]`,
    description: c.description,
    filledIn: [...c.filledIn],
  }));
}

/** The values of a client survey link. */
export const clientLinkValues = (uid: string): Values<"uid"> => ({ uid });

/** The values of an API-integrated client's call (client-api.ts). */
export const clientApiCallValues = (
  s: { sid: string; uid: string; pid: string },
): Values<"sid" | "uid" | "pid"> => ({ sid: s.sid, uid: s.uid, pid: s.pid });

/** The values of a supplier redirect. */
export const supplierRedirectValues = (
  s: { sid: string; uid: string; projectCode: string },
): Values<"sid" | "uid" | "pid"> => ({ sid: s.sid, pid: s.projectCode, uid: s.uid });

/** The values of a supplier approved hook. */
export const approvedHookValues = (
  s: { sid: string; uid: string; projectCode: string },
  status: FinalStatus,
): Values<"sid" | "uid" | "pid" | "status" | "key"> => ({
  sid: s.sid,
  uid: s.uid,
  pid: s.projectCode,
  status: STATUS_LETTER[status],
  key: hookKey(s.uid, status),
});
