/**
 * API-integrated clients (issue 23 item 5): the client's survey platform hands out a survey link per
 * respondent. The client record's API fields describe the call; the router makes it through the
 * outbound client after the session is written (never inside the writer's batch), with a short
 * time-out (CLIENT_API_TIMEOUT_MS, default 3 s) and a bounded answer, and sends the respondent to
 * the link it answered. Any failure is a reason (REASON.clientApi) and the survey-close redirect.
 *
 * How the fields make the call (the client form shows the same as help):
 * - apiUrl: the endpoint; Samplex variables ([uid], [sid], [pid]) and the mapped names may stand in
 *   it, filled URL-encoded.
 * - apiFunction: GET, POST or PUT is the HTTP method; any other text is the name of a function on
 *   the client's platform, sent in the function header (apiFunctionHeader; default X-Api-Function),
 *   the method then being POST with a body, else GET.
 * - apiFunctionHeader: the header that carries the function name (`X-Fn`), or header lines
 *   (`X-Fn: [function]`, or a JSON object) where [function] stands for apiFunction.
 * - apiKey with apiHeader: apiHeader names the header that carries the key (`X-Api-Key`;
 *   `Authorization` sends `Bearer <key>` unless the key has its own scheme), or holds header lines
 *   or a JSON object of headers sent as they are, where [apiKey] stands for the key. A key that no
 *   header carries goes as `Authorization: Bearer <key>`.
 * - apiParams: query parameters, `name=value` per line (or `&`-separated), values with variables.
 * - apiBody: a JSON template (any JSON); variables in its strings are filled as plain text.
 * - variableMapping: `name=[variable]` per line: the client's name for a Samplex variable. Each
 *   mapped name may be written in the templates, and is sent as a query parameter unless a
 *   template already places it.
 * - apiResponseVar: the dot path of the link in the JSON answer (`data.surveyLink`,
 *   `links.0.url`); blank: `url`. The link must be an absolute http(s) URL.
 * - identifierMapping: `param=source`: the client's return carries the respondent under `param`
 *   (default uid) and `source` says what it is: a variable (`[sid]`, or a mapped name) or the dot
 *   path of the client's own respondent id in the API answer (`data.respondentId`). The value is
 *   kept on the session (sessions.clientRef) so returns and reconcile uploads find the session by it.
 */
import type { Outbound } from "../common/outbound/client.ts";
import type { ClientApi } from "./config.ts";
import { fillPlaceholders } from "./outcomes.ts";
import { clientApiCallValues } from "./shortcodes.ts";
import { boundedCache } from "../../lib/memo.ts";

/** What a request to the client's platform looks like. */
export type ClientApiRequest = {
  url: string;
  method: "GET" | "POST" | "PUT";
  headers: Record<string, string>;
  body?: string;
};

export type ClientLink =
  | { ok: true; url: string; ref: string }
  | { ok: false; error: string };

/** Milliseconds to wait for the client's platform (CLIENT_API_TIMEOUT_MS). */
export const CLIENT_API_TIMEOUT_MS = 3_000;
/** Bytes of the platform's answer read at most. */
export const CLIENT_API_MAX_BYTES = 64 * 1024;
/** The longest link and identifier taken from an answer. */
const MAX_LINK = 4_096;
const MAX_REF = 128;

/** A configuration or answer problem, in words for the project's link-failure list. */
class ClientApiError extends Error {}

const NAME_RE = /^[A-Za-z0-9_.~-]{1,64}$/;
const HEADER_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
const isMethod = (s: string): s is ClientApiRequest["method"] => s === "GET" || s === "POST" || s === "PUT";

const lines = (text: string) =>
  text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));

/** `name=value` pairs of a mapping or parameter block (lines, or `&`-separated on one line). */
function pairs(text: string, what: string): [string, string][] {
  return lines(text).flatMap((l) => l.split("&")).filter(Boolean).map((p) => {
    const at = p.indexOf("=");
    const name = (at < 0 ? p : p.slice(0, at)).trim();
    if (at < 0 || !NAME_RE.test(name)) {
      throw new ClientApiError(`${what}: "${p.slice(0, 60)}" is not name=value`);
    }
    return [name, p.slice(at + 1).trim()];
  });
}

/** Mappings parsed (their pairs, or the error that names their bad line), by their text. */
const MAPPINGS = boundedCache<string, [string, string][] | ClientApiError>(200);
const parsedPairs = (text: string, what: string) => {
  try {
    return pairs(text, what);
  } catch (e) {
    if (e instanceof ClientApiError) return e;
    throw e;
  }
};

