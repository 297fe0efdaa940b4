/**
 * The API client: `api(contract, input)` calls a call declared in `shared/api/` and answers its
 * typed envelope (no feature file spells a path); `download(contract, input)` fetches a file answer.
 * Underneath: fetch against /api/v1 with a 20 s time-out, the session riding in its httpOnly cookie
 * (same-origin fetch sends it) and the session's CSRF token in `X-CSRF-Token` on every write, the server's `message` as an error notice on failure (the network error text when there is
 * no answer), and on any 401 the session is cleared and the app goes to /login (part 1, 7 and 8).
 */
import { MSG } from "../../../shared/messages.ts";
import { type AnyContract, type CallInput, pathOf, type ResultOf } from "../../../shared/api/contract.ts";
import { clearSession, csrfToken, currentAdmin, hasSession, useAuth } from "./auth.ts";
import { CSRF_HEADER } from "../../../shared/api/session.ts";
import { navigateTo } from "./navigation.ts";
import { notify } from "./notify.ts";
import { emitSessionEnd } from "./session-events.ts";
import { TIMING } from "./timing.ts";

export const API_BASE = "/api/v1";

export type FieldError = { path: string; message: string };
export type Envelope<T> = { result: T; message: string };

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
  /** No answer from the server (network failure or time-out). */
  get isNetwork() {
    return this.status === 0;
  }
}

export type RequestOptions = {
  body?: unknown;
  signal?: AbortSignal;
  /** Do not raise an error notice (the caller handles it), for all failures or those it accepts. */
  quiet?: boolean | ((e: ApiError) => boolean);
  /** Query string parameters. */
  query?: Record<string, string>;
};

/** What happens on a 401 to a signed-in call: the session ends; a failure here is recorded. */
export function endSessionAfter401() {
  try {
    clearSession();
    emitSessionEnd();
    navigateTo("/login", { replace: true });
  } catch (e) {
    useAuth.getState().setSessionError(MSG.logoutFailed);
    console.error(MSG.logoutFailed, e);
  }
}

/** Whether a 401 ends a session: the browser holds one, or the app still shows someone signed in. */
const signedIn = () => hasSession() || currentAdmin() !== null;

async function send(method: string, path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  const csrf = method === "GET" || method === "HEAD" ? null : csrfToken();
  if (csrf) headers[CSRF_HEADER] = csrf;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const qs = opts.query ? `?${new URLSearchParams(opts.query)}` : "";
  const timeout = AbortSignal.timeout(TIMING.apiTimeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    return await fetch(`${API_BASE}${path}${qs}`, {
      method,
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal,
      credentials: "same-origin",
    });
  } catch (e) {
    if (opts.signal?.aborted) throw e; // the caller cancelled: not an error to show
    const err = timeout.aborted
      ? new ApiError(`timeout of ${TIMING.apiTimeoutMs}ms exceeded`, 0)
      : new ApiError(e instanceof Error && e.message ? `Network Error: ${e.message}` : "Network Error", 0);
    report(err, opts);
    throw err;
  }
}

function report(err: ApiError, opts: RequestOptions) {
  const quiet = typeof opts.quiet === "function" ? opts.quiet(err) : !!opts.quiet;
  if (!quiet) notify.error(err.message);
}

async function failure(res: Response, hadToken: boolean, opts: RequestOptions): Promise<never> {
  let message = res.statusText || `Request failed (${res.status})`;
  let errors: FieldError[] = [];
  try {
    const json = await res.json();
    if (json && typeof json.message === "string" && json.message) message = json.message;
    if (json && Array.isArray(json.errors)) errors = json.errors;
  } catch { /* not JSON */ }
  const err = new ApiError(message, res.status, errors);
  report(err, opts);
  if (res.status === 401 && hadToken) endSessionAfter401();
  throw err;
}

export async function request<T>(
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<Envelope<T>> {
  const hadToken = signedIn();
  const res = await send(method, path, opts);
  if (!res.ok) return await failure(res, hadToken, opts);
  if (res.status === 204) return { result: null as T, message: "" };
  return await res.json() as Envelope<T>;
}

type Required<I> = { [K in keyof I]-?: undefined extends I[K] ? never : K }[keyof I];
/** A call's input and options; the input may be left out when the call needs none. */
export type CallArgs<C> = Required<CallInput<C>> extends never ? [input?: CallInput<C>, opts?: CallOptions]
  : [input: CallInput<C>, opts?: CallOptions];
export type CallOptions = Omit<RequestOptions, "body" | "query"> & { query?: Record<string, string> };

function requestOf(contract: AnyContract, input: CallInput<AnyContract> | undefined, opts: CallOptions = {}) {
  const path = pathOf(contract, input?.params as Record<string, string> | undefined);
  const query = { ...clean(input?.query), ...opts.query };
  const body = contract.method === "GET" ? undefined : (input?.body ?? {});
  return { path, opts: { ...opts, body, query: Object.keys(query).length ? query : undefined } };
}

function clean(q: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((q ?? {}) as Record<string, unknown>)) {
    if (v !== undefined && v !== null && v !== "") out[k] = String(v);
  }
  return out;
}

/** Calls a declared API call: `api(getClientCall, { params: { id } })` -> `{ result: ClientRecord, message }`. */
export function api<C extends AnyContract>(
  contract: C,
  ...[input, opts]: CallArgs<C>
): Promise<Envelope<ResultOf<C>>> {
  const r = requestOf(contract, input as CallInput<AnyContract>, opts);
  return request<ResultOf<C>>(contract.method, r.path, r.opts);
}

/** A declared call's file answer (CSV, PDF): the blob and the file name the server proposed. */
export function download<C extends AnyContract>(contract: C, ...[input, opts]: CallArgs<C>) {
  const r = requestOf(contract, input as CallInput<AnyContract>, opts);
  return requestBlob(contract.method, r.path, r.opts);
}

/** The cache key of a call's answers (lists, pickers): the call, then what was asked. */
export const callKey = (contract: AnyContract, ...rest: unknown[]) => [contract.key, ...rest] as const;

/** A file answer (CSV, PDF): the blob and the file name the server proposed. */
async function requestBlob(
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<{ blob: Blob; filename: string | null }> {
  const hadToken = signedIn();
  const res = await send(method, path, opts);
  if (!res.ok) return await failure(res, hadToken, opts);
  const disposition = res.headers.get("content-disposition") ?? "";
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return { blob: await res.blob(), filename: m ? decodeURIComponent(m[1]) : null };
}
