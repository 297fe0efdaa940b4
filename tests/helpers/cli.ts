/** The CLI as a user runs it in tests: a subprocess (`deno run cli/main.ts ...`) and its one-line failures. */
import { assert, assertEquals, assertMatch } from "./assert.ts";

const root = new URL("../..", import.meta.url).pathname;

export type CliRun = { code: number; stdout: string; stderr: string };

/** Runs the CLI with `args` and extra environment (`DATABASE_URL` of a temporary file, say). */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", ...args],
    cwd: root,
    env: { NO_COLOR: "1", DENO_ENV: "test", JWT_SECRET: "", LOG_LEVEL: "info", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout).trim(), stderr: dec.decode(out.stderr).trim() };
}

/** Asserts a failure: non-zero status, nothing on stdout, exactly one line `error: <reason>`. */
export function assertCliFails(r: CliRun, reason: string | RegExp) {
  assert(r.code !== 0, `expected a non-zero exit, got 0 with ${r.stdout}`);
  assertEquals(r.stdout, "");
  assertEquals(r.stderr.split("\n").length, 1, `one line of reason, got:\n${r.stderr}`);
  if (typeof reason === "string") assertEquals(r.stderr, `error: ${reason}`);
  else assertMatch(r.stderr, reason);
}
