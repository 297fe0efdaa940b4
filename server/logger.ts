/**
 * Structured JSON logs, one line per event. Secrets never reach a line whole: fields named like a
 * secret (passwords, tokens, API/hash/signing keys, Authorization and Cookie headers) are masked at
 * any depth, and bearer tokens or JWTs inside any text are cut to their last 4 characters.
 */
import { HIDDEN_FIELD, maskSecret, SECRET_FIELD } from "../shared/secrets.ts";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

/** Field names never written (HIDDEN) and secrets shown as their last 4 characters (SECRET). */
const HIDDEN = HIDDEN_FIELD, SECRET = SECRET_FIELD;
/** Secrets inside free text: `Bearer <token>`, JWTs. */
const IN_TEXT = /(Bearer\s+)([^\s"',;]+)|\bey[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;

function maskText(s: string): string {
  return s.replace(
    IN_TEXT,
    (whole, bearer: string | undefined, token: string | undefined) =>
      bearer ? `${bearer}${maskSecret(token)}` : maskSecret(whole),
  );
}

/** A copy of a log field with its secrets masked (names checked at every depth). */
export function maskFields(value: unknown, key = "", depth = 0): unknown {
  if (key && HIDDEN.test(key)) {
    return value === undefined || value === null || value === "" ? value : "[hidden]";
  }
  if (key && SECRET.test(key) && (typeof value === "string" || typeof value === "number")) {
    return maskSecret(String(value));
  }
  if (typeof value === "string") return maskText(value);
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (value instanceof Headers) return maskFields(Object.fromEntries(value), key, depth + 1);
  if (Array.isArray(value)) return value.map((v) => maskFields(v, "", depth + 1));
  if (value instanceof Error) return maskText(`${value.message}\n${value.stack ?? ""}`);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = maskFields(v, k, depth + 1);
  return out;
}

export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (l) => console.log(l),
): Logger {
  const min = LEVELS[level];
  const emit = (lvl: Exclude<LogLevel, "silent">) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    const safe = fields ? maskFields(fields) as Record<string, unknown> : undefined;
    write(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg: maskText(msg), ...safe }));
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}
