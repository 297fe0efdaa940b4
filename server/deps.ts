/**
 * What the app needs from outside, built once in main.ts (or by a test, the CLI) through buildDeps
 * and passed down. Types only, from leaf modules: everything may import this file.
 */
import type { Db } from "./db/connection.ts";
import type { Env } from "./env.ts";
import type { Logger } from "./logger.ts";
import type { Services } from "./services.ts";

export interface Deps {
  db: Db;
  env: Env;
  /** HS256 key for session tokens. */
  jwtKey: Uint8Array;
  log: Logger;
  /** Milliseconds since epoch; tests may move time. */
  now: () => number;
  /** The app's long-lived services (server/services.ts): router, notifier, live feed, queues, mail... */
  services: Services;
}
