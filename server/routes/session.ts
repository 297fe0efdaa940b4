import type { Api } from "../http/api.ts";
import type { Ctx } from "../http/context.ts";
import { actorOf } from "../http/api.ts";
import { body } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { requestInfo } from "../http/request-info.ts";
import { LoginBody } from "../../shared/schemas/auth.ts";
import { MSG } from "../../shared/messages.ts";
import { login, logout } from "../domain/auth/session.ts";
import { getUser } from "../domain/users/users.ts";

export function sessionRoutes(api: Api) {
  api.public("POST", "/admin/login", async (c) => {
    const input = await body(c, LoginBody);
    const info = requestInfo(c);
    const result = await login(c.get("deps"), input, info);
    return ok(c, result, MSG.loginOk);
  });

  api.post("/admin/logout", async (c) => {
    await logout(c.get("deps"), c.get("user"), actorOf(c));
    return ok(c, null, MSG.logoutOk);
  });

  const me = async (c: Ctx) => ok(c, await getUser(c.get("deps").db, c.get("user").id));
  api.get("/admin/me", me);
  api.get("/supplier/me", me);
}
