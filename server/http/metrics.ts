/**
 * Request metrics (count and latency per route group) and the /metrics endpoint. The middleware
 * runs ahead of everything, the respondent router included: it costs two clock reads and two map
 * bumps per request.
 */
import type { Context, MiddlewareHandler } from "hono";
import { metrics, renderMetrics, type RouteGroup } from "../domain/ops/metrics.ts";
import type { Db } from "../db/connection.ts";
import { MSG } from "../../shared/messages.ts";

export function routeGroupOf(path: string): RouteGroup {
  if (path.startsWith("/survey/") || path === "/survey") return "survey";
  if (path.startsWith("/api/")) return "api";
  if (path === "/healthz" || path === "/metrics") return "ops";
  return "static";
}

export function requestMetrics(): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const group = routeGroupOf(c.req.path);
    try {
      await next();
    } finally {
      const status = c.res?.status ?? 500;
      metrics.requests.inc({ group, status: `${Math.floor(status / 100)}xx` });
      metrics.latency.observe((performance.now() - started) / 1000, { group });
    }
  };
}

/** Compares in time that does not depend on where the strings differ. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a), y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * GET /metrics: the Prometheus text, for `Authorization: Bearer <METRICS_TOKEN>` only (403 without
 * it or with another). Not mounted at all when METRICS_TOKEN is unset (404).
 */
export function metricsHandler(token: string, db: Db) {
  return async (c: Context) => {
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
    if (!m || !sameSecret(m[1], token)) return c.json({ message: MSG.forbidden }, 403);
    c.header("cache-control", "no-store");
    return c.body(await renderMetrics(db), 200, {
      "content-type": "text/plain; version=0.0.4; charset=utf-8",
    });
  };
}
