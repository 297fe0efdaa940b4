import type { Context } from "hono";
import type { Role } from "../../shared/roles.ts";
import type { Deps } from "../deps.ts";

export type SessionUser = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  supplierId: string | null;
  jti: string;
  tokenExp: number;
};

export type AppEnv = {
  Variables: {
    deps: Deps;
    requestId: string;
    user: SessionUser;
  };
};
/** A request's Hono context (not the domain's `Ctx` of server/domain/ctx.ts). */
export type HttpCtx = Context<AppEnv>;
