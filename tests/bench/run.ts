/**
 * `deno task bench [name...]`: imports every module in tests/bench (except this one and files
 * starting with `_`) that exports `bench()`, runs them one after another, each in a process of its
 * own (`run.ts --one FILE`), and prints one table, then the rows that carry a `summary` label again. Benchmarks report figures and ratios measured in the same run; nothing here asserts a
 * time, so a slow machine never fails a build. Arguments narrow the run to modules whose file name
 * contains one of them (`deno task bench list`).
 */

import type { BenchModule, BenchRow } from "./_kit.ts";

export type { BenchModule, BenchRow } from "./_kit.ts";

const fmt = (n: number | undefined) => {
  if (n === undefined || Number.isNaN(n)) return "";
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
};

function table(rows: (BenchRow & { module: string })[]): string {
  const cols: [string, (r: BenchRow & { module: string }) => string, "l" | "r"][] = [
    ["bench", (r) => r.module, "l"],
    ["measure", (r) => r.measure, "l"],
    ["value", (r) => fmt(r.value), "r"],
    ["median", (r) => fmt(r.median), "r"],
    ["p95", (r) => fmt(r.p95), "r"],
    ["unit", (r) => r.unit, "l"],
    ["ratio", (r) => (r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}x`), "r"],
    ["note", (r) => r.note ?? "", "l"],
  ];
  const used = cols.filter(([, get]) => rows.some((r) => get(r) !== ""));
  const cells = rows.map((r) => used.map(([, get]) => get(r)));
  const widths = used.map(([h], i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (vals: string[]) =>
    vals.map((v, i) => (used[i][2] === "r" ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join("  ")
      .trimEnd();
  return [line(used.map(([h]) => h)), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

async function main(filters: string[]) {
  const dir = new URL(".", import.meta.url);
  const files: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile || !e.name.endsWith(".ts") || e.name === "run.ts" || e.name.startsWith("_")) continue;
    if (filters.length && !filters.some((f) => e.name.includes(f))) continue;
    files.push(e.name);
  }
  files.sort();
  console.log(
    `Samplex benchmarks: deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, ${Deno.build.target}, ${
      new Date().toISOString().slice(0, 16)
    }Z`,
  );
  const rows: (BenchRow & { module: string })[] = [];
  let failed = 0;
  for (const file of files) {
    const name = file.replace(/(_bench)?\.ts$/, "");
    console.log(`running ${name}...`);
    const t0 = performance.now();
    // each module in a fresh process: one benchmark's heap, caches and open handles (a 1,000,000-row
    // dataset) never tax the next one's figures
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--one", file],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const marker = text.lastIndexOf(ROWS_MARK);
    let got: BenchRow[] | null = null;
    if (marker >= 0) {
      try {
        got = JSON.parse(text.slice(marker + ROWS_MARK.length)) as BenchRow[];
      } catch { /* reported below */ }
    }
    const printed = (marker >= 0 ? text.slice(0, marker) : text).trimEnd();
    if (printed) console.log(printed);
    if (!out.success || !got || got.some((r) => r.measure === "FAILED")) failed++;
    if (!out.success || !got) {
      rows.push({ module: name, measure: "FAILED", unit: "", note: `exit status ${out.code}` });
    } else {
      for (const r of got) rows.push({ ...r, module: name });
    }
    console.log(`  ${name} took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (!rows.length) {
    console.log(filters.length ? `No benchmark matches ${filters.join(", ")}` : "No benchmarks found");
    return 1;
  }
  console.log("\n" + table(rows));
  const headline = rows.filter((r) => r.summary);
  if (headline.length) {
    console.log("\nSummary (the figures the issues set targets for)\n");
    console.log(table(headline.map((r) => ({ ...r, measure: r.summary! }))));
  }
  return failed ? 1 : 0;
}

/** A module's rows, printed by the child process after this line. */
const ROWS_MARK = "\n@@bench-rows@@\n";

/** `run.ts --one FILE`: runs one module in this process and prints its rows as JSON for the parent. */
async function one(file: string): Promise<number> {
  const mod = (await import(new URL(file, import.meta.url).href)) as BenchModule;
  if (typeof mod.bench !== "function") {
    console.log(ROWS_MARK + "[]");
    return 0;
  }
  try {
    const got = await mod.bench();
    console.log(ROWS_MARK + JSON.stringify(got));
    return 0;
  } catch (e) {
    console.log(
      ROWS_MARK +
        JSON.stringify([{ measure: "FAILED", unit: "", note: e instanceof Error ? e.message : String(e) }]),
    );
    return 0;
  }
}

if (import.meta.main) {
  Deno.exit(Deno.args[0] === "--one" ? await one(Deno.args[1]) : await main(Deno.args));
}
