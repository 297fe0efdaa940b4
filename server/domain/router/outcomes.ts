/**
 * The router's vocabulary: session statuses, the counter each one bumps, the reasons recorded with
 * them, which supplier redirect each one goes to, and link placeholders.
 *
 * Counting rules (what a recount from the sessions table must reproduce):
 * - clicked: every live session except `closed` (a refused arrival: survey not live, traffic off,
 *   click quota reached, no client link left). Duplicates and exclusions did click, so they count.
 * - complete, terminate, overQuota, qualityTerm, drop, security, preScreenTerminate, preScreenDrop:
 *   the sessions in that status; `duplicate` sessions count as security.
 * - testClicked: test sessions except `closed`; test sessions never touch any other counter.
 * - prescreen / redirected sessions are in progress: clicked only, until they end or drop.
 */
import { boundedCache } from "../../lib/memo.ts";
import { LIVE_COUNTERS, type LiveCounter } from "../../db/tables/projects.ts";
import type { SessionStatus } from "../../db/tables/router.ts";
import type { Redirects } from "./config.ts";

export type FinalStatus = "complete" | "terminate" | "overQuota" | "qualityTerm";

/** The counter a status bumps on the project, its supplier map and the daily rollup. */
export const STATUS_COUNTER: Partial<Record<SessionStatus, CounterName>> = {
  complete: "complete",
  terminate: "terminate",
  overQuota: "overQuota",
  qualityTerm: "qualityTerm",
  drop: "drop",
  security: "security",
  duplicate: "security",
  preScreenTerminate: "preScreenTerminate",
  preScreenDrop: "preScreenDrop",
};

export type CounterName = LiveCounter;
export { LIVE_COUNTERS };

/** Still in progress: a return (or the drop sweep) can end it. */
export const OPEN_STATUSES: SessionStatus[] = ["prescreen", "redirected"];

/** Reason codes kept in sessions.reason (detail carries the specifics). */
export const REASON = {
  projectNotLive: "project-not-live",
  trafficOff: "traffic-off",
  notBoarded: "not-boarded",
  testLinkOff: "test-link-off",
  projectClickQuota: "project-click-quota",
  supplierClickQuota: "supplier-click-quota",
  testClickQuota: "test-click-quota",
  noClientLink: "no-client-link",
  duplicate: "duplicate-sid",
  excluded: "excluded",
  notIncluded: "not-included",
  sampleFull: "sample-size-full",
  supplierQuotaFull: "supplier-quota-full",
  quotaOptionFull: "quota-option-full",
  ipLimit: "ip-limit",
  device: "device",
  geo: "geo",
  proxy: "proxy",
  rdScore: "rd-score",
  prescreen: "prescreen-answer",
  speeder: "speeder",
  client: "client",
  /** A complete accepted past a limit: it was admitted under a hold (writer/holds.ts). */
  pastLimit: "past-limit",
  timeout: "timeout",
  clientApi: "client-api",
} as const;

/** What each reason means, for reports. */
export const REASON_LABEL: Record<string, string> = {
  [REASON.projectNotLive]: "Project not live",
  [REASON.trafficOff]: "Supplier traffic off",
  [REASON.notBoarded]: "Supplier not boarded",
  [REASON.testLinkOff]: "Test link closed",
  [REASON.projectClickQuota]: "Project click quota reached",
  [REASON.supplierClickQuota]: "Supplier click quota reached",
  [REASON.testClickQuota]: "Test click quota reached",
  [REASON.noClientLink]: "No client link left",
  [REASON.duplicate]: "Duplicate respondent",
  [REASON.excluded]: "Excluded (took part in an excluded project)",
  [REASON.notIncluded]: "Not among the included projects' respondents",
  [REASON.sampleFull]: "Sample size reached",
  [REASON.supplierQuotaFull]: "Supplier quota reached",
  [REASON.quotaOptionFull]: "Quota option full",
  [REASON.ipLimit]: "IP address limit",
  [REASON.device]: "Device not allowed",
  [REASON.geo]: "Geo location",
  [REASON.proxy]: "Proxy/VPN",
  [REASON.rdScore]: "RD score",
  [REASON.prescreen]: "Prescreen answer",
  [REASON.speeder]: "Speeder",
  [REASON.client]: "Client return",
  [REASON.pastLimit]: "Complete accepted past a limit (held)",
  [REASON.timeout]: "Timed out",
  [REASON.clientApi]: "Client API gave no survey link",
};

/** Security reasons -> the rollup column that breaks the security count down. */
export const SECURITY_COLUMN: Record<
  string,
  "secDuplicate" | "secIp" | "secDevice" | "secGeo" | "secProxy" | "secRd"
