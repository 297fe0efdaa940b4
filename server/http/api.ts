/**
 * The API registrar: every call is registered from its contract (`shared/api/<area>.ts`: method,
 * path, schemas, result type, roles from the shared permission table), guarded by authentication and
 * the role check before its handler runs, its input validated with the contract's schemas, and its
 * handler typed by the contract: it gets the validated input and returns the result (or an `answer`
 * with a message); the registrar wraps it in the `{ result, message }` envelope.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { AnyContract, BodyOut, ParamsOf, QueryOut, ResultOf } from "../../shared/api/contract.ts";
import type { ListResult } from "../../shared/list.ts";
import type { Deps } from "../deps.ts";
import type { Db } from "../db/connection.ts";
import { type ListDefinition, listResponse } from "./list-route.ts";
import { ok } from "./respond.ts";
import { idParam, jsonBody } from "./validate.ts";
import { parseInput } from "./records.ts";
import { requireRecord } from "../domain/common/records.ts";
import type { Role } from "../../shared/roles.ts";
import { authenticate } from "../domain/auth/session.ts";
import type { Actor } from "../domain/audit/log.ts";
import { MSG } from "../../shared/messages.ts";
import type { AppEnv, HttpCtx } from "./context.ts";
import type { Ctx } from "../domain/ctx.ts";
import { badRequest, httpForbidden, unauthorized } from "./errors.ts";
import { requestInfo } from "./request-info.ts";
import { DEFAULT_BODY_LIMIT, limitBody } from "./validate.ts";
import { clearSessionCookies, csrfFailure, sessionCookieOf } from "./session-cookie.ts";
import { DomainError } from "../domain/errors.ts";

type Handler = (c: HttpCtx) => Response | Promise<Response>;

/** What a contract's handler gets: the validated input, and the request's context for what else it needs. */
export type CallContext<C extends AnyContract> = {
  params: ParamsOf<C>;
  body: BodyOut<C>;
  query: QueryOut<C>;
  deps: Deps;
  db: Db;
  c: HttpCtx;
  /**
   * What domain functions are called with (`fn(ctx, input)`): the deps and, behind a session, the
   * signed-in user as the audit log's actor. A public call has no actor: reading it throws.
   */
  ctx: Ctx;
  /** The signed-in user as the audit log's actor (calls behind a session only). */
  actor: () => Actor;
};

/** A result with its own success message (the envelope's `message`, shown as the notice). */
export class Answer<R> {
  constructor(readonly result: R, readonly message: string) {}
}
export const answer = <R>(result: R, message: string) => new Answer(result, message);

/** A handler returns the result, an `answer(result, message)`, or a whole Response (files). */
export type Reply<R> = R | Answer<R> | Response;
export type CallHandler<C extends AnyContract> = (
  x: CallContext<C>,
) => Reply<ResultOf<C>> | Promise<Reply<ResultOf<C>>>;

type ItemOf<C extends AnyContract> = ResultOf<C> extends ListResult<infer T> ? T : never;

/**
 * Authenticates a call: an `Authorization: Bearer` header (the CLI, integrations) when present, else
 * the web app's httpOnly session cookie, whose unsafe calls must also carry the session's CSRF token
 * (server/http/session-cookie.ts; 403 without it, before the handler runs). A session cookie the
 * server no longer accepts is cleared with the 401.
 */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("authorization");
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) throw unauthorized(MSG.unauthorized);
    c.set("user", await authenticate(c.get("deps"), m[1]));
    return await next();
  }
  const token = sessionCookieOf(c);
  if (!token) throw unauthorized(MSG.unauthorized);
  try {
    c.set("user", await authenticate(c.get("deps"), token));
  } catch (e) {
    if (!(e instanceof DomainError) || e.kind !== "unauthenticated") throw e;
    clearSessionCookies(c);
    return c.json({ message: e.message }, 401);
  }
  const refused = csrfFailure(c, token);
  if (refused) return c.json({ message: refused }, 403);
  await next();
};

export function requireRoles(roles: readonly Role[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!roles.includes(c.get("user").role)) throw httpForbidden(MSG.forbidden);
    await next();
  };
}

