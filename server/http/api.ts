/**
 * The API registrar: every call is declared with its method and path, looked up in the shared
 * permission table (a call without an entry fails at start-up), and guarded by authentication and
 * the role check before its handler runs.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { API, apiRoles } from "../../shared/permissions.ts";
import type { Role } from "../../shared/roles.ts";
import { authenticate } from "../domain/auth/session.ts";
import type { Actor } from "../domain/audit/log.ts";
import { MSG } from "../../shared/messages.ts";
import type { AppEnv, Ctx } from "./context.ts";
import { forbidden, unauthorized } from "./errors.ts";
import { requestInfo } from "./request-info.ts";
import { DEFAULT_BODY_LIMIT, limitBody } from "./validate.ts";

type Handler = (c: Ctx) => Response | Promise<Response>;
type Method = "GET" | "POST" | "PUT" | "DELETE";
/** What a call declares beyond its handler: a larger body limit where an upload needs one. */
export type CallOptions = { maxBodyBytes?: number };

export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) throw unauthorized(MSG.unauthorized);
  c.set("user", await authenticate(c.get("deps"), m[1]));
  await next();
};

export function requireRoles(roles: readonly Role[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!roles.includes(c.get("user").role)) throw forbidden(MSG.forbidden);
    await next();
  };
}

export class Api {
  readonly app = new Hono<AppEnv>();
  readonly registered: string[] = [];

  /** A call anyone may make (login only). The body limit applies as to any call. */
  public(method: Method, path: string, handler: Handler, options: CallOptions = {}) {
    this.app.on(method, path, limitBody(options.maxBodyBytes ?? DEFAULT_BODY_LIMIT), handler);
    this.registered.push(`${method} ${path}`);
  }

  /** The body limit comes first: a giant body is refused before the session is even looked at. */
  #on(method: Method, path: string, handler: Handler, options: CallOptions) {
    const roles = apiRoles(`${method} ${path}`);
    this.app.on(
      method,
      path,
      limitBody(options.maxBodyBytes ?? DEFAULT_BODY_LIMIT),
      requireSession,
      requireRoles(roles),
      handler,
    );
    this.registered.push(`${method} ${path}`);
  }
  get(path: string, handler: Handler, options: CallOptions = {}) {
    this.#on("GET", path, handler, options);
  }
  post(path: string, handler: Handler, options: CallOptions = {}) {
    this.#on("POST", path, handler, options);
  }
  put(path: string, handler: Handler, options: CallOptions = {}) {
    this.#on("PUT", path, handler, options);
  }

  /**
   * Calls of the permission table whose area is not built yet: the session and role checks apply as
   * to any call (401, 403), then 404. Run after every area has registered its calls.
   */
  guardUnbuilt() {
    const built = new Set(this.registered);
    for (const [key, roles] of Object.entries(API)) {
      if (built.has(key)) continue;
      const [method, path] = key.split(" ");
      this.app.on(
        method,
        path,
        limitBody(),
        requireSession,
        requireRoles(roles),
        (c) => c.json({ message: MSG.notFound }, 404),
      );
    }
  }
}

/** The signed-in user as the audit log's actor, with where the request came from. */
export function actorOf(c: Ctx): Actor {
  const u = c.get("user");
  const info = requestInfo(c);
  return {
    userId: u.id,
    name: `${u.firstName} ${u.lastName}`.trim(),
    ipAddress: info.ipAddress,
    device: info.device,
    city: info.city,
    country: info.country,
    sessionId: u.jti,
  };
}
