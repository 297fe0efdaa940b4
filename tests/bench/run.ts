/**
 * `deno task bench`: runs every tests/bench/*.ts (but this file) in its own process and prints a
 * table of the figures each reports on a final `BENCH {json}` line. Figures are never assertions.
 */
const dir = new URL(".", import.meta.url).pathname;
const root = new URL("../..", import.meta.url).pathname;
const only = Deno.args;

type Row = { file: string; name: string; value: string; unit: string; baseline: string; ratio: string };
const rows: Row[] = [];
let failed = 0;

const files = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".ts") && e.name !== "run.ts")
  .map((e) => e.name)
  .filter((n) => only.length === 0 || only.some((o) => n.includes(o)))
  .sort();

for (const file of files) {
  console.log(`\n== ${file}`);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${dir}${file}`],
    cwd: root,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let out = "";
  const dec = new TextDecoder();
  for await (const chunk of child.stdout) {
    const text = dec.decode(chunk);
    out += text;
    await Deno.stdout.write(chunk);
  }
  const { code } = await child.status;
  const reported = out.split("\n").filter((l) => l.startsWith("BENCH "));
  if (code !== 0 || reported.length === 0) {
    failed++;
    rows.push({ file, name: "(failed)", value: "", unit: "", baseline: `exit ${code}`, ratio: "" });
    continue;
  }
  for (const line of reported) {
    const r = JSON.parse(line.slice(6));
    rows.push({
      file,
      name: String(r.name ?? file),
      value: String(r.value ?? ""),
      unit: String(r.unit ?? ""),
      baseline: String(r.baseline ?? ""),
      ratio: r.ratio === undefined ? "" : String(r.ratio),
    });
  }
}

const headers: Row = {
  file: "file",
  name: "benchmark",
  value: "value",
  unit: "unit",
  baseline: "baseline",
  ratio: "ratio",
};
const keys = Object.keys(headers) as (keyof Row)[];
const widths = keys.map((k) => Math.max(headers[k].length, ...rows.map((r) => r[k].length)));
const line = (r: Row) => keys.map((k, i) => r[k].padEnd(widths[i])).join("  ");
console.log("\n" + line(headers));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(line(r));
Deno.exit(failed ? 1 : 0);
