/**
 * How the adapters talk to a provider: a time-out on every attempt (AbortSignal.timeout), retries
 * with a doubling back-off for idempotent reads only (a network failure, a time-out, 429 or 5xx),
 * and every failure turned into one clear message naming the provider (an `upstream` business
 * error, answered 502: the provider failed, not us).
 */
import { DomainError } from "../domain/errors.ts";
import { PROVIDER_NAMES } from "../../shared/schemas/providers.ts";
import type { ProviderConfig } from "./types.ts";

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 300;

export type ProviderRequest = {
  method?: "GET" | "POST";
  /** Path (and query) after the base URL. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A read that may be repeated safely (GET, and POSTs that only read). */
  idempotent?: boolean;
  /** Reads the provider's own error shape from a failed answer's JSON (e.g. Toluna's Result). */
  errorOf?: (json: unknown) => string | null;
};

/** A provider's failure: an `upstream` business error (502), with the provider's HTTP status if it answered. */
export class ProviderError extends DomainError {
  constructor(message: string, readonly status?: number) {
    super("upstream", message);
  }
}
const upstream = (message: string, status?: number) => new ProviderError(message, status);
/** Whether the provider said the record is not there (404). */
export const isGone = (e: unknown) => e instanceof ProviderError && e.status === 404;

/** A failure worth another attempt (the provider or the network, not our request). */
class Retryable extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls the provider and answers its parsed JSON, or throws an `upstream` error naming it. */
export async function providerJson(cfg: ProviderConfig, req: ProviderRequest): Promise<unknown> {
  const name = PROVIDER_NAMES[cfg.key] + (cfg.sandbox ? " (Sandbox)" : "");
  const method = req.method ?? "GET";
  const idempotent = req.idempotent ?? method === "GET";
  const attempts = idempotent ? Math.max(1, cfg.attempts ?? DEFAULT_ATTEMPTS) : 1;
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = cfg.fetch ?? fetch;
  let last: Error = new Error("no attempt");
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await sleep((cfg.backoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** (i - 1));
    try {
      return await once();
    } catch (e) {
      if (!(e instanceof Retryable)) throw e;
      last = e;
    }
  }
  throw upstream(last.message + (attempts > 1 ? ` (after ${attempts} attempts)` : ""));

  async function once(): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(cfg.url + req.path, {
        method,
        headers: {
          accept: "application/json",
          ...(req.body !== undefined ? { "content-type": "application/json" } : {}),
          ...req.headers,
        },
        body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      if (e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError")) {
        throw new Retryable(`${name} did not answer within ${Math.round(timeoutMs / 100) / 10} seconds`);
      }
      throw new Retryable(`${name} cannot be reached: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new Retryable(`${name} did not answer within ${Math.round(timeoutMs / 100) / 10} seconds`);
    }
    let json: unknown = undefined;
    let parsed = false;
    try {
      json = JSON.parse(text);
      parsed = true;
    } catch { /* judged below */ }
    if (!res.ok) {
      const own = parsed && req.errorOf ? req.errorOf(json) : null;
      const detail = own ? `: ${own}` : "";
      if (res.status === 401 || res.status === 403) {
        throw upstream(
          `${name} refused the API key (HTTP ${res.status}${detail}); check PROVIDER_${cfg.key.toUpperCase()}_KEY`,
          res.status,
        );
      }
      if (res.status === 429 || res.status >= 500) {
        throw new Retryable(`${name} is unavailable (HTTP ${res.status}${detail})`);
      }
      throw upstream(`${name} refused the request (HTTP ${res.status}${detail})`, res.status);
    }
    if (!parsed) throw upstream(`${name} answered with malformed JSON`);
    const own = req.errorOf?.(json);
    if (own) throw upstream(`${name} answered with an error: ${own}`);
    return json;
  }
}

/** The adapters' view of an answer that is not the shape they expect. */
export function unexpectedShape(cfg: ProviderConfig, what: string) {
  return upstream(
    `${PROVIDER_NAMES[cfg.key]}${cfg.sandbox ? " (Sandbox)" : ""} answered in an unexpected shape (${what})`,
  );
}

// ---------------------------------------------------------------- reading loose JSON

export type Json = Record<string, unknown>;
export const isObj = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);
export const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
export const objs = (x: unknown): Json[] => arr(x).filter(isObj);
export const str = (x: unknown): string => (x === null || x === undefined ? "" : String(x));
export const num = (x: unknown): number => {
  const n = typeof x === "number" ? x : typeof x === "string" ? Number(x) : NaN;
  return Number.isFinite(n) ? n : 0;
};
export const int = (x: unknown): number => Math.max(0, Math.round(num(x)));
export const money = (x: unknown): number => Math.round(num(x) * 100) / 100;
/** A date as yyyy-MM-dd (from ISO text, yyyy-MM-dd, or MM/dd/yyyy), else null. */
export function isoDay(x: unknown): string | null {
  const s = str(x).trim();
  if (!s) return null;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(s);
  if (iso) return iso[1];
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(s);
  if (us) return `${us[3]}-${us[1].padStart(2, "0")}-${us[2].padStart(2, "0")}`;
  const t = Date.parse(s);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : null;
}
export const devices = (flags: { desktop?: boolean; mobile?: boolean; tablet?: boolean }) =>
  [flags.desktop && "Desktop", flags.mobile && "Mobile", flags.tablet && "Tablet"].filter(Boolean).join(
    ", ",
  ) ||
  "All";

/** Applies the common filters the provider could not apply itself. */
export function matches(o: { countryCode: string; title: string; surveyId: string }, f: {
  countryCode?: string;
  search?: string;
}) {
  if (f.countryCode && o.countryCode.toUpperCase() !== f.countryCode.toUpperCase()) return false;
  if (f.search) {
    const s = f.search.toLowerCase();
    if (!o.title.toLowerCase().includes(s) && !o.surveyId.toLowerCase().includes(s)) return false;
  }
  return true;
}

/** Follows a provider's pages (at most `max`), collecting what each answers. */
export async function allPages<T>(
  fetchPage: (page: number) => Promise<{ items: T[]; more: boolean }>,
  max = 50,
): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= max; page++) {
    const { items, more } = await fetchPage(page);
    out.push(...items);
    if (!more || !items.length) break;
  }
  return out;
}
