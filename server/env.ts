/** Environment, validated once at start-up with clear messages (design.md section 3). */
import * as v from "valibot";
import { parseAllowList } from "./domain/common/outbound/policy.ts";

const PROVIDERS = ["PRECISION", "LOGIT", "TOLUNA", "CIRCLE", "MRKT"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

const urlLike = (name: string) =>
  v.pipe(v.string(), v.check((s) => /^https?:\/\/[^\s]+$/.test(s), `${name} must be an http(s) URL`));

function allowListProblem(s: string): string | null {
  try {
    parseAllowList(s);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** An HTTP header name (a token); kept in lower case, as Headers.get compares. */
const headerName = (name: string) =>
  v.pipe(
    v.string(),
    v.check(
      (s) => /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(s),
      `${name} must be an HTTP header name, like cf-ipcountry`,
    ),
    v.transform((s) => s.toLowerCase()),
  );

/** A time-out in seconds (decimals allowed), from 0.1 s to one hour; kept in milliseconds. */
const seconds = (name: string, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.check(
      (s) => /^\d+(\.\d+)?$/.test(s) && +s >= 0.1 && +s <= 3600,
      `${name} must be a number of seconds from 0.1 to 3600`,
    ),
    v.transform((s) => Math.round(+s * 1000)),
  );

/** A whole number from 1 to `max`. */
const wholeNumber = (name: string, fallback: string, max: number) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.check(
      (s) => /^\d{1,7}$/.test(s) && +s >= 1 && +s <= max,
      `${name} must be a whole number from 1 to ${max}`,
    ),
    v.transform(Number),
  );

const EnvSchema = v.pipe(
  v.object({
    DATABASE_URL: v.pipe(
      v.optional(v.string(), "file:data/samplex.db"),
      v.check(
        (s) => s === ":memory:" || /^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/)/.test(s),
        "DATABASE_URL must be file:PATH, :memory:, libsql://HOST or http(s)://HOST",
      ),
    ),
    DATABASE_AUTH_TOKEN: v.optional(v.string()),
    /**
     * A local file holding an embedded replica of a remote DATABASE_URL: reads are served from it,
     * writes go to the primary. One per app instance (never shared between processes).
     */
    DATABASE_REPLICA_PATH: v.optional(
      v.pipe(
        v.string(),
        v.check(
          (s) => !/^[a-z]+:/i.test(s),
          "DATABASE_REPLICA_PATH must be a file path, like data/replica.db",
        ),
      ),
    ),
    /**
     * Who checkpoints a database file's write-ahead log: a worker of its own (`background`, so the
     * thread that answers requests never stalls on it) or SQLite in a commit (`inline`).
     */
    DATABASE_CHECKPOINT: v.optional(
      v.picklist(["background", "inline"], "DATABASE_CHECKPOINT must be background or inline"),
      "background",
    ),
    /** Seconds between syncs of the replica from the primary (staff see other instances' changes that late). */
    DATABASE_SYNC_INTERVAL: v.pipe(
      v.optional(v.string(), "0.5"),
      v.check(
        (s) => /^\d+(\.\d+)?$/.test(s) && +s >= 0.05 && +s <= 3600,
        "DATABASE_SYNC_INTERVAL must be a number of seconds from 0.05 to 3600 (0.5, 1, 10...)",
      ),
      v.transform(Number),
    ),
    PORT: v.pipe(
      v.optional(v.string(), "8000"),
      v.check((s) => /^\d+$/.test(s) && +s > 0 && +s < 65536, "PORT must be a number from 1 to 65535"),
      v.transform(Number),
    ),
    HOST: v.optional(v.string(), "0.0.0.0"),
    PUBLIC_URL: v.optional(urlLike("PUBLIC_URL")),
    JWT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, "JWT_SECRET must be at least 32 characters"))),
    DENO_ENV: v.optional(
      v.picklist(["production", "development", "test"], "DENO_ENV must be production, development or test"),
      "development",
    ),
    SMTP_URL: v.optional(
      v.pipe(
        v.string(),
        v.check((s) => /^smtps?:\/\/[^\s]+$/.test(s), "SMTP_URL must look like smtp://user:pass@host:port"),
      ),
    ),
    SMTP_FROM: v.optional(v.string(), "Samplex <no-reply@samplex.local>"),
    SEED: v.optional(v.picklist(["demo", "none"], "SEED must be demo or none"), "demo"),
    LOG_LEVEL: v.optional(
      v.picklist(
        ["debug", "info", "warn", "error", "silent"],
        "LOG_LEVEL must be debug, info, warn, error or silent",
      ),
      "info",
    ),
    ...Object.fromEntries(PROVIDERS.flatMap((p) => [
      [`PROVIDER_${p}_URL`, v.optional(urlLike(`PROVIDER_${p}_URL`))],
      [`PROVIDER_${p}_KEY`, v.optional(v.string())],
    ])) as Record<string, v.OptionalSchema<v.GenericSchema<string>, undefined>>,
    TRUST_PROXY_HOPS: v.pipe(
      v.optional(v.string(), "0"),
      v.check((s) => /^\d{1,2}$/.test(s), "TRUST_PROXY_HOPS must be a whole number from 0 to 99"),
      v.transform(Number),
    ),
    /**
     * In-progress holds (router writer/holds.ts): `on` counts the sessions in the client survey
     * against every limit and keeps a complete past a limit as a complete; `off` is the router before
     * holds (refused on completes alone, a complete past a limit turned over-quota at return).
     */
    ROUTER_HOLDS: v.optional(v.picklist(["on", "off"], "ROUTER_HOLDS must be on or off"), "on"),
    CLIENT_IP_HEADER: v.optional(headerName("CLIENT_IP_HEADER")),
    COUNTRY_HEADER: v.optional(headerName("COUNTRY_HEADER")),
    CITY_HEADER: v.optional(headerName("CITY_HEADER")),
    PROVIDER_TOLUNA_PANEL: v.optional(v.string()),
    /**
     * Internal hosts and address ranges the outbound client may call after all (comma-separated:
     * `hooks.internal, 10.20.0.0/16, 127.0.0.1`); listed targets may use any port.
     */
    OUTBOUND_ALLOW: v.pipe(
      v.optional(v.string(), ""),
      v.check(
        (s) => allowListProblem(s) === null,
        (i) => `OUTBOUND_ALLOW: ${allowListProblem(String(i.input))}`,
      ),
    ),
    /** Ports the outbound client calls besides 80 (http) and 443 (https), comma-separated. */
    OUTBOUND_PORTS: v.pipe(
      v.optional(v.string(), ""),
      v.check(
        (s) =>
          s.split(",").every((p) => p.trim() === "" || (/^\d{1,5}$/.test(p.trim()) && +p > 0 && +p < 65536)),
        "OUTBOUND_PORTS must be port numbers from 1 to 65535, comma-separated (8080, 8443)",
      ),
      v.transform((s) => s.split(",").map((p) => p.trim()).filter(Boolean).map(Number)),
    ),
    /**
     * Milliseconds the router waits for an API-integrated client's platform to answer with a
     * respondent's survey link (default 3000); past it the respondent goes to the survey-close
     * redirect, the reason recorded.
     */
    CLIENT_API_TIMEOUT_MS: v.pipe(
      v.optional(v.string(), "3000"),
      v.check(
        (s) => /^\d+$/.test(s) && +s >= 100 && +s <= 30_000,
        "CLIENT_API_TIMEOUT_MS must be a number of milliseconds from 100 to 30000",
      ),
      v.transform(Number),
    ),
    /** Bearer token of GET /metrics; without it /metrics is off (404). */
    METRICS_TOKEN: v.optional(
      v.pipe(v.string(), v.minLength(16, "METRICS_TOKEN must be at least 16 characters")),
    ),
    /** Folder of the scheduled backups; with BACKUP_EVERY_HOURS, the server writes one that often. */
    BACKUP_DIR: v.optional(v.string()),
    BACKUP_EVERY_HOURS: v.optional(
      v.pipe(
        v.string(),
        v.check(
          (s) => /^\d+(\.\d+)?$/.test(s) && +s > 0 && +s <= 24 * 366,
          "BACKUP_EVERY_HOURS must be a number of hours above 0 (1, 6, 24, 0.5...)",
        ),
        v.transform(Number),
      ),
    ),
    BACKUP_KEEP: v.pipe(
      v.optional(v.string(), "7"),
      v.check((s) => /^\d{1,4}$/.test(s) && +s >= 1, "BACKUP_KEEP must be a whole number from 1 to 9999"),
      v.transform(Number),
    ),
    /** The commit this build came from, when git cannot say (the image: a build argument). */
    GIT_COMMIT: v.optional(v.string()),
    PROVIDER_TOLUNA_PARTNER_KEY: v.optional(v.string()),
    /** security.txt's Contact: an e-mail address, or a mailto:, https: or tel: URI. */
    SECURITY_CONTACT: v.optional(
      v.pipe(
        v.string(),
        v.check(
          (s) =>
            /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+|tel:\+?[\d\-. ()]+|[^\s@:]+@[^\s@]+\.[^\s@]+)$/.test(s),
          "SECURITY_CONTACT must be an e-mail address or a mailto:, https: or tel: URI",
        ),
        v.transform((s) => /^(mailto|https|tel):/.test(s) ? s : `mailto:${s}`),
      ),
    ),
    /** security.txt's Policy: the disclosure policy's URL; unset: the one this server serves. */
    SECURITY_POLICY_URL: v.optional(urlLike("SECURITY_POLICY_URL")),
    /**
     * Slow clients (server/http-front.ts): `on` bounds them (the settings below), `off` serves through
     * Deno.serve without bounds; `auto`: on unless behind a trusted proxy (TRUST_PROXY_HOPS,
     * CLIENT_IP_HEADER), which bounds its clients itself.
     */
    HTTP_GUARD: v.optional(v.picklist(["auto", "on", "off"], "HTTP_GUARD must be auto, on or off"), "auto"),
    /** Seconds a client has to send a request's headers. */
    HTTP_HEADERS_TIMEOUT: seconds("HTTP_HEADERS_TIMEOUT", "15"),
    /**
     * Seconds a client has to send a whole request, headers and body (at least HTTP_HEADERS_TIMEOUT);
     * the default lets a 20 MiB reconcile file come at 70 KB/s.
     */
    HTTP_REQUEST_TIMEOUT: seconds("HTTP_REQUEST_TIMEOUT", "300"),
    /** Seconds an idle keep-alive connection is kept. */
    HTTP_IDLE_TIMEOUT: seconds("HTTP_IDLE_TIMEOUT", "10"),
    /**
     * Supply API calls a minute one API key may make, sustained (its token bucket's refill). 600 (10 a
     * second): a panel's minute poll of the inventory and its quotas, and its books at 1,000 rows a
     * page (a million-row history in under two minutes), with room to spare. Per app instance.
     */
    SUPPLY_RATE_PER_MINUTE: wholeNumber("SUPPLY_RATE_PER_MINUTE", "600", 1_000_000),
    /**
     * Supply API calls one API key may make at once after a pause (its token bucket's size). 120: a
     * poll that fans out (the survey list, then the quotas of a hundred surveys) goes through at once.
     */
    SUPPLY_RATE_BURST: wholeNumber("SUPPLY_RATE_BURST", "120", 100_000),
    /** Open connections allowed from one address (0: no cap); off behind a trusted proxy. */
    HTTP_MAX_CONNECTIONS_PER_IP: v.pipe(
      v.optional(v.string(), "256"),
      v.check((s) => /^\d{1,6}$/.test(s), "HTTP_MAX_CONNECTIONS_PER_IP must be a whole number (0: no cap)"),
      v.transform(Number),
    ),
  }),
  // a partial check runs even when other variables are wrong, so every problem is listed at once
  v.forward(
    v.partialCheck(
      [["DENO_ENV"], ["JWT_SECRET"]],
      (e) => e.DENO_ENV !== "production" || !!e.JWT_SECRET,
      "JWT_SECRET is required when DENO_ENV=production (at least 32 characters)",
    ),
    ["JWT_SECRET"],
  ),
  v.forward(
    v.partialCheck(
      [["DATABASE_URL"], ["DATABASE_REPLICA_PATH"]],
      (e) =>
        !e.DATABASE_REPLICA_PATH || !(e.DATABASE_URL === ":memory:" || e.DATABASE_URL.startsWith("file:")),
      "DATABASE_REPLICA_PATH needs a remote DATABASE_URL (libsql://, http(s)://, ws(s)://) to replicate",
    ),
    ["DATABASE_REPLICA_PATH"],
  ),
  v.forward(
    v.partialCheck(
      [["HTTP_HEADERS_TIMEOUT"], ["HTTP_REQUEST_TIMEOUT"]],
      (e) => e.HTTP_HEADERS_TIMEOUT <= e.HTTP_REQUEST_TIMEOUT,
      "HTTP_REQUEST_TIMEOUT must be at least HTTP_HEADERS_TIMEOUT (it covers the headers too)",
    ),
    ["HTTP_REQUEST_TIMEOUT"],
  ),
  v.forward(
    v.partialCheck(
      [["BACKUP_DIR"], ["BACKUP_EVERY_HOURS"]],
      (e) => !e.BACKUP_EVERY_HOURS || !!e.BACKUP_DIR,
      "BACKUP_EVERY_HOURS needs BACKUP_DIR (the folder the backups go to)",
    ),
    ["BACKUP_DIR"],
  ),
);
export type Env = v.InferOutput<typeof EnvSchema>;

export class EnvError extends Error {}

/** Reads and validates the environment. Throws EnvError listing every problem. */
export function loadEnv(source: Record<string, string | undefined> = Deno.env.toObject()): Env {
  const clean = Object.fromEntries(
    Object.entries(source).filter(([, val]) => val !== undefined && val !== ""),
  );
  const r = v.safeParse(EnvSchema, clean);
  if (!r.success) {
    const lines = r.issues.map((i) => {
      const key = v.getDotPath(i);
      return key && !i.message.startsWith(key) ? `${key}: ${i.message}` : i.message;
    });
    throw new EnvError(`Invalid environment:\n  - ${lines.join("\n  - ")}`);
  }
  return r.output;
}

export const providerNames = PROVIDERS;
