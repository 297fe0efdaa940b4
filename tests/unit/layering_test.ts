/**
 * The layering of design.md section 4, kept by CI: the domain never imports the HTTP layer, the
 * routes, the web app or the CLI; `shared/` imports neither the server nor the web app; the web
 * app never imports the server. Every relative import of every file under those trees is read.
 */
import { assertEquals } from "../helpers/assert.ts";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(new URL("../..", import.meta.url).pathname);

type Rule = { from: string; forbidden: string[] };
const RULES: Rule[] = [
  { from: "server/domain/", forbidden: ["server/http/", "server/routes/", "server/router/", "web/", "cli/"] },
  { from: "shared/", forbidden: ["server/", "web/", "cli/", "db/"] },
  { from: "web/src/", forbidden: ["server/", "cli/", "db/"] },
];

const IMPORT_RE =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;

/** The relative imports of a file's source, as paths from the project root. */
export function importsOf(file: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec || !spec.startsWith(".")) continue;
    out.push(relative(root, resolve(dirname(join(root, file)), spec)));
  }
  return out;
}

/** Every import that goes the wrong way: `file -> target (rule)`. */
export function violations(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of files) {
    const rule = RULES.find((r) => file.startsWith(r.from));
    if (!rule) continue;
    for (const target of importsOf(file, source)) {
      const bad = rule.forbidden.find((f) => target.startsWith(f));
      if (bad) found.push(`${file} -> ${target} (${rule.from} must not import ${bad})`);
    }
  }
  return found;
}

async function sources(dir: string, into: Map<string, string>) {
  for await (const e of Deno.readDir(join(root, dir))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) {
      if (e.name !== "node_modules" && e.name !== "dist") await sources(path, into);
    } else if (/\.(ts|tsx)$/.test(e.name)) {
      into.set(path, await Deno.readTextFile(join(root, path)));
    }
  }
  return into;
}

Deno.test("layering: no file of the domain, shared or web imports against the direction", async () => {
  const files = new Map<string, string>();
  for (const dir of ["server/domain", "shared", "web/src"]) await sources(dir, files);
  // the walk really read the trees (a wrong root would pass vacuously)
  const counted = (prefix: string) => [...files.keys()].filter((f) => f.startsWith(prefix)).length;
  for (const prefix of ["server/domain/", "shared/", "web/src/"]) {
    if (counted(prefix) < 5) throw new Error(`only ${counted(prefix)} files read under ${prefix}`);
  }
  assertEquals(violations(files), []);
});

Deno.test("layering: a forbidden import is caught in each direction, an allowed one is not", () => {
  const files = new Map<string, string>([
    [
      "server/domain/clients/x.ts",
      'import { ok } from "../../http/respond.ts";\nimport { MSG } from "../../../shared/messages.ts";',
    ],
    ["server/domain/users/y.ts", 'export { run } from "../../../cli/main.ts";'],
    ["shared/api/z.ts", 'import type { Db } from "../../server/db/connection.ts";'],
    ["web/src/features/w.tsx", 'const m = await import("../../../server/domain/errors.ts");'],
    ["web/src/features/ok.tsx", 'import { API } from "../../../shared/permissions.ts";'],
    ["server/routes/fine.ts", 'import { ok } from "../http/respond.ts";'],
  ]);
  assertEquals(violations(files), [
    "server/domain/clients/x.ts -> server/http/respond.ts (server/domain/ must not import server/http/)",
    "server/domain/users/y.ts -> cli/main.ts (server/domain/ must not import cli/)",
    "shared/api/z.ts -> server/db/connection.ts (shared/ must not import server/)",
    "web/src/features/w.tsx -> server/domain/errors.ts (web/src/ must not import server/)",
  ]);
});
