/**
 * What the tests' child processes share (the real server in tests/helpers/process.ts, sqld in
 * tests/helpers/sqld.ts): a free loopback port, and a supervised child whose output is always read
 * (a full pipe would stall its logging), whose health URL is polled until it answers, and which is
 * ended with a signal (SIGTERM escalates to SIGKILL after a grace period).
 */

/** A loopback port free at the time of asking. */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * The CPU time process `pid` has used so far, ms (Linux /proc; 0 elsewhere, or once it is gone): what
 * a bench's servers themselves spend, apart from the load generator sharing their cores.
 */
export function processCpuMs(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 1/100 s
  } catch {
    return 0;
  }
}

/**
 * The CPU time each kind of thread of process `pid` has used so far, ms (Linux /proc; {} elsewhere):
 * `main` (the JS thread that serves requests), `workers` (its Web Workers), `v8` (V8's helpers: the
 * garbage collector's and compiler's), `other` (the runtime's I/O threads and the rest).
 */
export function threadCpuMs(pid: number): Record<"main" | "workers" | "v8" | "other", number> {
  const out = { main: 0, workers: 0, v8: 0, other: 0 };
  try {
    for (const e of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        const stat = Deno.readTextFileSync(`/proc/${pid}/task/${e.name}/stat`);
        const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const kind = e.name === String(pid)
          ? "main"
          : /^worker-\d/.test(comm)
          ? "workers"
          : /^V8 /.test(comm)
          ? "v8"
          : "other";
        out[kind] += ((Number(f[11]) + Number(f[12])) * 1000) / 100;
      } catch { /* the thread ended */ }
    }
  } catch { /* not Linux, or gone */ }
  return out;
}

export type Supervised = {
  /** Whether the health URL answered before the child exited or the time ran out. */
  ready: boolean;
  /** The last `keep` characters the child printed (stdout and stderr). */
  output(): string;
  exited(): boolean;
  /** Sends `signal` (a SIGTERM becomes a SIGKILL after `graceMs`), then waits for exit and output. */
  end(signal: "SIGKILL" | "SIGTERM", graceMs?: number): Promise<void>;
};

/** Watches a child spawned with piped stdout and stderr until `healthUrl` answers 2xx. */
export async function supervise(
  child: Deno.ChildProcess,
  opts: { healthUrl: string; timeoutMs: number; keep: number },
): Promise<Supervised> {
  let out = "";
  const dec = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) out = (out + dec.decode(chunk)).slice(-opts.keep);
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let gone = false;
  const status = child.status.then((s) => {
    gone = true;
    return s;
  });
  const deadline = Date.now() + opts.timeoutMs;
  let ready = false;
  while (!gone && Date.now() < deadline) {
    try {
      const res = await fetch(opts.healthUrl);
      await res.body?.cancel();
      if (res.ok) {
        ready = true;
        break;
      }
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  const kill = (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch { /* already gone */ }
  };
  return {
    ready,
    output: () => out,
    exited: () => gone,
    async end(signal, graceMs = 10_000) {
      if (!gone) kill(signal);
      const timer = signal === "SIGTERM" ? setTimeout(() => kill("SIGKILL"), graceMs) : undefined;
      await status;
      clearTimeout(timer);
      await drained;
    },
  };
}
