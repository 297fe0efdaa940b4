/**
 * No import loop anywhere (issue #22): the static import graph of server/, shared/, cli/, db/ and
 * web/src/ has no cycle. Every relative `import`, `export ... from` and `import("...")` counts,
 * `import type` INCLUDED: a type-only loop (deps.ts <-> domain/router/router.ts was one) still ties
 * two modules together, so neither can be read, moved or tested without the other. A cycle is
 * printed file by file so whoever broke it sees where.
 *
 * ALLOWED_CYCLES names a loop the test tolerates (each with the reason); it is empty, and an entry
 * that no longer matches a real cycle fails the test, so the list cannot go stale.
 */
import { assertEquals } from "../helpers/assert.ts";
import { importsOf, sourcesUnder } from "./source_tree.ts";

const TREES = ["server", "shared", "cli", "db", "web/src"];

/** Loops tolerated for now: the files of one cycle, sorted, joined by " | ". */
const ALLOWED_CYCLES: string[] = [];

/** A loop a -> b -> ... -> a, with every file of its strongly connected component (sorted). */
type Cycle = string[] & { files: string[] };

/**
 * Every cycle of the graph, one per strongly connected component (Tarjan), each as the path
 * a -> b -> ... -> a through the component, starting at its first file in sort order.
 */
export function cyclesOf(graph: Map<string, string[]>): Cycle[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const sccs: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) sccs.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return sccs.map((scc) => Object.assign(pathThrough(graph, scc), { files: scc }));
}

/** A shortest loop from the component's first file back to it (breadth first, inside the component). */
function pathThrough(graph: Map<string, string[]>, scc: string[]): string[] {
  const inside = new Set(scc);
  const start = scc[0];
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(from.get(path[0])!);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...scc, start];
}

const keyOf = (cycle: Cycle) => cycle.files.join(" | ");

Deno.test("import cycles: none in server, shared, cli, db or web/src (type-only imports included)", async () => {
  const files = new Map<string, string>();
  for (const dir of TREES) await sourcesUnder(dir, files);
  for (const dir of TREES) {
    const n = [...files.keys()].filter((f) => f.startsWith(`${dir}/`)).length;
    if (n < 3) throw new Error(`only ${n} files read under ${dir}/ (a wrong root would pass vacuously)`);
  }
  const graph = new Map([...files].map(([f, s]) => [f, importsOf(f, s)]));
  const cycles = cyclesOf(graph);
  const found = cycles.map(keyOf);
  const unexpected = cycles.filter((c) => !ALLOWED_CYCLES.includes(keyOf(c))).map((c) =>
    `${c.join("\n  -> ")}\n  (one loop of ${c.files.length} files tied together: ${c.files.join(", ")})`
  );
  assertEquals(unexpected, [], `import cycles:\n${unexpected.join("\n\n")}`);
  assertEquals(ALLOWED_CYCLES.filter((a) => !found.includes(a)), [], "allowed cycles that no longer exist");
});

Deno.test("import cycles: a loop is found and printed, type-only and through re-exports too", () => {
  const files = new Map([
    ["server/deps.ts", 'import type { RouterOptions } from "./domain/router/router.ts";'],
    [
      "server/domain/router/router.ts",
      'import type {\n  Deps,\n} from "../../deps.ts";\nimport { x } from "./x.ts";',
    ],
    ["server/domain/router/x.ts", "export const x = 1;"],
    ["shared/a.ts", 'export * from "./b.ts";'],
    ["shared/b.ts", 'export { a } from "./a.ts";'],
    ["web/src/ok.tsx", '// import { no } from "./ok.tsx";\nimport { x } from "../../shared/c.ts";'],
    ["shared/c.ts", "/* import { c } from './c.ts' */ export const c = 1;"],
  ]);
  const graph = new Map([...files].map(([f, s]) => [f, importsOf(f, s)]));
  assertEquals(cyclesOf(graph).map((c) => [...c]), [
    ["server/deps.ts", "server/domain/router/router.ts", "server/deps.ts"],
    ["shared/a.ts", "shared/b.ts", "shared/a.ts"],
  ]);
});
