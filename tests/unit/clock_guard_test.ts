/**
 * The domain reads time only through the clock it is given (common/clock.ts): no `Date.now()` and no
 * argument-less `new Date()` anywhere in server/domain. The real clock enters only as a visible
 * default parameter (`now: Clock = wallClock` or `= Date.now`, `at = dateAt(wallClock)`, `now = wallClock()`), for
 * callers without deps (the seed, scripts, tests); routes and the CLI pass `deps.now`.
 */
import { assertEquals } from "../helpers/assert.ts";
import { join, resolve } from "node:path";

const root = resolve(new URL("../..", import.meta.url).pathname);
const TREE = "server/domain";
/** The one file that may touch the real clock: it defines `wallClock`. */
const ALLOWED_FILES = new Set(["server/domain/common/clock.ts"]);

/** Lines of `source` that read the wall clock, or use `wallClock` other than as a default: `line: text`. */
export function clockReads(source: string): string[] {
  const found: string[] = [];
  source.split("\n").forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, "").replace(/^\s*\/?\*.*$/, "");
    const decl = /^\s*(?:const|let|var)\b/.test(code);
    // `now: Clock = Date.now` as a default parameter is allowed; a call, or any other use, is not
    const dateNow = /\bDate\.now\s*\(/.test(code) ||
      (/\bDate\.now\b/.test(code) && (decl || !/=\s*Date\.now\s*(?:[,)]|$)/.test(code)));
    const direct = dateNow || /\bnew Date\(\s*\)/.test(code) || /\bnew Date\b(?!\s*\()/.test(code);
    const stray = /\bwallClock\b/.test(code) && (decl ||
      !/^\s*import\b/.test(code) &&
        !/=\s*(?:(?:dateAt|isoAt)\()?wallClock\b/.test(code) && !/\?\?\s*wallClock\)/.test(code));
    if (direct || stray) found.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

async function sources(dir: string, into: Map<string, string>) {
  for await (const e of Deno.readDir(join(root, dir))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) await sources(path, into);
    else if (/\.tsx?$/.test(e.name) && !ALLOWED_FILES.has(path)) {
      into.set(path, await Deno.readTextFile(join(root, path)));
    }
  }
  return into;
}

Deno.test("clock guard: server/domain reads no wall clock (Date.now(), new Date()) outside common/clock.ts and default parameters", async () => {
  const files = new Map<string, string>();
  await sources(TREE, files);
  if (files.size < 50) throw new Error(`only ${files.size} files read from ${TREE}`);
  const found = [...files].flatMap(([file, source]) => clockReads(source).map((l) => `${file}:${l}`));
  assertEquals(found, []);
});

Deno.test("clock guard: the check catches each way of reading the wall clock, and lets the given clock pass", () => {
  const bad = [
    "const now = new Date().toISOString();",
    "const staleBefore = new Date(Date.now() - 5).toISOString();",
    "const at = Date.now();",
    "export const nowIso = () => new Date( ).toISOString();",
    "const t = new Date;",
    "const clock = Date.now;",
    "const at = dateAt(wallClock);",
    "const ms = wallClock();",
  ];
  for (const line of bad) assertEquals(clockReads(line).length, 1, line);
  const good = [
    "const at = dateAt(now), stamp = at.toISOString();",
    "const d = new Date(now);",
    "const iso = new Date(ms).toISOString();",
    "export async function f(db: Db, now: Clock = wallClock) {",
    "export function businessToday(now: Clock = Date.now): string {",
    "  now: Clock = Date.now,",
    "export async function writeLog(db: Db, actor: Actor, entry: AuditEntry, at = dateAt(wallClock)) {",
    "export async function beat(db: Db, now = wallClock()): Promise<void> {",
    "  at: Date = dateAt(wallClock),",
    "return (this.opts.now ?? wallClock)();",
    'import { type Clock, wallClock } from "../common/clock.ts";',
    "// Date.now() in a comment",
    " * new Date() in a doc comment",
  ];
  for (const line of good) assertEquals(clockReads(line), [], line);
});