/** Header lines (`Name: value`) or a JSON object of headers. */
function headerBlock(text: string, what: string): [string, string][] {
  const t = text.trim();
  let list: [string, string][];
  if (t.startsWith("{")) {
    let obj: unknown;
    try {
      obj = JSON.parse(t);
    } catch {
      throw new ClientApiError(`${what} is not a JSON object`);
    }
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) {
      throw new ClientApiError(`${what} is not a JSON object`);
    }
    list = Object.entries(obj as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
  } else {
    list = lines(t).map((l) => {
      const at = l.indexOf(":");
      return at < 0 ? [l, ""] : [l.slice(0, at).trim(), l.slice(at + 1).trim()];
    });
  }
  for (const [k, v] of list) {
    if (!HEADER_RE.test(k) || /[\r\n]/.test(v)) {
      throw new ClientApiError(`${what}: "${k.slice(0, 60)}" is not a header`);
    }
  }
  return list;
}

/** A lone header name (the header that carries a value), or null when the text is a header block. */
const headerName = (text: string) => {
  const t = text.trim();
  return HEADER_RE.test(t) ? t : null;
};

/**
 * A record's variable mapping (`name=[variable]` per line: the other side's name for a Samplex
 * variable, its value a template) filled with Samplex's values: the client API's and the supplier
 * callbacks' (callback-request.ts). A line that is not `name=value` is an error naming it.
 */
export function mappedVariables(mapping: string, samplex: Record<string, string>): Record<string, string> {
  const mapped: Record<string, string> = {};
  if (!mapping.trim()) return mapped;
  // a record's mapping is read for each of its respondents and callbacks: parsed once
  const parsed = MAPPINGS.get(mapping) ?? MAPPINGS.set(mapping, parsedPairs(mapping, "Variable mapping"));
  if (parsed instanceof Error) throw parsed;
  for (const [name, template] of parsed) {
    mapped[name] = fillPlaceholders(template, samplex, String);
  }
  return mapped;
}

/** The Samplex variables of one respondent, and the client's names for them (variableMapping). */
export function clientApiValues(api: ClientApi, vars: { uid: string; sid: string; pid: string }) {
  const samplex: Record<string, string> = clientApiCallValues(vars);
  const mapped = mappedVariables(api.variableMapping, samplex);
  return { samplex, mapped, all: { ...samplex, ...mapped } };
}

/** Whether `[name]` (in any of its spellings) stands in the text. */
const places = (text: string, name: string) => fillPlaceholders(text, { [name]: "\u0000" }, String) !== text;

/** Fills the variables into every string of a JSON template. */
function fillJson(v: unknown, values: Record<string, string>): unknown {
  if (typeof v === "string") return fillPlaceholders(v, values, String);
  if (Array.isArray(v)) return v.map((x) => fillJson(x, values));
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillJson(x, values)]));
  }
  return v;
}

/** The request the client's API fields describe for one respondent. Throws ClientApiError. */
export function clientApiRequest(
  api: ClientApi,
  values: ReturnType<typeof clientApiValues>,
): ClientApiRequest {
  const { all, mapped } = values;
  if (!api.apiUrl.trim()) throw new ClientApiError("the client's API URL is blank");
  const filled = fillPlaceholders(api.apiUrl.trim(), all);
  if (!URL.canParse(filled)) throw new ClientApiError("the client's API URL is not a valid URL");
  const url = new URL(filled);
  const params = pairs(api.apiParams, "API parameters");
  for (const [k, v] of params) url.searchParams.set(k, fillPlaceholders(v, all, String));
  const templates = `${api.apiUrl}\n${api.apiParams}\n${api.apiBody}`;
  for (const [name, value] of Object.entries(mapped)) {
    if (!url.searchParams.has(name) && !places(templates, name)) url.searchParams.set(name, value);
  }

  let body: string | undefined;
  if (api.apiBody.trim()) {
    let template: unknown;
    try {
      template = JSON.parse(api.apiBody);
    } catch {
      throw new ClientApiError("the client's API body is not JSON");
    }
    body = JSON.stringify(fillJson(template, all));
  }
  const fn = api.apiFunction.trim();
  const asMethod = fn.toUpperCase();
  const method =
    (isMethod(asMethod) ? asMethod : body === undefined ? "GET" : "POST") as ClientApiRequest["method"];

  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const set = (list: [string, string][], extra: Record<string, string>) => {
    for (const [k, v] of list) headers[k.toLowerCase()] = fillPlaceholders(v, { ...all, ...extra }, String);
  };
  if (fn && !isMethod(asMethod)) {
    const name = headerName(api.apiFunctionHeader);
    if (name || !api.apiFunctionHeader.trim()) headers[(name ?? "X-Api-Function").toLowerCase()] = fn;
    else set(headerBlock(api.apiFunctionHeader, "API function header"), { function: fn });
  }
  const key = api.apiKey.trim();
  const keyHeader = headerName(api.apiHeader);
  let keySent = false;
  if (keyHeader) {
    if (key) headers[keyHeader.toLowerCase()] = keyValue(keyHeader, key);
    keySent = true;
  } else if (api.apiHeader.trim()) {
    const block = headerBlock(api.apiHeader, "API header");
    set(block, { apiKey: key });
    keySent = block.some(([, v]) => places(v, "apiKey"));
  }
  if (key && !keySent && !headers.authorization) headers.authorization = keyValue("authorization", key);
  if (Object.values(headers).some((v) => /[\r\n]/.test(v))) {
    throw new ClientApiError("a header value has a line break");
  }
  return { url: url.href, method, headers, body };
}

