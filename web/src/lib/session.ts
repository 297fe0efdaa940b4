/** Sign-in and sign-out flows shared by the login page and the avatar menu. */
import { MSG } from "../../../shared/messages.ts";
import type { LoginBody } from "../../../shared/schemas/auth.ts";
import { api } from "./api.ts";
import { loginCall, logoutCall } from "../../../shared/api/session.ts";
import { type Admin, clearSession, hasSession, startSession, useAuth } from "./auth.ts";
import { notify } from "./notify.ts";
import { emitSessionEnd } from "./session-events.ts";

export async function signIn(input: LoginBody): Promise<Admin> {
  const res = await api(loginCall, { body: input });
  emitSessionEnd();
  // the token came as an httpOnly cookie too: the page never keeps the one in the body
  startSession(res.result.admin);
  notify.success(res.message);
  return res.result.admin;
}

/**
 * Ends the session: revokes the token on the server (best effort), forgets it locally and says
 * 'Logout Successfully'. A failed server call is recorded as 'Can not logout now!' but the browser
 * session still ends, so a user who wants out is out.
 */
export async function signOut(): Promise<void> {
  if (hasSession()) {
    try {
      await api(logoutCall, {}, { quiet: true });
    } catch (e) {
      useAuth.getState().setSessionError(MSG.logoutFailed);
      console.warn(MSG.logoutFailed, e);
    }
  }
  clearSession();
  emitSessionEnd();
  notify.success(MSG.logoutOk);
}
