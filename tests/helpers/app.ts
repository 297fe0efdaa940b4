/** A real app over a migrated in-memory database (or any DATABASE_URL), for API tests. */
import { loadEnv } from "../../server/env.ts";
import { buildDeps } from "../../server/boot.ts";
import { createApp } from "../../server/app.ts";
import { createUser } from "../../server/domain/users/users.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import type { Role } from "../../shared/roles.ts";
import type { Deps } from "../../server/deps.ts";
import { closeRouter } from "../../server/domain/router/router.ts";

export const TEST_PASSWORD = "Passw0rd!";

/** A public address (TEST-NET-3) for the reserved test domains; other names through the system resolver. */
export async function testResolve(host: string): Promise<string[]> {
  if (/\.(example|test|invalid)$/i.test(host)) return ["203.0.113.10"];
  const { lookup } = await import("node:dns/promises");
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

// deno-lint-ignore no-explicit-any
export type Call = { status: number; json: any; text: string; headers: Headers };

export async function testApp(env: Record<string, string> = {}, overrides: Partial<Deps> = {}) {
  const parsed = loadEnv({
    DATABASE_URL: ":memory:",
    SEED: "none",
    LOG_LEVEL: "silent",
    JWT_SECRET: "test-secret-test-secret-test-secret-42",
    DENO_ENV: "test",
    ...env,
  });
  const { deps, handle } = await buildDeps(parsed, overrides);
  // names of the reserved test domains (panel.example, hooks.test) resolve to a public address here,
  // so fakes behind the outbound client see its checks run; every other name is resolved for real
  if (!overrides.outbound) deps.outbound = deps.outbound.with({ resolve: testResolve });
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

  /** A user of that role (created once) and a fresh token. */
  async function userWith(role: Role, extra: { email?: string; supplierId?: string | null } = {}) {
    const email = extra.email ?? `${role.toLowerCase()}@test.local`;
    let user = await deps.db.selectFrom("users").select("id").where("email", "=", email).where(
      "isDeleted",
      "=",
      0,
    ).executeTakeFirst();
    if (!user) {
      const created = await createUser(deps.db, SYSTEM_ACTOR, {
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
    await closeRouter(deps);
    await handle.close();
  };
  return { app, deps, call, userWith, tokenFor, close };
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
