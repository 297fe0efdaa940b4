/** What a deployment or a test can change about the respondent router (buildDeps' `router` option). */
import type { RdThresholds, RiskChecker } from "./security.ts";

export type RouterOptions = {
  /** Proxy/VPN and fraud-score checker; the default flags hosting networks. */
  risk?: RiskChecker;
  rdThresholds?: RdThresholds;
  /**
   * Edge headers trusted for the respondent's country, in order. Default: COUNTRY_HEADER when the
   * deployment sets it, else none (the embedded IP database decides): a respondent can send any header.
   */
  countryHeaders?: string[];
  /** The network under the outbound client for approved hooks (tests pass a fake; the outbound checks still apply). */
  fetch?: typeof fetch;
  hookRetryDelaysMs?: number[];
  /** How long a claimed hook is left to its sender before another may send it again. */
  hookLeaseMs?: number;
  /**
   * false: API-integrated clients' platforms are not called, their projects' own links are used (the
   * demo seed, whose clients' platforms are fictional). Default: called (client-api.ts).
   */
  clientApi?: boolean;
  /** How long map and project settings are cached (changes made here invalidate at once). */
  configTtlMs?: number;
  prescreenTimeoutMinutes?: number;
  /** Drop time-out of a project without an LOI (with one: twice the LOI). */
  dropWithoutLoiMinutes?: number;
  maxBatch?: number;
  /** In-progress holds (writer/holds.ts); default: ROUTER_HOLDS (on). */
  holds?: boolean;
  /** Batches in flight at once on a remote primary (the writer's default: 2). */
  remoteInFlight?: number;
  /** Milliseconds the next remote batch waits for answered requests to come back (default: 4). */
  remoteLingerMs?: number;
};
