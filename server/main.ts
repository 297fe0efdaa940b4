/** Serves web + API: env -> deps -> Deno.serve(createApp(deps).fetch), with graceful shutdown. */
import "./node-env.ts"; // first: React's server build is chosen when it loads
import { EnvError, loadEnv } from "./env.ts";
import { buildDeps } from "./boot.ts";
import { createApp } from "./app.ts";
import { seedIfEmpty } from "./seed/seed.ts";
import { warmSecurityData } from "./domain/router/security.ts";
import { refreshPlannerStats, STATS_INTERVAL_MS } from "./db/maintenance.ts";
import { SCHEDULER_TICK_MS } from "./domain/support/scheduler.ts";
import { beat, clearHeartbeat, HEARTBEAT_MS, otherServer } from "./domain/ops/heartbeat.ts";
import { filePathOf, startScheduledBackups } from "./domain/ops/backup.ts";
import {
  deadLocalProcess,
  gated,
  instanceId,
  leaseGate,
  releaseDeadHolders,
  releaseLeases,
} from "./domain/ops/lease.ts";
import { commitOf, VERSION } from "./domain/ops/version.ts";
import { providersFromEnv } from "./providers/index.ts";
import { mountedSandbox, SANDBOX_PATH } from "./providers/sandbox/index.ts";
import { REFRESH_INTERVAL_MS, refreshImports } from "./domain/imports/refresh.ts";
import { recoverReconciles } from "./domain/reconcile/reconcile.ts";
import { guarded, listen } from "./http-front.ts";

/** How often queued mail (from a time without a mail server, or a failed run) is looked at again. */
const OUTBOX_INTERVAL_MS = 60_000;
/** How often sessions past their time-out are counted as drops. */
const DROP_SWEEP_INTERVAL_MS = 60_000;

