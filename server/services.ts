/**
 * The app's long-lived services: built once per app by `buildServices` (server/boot.ts, at boot, or
 * by a test's testApp, the CLI and the seed through buildDeps) and passed down in `deps.services`.
 * Nothing of theirs is module state, so two apps in one process (two test apps on two databases)
 * share nothing: not the router's caches, not a change listener, not a queue. `close()` stops them all.
 *
 * Types only, from leaf modules: deps.ts imports this file, and the domain imports deps.ts, so a
 * service whose module reaches further into the domain (the dashboard figures, the outbox, the
 * scheduler's status changes) is named here by the interface the app uses, not by its class.
 */
import type { LiveUpdate } from "../shared/api/dashboard.ts";
import type { ChangeNotifier } from "./domain/common/changes.ts";
import type { Outbound } from "./domain/common/outbound/client.ts";
import type { Mailer } from "./domain/email/mailer.ts";
import type { ReconcileQueue } from "./domain/reconcile/turns.ts";
import type { RouterOptions } from "./domain/router/options.ts";
import type { Router } from "./domain/router/router.ts";
import type { ProviderRegistry } from "./providers/index.ts";
import type { SupplyRateLimiter } from "./domain/supply/rate-limit.ts";

/** The dashboard's live figures (domain/dashboard/live.ts DashboardLive). */
export interface LiveFeed {
  /** Adds a viewer; the hub listens to the router while it has any. Returns the unsubscribe. */
  subscribe(listener: (u: LiveUpdate) => void): () => void;
  /** The figures now: the last reading when fresh, else one shared new reading. */
  snapshot(): Promise<LiveUpdate>;
  readonly viewers: number;
  /** Readings made so far (tests check that viewers share them). */
  readonly reads: number;
  close(): void;
}

/** The outbox's delivery (domain/email/deliver.ts MailDelivery). */
export interface MailService {
  /** The SMTP transport when SMTP_URL is set; without it mail waits in the outbox. */
  readonly mailer?: Mailer;
  /** Sends every queued mail now. */
  deliver(): Promise<{ sent: number; failed: number; skipped: boolean }>;
  /** Starts a background delivery run (or asks the running one to look again); never throws. */
  kick(): void;
  /** Resolves when no background delivery is running. */
  idle(): Promise<void>;
  close(): void;
}

/** Support > Scheduled Jobs' runner (domain/support/scheduler.ts JobScheduler). */
export interface JobRunner {
  /** Ticks every `everyMs` (and once now), each timed tick asking `gate` first. */
  start(everyMs?: number, gate?: () => Promise<boolean>): void;
  /** Stops ticking and waits for a run under way. */
  stop(): Promise<void>;
}

export interface Services {
  /** Who changed what (projects, supplier maps, suppliers): the router's cache listens. */
  changes: ChangeNotifier;
  /** The respondent router: its configuration cache, single writer and approved-hook sender. */
  router: Router;
  /** The options the router was built with (the demo seed builds its own router from them). */
  routerOptions: RouterOptions;
  /** The dashboard's live feed, fed by the router's writer. */
  live: LiveFeed;
  /** Reconcile uploads and undos, one project group at a time. */
  reconcile: ReconcileQueue;
  /** The outbox's delivery and the mail server. */
  mail: MailService;
  /** Scheduled jobs (started by the server, never by tests or the CLI). */
  scheduler: JobRunner;
  /** External sample providers: the ones the app was given, else those of PROVIDER_<NAME>_URL / _KEY. */
  providers: ProviderRegistry;
  /**
   * The one client for URLs a user or a supplier typed (hooks, callbacks): refuses internal
   * addresses unless OUTBOUND_ALLOW lists them (server/domain/common/outbound).
   */
  outbound: Outbound;
  /** The supply API's rate limit: a token bucket per API key (SUPPLY_RATE_PER_MINUTE, SUPPLY_RATE_BURST). */
  supplyRate: SupplyRateLimiter;
  /** Stops every service: the scheduler, the live feed, the router (its writes committed, hooks idle), the mail. */
  close(): Promise<void>;
}
