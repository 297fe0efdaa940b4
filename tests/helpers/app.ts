/** A real app over a migrated in-memory database (or any DATABASE_URL), for API tests. */
import { loadEnv } from "../../server/env.ts";
import { buildDeps, outboundFor, type ServiceOptions } from "../../server/boot.ts";
import { createApp } from "../../server/app.ts";
import { createUser } from "../../server/domain/users/users.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import type { Role } from "../../shared/roles.ts";
import type { Deps } from "../../server/deps.ts";
import { loginCall } from "../../shared/api/session.ts";
import {
  type AnyContract,
  type BodyIn,
  type CallInput,
  pathOf,
  type QueryIn,
  type ResultOf,
} from "../../shared/api/contract.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

export const TEST_PASSWORD = "Passw0rd!";

/** A public address (TEST-NET-3) for the reserved test domains; other names through the system resolver. */
export async function testResolve(host: string): Promise<string[]> {
  if (/\.(example|test|invalid)$/i.test(host)) return ["203.0.113.10"];
  const { lookup } = await import("node:dns/promises");
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

// deno-lint-ignore no-explicit-any
export type Call = { status: number; json: any; text: string; headers: Headers };

/** A contract call's answer: the raw call, and its envelope's result typed by the contract (null on an error). */
export type ApiCall<C extends AnyContract> = Call & { result: ResultOf<C> };

/**
 * The path ids of a call: typed by its path; a sweep over calls of any path (`[AnyContract, input][]`)
 * passes whichever its call has.
 */
type ParamsIn<C extends AnyContract> = string extends C["path"] ? { params?: Record<string, string> }
  : Pick<CallInput<C>, "params">;

/**
 * What a test passes to `t.api(contract, input)`: the contract's own input (path params, body, query,
 * typed by the contract), who calls (`as` a role's test user, or an explicit `token`; neither: no
 * token), and for refusals a deliberately wrong body (`bad`, sent as is, untyped) or raw text.
 */
export type ApiInput<C extends AnyContract> =
  & Omit<CallInput<C>, "body" | "query" | "params">
  & ParamsIn<C>
  & {
    body?: BodyIn<C>;
    query?: QueryIn<C>;
    as?: Role;
    token?: string | null;
    bad?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    /** Extra query string (`{ format: "csv" }`), next to the contract's typed query. */
    search?: Record<string, string>;
  };

/** The request a declared call makes: its method, its path (ids filled in, query appended) and body. */
export function requestOf<C extends AnyContract>(contract: C, input: ApiInput<C>) {
  const path = pathOf(contract, input.params as Record<string, string> | undefined);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...(input.query as object | undefined), ...input.search })) {
    if (v !== undefined && v !== null) query.set(k, String(v));
  }
  const body = "bad" in input ? input.bad : input.body ?? (contract.method === "GET" ? undefined : {});
  return {
    method: contract.method,
    path: `${path}${query.size ? `?${query}` : ""}`,
    body: input.raw !== undefined ? undefined : body,
    raw: input.raw,
    headers: input.headers,
  };
}

type CallOpts = { body?: unknown; token?: string | null; raw?: string; headers?: Record<string, string> };
type RawCall = (method: string, path: string, opts?: CallOpts) => Promise<Call>;

/** `/api/v1` calls over a fetch-like function (the app in-process, or a running server over HTTP). */
export function callOver(send: (path: string, init: RequestInit) => Response | Promise<Response>): RawCall {
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.body !== undefined || opts.raw !== undefined) headers["content-type"] = "application/json";
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await send(`/api/v1${path}`, {
      method,
      headers,
      body: opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
    });
    // a server-sent event stream stays open for minutes: its status and headers are the answer here
    const streaming = res.headers.get("content-type")?.startsWith("text/event-stream");
    if (streaming) await res.body?.cancel();
    const text = streaming ? "" : await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch { /* CSV or empty */ }
    return { status: res.status, json, text, headers: res.headers };
  };
}

/** `api` and `ok` over a raw call and a role's token. */
export function contractCalls(call: RawCall, tokenFor: (role: Role) => Promise<string>) {
  /**
   * Makes a declared call the way a client would: `t.api(R.getClientCall, { params: { id }, as: "ADMIN" })`.
   * The path comes from the contract (no test spells it), the body is typed by it.
   */
  async function api<C extends AnyContract>(
    contract: C,
    input: ApiInput<C> = {} as ApiInput<C>,
  ): Promise<ApiCall<C>> {
    const token = input.token !== undefined ? input.token : input.as ? await tokenFor(input.as) : null;
    const { method, path, ...rest } = requestOf(contract, input);
    const r = await call(method, path, { ...rest, token });
    return Object.assign(r, { result: (r.json?.result ?? null) as ResultOf<C> });
  }

  /**
   * A declared call that must succeed: its typed result, or an error naming the call and its answer
   * (for setting a test up: `await t.ok(P.addProject, { as: "SUPERADMIN", body })`).
   */
  async function ok<C extends AnyContract>(contract: C, input: ApiInput<C> = {} as ApiInput<C>) {
    const r = await api(contract, input);
    if (r.status !== 200) throw new Error(`${contract.key} gave ${r.status}: ${r.text}`);
    return r.result;
  }
  return { api, ok };
}