export async function serve(opts: { webRoot?: string } = {}) {
  let env;
  try {
    env = loadEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(e.message);
      Deno.exit(1);
    }
    throw e;
  }
  // external providers: a demo (SEED=demo) answers for any provider without a URL from the built-in
  // stand-ins under /sandbox, labelled Sandbox; a real PROVIDER_<NAME>_URL and _KEY replace them
  const sandbox = env.SEED === "demo" ? mountedSandbox() : null;
  const self = `http://${env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST}:${env.PORT}`;
  const providers = providersFromEnv(env, { sandboxBase: sandbox ? `${self}${SANDBOX_PATH}` : undefined });
  // the database, and every long-lived service built once (server/services.ts)
  const { deps, handle } = await buildDeps(env, { providers });
  const { services } = deps;
  // a second server on this database says so; its single-run tasks take leases (domain/ops/lease.ts)
  const holder = instanceId();
  const other = await otherServer(deps.db, undefined, deadLocalProcess).catch(() => null);
  const freed = await releaseDeadHolders(deps.db).catch(() => []);
  if (freed.length) deps.log.info("task leases of a crashed earlier process freed", { tasks: freed });
  if (other) {
    const fields = { host: other.host, pid: other.pid, heartbeatSecondsAgo: Math.round(other.ageMs / 1000) };
    if (filePathOf(env.DATABASE_URL)) {
      deps.log.warn(
        "another server is using this database file (or one on another host stopped without a clean " +
          "shutdown moments ago): " +
          "the drop sweep, scheduled jobs and backups run on one of them at a time",
        fields,
      );
    } else {deps.log.info(
        "another instance shares this database server: single-run tasks take leases",
        fields,
      );}
  }
  const lease = (name: string, ttlMs: number) => leaseGate(deps, holder, name, ttlMs);
  // reconcile uploads a crash left half applied are rolled back (and held post-backs of finished ones
  // released) before anything reads the counters
  const rolledBack = await recoverReconciles(deps, services.reconcile.active);
  if (rolledBack) {
    deps.log.warn("reconcile uploads left half applied were rolled back", { uploads: rolledBack });
  }
  const seeded = await seedIfEmpty(deps);
  if (seeded) deps.log.info("seeded demo data", seeded);
  // planner statistics: lists choose their search and filter indexes from them
  const refreshStats = gated(
    lease("planner-stats", STATS_INTERVAL_MS * 2),
    () =>
      refreshPlannerStats(deps.db).catch((e) => {
        deps.log.warn("statistics not refreshed", { error: e instanceof Error ? e.message : String(e) });
        return true;
      }),
  );
  const statsTimer = (await refreshStats()) !== false
    ? setInterval(refreshStats, STATS_INTERVAL_MS)
    : (deps.log.info("planner statistics: not supported by this database server"), undefined);
  const app = createApp(deps, { webRoot: opts.webRoot });
  // mail queued before this start (or while no mail server was configured) goes out now
  services.mail.kick();
  const outboxTimer = services.mail.mailer
    ? setInterval(() => services.mail.kick(), OUTBOX_INTERVAL_MS)
    : undefined;
  // respondents who never came back become drops; approved hooks queued before a restart go out
  const { router } = services;
  router.hooks.kick();
  const sweep = gated(
    lease("drop-sweep", 3 * DROP_SWEEP_INTERVAL_MS),
    () =>
      router.sweep().then((n) => n && deps.log.info("drops counted", { sessions: n })).catch((e) =>
        deps.log.error("drop sweep failed", { error: e instanceof Error ? e.message : String(e) })
      ),
  );
  sweep();
  // the IP tables load once (a fraction of a second), before respondents arrive
  await warmSecurityData().catch((e) => deps.log.warn("IP data not loaded", { error: String(e) }));
  const sweepTimer = setInterval(sweep, DROP_SWEEP_INTERVAL_MS);
  // scheduled jobs (Support): due jobs run on every tick, each once across the instances
  services.scheduler.start(SCHEDULER_TICK_MS, lease("scheduled-jobs", 3 * SCHEDULER_TICK_MS));
  // "in use": `db restore` refuses to overwrite a database whose server beats (domain/ops/heartbeat.ts)
  const heartbeat = () =>
    beat(deps.db).catch((e) => deps.log.warn("heartbeat not written", { error: String(e) }));
  await heartbeat();
  const heartbeatTimer = setInterval(heartbeat, HEARTBEAT_MS);
  const backups = env.BACKUP_DIR && env.BACKUP_EVERY_HOURS
    ? await startScheduledBackups(
      deps.db,
      env.DATABASE_URL,
      {
        dir: env.BACKUP_DIR,
        everyHours: env.BACKUP_EVERY_HOURS,
        keep: env.BACKUP_KEEP,
      },
      deps.log,
      undefined,
      lease("backups", env.BACKUP_EVERY_HOURS * 3_600_000 * 1.5),
    )
    : undefined;
  deps.log.info("release", { version: VERSION, commit: commitOf(env.GIT_COMMIT) });
  // imported offers are read again from their providers: a vanished or closed one pauses its project
  let refreshing: Promise<unknown> = Promise.resolve();
  const refresh = gated(
    lease("offer-refresh", 3 * REFRESH_INTERVAL_MS),
    () =>
      refreshImports(deps, (k) => services.providers.find(k), deps.now).then((r) => {
        if (r.paused || r.updated) deps.log.info("imported offers refreshed", r);
        for (const f of r.failed) deps.log.warn("offer refresh: provider failed", { error: f });
      }).catch((e) =>
        deps.log.error("offer refresh failed", { error: e instanceof Error ? e.message : String(e) })
      ),
  );
  const refreshTimer = setInterval(() => (refreshing = refresh()), REFRESH_INTERVAL_MS);
  const ac = new AbortController();
  const handler = (req: Request, info: { remoteAddr: Deno.NetAddr }) =>
    sandbox && new URL(req.url).pathname.startsWith(`${SANDBOX_PATH}/`)
      ? sandbox.fetch(req)
      : app.fetch(req, { remoteAddr: info.remoteAddr });
  const onListen = ({ hostname, port }: { hostname: string; port: number }) => {
    deps.log.info("listening", {
      url: `http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`,
      slowClientGuard: guarded(env) ? "on" : "off (Deno.serve)",
    });
  };
  const server = listen(env, {
    port: env.PORT,
    hostname: env.HOST,
    signal: ac.signal,
    onListen,
    onRefused: (why, address) => deps.log.debug("client cut", { why, address }),
  }, handler);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info("shutting down", { signal });
    ac.abort(); // stop accepting; in-flight requests finish
    await server.finished;
    clearInterval(outboxTimer);
    clearInterval(sweepTimer);
    clearInterval(statsTimer);
    clearInterval(refreshTimer);
    await refreshing;
    await services.scheduler.stop();
    clearInterval(heartbeatTimer);
    await backups?.stop();
    // let a delivery run finish its current mail; what is left stays queued for the next start
    await Promise.race([services.mail.idle(), new Promise((r) => setTimeout(r, 5_000))]);
    // the scheduler, the live feed, the router (its writes committed, its hooks idle), the mail server
    await services.close();
    await clearHeartbeat(deps.db, true).catch(() => {});
    // another instance may take the single-run tasks at once
    await releaseLeases(deps.db, holder).catch(() => {});
    await handle.close();
    Deno.exit(0);
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(sig, () => stop(sig));
  return server;
}

if (import.meta.main) {
  const webRoot = new URL("../web/dist", import.meta.url).pathname;
  let hasWeb = false;
  try {
    hasWeb = (await Deno.stat(`${webRoot}/index.html`)).isFile;
  } catch { /* API only */ }
  await serve({ webRoot: hasWeb ? webRoot : undefined });
}
