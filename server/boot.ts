/**
 * env -> deps: opens and migrates the database, loads the session key, makes the logger, and builds
 * the app's long-lived services once (buildServices, server/services.ts).
 */
import { type DbHandle, openDatabase } from "./db/connection.ts";
import { migrateToLatest } from "./db/migrate.ts";
import type { Deps } from "./deps.ts";
import type { Env } from "./env.ts";
import { createLogger } from "./logger.ts";
import type { Services } from "./services.ts";
import { jwtKeyFor } from "./domain/settings/secret.ts";
import { createSmtpMailer, type Mailer } from "./domain/email/mailer.ts";
import { MailDelivery } from "./domain/email/deliver.ts";
import { Outbound } from "./domain/common/outbound/client.ts";
import { parseAllowList } from "./domain/common/outbound/policy.ts";
import { ChangeNotifier } from "./domain/common/changes.ts";
import { Router } from "./domain/router/router.ts";
import type { RouterOptions } from "./domain/router/options.ts";
import { DashboardLive } from "./domain/dashboard/live.ts";
import { ReconcileQueue } from "./domain/reconcile/turns.ts";
import { JobScheduler } from "./domain/support/scheduler.ts";
import { SupplyRateLimiter } from "./domain/supply/rate-limit.ts";
import { type ProviderRegistry, providersFromEnv } from "./providers/index.ts";

/** The outbound client under the operator's OUTBOUND_ALLOW and OUTBOUND_PORTS. */
export const outboundFor = (env: Pick<Env, "OUTBOUND_ALLOW" | "OUTBOUND_PORTS">) =>
  new Outbound({ ...parseAllowList(env.OUTBOUND_ALLOW), ports: env.OUTBOUND_PORTS });

/** What a deployment or a test may give the services instead of what the environment says. */
export type ServiceOptions = {
  /** Respondent router settings: risk checker, thresholds, trusted headers, hook fetch, timeouts. */
  router?: RouterOptions;
  /** The mail server; default: SMTP to SMTP_URL when set, else none (mail waits in the outbox). */
  mailer?: Mailer;
  /** External sample providers; default: from PROVIDER_<NAME>_URL / _KEY alone. */
  providers?: ProviderRegistry;
  /** The outbound client; default: outboundFor(env). */
  outbound?: Outbound;
};

/**
 * The app's services, each made once, over the app's database, log and clock (read through `app`
 * at each use, so a test that moves `now` moves them too).
 */
export function buildServices(app: Omit<Deps, "services">, opts: ServiceOptions = {}): Services {
  const now = () => app.now();
  const { db, env, log } = app;
  const changes = new ChangeNotifier();
  // the app's outbound calls keep their connections alive between calls; close() ends them
  const outbound = (opts.outbound ?? outboundFor(env)).pooled();
  const routerOptions = opts.router ?? {};
  const router = new Router({ db, env, log, now, outbound, changes }, routerOptions);
  const live = new DashboardLive({ db, log, now, flushes: router.writer });
  const mail = new MailDelivery({
    db,
    log,
    now,
    mailer: opts.mailer ?? (env.SMTP_URL ? createSmtpMailer(env.SMTP_URL, env.SMTP_FROM) : undefined),
  });
  const scheduler = new JobScheduler(db, log, { now, changes, onMail: () => mail.kick() });
  return {
    changes,
    router,
    routerOptions,
    live,
    reconcile: new ReconcileQueue(),
    mail,
    scheduler,
    providers: opts.providers ?? providersFromEnv(env),
    outbound,
    supplyRate: new SupplyRateLimiter(
      { perMinute: env.SUPPLY_RATE_PER_MINUTE, burst: env.SUPPLY_RATE_BURST },
      now,
    ),
    async close() {
      await scheduler.stop();
      live.close();
      await router.close();
      mail.close();
      outbound.close();
    },
  };
}

export async function buildDeps(
  env: Env,
  overrides: Partial<Omit<Deps, "services">> & ServiceOptions = {},
): Promise<{ deps: Deps; handle: DbHandle }> {
  const { router, mailer, providers, outbound, ...given } = overrides;
  const handle = await openDatabase(
    env.DATABASE_URL,
    env.DATABASE_AUTH_TOKEN,
    env.DATABASE_REPLICA_PATH
      ? { path: env.DATABASE_REPLICA_PATH, syncInterval: env.DATABASE_SYNC_INTERVAL }
      : undefined,
    { checkpoint: env.DATABASE_CHECKPOINT },
  );
  // on the primary itself (an embedded replica only forwards writes), then into the replica
  await migrateToLatest(handle.primaryDb);
  await handle.sync();
  const deps = {
    db: handle.db,
    env,
    jwtKey: await jwtKeyFor(handle.db, env.JWT_SECRET),
    log: createLogger(env.LOG_LEVEL),
    now: () => Date.now(),
    ...given,
  } as Deps;
  deps.services = buildServices(deps, { router, mailer, providers, outbound });
  return { deps, handle };
}
