/**
 * Bench: the gzipped size of the JavaScript that /login loads initially (target: at most 150 KB).
 * A printed figure, not an assertion. Measured in chromium when it is installed (every script the
 * page actually fetched until the network is idle, from the real app serving web/dist), and always
 * by walking the build's static import graph from the entry and the login route chunk.
 *
 * Also the bytes over the wire: what the server sends for those scripts to a client that accepts
 * `br, gzip` (the build's pre-compressed copies) and to one that accepts no compression.
 *
 *   deno run -A tests/bench/web_size.ts
 *
 * Run alone, or through `deno task bench`, which calls `bench()`.
 */
import { ensureWebBuild } from "../../server/web-build.ts";
import { createApp } from "../../server/app.ts";
import { testApp } from "../helpers/app.ts";
import type { BenchRow } from "./_kit.ts";

const TARGET_KB = 150;
const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const kb = (n: number) => Math.round((n / 1024) * 10) / 10;

/** Entry script and modulepreloads of index.html, then every static import, plus the login chunk. */
async function staticLoginScripts(dist: string): Promise<string[]> {
  const html = await Deno.readTextFile(`${dist}/index.html`);
  const start = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = await Deno.readTextFile(`${dist}/assets/${file}`);
    for (const m of code.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)) await visit(m[1]);
  };
  for (const f of start) await visit(f);
  // the login route is a lazy chunk named after its module
  const login = [...Deno.readDirSync(`${dist}/assets`)].find((e) => /^LoginPage-.*\.js$/.test(e.name));
  if (login) await visit(login.name);
  return [...seen];
}

async function sizeOf(dist: string, files: string[]) {
  let raw = 0, gz = 0;
  for (const f of files) {
    const bytes = await Deno.readFile(`${dist}/assets/${f}`);
    raw += bytes.byteLength;
    gz += await gzipSize(bytes);
  }
  return { raw, gz };
}

/** The real app (API + web/dist) on a loopback port; `stop` ends it. */
async function serveApp(dist: string) {
  const t = await testApp();
  const app = createApp(t.deps, { webRoot: dist });
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    (req, info) => app.fetch(req, { remoteAddr: info.remoteAddr }),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    async stop() {
      ac.abort();
      await server.finished;
      await t.close();
    },
  };
}

/** Body bytes the server sends for each script with that Accept-Encoding (no decoding). */
async function wireBytes(url: string, files: string[], acceptEncoding: string): Promise<number> {
  let total = 0;
  for (const f of files) {
    const res = await fetch(`${url}/assets/${f}`, { headers: { "accept-encoding": acceptEncoding } });
    if (res.headers.get("content-encoding")) {
      // fetch would decode it: count the raw bytes, which Content-Length states (checked in spa_test)
      total += Number(res.headers.get("content-length"));
      await res.body?.cancel();
    } else total += (await res.arrayBuffer()).byteLength;
  }
  return total;
}

/** Records the scripts chromium loads for /login from the real app. */
async function browserLoginScripts(url: string): Promise<string[] | null> {
  try {
    if (!Deno.statSync(CHROMIUM).isFile) return null;
  } catch {
    return null;
  }
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: 15_000,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    page.setDefaultNavigationTimeout(15_000);
    const scripts = new Set<string>();
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (r.resourceType() === "script" || u.pathname.endsWith(".js")) {
        scripts.add(u.pathname.replace("/assets/", ""));
      }
    });
    await page.goto(`${url}/login`, { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Login" }).waitFor();
    return [...scripts];
  } finally {
    await browser.close();
  }
}

export async function bench(): Promise<BenchRow[]> {
  const dist = await ensureWebBuild();
  const staticFiles = await staticLoginScripts(dist);
  const stat = await sizeOf(dist, staticFiles);
  const server = await serveApp(dist);
  let browserFiles: string[] | null, wire: { compressed: number; identity: number };
  try {
    browserFiles = await browserLoginScripts(server.url);
    const files = browserFiles ?? staticFiles;
    wire = {
      compressed: await wireBytes(server.url, files, "br, gzip"),
      identity: await wireBytes(server.url, files, "identity"),
    };
  } finally {
    await server.stop();
  }
  const seen = browserFiles ? await sizeOf(dist, browserFiles) : null;
  const measured = seen ?? stat;

  console.log("JS loaded by /login (gzip):");
  for (const f of (browserFiles ?? staticFiles).sort()) {
    const bytes = await Deno.readFile(`${dist}/assets/${f}`);
    console.log(`  ${f.padEnd(44)} ${String(kb(await gzipSize(bytes))).padStart(7)} KB`);
  }
  console.log(
    `static import graph: ${staticFiles.length} files, ${kb(stat.gz)} KB gzip (${kb(stat.raw)} KB raw)`,
  );
  if (seen) {
    console.log(
      `loaded in chromium:  ${browserFiles!.length} files, ${kb(seen.gz)} KB gzip (${kb(seen.raw)} KB raw)`,
    );
  } else console.log("chromium not found: the static figure stands in for the browser one");
  console.log(
    `/login initial JS: ${kb(measured.gz)} KB gzip, target <= ${TARGET_KB} KB (${
      Math.round((measured.gz / 1024 / TARGET_KB) * 100)
    }% of target)`,
  );
  console.log(
    `/login initial JS over the wire: ${kb(wire.compressed)} KB with Accept-Encoding: br, gzip; ` +
      `${kb(wire.identity)} KB without compression`,
  );
  return [{
    measure: "/login initial JS (gzip)",
    value: kb(measured.gz),
    unit: "KB",
    ratio: Math.round((measured.gz / 1024 / TARGET_KB) * 100) / 100,
    note: `ratio against the ${TARGET_KB} KB target; ${
      seen ? "scripts loaded in chromium" : "static import graph"
    }`,
  }, {
    measure: "/login initial JS over the wire (br, gzip)",
    value: kb(wire.compressed),
    unit: "KB",
    ratio: Math.round((wire.compressed / wire.identity) * 100) / 100,
    summary: "sign-in page JS over the wire",
    note: `ratio against the same scripts sent uncompressed (${kb(wire.identity)} KB)`,
  }];
}

if (import.meta.main) await bench();
