/**
 * Sign-in, sign-out and who is signed in: handlers of the contracts in shared/api/session.ts. Sign-in
 * answers the token (the spec's contract, for the CLI and integrations) and also sets it as the web
 * app's httpOnly session cookie with its CSRF cookie; sign-out clears both (server/http/session-cookie.ts).
 */
import { answer, type Api } from "../http/api.ts";
import { requestInfo } from "../http/request-info.ts";
import { clearSessionCookies, setSessionCookies } from "../http/session-cookie.ts";
import * as S from "../../shared/api/session.ts";
import { MSG } from "../../shared/messages.ts";
import { login, logout } from "../domain/auth/session.ts";
import { getUser } from "../domain/users/users.ts";

export function sessionRoutes(api: Api) {
  api.handle(S.loginCall, async ({ deps, body, c }) => {
    const result = await login(deps, body, requestInfo(c));
    setSessionCookies(c, result.accessToken);
    return answer(result, MSG.loginOk);
  });
  api.handle(S.logoutCall, async ({ deps, actor, c }) => {
    await logout(deps, c.get("user"), actor());
    clearSessionCookies(c);
    return answer(null, MSG.logoutOk);
  });
  api.handle(S.adminMeCall, ({ db, c }) => getUser(db, c.get("user").id));
  api.handle(S.supplierMeCall, ({ db, c }) => getUser(db, c.get("user").id));
}
