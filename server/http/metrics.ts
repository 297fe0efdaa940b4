/**
 * Request metrics (count by status class, and latency, per route template and method) and the
 * /metrics endpoint. The middleware runs ahead of everything, the respondent router included: it
 * costs two clock reads and two map look-ups per request.
 */
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { metrics, renderMetrics, type RouteGroup } from "../domain/ops/metrics.ts";
import type { Db } from "../db/connection.ts";
import { MSG } from "../../shared/messages.ts";
import { type Clock, wallClock } from "../domain/common/clock.ts";

export function routeGroupOf(path: string): RouteGroup {
  if (path.startsWith("/survey/") || path === "/survey") return "survey";
  if (path.startsWith("/api/")) return "api";
  if (path === "/healthz" || path === "/metrics") return "ops";
  return "static";
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

type RequestSeries = {
  route: string;
  requests: Map<string, { inc(): void }>;
  latency: { observe(v: number): void };
};
/** One entry per group, method and route template: bounded by the routes the code registers. */
const seriesCache = new Map<string, RequestSeries>();

/** A route template without its parameters' patterns: `/survey/start/:mapId{[0-9a-f]{24}}` -> `/survey/start/:mapId`. */
export function routeLabel(template: string): string {
  if (!template) return "*";
  if (!template.includes("{")) return template;
  let out = "", depth = 0;
  for (const ch of template) {
    if (ch === "{") depth++;
    else if (ch === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/**
 * The series of a request: its route template as registered (`/api/v1/admin/project/:id`, `/api/*`
 * or `/*` for what matched no call), never the raw path, so ids and strangers' paths make no new
 * series; a method outside the standard ones is `OTHER`.
 */
function requestSeries(group: RouteGroup, method: string, template: string): RequestSeries {
  const key = `${group} ${method} ${template}`;
  let s = seriesCache.get(key);
  if (!s) {
    const route = routeLabel(template);
    s = { route, requests: new Map(), latency: metrics.latency.child({ group, method, route }) };
    seriesCache.set(key, s);
  }
  return s;
}

export function requestMetrics(): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const group = routeGroupOf(c.req.path);
    try {
      await next();
    } finally {
      const status = `${Math.floor((c.res?.status ?? 500) / 100)}xx`;
      const method = METHODS.has(c.req.method) ? c.req.method : "OTHER";
      const s = requestSeries(group, method, routePath(c));
      let counter = s.requests.get(status);
      if (!counter) {
        counter = metrics.requests.child({ group, method, route: s.route, status });
        s.requests.set(status, counter);
      }
      counter.inc();
      s.latency.observe((performance.now() - started) / 1000);
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
export function metricsHandler(token: string, db: Db, now: Clock = wallClock) {
  return async (c: Context) => {
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
    if (!m || !sameSecret(m[1], token)) return c.json({ message: MSG.forbidden }, 403);
    c.header("cache-control", "no-store");
    return c.body(await renderMetrics(db, now), 200, {
      "content-type": "text/plain; version=0.0.4; charset=utf-8",
    });
  };
}
