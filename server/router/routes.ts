/**
 * /survey/*: the respondent router's HTTP face. Entry links (live and test), the pre-screen page,
 * the client's return link and its server-to-server post-back. Any other /survey path, like an
 * unknown supplier link or session, gets the spec's not-found page (404), rendered here.
 *
 * Hono answers HEAD with the GET handler: every handler that records something answers a HEAD
 * (link checkers, previews, monitors) without doing anything.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Deps } from "../deps.ts";
import type { AppEnv, HttpCtx } from "../http/context.ts";
import { clientIp } from "../http/request-info.ts";
import { type Routed, SID_RE } from "../domain/router/router.ts";
import { fillPlaceholders, redirectKind } from "../domain/router/outcomes.ts";
import { supplierRedirectValues } from "../domain/router/shortcodes.ts";
import type { SessionStatus } from "../db/tables/router.ts";
import { linkAnswers } from "../domain/router/profiles.ts";
import { type MessageKind, messagePage, prescreenPage } from "./pages.tsx";

const ID = "{[0-9a-f]{24}}";

/** Our pages: no scripts, inline style only, never framed. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

/** Sets what the handlers need (deps, request id); security headers on the pages we render. */
export function surveyMiddleware(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("deps", deps);
    c.set("requestId", c.req.header("x-request-id")?.slice(0, 64) || "");
    await next();
  };
}

/** Our own respondent pages carry a strict policy. */
function html(c: HttpCtx, body: string, status = 200) {
  c.header("cache-control", "no-store");
  c.header("content-security-policy", PAGE_CSP);
  c.header("x-content-type-options", "nosniff");
  c.header("x-frame-options", "DENY");
  c.header("referrer-policy", "no-referrer");
  return c.html(body, status as 200);
}

function go(c: HttpCtx, url: string) {
  c.header("cache-control", "no-store");
  c.header("referrer-policy", "no-referrer");
  return c.redirect(url, 302);
}

const PAGE_OF: Partial<Record<SessionStatus, MessageKind>> = {
  complete: "thanks",
  terminate: "terminate",
  preScreenTerminate: "terminate",
  overQuota: "overQuota",
  qualityTerm: "quality",
  security: "quality",
  duplicate: "quality",
};

/**
 * Where a routed respondent goes now: the survey, the pre-screen, the next survey of a routing chain
 * (routing.ts), or back to their supplier, once, by the redirect of the map they came in on.
 */
async function respond(c: HttpCtx, routed: Routed & { counted?: boolean }): Promise<Response> {
  if (routed.session.status === "redirected") {
    // no link yet: the client's API call did not finish (its write failed); the entry may be retried
    return routed.session.clientUrl ? go(c, routed.session.clientUrl) : html(c, messagePage("busy"), 503);
  }
  if (routed.session.status === "prescreen") return go(c, `/survey/prescreen/${routed.session.id}`);
  const routing = c.get("deps").services.router.routing;
  if (routing.routable(routed)) {
    const next = await nextHop(c, routed);
    if (next) return await respond(c, next);
  }
  const { session, project, map } = await routing.home(routed);
  const target = map.redirects[redirectKind(session.status)];
  if (target) {
    return go(
      c,
      fillPlaceholders(
        target,
        supplierRedirectValues({ sid: session.sid, uid: session.id, projectCode: project.projectCode }),
      ),
    );
  }
  return html(c, messagePage(PAGE_OF[session.status] ?? "closed", routed.project.languageId));
}