/**
 * The API tests' helpers over HTTP to a running server (the browser tests' server): the same
 * `call`, `api` and `ok`, with tokens from the server's own users. Only what a fixture needs.
 */
export function httpTestApp(
  url: string,
  deps: Deps,
  userWith: (role: Role) => Promise<{ id: string; token: string; email: string }>,
): TestApp {
  const tokens = new Map<string, Promise<string>>();
  const tokenFor = (role: Role) => {
    if (!tokens.has(role)) tokens.set(role, userWith(role).then((u) => u.token));
    return tokens.get(role)!;
  };
  const call = callOver((path, init) => fetch(`${url}${path}`, { ...init, redirect: "manual" }));
  return {
    deps,
    call,
    ...contractCalls(call, tokenFor),
    userWith,
    tokenFor,
    app: {
      request: (path: string, init?: RequestInit) => fetch(`${url}${path}`, { redirect: "manual", ...init }),
    },
  } as unknown as TestApp;
}

/**
 * A test app with its own database and its own services (deps.services): two test apps in one
 * process share nothing. `overrides` replaces deps (the clock) or a service's input (router options,
 * mailer, providers, outbound client).
 */
export async function testApp(
  env: Record<string, string> = {},
  overrides: Partial<Omit<Deps, "services">> & ServiceOptions = {},
) {
  const parsed = loadEnv({
    DATABASE_URL: ":memory:",
    SEED: "none",
    LOG_LEVEL: "silent",
    JWT_SECRET: "test-secret-test-secret-test-secret-42",
    DENO_ENV: "test",
    // the router's exact-stop rule the tests before holds were written to; holds tests pass "on"
    ROUTER_HOLDS: "off",
    ...env,
  });
  // names of the reserved test domains (panel.example, hooks.test) resolve to a public address here,
  // so fakes behind the outbound client see its checks run; every other name is resolved for real
  const outbound = overrides.outbound ?? outboundFor(parsed).with({ resolve: testResolve });
  const { deps, handle } = await buildDeps(parsed, { ...overrides, outbound });
  const app = createApp(deps);
  const tokens = new Map<string, string>();

  const call = callOver((path, init) => app.request(path, init));
  const { api, ok } = contractCalls(call, (role) => tokenFor(role));

  /** A user of that role (created once) and a fresh token. */
  async function userWith(role: Role, extra: { email?: string; supplierId?: string | null } = {}) {
    const email = extra.email ?? `${role.toLowerCase()}@test.local`;
    let user = await deps.db.selectFrom("users").select("id").where("email", "=", email).where(
      "isDeleted",
      "=",
      0,
    ).executeTakeFirst();
    if (!user) {
      const created = await createUser({ db: deps.db, actor: SYSTEM_ACTOR, now: wallClock }, {
        firstName: `Test${role}`,
        lastName: "User",
        email,
        phoneNumber: "",
        role,
        supplierId: extra.supplierId ?? (role === "SUPPLIER" ? "000000000000000000000000" : null),
        password: TEST_PASSWORD,
        isActive: true,
      });
      user = { id: created._id };
    }
    const r = await api(loginCall, { body: { email, password: TEST_PASSWORD } });
    if (r.status !== 200) throw new Error(`login as ${role} failed: ${r.text}`);
    return { id: user.id, token: r.result.accessToken, email };
  }

  async function tokenFor(role: Role): Promise<string> {
    if (!tokens.has(role)) tokens.set(role, (await userWith(role)).token);
    return tokens.get(role)!;
  }

  const close = async () => {
    await deps.services.close();
    await handle.close();
  };
  return { app, deps, call, api, ok, userWith, tokenFor, close };
}
export type TestApp = Awaited<ReturnType<typeof testApp>>;

/** The standard guard behaviour of a declared call: 401 without a token, 403 as the wrong role. */
export async function expectCallGuarded<C extends AnyContract>(
  t: TestApp,
  contract: C,
  wrongRole: Role,
  input: ApiInput<C> = {} as ApiInput<C>,
) {
  const none = await t.api(contract, { ...input, as: undefined, token: null });
  if (none.status !== 401) throw new Error(`${contract.key} without token gave ${none.status}, expected 401`);
  const wrong = await t.api(contract, { ...input, as: wrongRole, token: undefined });
  if (wrong.status !== 403) {
    throw new Error(`${contract.key} as ${wrongRole} gave ${wrong.status}, expected 403`);
  }
}
