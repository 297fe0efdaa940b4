/**
 * The web app's session: the access token in an httpOnly cookie (no script, an injected one included,
 * can read it) and a CSRF token beside it that the SPA echoes in `X-CSRF-Token` on every unsafe call.
 *
 * - `samplex_session`: the token; `HttpOnly; SameSite=Strict; Path=/`, `Secure` over https (or behind a
 *   proxy saying `X-Forwarded-Proto: https`), `Max-Age` the token's remaining lifetime.
 * - `samplex_csrf`: readable by the page, same attributes without `HttpOnly`; its value is an HMAC of the
 *   token under the server's signing key, so it cannot be forged, planted from a sibling host or reused
 *   with another session (a signed double submit: the server recomputes it from the session cookie).
 *
 * A call with an `Authorization: Bearer` header (the CLI, integrations, scripts) is authenticated by
 * that header alone and needs no CSRF token: a cross-site page cannot make a browser send one.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { decodeJwt } from "jose";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { HttpCtx } from "./context.ts";

import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from "../../shared/api/session.ts";

export { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE };
export const CSRF_MESSAGE = "Missing or invalid CSRF token: reload the page and try again";
export const CROSS_SITE_MESSAGE = "Cross-site requests are not allowed";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Whether a method changes something (the calls that need CSRF proof). */
export const isUnsafe = (method: string) => UNSAFE.has(method.toUpperCase());

/** The CSRF token of a session token: HMAC-SHA256 under the JWT key, base64url. */
export function csrfTokenFor(jwtKey: Uint8Array, accessToken: string): string {
  return createHmac("sha256", jwtKey).update(`csrf:${accessToken}`).digest("base64url");
}

/** Whether the request reached us over https (directly, or as the proxy in front says). */
export function isHttps(c: HttpCtx): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  const proto = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "https";
}

/** Sets the session and CSRF cookies for a freshly issued token, for as long as the token lives. */
export function setSessionCookies(c: HttpCtx, accessToken: string) {
  // a token just issued: it lives from its iat to its exp
  const { exp, iat } = decodeJwt(accessToken);
  const issued = iat ?? Math.floor(c.get("deps").now() / 1000);
  const maxAge = Math.max(0, (exp ?? issued) - issued);
  const common = { path: "/", sameSite: "Strict", secure: isHttps(c), maxAge } as const;
  setCookie(c, SESSION_COOKIE, accessToken, { ...common, httpOnly: true });
  setCookie(c, CSRF_COOKIE, csrfTokenFor(c.get("deps").jwtKey, accessToken), { ...common, httpOnly: false });
}

/** Removes both cookies (sign-out, or a session cookie the server no longer accepts). */
export function clearSessionCookies(c: HttpCtx) {
  const common = { path: "/", sameSite: "Strict", secure: isHttps(c) } as const;
  deleteCookie(c, SESSION_COOKIE, { ...common, httpOnly: true });
  deleteCookie(c, CSRF_COOKIE, common);
}

/** The session cookie's token, if the request carries one. */
export function sessionCookieOf(c: HttpCtx): string | undefined {
  return getCookie(c, SESSION_COOKIE) || undefined;
}

/**
 * Whether a cookie-authenticated request may go on: a browser's own say that it comes from another
 * site (`Sec-Fetch-Site: cross-site`) is refused whatever it carries; an unsafe method must echo the
 * session's CSRF token in `X-CSRF-Token`. Safe methods (GET, HEAD) change nothing and pass.
 */
export function csrfFailure(c: HttpCtx, accessToken: string): string | null {
  if (!isUnsafe(c.req.method)) return null;
  if (c.req.header("sec-fetch-site")?.toLowerCase() === "cross-site") return CROSS_SITE_MESSAGE;
  const sent = c.req.header(CSRF_HEADER) ?? "";
  const expected = csrfTokenFor(c.get("deps").jwtKey, accessToken);
  const a = new TextEncoder().encode(sent), b = new TextEncoder().encode(expected);
  return a.length === b.length && timingSafeEqual(a, b) ? null : CSRF_MESSAGE;
}
