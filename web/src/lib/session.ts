/** Sign-in and sign-out flows shared by the login page and the avatar menu. */
import { MSG } from "../../../shared/messages.ts";
import type { LoginBody } from "../../../shared/schemas/auth.ts";
import { api, ApiError } from "./api.ts";
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
 * Ends the session: revokes the token on the server, then forgets it locally and says 'Logout
 * Successfully'. When the server does not confirm (an error answer, no answer), nothing is claimed:
 * the notice says 'Can not logout now!', the session stays as it was (its cookie is still live on the
 * server, so the page must not pretend otherwise) and the answer is false. A 401 means the server
 * had already ended the session: that is a sign-out done.
 */
export async function signOut(): Promise<boolean> {
  if (hasSession()) {
    try {
      await api(logoutCall, {}, { quiet: true });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) {
        useAuth.getState().setSessionError(MSG.logoutFailed);
        notify.error(MSG.logoutFailed);
        console.warn(MSG.logoutFailed, e);
        return false;
      }
    }
  }
  clearSession();
  emitSessionEnd();
  notify.success(MSG.logoutOk);
  return true;
}
