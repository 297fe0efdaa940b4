/**
 * No mutable module state in server/domain/ (issue #22): what lives as long as the app lives is in
 * its services (deps.services, server/services.ts), so two apps in one process share nothing, and a
 * module is the same whichever app imports it. Every file under server/domain is read and each
 * top-level declaration (deno fmt puts those at column 0) is held to two rules:
 *
 * 1. No top-level `let` or `var`: a binding that can be reassigned is state.
 * 2. No top-level `const` made with `new` (a Map, a Set, a class instance, which may hold state) or
 *    an empty `[]` / `{}` (only there to be filled), unless it is typed `ReadonlySet`, `ReadonlyMap`
 *    or `ReadonlyArray` / `readonly T[]`: then the compiler refuses every mutation, so a lookup table
 *    of constants (the redirect statuses, the hosting AS numbers) stays allowed without a list of
 *    names to keep.
 *
 * Read-once data of the packaged files (lookup lists, the IP tables, fonts) and bounded caches of
 * pure functions (parsed user agents, compiled patterns) go through server/lib/memo.ts (`once`,
 * `loadOnce`, `boundedCache`): a call, not a declaration this test sees, whose state is a pure
 * function of what the process ships with. Process-wide metrics live in server/lib/metrics.ts.
 * A rule's exception would be a commented entry in ALLOWED below; there is none.
 */
import { assertEquals } from "../helpers/assert.ts";
import { sourcesUnder, uncommented } from "./source_tree.ts";

/** `file: name` of a declaration the rules tolerate, each with why. None today. */
const ALLOWED: string[] = [];

const TOP_LET = /^(?:export\s+)?(let|var)\s+([\w$]+)/gm;
/** A top-level const, its type annotation (arrow types allowed in it), and what it is made with. */
const TOP_CONST =
  /^(?:export\s+)?const\s+([\w$]+)\s*(?::\s*((?:[^=]|=>)+?))?\s*=\s*(new\s+[\w$.]+|\[\s*\]|\{\s*\})/gm;
const READONLY_TYPE = /^(?:Readonly(?:Set|Map|Array)\b|readonly\s)/;

/** Every declaration that breaks a rule: `file: name (why)`. */
export function moduleState(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of files) {
    const text = uncommented(source);
    for (const m of text.matchAll(TOP_LET)) found.push(`${file}: ${m[2]} (top-level ${m[1]})`);
    for (const m of text.matchAll(TOP_CONST)) {
      const [, name, type, made] = m;
      if (type && READONLY_TYPE.test(type.trim())) continue;
      found.push(`${file}: ${name} (top-level const = ${made.replace(/\s+/g, " ")})`);
    }
  }
  return found.filter((f) => !ALLOWED.some((a) => f.startsWith(`${a} `)));
}

Deno.test("module state: no file of server/domain keeps mutable state at the top level", async () => {
  const files = await sourcesUnder("server/domain");
  if (files.size < 50) throw new Error(`only ${files.size} files read under server/domain`);
  assertEquals(moduleState(files), []);
});

Deno.test("module state: each kind of top-level state is caught; constants, readonly tables and memo helpers are not", () => {
  const files = new Map([
    ["server/domain/a.ts", "let cache: string[] | null = null;\nexport let n = 0;\nvar old = 1;"],
    [
      "server/domain/b.ts",
      [
        "const listeners = new Set<(id: string) => void>();",
        "export const routers = new WeakMap<object, number>();",
        "const hub = new Hub(deps);",
        "const queue: string[] = [];",
        "const byId: Record<string, number> = {};",
        "const fn: (x: number) => void = new Proxy(() => {}, {});",
      ].join("\n"),
    ],
    [
      "server/domain/ok.ts",
      [
        "/** let nothing = 1; */",
        "// let commented = 2;",
        "const REDIRECTS: ReadonlySet<number> = new Set([301, 302]);",
        "const NAMES: ReadonlyMap<string, number> = new Map([['a', 1]]);",
        "const LIST: readonly string[] = [];",
        "export const MAX = 10;",
        "const table = once(() => load());",
        "const cache = boundedCache<string, RegExp>(100);",
        "const RE = /x/;",
        "export class Hub {\n  #subs = new Set<string>();\n  let = 1;\n}",
        "function f() {\n  let i = 0;\n  const m = new Map();\n  return [i, m];\n}",
      ].join("\n"),
    ],
  ]);
  assertEquals(moduleState(files), [
    "server/domain/a.ts: cache (top-level let)",
    "server/domain/a.ts: n (top-level let)",
    "server/domain/a.ts: old (top-level var)",
    "server/domain/b.ts: listeners (top-level const = new Set)",
    "server/domain/b.ts: routers (top-level const = new WeakMap)",
    "server/domain/b.ts: hub (top-level const = new Hub)",
    "server/domain/b.ts: queue (top-level const = [])",
    "server/domain/b.ts: byId (top-level const = {})",
    "server/domain/b.ts: fn (top-level const = new Proxy)",
  ]);
});
