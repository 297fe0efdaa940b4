/** Sign-in, sign-out and who is signed in (part 1, sections 7 and 8). */
import { defineCall, returns } from "./contract.ts";
import { LoginBody } from "../schemas/auth.ts";
import type { PublicUser } from "./users.ts";

/**
 * The web app's session cookies and header (server/http/session-cookie.ts): the token rides in the
 * httpOnly `SESSION_COOKIE`; the page reads `CSRF_COOKIE` and echoes it in `CSRF_HEADER` on writes.
 */
export const SESSION_COOKIE = "samplex_session";
export const CSRF_COOKIE = "samplex_csrf";
export const CSRF_HEADER = "x-csrf-token";

/**
 * The signed-in user and the access token to send as `Authorization: Bearer` (the CLI and
 * integrations; the web app uses the session cookie sign-in also sets, and never stores the token).
 */
export type LoginResult = { admin: PublicUser; accessToken: string };

/** The only call anyone may make. */
export const loginCall = defineCall({
  method: "POST",
  path: "/admin/login",
  public: true,
  throttled: true,
  body: LoginBody,
  result: returns<LoginResult>(),
});
/** Revokes the session's token. */
export const logoutCall = defineCall({
  method: "POST",
  path: "/admin/logout",
  result: returns<null>(),
});
/** Who is signed in (staff). */
export const adminMeCall = defineCall({
  method: "GET",
  path: "/admin/me",
  result: returns<PublicUser>(),
});
/** Who is signed in (supplier users; they reach no other /admin call). */
export const supplierMeCall = defineCall({
  method: "GET",
  path: "/supplier/me",
  result: returns<PublicUser>(),
});
