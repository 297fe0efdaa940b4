/**
 * The layering of design.md section 4, kept by CI: the domain never imports the HTTP layer, the
 * routes, the web app or the CLI; `shared/` imports neither the server nor the web app; the web
 * app never imports the server. Every relative import of every file under those trees is read.
 *
 * Inside the web app: `components/` (UI kits) and `lib/` (non-UI helpers) never import a feature or
 * the app shell; and a feature keeps its rooms to itself. A file under `web/src/features/<a>/` may
 * import from another feature `<b>` only that feature's public entry, `web/src/features/<b>/index.ts`,
 * which names what `<b>` offers the others (a status badge, a shared editor). What more than one
 * feature needs and is not any one feature's own belongs in `components/` or `lib/`. Route-level
 * pages are loaded by `web/src/app/` (screens.ts), which may import any feature's pages.
 */
import { assertEquals } from "../helpers/assert.ts";
import { importsOf, sourcesUnder } from "./source_tree.ts";

type Rule = { from: string; forbidden: string[] };
const RULES: Rule[] = [
  { from: "server/domain/", forbidden: ["server/http/", "server/routes/", "server/router/", "web/", "cli/"] },
  { from: "shared/", forbidden: ["server/", "web/", "cli/", "db/"] },
  { from: "web/src/components/", forbidden: ["server/", "cli/", "db/", "web/src/features/", "web/src/app/"] },
  { from: "web/src/lib/", forbidden: ["server/", "cli/", "db/", "web/src/features/", "web/src/app/"] },
  { from: "web/src/", forbidden: ["server/", "cli/", "db/"] },
];

const FEATURES = "web/src/features/";

/** The feature a path lies in (`projects` for web/src/features/projects/tabs/UrlsTab.tsx), if any. */
function featureOf(path: string): string | null {
  if (!path.startsWith(FEATURES)) return null;
  const rest = path.slice(FEATURES.length);
  return rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : null;
}

/** An import of another feature's internals: anything of feature `<b>` but its `index.ts`. */
function featureViolation(file: string, target: string): string | null {
  const from = featureOf(file);
  const to = featureOf(target);
  if (!from || !to || from === to) return null;
  if (target === `${FEATURES}${to}/index.ts`) return null;
  return `${file} -> ${target} (a feature imports another feature only through its index.ts)`;
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
      const crossing = featureViolation(file, target);
      if (crossing) found.push(crossing);
    }
  }
  return found;
}

Deno.test("layering: no file of the domain, shared or web imports against the direction", async () => {
  const files = new Map<string, string>();
  for (const dir of ["server/domain", "shared", "web/src"]) await sourcesUnder(dir, files);
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

Deno.test("layering: a feature reaches another only through its index.ts; kits never reach a feature", () => {
  const files = new Map<string, string>([
    // another feature's internals: a page, a helper, a file in a sub-folder
    ["web/src/features/reconcile/a.tsx", 'import { StatusBadge } from "../projects/StatusMenu.tsx";'],
    ["web/src/features/projects/tabs/b.tsx", 'import { X } from "../../library/QuestionFormPage.tsx";'],
    ["web/src/features/support/c.tsx", 'const m = await import("../projects/sub/index.ts");'],
    // the kits never import a feature or the app shell
    ["web/src/components/ui/d.tsx", 'import { x } from "../../features/projects/index.ts";'],
    ["web/src/lib/e.ts", 'import { routes } from "../app/router.tsx";'],
    // allowed: the other feature's public entry, the own feature's files, kits, the app's pages
    ["web/src/features/reconcile/ok1.tsx", 'import { StatusBadge } from "../projects/index.ts";'],
    [
      "web/src/features/projects/tabs/ok2.tsx",
      'import { pct } from "../parts.tsx";\nimport { Button } from "../../../components/ui/button.tsx";',
    ],
    ["web/src/app/ok3.ts", 'const load = () => import("../features/projects/ProjectsListPage.tsx");'],
  ]);
  assertEquals(violations(files), [
    "web/src/features/reconcile/a.tsx -> web/src/features/projects/StatusMenu.tsx (a feature imports another feature only through its index.ts)",
    "web/src/features/projects/tabs/b.tsx -> web/src/features/library/QuestionFormPage.tsx (a feature imports another feature only through its index.ts)",
    "web/src/features/support/c.tsx -> web/src/features/projects/sub/index.ts (a feature imports another feature only through its index.ts)",
    "web/src/components/ui/d.tsx -> web/src/features/projects/index.ts (web/src/components/ must not import web/src/features/)",
    "web/src/lib/e.ts -> web/src/app/router.tsx (web/src/lib/ must not import web/src/app/)",
  ]);
});
