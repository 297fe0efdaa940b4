/**
 * `deno task test`: every test (unit, API, CLI, web units, e2e). Builds the SPA when the browser
 * tests need it, type-checks the whole project once, runs Deno's test runner and ends with the plain
 * line `N passed, N failed`. The test run as a whole is bounded (TEST_RUN_TIMEOUT_MS, 30 minutes):
 * past it the runner is stopped and the run fails, so nothing can hold CI for good (each e2e test and
 * step has its own, much shorter bound in tests/e2e/helpers.ts).
 */
import { ensureWebBuild } from "../server/web-build.ts";

const root = new URL("..", import.meta.url).pathname;
const extra = Deno.args;
const RUN_TIMEOUT_MS = Number(Deno.env.get("TEST_RUN_TIMEOUT_MS")) || 30 * 60_000;

async function run(
  args: string[],
  capture = false,
  timeoutMs = 0,
): Promise<{ code: number; out: string; timedOut: boolean }> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "piped",
    stderr: capture ? "piped" : "inherit",
    env: { NO_COLOR: "1" },
  }).spawn();
  let timedOut = false;
  let kill: ReturnType<typeof setTimeout> | undefined;
  const timer = timeoutMs > 0
    ? setTimeout(() => {
      timedOut = true;
      console.log(
        `\ntest run timed out after ${Math.round(timeoutMs / 1000)} s (TEST_RUN_TIMEOUT_MS): stopping it`,
      );
      child.kill("SIGTERM");
      kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    }, timeoutMs)
    : undefined;
  let tail = "";
  const dec = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>, out: (b: Uint8Array) => Promise<unknown>) => {
    for await (const chunk of stream) {
      await out(chunk);
      tail = (tail + dec.decode(chunk)).slice(-8000);
    }
  };
  await Promise.all([
    pump(child.stdout, (b) => Deno.stdout.write(b)),
    capture ? pump(child.stderr, (b) => Deno.stderr.write(b)) : Promise.resolve(),
  ]);
  const { code } = await child.status;
  clearTimeout(timer);
  clearTimeout(kill);
  return { code, out: tail, timedOut };
}

await ensureWebBuild();

// One type check of everything. TypeScript's "excessively deep" (TS2589) has been seen to come and
// go when several deno processes share one type-check cache; a real type error fails twice.
const checkArgs = ["check", "server/", "shared/", "cli/", "db/", "tests/", "web/src/"];
let check = await run(checkArgs, true);
if (check.code !== 0 && /TS2589/.test(check.out) && !/TS(?!2589)\d{4}/.test(check.out)) {
  console.log("type check: retrying once after TS2589");
  check = await run(checkArgs, true);
}
if (check.code !== 0) {
  console.log("0 passed, 1 failed");
  Deno.exit(1);
}

const { code, out, timedOut } = await run(
  ["test", "-A", "--no-check", "--parallel", ...(extra.length ? extra : ["tests/"])],
  false,
  RUN_TIMEOUT_MS,
);
const m = /(\d+) passed[^|\n]*\|\s*(\d+) failed/.exec(out);
let passed = m ? Number(m[1]) : 0;
let failed = timedOut ? Math.max(1, m ? Number(m[2]) : 1) : m ? Number(m[2]) : (code === 0 ? 0 : 1);
let ok = code === 0 && !timedOut && failed === 0 && passed > 0;

// A browser test that failed in the loaded parallel run gets one more run on its own: a real defect
// fails again there; a lost race with a busy machine does not. Only browser tests (a failed step is
// located in the e2e helpers' step wrapper: its test is named before " ... "), at most
// MAX_E2E_RETRIES failing tests, and each retry is printed by name so a flaky test stays visible.
const MAX_E2E_RETRIES = 3;
const failures = out.slice(out.lastIndexOf(" FAILURES "));
const failedAt = [...failures.matchAll(/^(.+?) => \.\/(tests\/[\w/.-]+\.tsx?):\d+:\d+$/gm)];
const onlyE2e = failedAt.length > 0 && failedAt.every((f) => f[2].startsWith("tests/e2e/"));
const failedTests = [...new Set(failedAt.map((f) => f[1].split(" ... ")[0]))];
if (
  !ok && !timedOut && m && out.includes(" FAILURES ") && failed === failedTests.length &&
  failed <= MAX_E2E_RETRIES && onlyE2e
) {
  for (const name of failedTests) {
    console.log(`\nretrying a browser test that failed in the parallel run: "${name}"`);
    const exact = `/^${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$/`;
    const again = await run(
      ["test", "-A", "--no-check", "tests/e2e/", "--filter", exact],
      false,
      RUN_TIMEOUT_MS,
    );
    const r = /(\d+) passed[^|\n]*\|\s*(\d+) failed/.exec(again.out);
    if (again.code !== 0 || !r || Number(r[2]) !== 0 || Number(r[1]) !== 1) {
      console.log(`retry failed: "${name}"`);
      break;
    }
    console.log(`retry passed: "${name}" failed once under load (flaky, see above)`);
    passed += 1;
    failed -= 1;
  }
  ok = failed === 0 && passed > 0;
}
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(ok ? 0 : 1);
