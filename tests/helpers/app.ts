/** A real app over a migrated in-memory database (or any DATABASE_URL), for API tests. */
import { loadEnv } from "../../server/env.ts";
import { buildDeps, outboundFor, type ServiceOptions } from "../../server/boot.ts";
import { createApp } from "../../server/app.ts";
import { createUser } from "../../server/domain/users/users.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import type { Role } from "../../shared/roles.ts";
import type { Deps } from "../../server/deps.ts";
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
 * What a test passes to `t.api(contract, input)`: the contract's own input (path params, body, query,
 * typed by the contract), who calls (`as` a role's test user, or an explicit `token`; neither: no
 * token), and for refusals a deliberately wrong body (`bad`, sent as is, untyped) or raw text.
 */
export type ApiInput<C extends AnyContract> = Omit<CallInput<C>, "body" | "query"> & {
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
    ...env,
  });
  // names of the reserved test domains (panel.example, hooks.test) resolve to a public address here,
  // so fakes behind the outbound client see its checks run; every other name is resolved for real
  const outbound = overrides.outbound ?? outboundFor(parsed).with({ resolve: testResolve });
  const { deps, handle } = await buildDeps(parsed, { ...overrides, outbound });
  const app = createApp(deps);
  const tokens = new Map<string, string>();

  async function call(
    method: string,
    path: string,
    opts: { body?: unknown; token?: string | null; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Call> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.body !== undefined || opts.raw !== undefined) headers["content-type"] = "application/json";
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await app.request(`/api/v1${path}`, {
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
  }

  /**
   * Makes a declared call the way a client would: `t.api(R.getClientCall, { params: { id }, as: "ADMIN" })`.
   * The path comes from the contract (no test spells it), the body is typed by it.
   */
  async function api<C extends AnyContract>(
    contract: C,
    input: ApiInput<C> = {} as ApiInput<C>,
  ): Promise<ApiCall<C>> {
    const path = pathOf(contract, input.params as Record<string, string> | undefined);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...(input.query as object | undefined), ...input.search })) {
      if (v !== undefined && v !== null) query.set(k, String(v));
    }
    const qs = query.size ? `?${query}` : "";
    const token = input.token !== undefined ? input.token : input.as ? await tokenFor(input.as) : null;
    const body = "bad" in input ? input.bad : input.body ?? (contract.method === "GET" ? undefined : {});
    const r = await call(contract.method, `${path}${qs}`, {
      body: input.raw !== undefined ? undefined : body,
      raw: input.raw,
      token,
      headers: input.headers,
    });
    return Object.assign(r, { result: (r.json?.result ?? null) as ResultOf<C> });
  }

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
    const r = await call("POST", "/admin/login", { body: { email, password: TEST_PASSWORD } });
    if (r.status !== 200) throw new Error(`login as ${role} failed: ${r.text}`);
    return { id: user.id, token: r.json.result.accessToken as string, email };
  }

  async function tokenFor(role: Role): Promise<string> {
    if (!tokens.has(role)) tokens.set(role, (await userWith(role)).token);
    return tokens.get(role)!;
  }

  const close = async () => {
    await deps.services.close();
    await handle.close();
  };
  return { app, deps, call, api, userWith, tokenFor, close };
}
export type TestApp = Awaited<ReturnType<typeof testApp>>;

/** Asserts the standard guard behaviour of a call: 401 without token, 403 for a wrong role. */
export async function expectGuarded(
  t: TestApp,
  method: string,
  path: string,
  wrongRole: Role,
  body: unknown = {},
) {
  if (method === "GET" || method === "HEAD") body = undefined; // a GET carries no body
  const none = await t.call(method, path, { body });
  if (none.status !== 401) {
    throw new Error(`${method} ${path} without token gave ${none.status}, expected 401`);
  }
  const wrong = await t.call(method, path, { body, token: await t.tokenFor(wrongRole) });
  if (wrong.status !== 403) {
    throw new Error(`${method} ${path} as ${wrongRole} gave ${wrong.status}, expected 403`);
  }
}

/** expectGuarded for a declared call: 401 without a token, 403 as the wrong role. */
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
