/**
 * Project statuses and types, and supplier types, are compared and written by name (PROJECT_STATUS,
 * PROJECT_TYPE, SUPPLIER_TYPE and the named groups of shared/status.ts), never as bare numbers, in
 * the server (the respondent router included), the CLI and the shared schemas.
 */
import { assertEquals } from "../helpers/assert.ts";
import { join, relative, resolve } from "node:path";

const root = resolve(new URL("../..", import.meta.url).pathname);
const TREES = ["server", "cli", "shared/schemas"];
const SKIP: string[] = [];

const FIELD = String.raw`(?:projectStatus|projectType|supplierType|[sS]tatus|[tT]ype)`;
const PATTERNS: { name: string; re: RegExp }[] = [
  // p.projectStatus === 6, to !== 2, c.status === 9
  { name: "comparison", re: new RegExp(String.raw`\b${FIELD}\)?\s*(?:===|!==|==|!=|>=|<=|>|<)\s*\d\b`) },
  // .where("projectType", "=", 1) / "in", [4, 5]
  {
    name: "query",
    re:
      /["'](?:projects\.|p\.|c\.)?(?:projectStatus|projectType|supplierType)["']\s*,\s*["'](?:=|!=|<>|in|not in)["']\s*,\s*\[?\s*\d/,
  },
  // CASE WHEN projectStatus = 1 in SQL text
  { name: "sql", re: /\b(?:projectStatus|projectType|supplierType)\s*(?:=|<>|!=|in)\s*\(?\d/ },
  // { projectStatus: 6 } / projectType: 1, in a value written
  { name: "value", re: /\b(?:projectStatus|projectType|supplierType):\s*\d\b/ },
  // [4, 5, 6, 7].includes(status)
  { name: "list", re: /\[\s*\d\s*(?:,\s*\d\s*)+\]\s*\.\s*(?:includes|find|some|indexOf)\(/ },
];

/** Lines of `source` that compare or write a status or type as a bare number: `line: text (pattern)`. */
export function bareCodes(source: string): string[] {
  const found: string[] = [];
  source.split("\n").forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "");
    for (const p of PATTERNS) if (p.re.test(code)) found.push(`${i + 1}: ${line.trim()} (${p.name})`);
  });
  return found;
}

async function sources(dir: string, into: Map<string, string>) {
  for await (const e of Deno.readDir(join(root, dir))) {
    const path = `${dir}/${e.name}`;
    if (SKIP.some((s) => `${path}/`.startsWith(s))) continue;
    if (e.isDirectory) await sources(path, into);
    else if (/\.tsx?$/.test(e.name)) into.set(path, await Deno.readTextFile(join(root, path)));
  }
  return into;
}

Deno.test("status names: no bare project status, project type or supplier type number in server, CLI or schemas", async () => {
  const files = new Map<string, string>();
  for (const dir of TREES) await sources(dir, files);
  if (files.size < 50) throw new Error(`only ${files.size} files read from ${relative(root, root) || "."}`);
  const found = [...files].flatMap(([file, source]) => bareCodes(source).map((l) => `${file}:${l}`));
  assertEquals(found, []);
});

Deno.test("status names: the check catches each way of writing a bare code, and lets named ones pass", () => {
  const bad = [
    "if (p.projectStatus === 6) return;",
    "const kids = src.projectType === 1 ? a : b;",
    'q.where("projectType", "=", 2)',
    'q.where("projects.projectStatus", "in", [4, 5])',
    "sql`count(CASE WHEN projectStatus = 1 THEN id END)`",
    "values({ projectType: 2, projectStatus: 2 })",
    "if (p.isDeleted || [4, 5, 6, 7].includes(p.projectStatus)) {",
    "supplierType === 2 ? o.local : o.diy",
  ];
  for (const line of bad) assertEquals(bareCodes(line).length > 0, true, line);
  const fine = [
    "if (p.projectStatus === PROJECT_STATUS.CLOSED) return;",
    'q.where("projectType", "=", PROJECT_TYPE.CHILD)',
    "sql`count(CASE WHEN projectStatus = ${ACTIVE_PROJECT_STATUS} THEN id END)`",
    "if (r.status !== 200) throw new Error();",
    "  // status 6 is Closed",
    "const n = items.length === 0;",
  ];
  for (const line of fine) assertEquals(bareCodes(line), [], line);
});