> = {
  [REASON.duplicate]: "secDuplicate",
  [REASON.ipLimit]: "secIp",
  [REASON.device]: "secDevice",
  [REASON.geo]: "secGeo",
  [REASON.proxy]: "secProxy",
  [REASON.rdScore]: "secRd",
};

/** The client's return codes: c, t, q (also qf), f. */
export function parseReturnStatus(raw: string | undefined | null): FinalStatus | null {
  switch ((raw ?? "").trim().toLowerCase()) {
    case "c":
      return "complete";
    case "t":
      return "terminate";
    case "q":
    case "qf":
      return "overQuota";
    case "f":
      return "qualityTerm";
    default:
      return null;
  }
}

export const STATUS_LETTER: Record<FinalStatus, string> = {
  complete: "c",
  terminate: "t",
  overQuota: "q",
  qualityTerm: "f",
};

/**
 * The idempotency key of a session's hook for an outcome: `<uid>-<status letter>`, e.g.
 * `65f0c1d2e3a4b5c6d7e8f901-c`. The same on every send of that hook, and no other hook has it.
 */
export const hookKey = (uid: string, status: FinalStatus) => `${uid}-${STATUS_LETTER[status]}`;

/** Which of the supplier map's redirects a status sends the respondent to. */
export function redirectKind(status: SessionStatus): keyof Redirects {
  switch (status) {
    case "complete":
      return "complete";
    case "terminate":
    case "preScreenTerminate":
      return "terminate";
    case "overQuota":
      return "quotaFull";
    case "qualityTerm":
    case "security":
    case "duplicate":
      return "qualityTerm";
    default:
      return "surveyClose";
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `[name]`, `{name}`, their URL-encoded forms, `<name>` and `##name##`, any case, for all the names
 * at once: one alternation per form, each capturing the name.
 */
function placeholderRe(names: string[]) {
  const n = `(${names.map(escapeRe).join("|")})`;
  return new RegExp(`\\[${n}\\]|\\{${n}\\}|%5b${n}%5d|%7b${n}%7d|<${n}>|##${n}##`, "gi");
}
/** The compiled pattern of each set of names (a few per deployment: the links' placeholders). */
const RE_CACHE = boundedCache<string, { re: RegExp; lower: string[] }>(100);
/**
 * A template cut at its placeholders, for one set of names: the text between them and, for each
 * placeholder, the place of its name (the templates of links and callbacks are few and used for
 * every respondent, so each is scanned once).
 */
type Cut = { texts: string[]; names: number[] };
const CUTS = boundedCache<string, Cut>(1_000);
/** Longer templates are scanned each time rather than kept. */
const CUT_MAX = 2_048;

function cut(url: string, names: string[], key: string): Cut {
  const { re, lower } = RE_CACHE.get(key) ??
    RE_CACHE.set(key, { re: placeholderRe(names), lower: names.map((n) => n.toLowerCase()) });
  const texts: string[] = [], at: number[] = [];
  let from = 0, text = "";
  for (const m of url.matchAll(re)) {
    const found = m.slice(1, 7).find((g) => g !== undefined)?.toLowerCase();
    const i = found === undefined ? -1 : lower.indexOf(found);
    text += url.slice(from, m.index);
    from = m.index + m[0].length;
    if (i < 0) {
      text += m[0];
      continue;
    }
    texts.push(text);
    at.push(i);
    text = "";
  }
  texts.push(text + url.slice(from));
  return { texts, names: at };
}

/**
 * Replaces the named placeholders with their URL-encoded values in ONE pass over the URL: a value
 * is never scanned again, so a respondent id such as "[pid]" (sent on as %5Bpid%5D) stays as it is.
 */
export function fillPlaceholders(
  url: string,
  values: Record<string, string>,
  /** How a value is written in (raw text for a JSON body or a header: `String`). */
  encode: (value: string) => string = encodeURIComponent,
): string {
  const names = Object.keys(values);
  if (!names.length) return url;
  const key = names.join("\u0000");
  let c: Cut;
  if (url.length > CUT_MAX) c = cut(url, names, key);
  else {
    const cutKey = `${key}\u0001${url}`;
    c = CUTS.get(cutKey) ?? CUTS.set(cutKey, cut(url, names, key));
  }
  let out = c.texts[0];
  for (let i = 0; i < c.names.length; i++) out += encode(values[names[c.names[i]]]) + c.texts[i + 1];
  return out;
}

export const iso = (ms: number) => new Date(ms).toISOString();
export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
