/**
 * Support > System Logs' module filter names every module that writes the system log: each
 * `module:` a writeLog call passes (a literal or a module's MODULE constant) is read from the server's
 * source and must be one of the filter's options.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { systemLogsGrid } from "../../web/src/features/support/support.ts";

const root = new URL("../../server/", import.meta.url);

async function* sources(dir: URL): AsyncGenerator<{ path: string; text: string }> {
  for await (const e of Deno.readDir(dir)) {
    const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) yield* sources(url);
    else if (e.name.endsWith(".ts")) yield { path: url.pathname, text: await Deno.readTextFile(url) };
  }
}

/** The modules the server writes: `module: "X"` in a log entry and `MODULE = "X"` constants. */
async function writtenModules() {
  const found = new Map<string, string>();
  for await (const { path, text } of sources(root)) {
    if (!/writeLog|runUpdate|MODULE/.test(text)) continue;
    for (const m of text.matchAll(/\bmodule: "([^"]+)"/g)) found.set(m[1], path);
    for (const m of text.matchAll(/\b[A-Z_]*MODULE\s*=\s*"([^"]+)"/g)) found.set(m[1], path);
  }
  return found;
}

const filterOptions = () => {
  const f = systemLogsGrid.filters!.find((f) => f.kind === "select" && f.key === "module");
  if (f?.kind !== "select") throw new Error("no module filter");
  return f.options!.map((o) => o.value);
};

Deno.test("System Logs: the module filter names every module the server writes, Accounts and Reconcile included", async () => {
  const written = await writtenModules();
  // the scan sees the modules (a scan that finds nothing proves nothing)
  for (const m of ["Projects", "Accounts", "Reconcile", "Session", "E-mail", "Api Projects"]) {
    assert(written.has(m), `${m} is written somewhere`);
  }
  const options = filterOptions();
  const missing = [...written].filter(([m]) => !options.includes(m)).map(([m, p]) => `${m} (${p})`);
  assertEquals(missing, [], "modules written but not in the filter");
  assertEquals(new Set(options).size, options.length, "no module listed twice");
});
