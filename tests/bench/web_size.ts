/**
 * Bench: the gzipped size of the JavaScript that /login loads initially (target: at most 150 KB).
 * A printed figure, not an assertion. Measured in chromium when it is installed (every script the
 * page actually fetched until the network is idle), and always by walking the build's static
 * import graph from the entry and the login route chunk.
 *
 *   deno run -A tests/bench/web_size.ts
 *
 * The last line is `BENCH {json}` for tests/bench/run.ts.
 */
import { ensureWebBuild } from "../../server/web-build.ts";

const TARGET_KB = 150;
const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

async function gzipSize(bytes: Uint8Array): Promise<number> {
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

/** Serves web/dist (SPA fallback) and records the scripts chromium loads for /login. */
async function browserLoginScripts(dist: string): Promise<string[] | null> {
  try {
    if (!Deno.statSync(CHROMIUM).isFile) return null;
  } catch {
    return null;
  }
  const { chromium } = await import("playwright-core");
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      const file = path.startsWith("/assets/") ? `${dist}${path}` : `${dist}/index.html`;
      try {
        const body = await Deno.readFile(file);
        const type = file.endsWith(".js")
          ? "text/javascript"
          : file.endsWith(".css")
          ? "text/css"
          : "text/html";
        return new Response(body, { headers: { "content-type": type } });
      } catch {
        return new Response("Not found", { status: 404 });
      }
    },
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
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
    const scripts = new Set<string>();
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (r.resourceType() === "script" || u.pathname.endsWith(".js")) {
        scripts.add(u.pathname.replace("/assets/", ""));
      }
    });
    await page.goto(`http://127.0.0.1:${server.addr.port}/login`, { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Login" }).waitFor({ timeout: 10_000 });
    return [...scripts];
  } finally {
    await browser.close();
    ac.abort();
    await server.finished;
  }
}

const dist = await ensureWebBuild();
const staticFiles = await staticLoginScripts(dist);
const stat = await sizeOf(dist, staticFiles);
const browserFiles = await browserLoginScripts(dist);
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
  "BENCH " + JSON.stringify({
    name: "web: /login initial JS (gzip)",
    value: kb(measured.gz),
    unit: "KB",
    baseline: `target ${TARGET_KB} KB`,
    ratio: Math.round((measured.gz / 1024 / TARGET_KB) * 100) / 100,
    source: seen ? "chromium" : "static graph",
  }),
);