export class Api {
  readonly app = new Hono<AppEnv>();
  readonly registered: string[] = [];

  /** Registers a contract's handler: session and role check, validated input, typed result. */
  handle<C extends AnyContract>(contract: C, handler: CallHandler<C>) {
    const run: Handler = async (c) => {
      const x = await inputOf(contract, c);
      const out = await handler(x);
      if (out instanceof Response) return out;
      if (out instanceof Answer) return ok(c, out.result, out.message);
      return ok(c, out);
    };
    this.#register(contract, run);
  }

  /**
   * Registers a list call: the same body answers a JSON page or, with `?format=csv`, the streamed CSV
   * of every matching row. The definition's rows must be the contract's row type.
   */
  list<C extends AnyContract>(
    contract: C,
    define: (x: CallContext<C>) => ListDefinition<ItemOf<C>> | Promise<ListDefinition<ItemOf<C>>>,
  ) {
    this.#register(contract, async (c) => {
      const x = await inputOf(contract, c);
      return listResponse(c, x.body as never, await define(x));
    });
  }

  #register(contract: AnyContract, run: Handler) {
    // the body limit comes first: a giant body is refused before the session is even looked at
    const limit = limitBody(contract.bodyLimit ?? DEFAULT_BODY_LIMIT);
    if (contract.public) {
      this.app.on(contract.method, contract.path, limit, run);
    } else {
      this.app.on(contract.method, contract.path, limit, requireSession, requireRoles(contract.roles), run);
    }
    this.registered.push(contract.key);
  }
}

/**
 * Validates a call's path ids, query and body against its contract. A path id of the right shape
 * that is in no row is that record not found (404); the ids a body or query schema declares are
 * checked against their tables too (server/http/records.ts), with no handler's help.
 */
async function inputOf<C extends AnyContract>(contract: C, c: HttpCtx): Promise<CallContext<C>> {
  const deps = c.get("deps");
  const params: Record<string, string> = { ...c.req.param() };
  for (const [name, what] of Object.entries(contract.ids ?? {})) {
    if (!what) continue;
    params[name] = idParam(c, what as string, name);
    await requireRecord(deps.db, what as string, params[name]);
  }
  const query = contract.query ? await parseInput(deps.db, contract.query, c.req.query()) : undefined;
  const body = contract.body
    ? await parseInput(deps.db, contract.body, await jsonBody(c), contract.fileFields)
    : undefined;
  checkOutboundUrls(contract, body, deps);
  return {
    params: params as ParamsOf<C>,
    body: body as BodyOut<C>,
    query: query as QueryOut<C>,
    deps,
    db: deps.db,
    c,
    ctx: domainCtx(deps, c, !!contract.public),
    actor: () => actorOf(c),
  };
}

/**
 * The call's domain context: one object over the deps. The actor is worked out when first read
 * (reads never need it); a public call's has none, and reading it is a fault of the handler.
 */
function domainCtx(deps: Deps, c: HttpCtx, isPublic: boolean): Ctx {
  let actor: Actor | undefined;
  return Object.defineProperty({ ...deps }, "actor", {
    enumerable: !isPublic,
    get: isPublic
      ? () => {
        throw new Error("A public call has no signed-in actor");
      }
      : () => (actor ??= actorOf(c)),
  }) as Ctx;
}

/**
 * The contract's outbound URL fields against the outbound policy, synchronously (no look-up: a name
 * that resolves to an internal address is refused when it is called).
 */
function checkOutboundUrls(contract: AnyContract, body: unknown, deps: Deps) {
  for (const field of contract.outboundUrls ?? []) {
    const url = (body as Record<string, unknown> | undefined)?.[field];
    if (typeof url !== "string" || url === "") continue;
    const why = deps.services.outbound.refusal(url);
    if (why) {
      const message = `The server will not call this URL: ${why}`;
      throw badRequest(message, [{ path: field, message }]);
    }
  }
}

/** The signed-in user as the audit log's actor, with where the request came from. */
export function actorOf(c: HttpCtx): Actor {
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
