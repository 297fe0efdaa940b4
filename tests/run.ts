/**
 * `deno task test`: every test (unit, API, CLI, e2e). Builds the SPA first when the browser tests
 * need it, runs Deno's test runner and ends with the plain line `N passed, N failed`.
 */
import { ensureWebBuild } from "../server/web-build.ts";

const root = new URL("..", import.meta.url).pathname;
const extra = Deno.args;

await ensureWebBuild();

const cmd = new Deno.Command(Deno.execPath(), {
  args: ["test", "-A", "--parallel", ...(extra.length ? extra : ["tests/"])],
  cwd: root,
  stdout: "piped",
  stderr: "inherit",
  env: { NO_COLOR: "1", DENO_JOBS: "2" },
});
const child = cmd.spawn();
let tail = "";
const dec = new TextDecoder();
for await (const chunk of child.stdout) {
  await Deno.stdout.write(chunk);
  tail = (tail + dec.decode(chunk)).slice(-4000);
}
const { code } = await child.status;
const m = /(\d+) passed[^|\n]*\|\s*(\d+) failed/.exec(tail);
const passed = m ? Number(m[1]) : 0;
const failed = m ? Number(m[2]) : (code === 0 ? 0 : 1);
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(code === 0 && failed === 0 && passed > 0 ? 0 : 1);