/** The key as its header carries it: Authorization takes a scheme (Bearer unless the key has one). */
const keyValue = (header: string, key: string) =>
  header.toLowerCase() === "authorization" && !/\s/.test(key) ? `Bearer ${key}` : key;

/** The value at a dot path (`data.links.0.url`; a leading `$.` is allowed). */
export function atPath(root: unknown, path: string): unknown {
  const parts = path.trim().replace(/^\$\.?/, "").split(".").filter(Boolean);
  let v = root;
  for (const p of parts) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** The identifier mapping: the return's parameter and where the identifier comes from. */
export function identifierOf(api: ClientApi): { param: string; source: string } | null {
  const line = lines(api.identifierMapping)[0];
  if (!line) return null;
  const at = line.indexOf("=");
  const param = at < 0 ? "uid" : line.slice(0, at).trim();
  const source = (at < 0 ? line : line.slice(at + 1)).trim();
  if (!NAME_RE.test(param) || !source) {
    throw new ClientApiError(`Identifier mapping: "${line.slice(0, 60)}" is not param=source`);
  }
  return { param, source };
}

/** The client's identifier of the respondent: a variable's value, or the value at a path of the answer. */
function identifier(api: ClientApi, values: Record<string, string>, answer: unknown): string {
  const id = identifierOf(api);
  if (!id) return "";
  const variable = /^\[([A-Za-z0-9_.~-]+)\]$/.exec(id.source)?.[1];
  const v = variable !== undefined ? values[variable] : atPath(answer, id.source);
  if (variable !== undefined && v === undefined) {
    throw new ClientApiError(`identifier mapping names an unknown variable [${variable}]`);
  }
  const ref = typeof v === "string" || typeof v === "number" ? String(v).trim() : "";
  if (!ref) throw new ClientApiError(`no respondent identifier at "${id.source}" in the answer`);
  if (ref.length > MAX_REF || /\p{Cc}/u.test(ref)) {
    throw new ClientApiError(`the identifier at "${id.source}" is not usable`);
  }
  return ref;
}

/** Reads the link (and the identifier) from the platform's answer. */
function readAnswer(
  api: ClientApi,
  values: Record<string, string>,
  status: number,
  body: Uint8Array,
): ClientLink {
  if (status < 200 || status > 299) return { ok: false, error: `the client's API answered HTTP ${status}` };
  let answer: unknown;
  try {
    answer = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return { ok: false, error: "the client's API answer is not JSON" };
  }
  const path = api.apiResponseVar.trim() || "url";
  const link = atPath(answer, path);
  if (typeof link !== "string" || !link.trim()) {
    return { ok: false, error: `no link at "${path}" in the answer` };
  }
  const url = URL.canParse(link.trim()) ? new URL(link.trim()) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || link.length > MAX_LINK) {
    return { ok: false, error: `the link at "${path}" is not an http(s) URL` };
  }
  return { ok: true, url: url.href, ref: identifier(api, values, answer) };
}

/**
 * Asks the client's platform for one respondent's survey link. Never throws: every failure (a
 * configuration the request cannot be made from, the policy's refusal, a time-out, an answer that
 * is not 2xx JSON with a link) comes back as `{ ok: false, error }`.
 */
export async function requestClientLink(
  outbound: Outbound,
  api: ClientApi,
  vars: { uid: string; sid: string; pid: string },
): Promise<ClientLink> {
  try {
    const values = clientApiValues(api, vars);
    const req = clientApiRequest(api, values);
    const res = await outbound.request(req.url, { method: req.method, headers: req.headers, body: req.body });
    return readAnswer(api, values.all, res.status, res.body);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      error: (e instanceof ClientApiError ? message : `the client's API: ${message}`).slice(0, 300),
    };
  }
}

/** The return parameter that carries the client's identifier of a session (null: none, or a broken mapping). */
export function returnParam(api: ClientApi): string | null {
  try {
    return identifierOf(api)?.param ?? null;
  } catch {
    return null;
  }
}
