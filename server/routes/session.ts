/** Sign-in, sign-out and who is signed in: handlers of the contracts in shared/api/session.ts. */
import { answer, type Api } from "../http/api.ts";
import { requestInfo } from "../http/request-info.ts";
import * as S from "../../shared/api/session.ts";
import { MSG } from "../../shared/messages.ts";
import { login, logout } from "../domain/auth/session.ts";
import { getUser } from "../domain/users/users.ts";

export function sessionRoutes(api: Api) {
  api.handle(
    S.loginCall,
    async ({ deps, body, c }) => answer(await login(deps, body, requestInfo(c)), MSG.loginOk),
  );
  api.handle(S.logoutCall, async ({ deps, actor, c }) => {
    await logout(deps, c.get("user"), actor());
    return answer(null, MSG.logoutOk);
  });
  api.handle(S.adminMeCall, ({ db, c }) => getUser(db, c.get("user").id));
  api.handle(S.supplierMeCall, ({ db, c }) => getUser(db, c.get("user").id));
}
