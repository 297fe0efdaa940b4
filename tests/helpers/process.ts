/**
 * The real server (`server/main.ts`) as a child process over a file database, for fault tests: it is
 * started with the environment a deployment would give it, driven over HTTP, killed with SIGKILL at
 * a chosen moment (nothing of the process's own shutdown runs) and started again on the same file.
 */
import { type ApiCall, type ApiInput, type Call, requestOf } from "./app.ts";
import type { AnyContract, ResultOf } from "../../shared/api/contract.ts";
import { freePort, supervise } from "./child.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
/** The session key of tests/helpers/app.ts: tokens made in-process are good for the child too. */
export const TEST_JWT_SECRET = "test-secret-test-secret-test-secret-42";

/** What the child needs from the test's environment (Deno's caches); nothing that configures the app. */
const PASS_THROUGH = ["PATH", "HOME", "TMPDIR", "DENO_DIR", "XDG_CACHE_HOME", "DENO_CERT", "LANG"];
const passThrough = () =>
  Object.fromEntries(
    PASS_THROUGH.map((k) => [k, Deno.env.get(k)]).filter((e): e is [string, string] => e[1] !== undefined),
  );

export type ServerProcess = {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  pid: number;
  /** Everything the process printed so far (JSON log lines, errors). */
  output(): string;
  /** A `/api/v1` call, answered as tests/helpers/app.ts answers it. */
  call(
    method: string,
    path: string,
    opts?: { body?: unknown; token?: string | null; raw?: string; signal?: AbortSignal },
  ): Promise<Call>;
  /** A declared call, as `t.api` makes it (a `token`, not `as`: the child has no test users of its own). */
  api<C extends AnyContract>(
    contract: C,
    input?: Omit<ApiInput<C>, "as"> & { signal?: AbortSignal },
  ): Promise<ApiCall<C>>;
  /** A plain request to any path of the server (no redirect followed). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** SIGKILL: the process ends at once, in the middle of whatever it does. */
  kill(): Promise<void>;
  /** SIGTERM: the server's own graceful shutdown. */
  stop(): Promise<void>;
  exited(): boolean;
  [Symbol.asyncDispose](): Promise<void>;
};

/**
 * Starts `deno run -A server/main.ts` on a free loopback port over `file:<dbPath>` (migrated at
 * start, as always) and waits until /healthz answers. `env` adds to or replaces the defaults
 * (SEED=none, LOG_LEVEL=info, DENO_ENV=test, the tests' JWT_SECRET).
 */
export async function startServer(
  dbPath: string,
  env: Record<string, string> = {},
  opts: { timeoutMs?: number } = {},
): Promise<ServerProcess> {
  let lastError = "";
  // a port found free can be taken before the server binds it: try a few
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = freePort();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "server/main.ts"],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: {
        ...passThrough(),
        NO_COLOR: "1",
        DATABASE_URL: `file:${dbPath}`,
        PORT: String(port),
        HOST: "127.0.0.1",
        SEED: "none",
        LOG_LEVEL: "info",
        DENO_ENV: "test",
        JWT_SECRET: TEST_JWT_SECRET,
        // the router's exact-stop rule the tests before holds were written to; holds tests pass "on"
        ROUTER_HOLDS: "off",
        ...env,
      },
    }).spawn();
    const url = `http://127.0.0.1:${port}`;
    const proc = await supervise(child, {
      healthUrl: `${url}/healthz`,
      timeoutMs: opts.timeoutMs ?? 30_000,
      keep: 200_000,
    });
    const out = () => proc.output();
    const end = (signal: "SIGKILL" | "SIGTERM") => proc.end(signal);
    if (!proc.ready) {
      await end("SIGKILL");
      lastError = out().slice(-3000);
      if (/AddrInUse|address already in use/i.test(out())) continue;
      throw new Error(`server did not start:\n${lastError}`);
    }
    const fetchPath = (path: string, init: RequestInit = {}) =>
      fetch(`${url}${path}`, { redirect: "manual", ...init });
    const call: ServerProcess["call"] = async (method, path, o = {}) => {
      const headers: Record<string, string> = {};
      if (o.body !== undefined || o.raw !== undefined) headers["content-type"] = "application/json";
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      const res = await fetchPath(`/api/v1${path}`, {
        method,
        headers,
        body: o.raw ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined),
        signal: o.signal,
      });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch { /* not JSON */ }
      return { status: res.status, json, text, headers: res.headers };
    };
    return {
      url,
      pid: child.pid,
      output: out,
      fetch: fetchPath,
      call,
      async api<C extends AnyContract>(
        contract: C,
        input = {} as Omit<ApiInput<C>, "as"> & { signal?: AbortSignal },
      ) {
        const { method, path, body, raw } = requestOf(contract, input as ApiInput<C>);
        const r = await call(method, path, { body, raw, token: input.token, signal: input.signal });
        return Object.assign(r, { result: (r.json?.result ?? null) as ResultOf<C> });
      },
      kill: () => end("SIGKILL"),
      stop: () => end("SIGTERM"),
      exited: proc.exited,
      [Symbol.asyncDispose]: () => end("SIGKILL"),
    };
  }
  throw new Error(`server did not start:\n${lastError}`);
}

/** Polls `probe` every few milliseconds until it answers a truthy value; throws after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  opts: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 5));
  }
}
