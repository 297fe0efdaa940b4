/** createApp(deps): /api/v1, /survey (the respondent router), /healthz and the SPA. */
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { Deps } from "./deps.ts";
import type { AppEnv } from "./http/context.ts";
import { httpErrorOf } from "./http/errors.ts";
import { Api } from "./http/api.ts";
import { mountRobotsTxt, mountSecurityTxt, mountSpa } from "./http/static.ts";
import { MSG } from "../shared/messages.ts";
import { registerRoutes } from "./routes/index.ts";
import { surveyMiddleware, surveyRoutes } from "./router/routes.ts";
import { metricsHandler, requestMetrics } from "./http/metrics.ts";
import { databaseHealth } from "./domain/ops/health.ts";
import { commitOf, VERSION } from "./domain/ops/version.ts";
import { openApiDocument } from "./openapi.ts";
import { supplyApp } from "./supply/app.ts";
import { SUPPLY_BASE } from "../shared/api/supply.ts";

export type AppOptions = {
  /** Folder of the built SPA (web/dist); without it only the API is served. */
  webRoot?: string;
};

export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = new Hono<AppEnv>();

  // request counts and latencies per route group (server/http/metrics.ts), the router included
  app.use("*", requestMetrics());

  // The respondent router is the hot path: mounted ahead of the per-request log and the generic
  // header middleware (each respondent's journey is kept in the sessions table instead), with its
  // own headers on the pages it renders. It answers every /survey path, unknown ones with the
  // spec's not-found page (404), so none reaches the SPA's history fallback.
  app.use("/survey/*", surveyMiddleware(deps));
  app.route("/survey", surveyRoutes());

  app.use("*", async (c, next) => {
    const requestId = c.req.header("x-request-id")?.slice(0, 64) || crypto.randomUUID();
    c.set("requestId", requestId);
    c.set("deps", deps);
    const started = performance.now();
    await next();
    c.header("x-request-id", requestId);
    if (!c.req.path.startsWith("/assets/")) {
      deps.log.info("request", {
        id: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  });
  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
      crossOriginEmbedderPolicy: false,
    }),
  );

  // Every API answer is someone's data (the login answer carries a token): no browser or proxy
  // keeps a copy, error answers and CSV downloads included. Set after the call, whatever it answered.
  app.use("/api/*", async (c, next) => {
    await next();
    c.header("cache-control", "no-store");
  });

  app.onError((err, c) => {
    // constraint errors that slipped past a domain check are conflicts, not crashes
    const known = httpErrorOf(err);
    if (known) {
      return c.json(
        { message: known.message, ...(known.errors ? { errors: known.errors } : {}) },
        known.status,
      );
    }
    const requestId = c.get("requestId");
    deps.log.error("unhandled error", {
      id: requestId,
      path: c.req.path,
      error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err),
    });
    return c.json({ message: MSG.internal, requestId }, 500);
  });

  app.get("/healthz", async (c) => {
    const release = { version: VERSION, commit: commitOf(deps.env.GIT_COMMIT) };
    try {
      await deps.db.selectFrom("settings").select("key").limit(1).execute();
    } catch {
      return c.json({ status: "database unavailable", ...release, database: { answers: false } }, 503);
    }
    const db = await databaseHealth(deps.db);
    const database = db.answers
      ? {
        answers: true,
        ms: db.ms,
        migrationsCurrent: db.migrations.current,
        latestMigration: db.migrations.latest,
      }
      : { answers: false };
    return c.json({ status: "ok", ...release, database });
  });

  // Prometheus metrics, for the bearer of METRICS_TOKEN only; off (404) without one
  const metricsToken = deps.env.METRICS_TOKEN;
  if (metricsToken) app.get("/metrics", metricsHandler(metricsToken, deps.db, deps.now));
  // off: a 404, not the SPA's history fallback page
  else app.get("/metrics", (c) => c.json({ message: MSG.notFound }, 404));

  const api = new Api();
  registerRoutes(api);
  // the API reference (OpenAPI 3.1), generated from the contracts: public, it holds no data
  api.app.get("/openapi.json", (c) => c.json(openApiDocument()));
  api.app.notFound((c) => c.json({ message: MSG.notFound }, 404));
  app.route("/api/v1", api.app);
  app.all("/api/*", (c) => c.json({ message: MSG.notFound }, 404));

  // the supply API: a supplier's key in X-Api-Key, never a session (server/supply/app.ts)
  app.route(SUPPLY_BASE, supplyApp());
  app.all("/supply/*", (c) => c.json({ message: MSG.notFound }, 404));

  // RFC 9116 security.txt (contact from SECURITY_CONTACT), with or without the SPA
  mountSecurityTxt(app, {
    contact: deps.env.SECURITY_CONTACT,
    policyUrl: deps.env.SECURITY_POLICY_URL,
    publicUrl: deps.env.PUBLIC_URL,
    now: deps.now,
  });
  // robots.txt: only the sign-in page may be crawled (a back-office is not indexed)
  mountRobotsTxt(app);

  // the built SPA: hashed /assets cached for good, the rest revalidated, index.html for client
  // routes; pre-compressed (br, gzip) variants chosen by Accept-Encoding (server/http/static.ts)
  if (options.webRoot) mountSpa(app, options.webRoot);
  app.notFound((c) => c.json({ message: MSG.notFound }, 404));
  return app;
}
