/** What the app needs from outside, built once in main.ts (or by a test) and passed down. */
import type { Db } from "./db/connection.ts";
import type { Env } from "./env.ts";
import type { Logger } from "./logger.ts";
import type { Mailer } from "./domain/email/mailer.ts";
import type { RouterOptions } from "./domain/router/router.ts";
import type { ProviderRegistry } from "./providers/index.ts";
import type { Outbound } from "./domain/common/outbound/client.ts";

export interface Deps {
  db: Db;
  env: Env;
  /** HS256 key for session tokens. */
  jwtKey: Uint8Array;
  log: Logger;
  /** Milliseconds since epoch; tests may move time. */
  now: () => number;
  /** SMTP transport when SMTP_URL is set; without it mail waits in the outbox. */
  mailer?: Mailer;
  /**
   * The one client for URLs a user or a supplier typed (hooks, callbacks): refuses internal
   * addresses unless OUTBOUND_ALLOW lists them (server/domain/common/outbound).
   */
  outbound: Outbound;
  /** Respondent router settings: risk checker, thresholds, trusted headers, hook fetch, timeouts. */
  router?: RouterOptions;
  /** External sample providers (server/providers); unset: from PROVIDER_<NAME>_URL / _KEY alone. */
  providers?: ProviderRegistry;
}
