/**
 * `deno task test`: every test (unit, API, CLI, web units, e2e). Builds the SPA when the browser
 * tests need it, type-checks the whole project once, runs Deno's test runner and ends with the plain
 * line `N passed, N failed`.
 */
import { ensureWebBuild } from "../server/web-build.ts";

const root = new URL("..", import.meta.url).pathname;
const extra = Deno.args;

async function run(args: string[], capture = false): Promise<{ code: number; out: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "piped",
    stderr: capture ? "piped" : "inherit",
    env: { NO_COLOR: "1" },
  }).spawn();
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
  return { code: (await child.status).code, out: tail };
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

const { code, out } = await run([
  "test",
  "-A",
  "--no-check",
  "--parallel",
  ...(extra.length ? extra : ["tests/"]),
]);
const m = /(\d+) passed[^|\n]*\|\s*(\d+) failed/.exec(out);
const passed = m ? Number(m[1]) : 0;
const failed = m ? Number(m[2]) : (code === 0 ? 0 : 1);
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(code === 0 && failed === 0 && passed > 0 ? 0 : 1);