/** The next survey of a routing chain; a failure to route sends the respondent home (logged), never strands them. */
async function nextHop(c: HttpCtx, routed: Routed & { counted?: boolean }): Promise<Routed | null> {
  try {
    return await c.get("deps").services.router.routing.next(routed, {
      headers: c.req.raw.headers,
      fresh: routed.counted === true,
    });
  } catch (err) {
    c.get("deps").log.warn("routing failed; the respondent goes home", {
      uid: routed.session.id,
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

/** A write that could not be committed: the respondent may try again; nothing was counted. */
async function guarded(c: HttpCtx, fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (err) {
    c.get("deps").log.error("router request failed", {
      id: c.get("requestId"),
      path: c.req.path,
      error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err),
    });
    return html(c, messagePage("busy"), 503);
  }
}

/** A HEAD is answered without touching anything (a link checker must not take a respondent's place). */
const isHead = (c: HttpCtx) => c.req.method === "HEAD";
const headOk = (c: HttpCtx) => c.body(null, 200, { "cache-control": "no-store" });

const notFoundPage = (c: HttpCtx) => html(c, messagePage("notFound"), 404);

async function entry(c: HttpCtx, isTest: boolean) {
  if (isHead(c)) return headOk(c);
  const sid = (c.req.query("sid") ?? "").trim();
  if (!SID_RE.test(sid)) return html(c, messagePage("missingSid"), 400);
  return await guarded(c, async () => {
    const r = await c.get("deps").services.router.enter({
      mapId: c.req.param("mapId")!,
      sid,
      isTest,
      ip: clientIp(c),
      userAgent: c.req.header("user-agent") ?? "",
      headers: c.req.raw.headers,
      // known answers on the link (q_<library question id>=<answer ids>), bounded and checked
      answers: c.req.url.includes("q_") ? linkAnswers(new URL(c.req.url).searchParams) : undefined,
    });
    if (r.kind === "invalid") return notFoundPage(c);
    return respond(c, r);
  });
}

/** Reads one form field as a list (checkboxes send several). */
function formReader(body: Record<string, unknown>) {
  return (name: string): string[] => {
    const v = body[name] ?? body[`${name}[]`];
    const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
    return list.filter((x): x is string => typeof x === "string").map((s) => s.slice(0, 500));
  };
}

/** A return's parameters as single strings (an identifier mapping may name any of them). */
function returnParams(raw: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw).slice(0, 32)) {
    const one = Array.isArray(v) ? v[0] : v;
    if (typeof one === "string") out[k] = one;
  }
  return out;
}

export function surveyRoutes() {
  const r = new Hono<AppEnv>();

  r.get(`/start/:mapId${ID}`, (c) => entry(c, false));
  r.get(`/test/:mapId${ID}`, (c) => entry(c, true));

  r.get(`/prescreen/:uid${ID}`, (c) =>
    guarded(c, async () => {
      const router = c.get("deps").services.router;
      const routed = await router.session(c.req.param("uid")!);
      if (!routed) return notFoundPage(c);
      const { session, project, map } = routed;
      if (session.status !== "prescreen") return respond(c, routed);
      return html(
        c,
        prescreenPage({
          uid: session.id,
          lang: project.languageId,
          supplierType: map.supplierType,
          // a known answer is not asked again
          questions: await router.questionsToAsk(routed),
        }),
      );
    }));

  // answers and post-backs are small; anything bigger is refused before it is read
  const small = bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.text("Payload too large", 413) });

  r.post(`/prescreen/:uid${ID}`, small, (c) =>
    guarded(c, async () => {
      let body: Record<string, unknown> = {};
      try {
        body = await c.req.parseBody({ all: true });
      } catch { /* an unreadable body answers nothing */ }
      const form = formReader(body);
      const router = c.get("deps").services.router;
      const out = await router.answer(c.req.param("uid")!, form);
      if (out.kind === "unknown") return notFoundPage(c);
      if (out.kind === "ask") {
        return html(
          c,
          prescreenPage({
            uid: out.session.id,
            lang: out.project.languageId,
            supplierType: out.map.supplierType,
            questions: await router.questionsToAsk(out),
            missing: out.missing,
            values: form,
          }),
          422,
        );
      }
      return respond(c, out);
    }));

  r.get("/end", (c) =>
    isHead(c) ? headOk(c) : guarded(c, async () => {
      const out = await c.get("deps").services.router.finish({
        uid: (c.req.query("uid") ?? "").trim(),
        status: c.req.query("status") ?? "",
        sig: c.req.query("sig"),
        via: "redirect",
        params: returnParams(c.req.queries()),
      });
      if (out.kind === "bad-status") return html(c, messagePage("badStatus"), 400);
      if (out.kind === "unknown") return notFoundPage(c);
      if (out.kind === "forged") {
        c.get("deps").log.warn("refused return link without a valid signature", {
          uid: c.req.query("uid"),
          project: out.project.projectCode,
        });
        return html(c, messagePage("forged", out.project.languageId), 403);
      }
      return respond(c, out);
    }));

  // server to server: the client's system reports the outcome; the answer is JSON
  r.on(["GET", "POST"], "/postback", small, async (c) => {
    if (isHead(c)) return headOk(c);
    let params: Record<string, unknown> = Object.fromEntries(new URL(c.req.url).searchParams);
    if (c.req.method === "POST") {
      try {
        const type = c.req.header("content-type") ?? "";
        const body = type.includes("application/json") ? await c.req.json() : await c.req.parseBody();
        if (body && typeof body === "object") params = { ...params, ...body };
      } catch { /* query parameters only */ }
    }
    const str = (k: string) => (typeof params[k] === "string" ? (params[k] as string).trim() : "");
    try {
      const out = await c.get("deps").services.router.finish({
        uid: str("uid"),
        status: str("status"),
        sig: str("sig"),
        via: "postback",
        params: returnParams(params),
      });
      if (out.kind === "bad-status") return c.json({ message: "status must be c, t, q (qf) or f" }, 400);
      if (out.kind === "unknown") return c.json({ message: "Unknown uid" }, 404);
      if (out.kind === "forged") return c.json({ message: "Invalid signature" }, 403);
      return c.json({
        result: { uid: out.session.id, status: out.session.status, counted: out.counted },
        message: out.counted ? "Recorded" : "Already recorded",
      });
    } catch (err) {
      c.get("deps").log.error("router postback failed", {
        error: err instanceof Error ? err.message : String(err),
      });
      return c.json({ message: "Try again later" }, 503);
    }
  });

  // every other /survey path: the not-found page, never the SPA's index.html with a 200
  r.all("*", notFoundPage);

  return r;
}
