/** env -> deps: opens and migrates the database, loads the session key, makes the logger. */
import { type DbHandle, openDatabase } from "./db/connection.ts";
import { migrateToLatest } from "./db/migrate.ts";
import type { Deps } from "./deps.ts";
import type { Env } from "./env.ts";
import { createLogger } from "./logger.ts";
import { jwtKeyFor } from "./domain/settings/secret.ts";
import { createSmtpMailer } from "./domain/email/mailer.ts";
import { Outbound } from "./domain/common/outbound/client.ts";
import { parseAllowList } from "./domain/common/outbound/policy.ts";

/** The outbound client under the operator's OUTBOUND_ALLOW and OUTBOUND_PORTS. */
export const outboundFor = (env: Pick<Env, "OUTBOUND_ALLOW" | "OUTBOUND_PORTS">) =>
  new Outbound({ ...parseAllowList(env.OUTBOUND_ALLOW), ports: env.OUTBOUND_PORTS });

export async function buildDeps(
  env: Env,
  overrides: Partial<Deps> = {},
): Promise<{ deps: Deps; handle: DbHandle }> {
  const handle = await openDatabase(
    env.DATABASE_URL,
    env.DATABASE_AUTH_TOKEN,
    env.DATABASE_REPLICA_PATH
      ? { path: env.DATABASE_REPLICA_PATH, syncInterval: env.DATABASE_SYNC_INTERVAL }
      : undefined,
  );
  // on the primary itself (an embedded replica only forwards writes), then into the replica
  await migrateToLatest(handle.primaryDb);
  await handle.sync();
  const deps: Deps = {
    db: handle.db,
    env,
    jwtKey: await jwtKeyFor(handle.db, env.JWT_SECRET),
    log: createLogger(env.LOG_LEVEL),
    now: () => Date.now(),
    outbound: outboundFor(env),
    mailer: env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.SMTP_FROM) : undefined,
    ...overrides,
  };
  return { deps, handle };
}
