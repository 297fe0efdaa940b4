/**
 * What the source-tree guards share (import_cycles_test.ts, module_state_test.ts): the project's
 * root, every .ts/.tsx file under a folder, and a file's relative imports.
 */
import { dirname, join, relative, resolve } from "node:path";

export const ROOT = resolve(new URL("../..", import.meta.url).pathname);

/** Every .ts and .tsx file under `dir` (a path from the root), with its text; node_modules and dist skipped. */
export async function sourcesUnder(
  dir: string,
  into = new Map<string, string>(),
): Promise<Map<string, string>> {
  for await (const e of Deno.readDir(join(ROOT, dir))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) {
      if (e.name !== "node_modules" && e.name !== "dist") await sourcesUnder(path, into);
    } else if (/\.tsx?$/.test(e.name)) {
      into.set(path, await Deno.readTextFile(join(ROOT, path)));
    }
  }
  return into;
}

/** The source without comments (an import or a `let` spelled in a comment is not code). */
export const uncommented = (s: string) => s.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

const IMPORT_RE =
  /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;

/** The relative imports of a file's source (`import type` and re-exports included), as paths from the root. */
export function importsOf(file: string, source: string): string[] {
  const out = new Set<string>();
  for (const m of uncommented(source).matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec || !spec.startsWith(".")) continue;
    out.add(relative(ROOT, resolve(dirname(join(ROOT, file)), spec)));
  }
  return [...out];
}
