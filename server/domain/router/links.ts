/**
 * Return links the client's survey sends respondents back on, and their signatures.
 *
 * `sig` = lower-case hex HMAC-SHA256, keyed with the project's secret (projectSecret), of the uid
 * followed by the status letter: c, t, q or f (`qf` is accepted as `q`; a signature over `qf`
 * itself is accepted too). Required when the project's Secured Url (isDynamicThanksUrl) is on.
 */
import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";
import { type FinalStatus, STATUS_LETTER } from "./outcomes.ts";

export function returnSignature(secret: string, uid: string, letter: string): string {
  return createHmac("sha256", secret).update(`${uid}${letter}`).digest("hex");
}

/** Whether `sig` signs this uid and status (constant-time compare). */
export function verifyReturnSignature(
  secret: string,
  uid: string,
  status: FinalStatus,
  raw: string,
  sig: string | null | undefined,
): boolean {
  const given = (sig ?? "").trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const letters = new Set([STATUS_LETTER[status], raw.trim().toLowerCase()]);
  const a = Buffer.from(given, "hex");
  for (const letter of letters) {
    const b = Buffer.from(returnSignature(secret, uid, letter), "hex");
    if (a.length === b.length && timingSafeEqual(a, b)) return true;
  }
  return false;
}

export type ReturnLink = { label: string; url: string };

/**
 * The links a project's client puts at the end of its survey (the Redirects grid): one per status,
 * `[uid]` to be filled by the client, `[sig]` too when the project is secured; then the
 * server-to-server post-back. Pass the project's secret to list it as the signing key.
 */
export function clientReturnLinks(
  project: { isDynamicThanksUrl: boolean | number },
  baseUrl: string,
  secret?: string,
): ReturnLink[] {
  const base = baseUrl.replace(/\/+$/, "");
  const signed = !!project.isDynamicThanksUrl;
  const sig = signed ? "&sig=[sig]" : "";
  const links: ReturnLink[] = [
    { label: "Complete", url: `${base}/survey/end?status=c&uid=[uid]${sig}` },
    { label: "Terminate", url: `${base}/survey/end?status=t&uid=[uid]${sig}` },
    { label: "Over Quota", url: `${base}/survey/end?status=q&uid=[uid]${sig}` },
    { label: "Quality Term", url: `${base}/survey/end?status=f&uid=[uid]${sig}` },
    { label: "Post-back (server to server)", url: `${base}/survey/postback?status=[status]&uid=[uid]${sig}` },
  ];
  if (signed && secret) {
    links.push({ label: "Signature key: sig = hex HMAC-SHA256(key, uid + status letter)", url: secret });
  }
  return links;
}

/** How a signed return is made, in words for the people wiring a client's survey. */
export const SIGNATURE_METHOD =
  "sig = lower-case hex HMAC-SHA256 keyed with the project's key, of the uid followed by the status letter (c, t, q or f)";

const isPostBack = (l: ReturnLink) => l.url.includes("/survey/postback?");

/**
 * The list-level links of the projects grid (its metadata): `postBacks` are the redirect form a
 * client's survey ends on, one per status; `notifyUrls` the server-to-server post-back. Unsigned:
 * a secured project adds `&sig=[sig]` (its Redirects show the exact links).
 */
export function returnLinkSets(baseUrl: string): { postBacks: ReturnLink[]; notifyUrls: ReturnLink[] } {
  const links = clientReturnLinks({ isDynamicThanksUrl: false }, baseUrl);
  return { postBacks: links.filter((l) => !isPostBack(l)), notifyUrls: links.filter(isPostBack) };
}
