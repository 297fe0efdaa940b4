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
