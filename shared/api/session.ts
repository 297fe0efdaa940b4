/** Sign-in, sign-out and who is signed in (part 1, sections 7 and 8). */
import { defineCall, returns } from "./contract.ts";
import { LoginBody } from "../schemas/auth.ts";
import type { PublicUser } from "./users.ts";

/** The signed-in user and the access token to send as `Authorization: Bearer`. */
export type LoginResult = { admin: PublicUser; accessToken: string };

/** The only call anyone may make. */
export const loginCall = defineCall({
  method: "POST",
  path: "/admin/login",
  public: true,
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
