/**
 * A bench server in its own process (_router_server.ts): `bare` (a bare Hono 302) or `app` (the
 * whole app over the database given), so the load generator does not share its core. `stop()` ends
 * it gracefully and answers its writer's stats; `kill()` is a kill -9.
 */
import { processCpuMs, threadCpuMs } from "../helpers/child.ts";

const PROFILE = Deno.env.get("ROUTER_BENCH_PROFILE") ?? "";

export async function startServer(
  mode: "bare" | "app" | "panel",
  dbPath = "",
  replicaPath = "",
  root = "",
  /** Variables for the server's process (ROUTER_HOLDS: _router_server.ts passes it on). */
  env: Record<string, string> = {},
) {
  const script = root
    ? `${root}/tests/bench/_router_server.ts`
    : new URL("./_router_server.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    // ROUTER_BENCH_PROFILE=<dir>: the app writes a CPU profile per thread there when it stops
    args: [
      "run",
      "-A",
      ...(PROFILE && mode === "app" ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE}`] : []),
      script,
      mode,
      dbPath,
      ...(replicaPath ? [replicaPath] : []),
    ],
    cwd: root || undefined,
    env,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let port = 0;
  while (!port) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`server (${mode}) did not start`);
    text += value;
    const m = /listening (\d+)/.exec(text);
    if (m) port = Number(m[1]);
  }
  return {
    port,
    /**
     * The CPU time the server process has used so far, ms (Linux /proc; 0 elsewhere): what an answer
     * costs the server itself, apart from the load generator sharing its cores.
     */
    cpuMs: () => processCpuMs(child.pid),
    /** The same by kind of thread (tests/helpers/child.ts, threadCpuMs). */
    threadsMs: () => threadCpuMs(child.pid),
    /** kill -9: the server dies mid-write, as in a crash. */
    async kill(): Promise<void> {
      child.kill("SIGKILL");
      await child.status;
      await lines.cancel().catch(() => {});
    },
    async stop(): Promise<Record<string, unknown>> {
      child.kill("SIGTERM");
      // a server that cannot finish its writes in 30 s is stopped all the same (its stats are lost)
      const killer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 30_000);
      let rest = text;
      for (;;) {
        const { value, done } = await lines.read();
        if (done) break;
        rest += value;
      }
      await child.status;
      clearTimeout(killer);
      const m = /stats (\{.*\})/.exec(rest);
      return m ? JSON.parse(m[1]) : {};
    },
  };
}
