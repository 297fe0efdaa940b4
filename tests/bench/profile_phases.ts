/**
 * Where the router's thread spends a pair, callbacks on against off: reads the CPU profiles that
 * `ROUTER_BENCH_PROFILE=<dir> deno task bench router` had the app write into <dir>, and the windows
 * of its pairs phases (phases.txt: kind, start and end in seconds since boot, the clock of the
 * profiles' time stamps, and pairs done), and prints each function's self time per pair in the
 * phases of each kind and the difference, largest first.
 *
 *   deno run -A tests/bench/profile_phases.ts <dir> [rows=40] [worker]
 *
 * `worker`: the callback worker's profile instead of the router's thread (same process).
 */
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: Node[]; startTime: number; samples: number[]; timeDeltas: number[] };
type Window = { kind: string; from: number; to: number; pairs: number };

const [dir, rowsArg = "40", thread = "main"] = Deno.args;
if (!dir) {
  console.error("usage: profile_phases.ts <dir> [rows] [worker]");
  Deno.exit(2);
}
const windows: Window[] = Deno.readTextFileSync(`${dir}/phases.txt`).trim().split("\n").map((l) => {
  const [kind, from, to, pairs] = l.split(" ");
  return { kind, from: Number(from), to: Number(to), pairs: Number(pairs) };
});

/** Self time (µs) per function inside each kind's windows. */
function selfTimes(p: Profile): Map<string, Map<string, number>> {
  const name = new Map(p.nodes.map((n) => {
    const f = n.callFrame;
    return [n.id, `${f.functionName || "(anonymous)"} ${f.url.split("/").at(-1)}:${f.lineNumber}`];
  }));
  const out = new Map<string, Map<string, number>>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    const s = t / 1e6, w = windows.find((w) => s >= w.from && s <= w.to);
    if (!w) continue;
    const m = out.get(w.kind) ?? new Map<string, number>();
    out.set(w.kind, m);
    const k = name.get(p.samples[i])!;
    m.set(k, (m.get(k) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
  }
  return out;
}

// the app instance whose phases were measured (with `worker`, the callback worker, not libSQL's):
// the profile busiest in the windows
const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
  n.endsWith(".cpuprofile") && (thread === "worker") === n.includes(".worker-")
);
let best: Map<string, Map<string, number>> | null = null, bestTotal = 0;
for (const f of files) {
  const times = selfTimes(JSON.parse(Deno.readTextFileSync(`${dir}/${f}`)));
  const total = [...times.values()].reduce(
    (n, m) => n + [...m].reduce((a, [k, t]) => a + (k.startsWith("(idle)") ? 0 : t), 0),
    0,
  );
  if (total > bestTotal) [best, bestTotal] = [times, total];
}
if (!best) {
  console.error("no profile covers the phases' windows");
  Deno.exit(1);
}
const pairs = (kind: string) => windows.filter((w) => w.kind === kind).reduce((n, w) => n + w.pairs, 0);
const perPair = (kind: string, k: string) => (best!.get(kind)?.get(k) ?? 0) / Math.max(1, pairs(kind));
const keys = new Set([...(best.get("off")?.keys() ?? []), ...(best.get("on")?.keys() ?? [])]);
const sum = (kind: string) =>
  [...keys].reduce((n, k) => n + (k.startsWith("(idle)") ? 0 : perPair(kind, k)), 0);
console.log(
  `busy µs a pair: off ${sum("off").toFixed(1)}, on ${sum("on").toFixed(1)} (${pairs("off")} / ${
    pairs("on")
  } pairs)`,
);
console.log("     off       on     diff  function");
const rows = [...keys].map((k) => [k, perPair("off", k), perPair("on", k)] as const)
  .sort((a, b) => Math.abs(b[2] - b[1]) - Math.abs(a[2] - a[1])).slice(0, Number(rowsArg));
for (const [k, off, on] of rows) {
  console.log(
    `${off.toFixed(2).padStart(8)} ${on.toFixed(2).padStart(8)} ${(on - off).toFixed(2).padStart(8)}  ${k}`,
  );
}
