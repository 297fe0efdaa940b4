/**
 * Builds web/dist with Vite when it is missing or older than any file in web/ or shared/, and
 * precompress(): the brotli and gzip copies of the build's text files that server/http/static.ts
 * sends to clients that accept them (web/vite.config.ts calls it at the end of every build).
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = new URL("..", import.meta.url).pathname;
const dist = `${root}web/dist`;

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.name === "dist" || e.name === "node_modules") continue;
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) newest = Math.max(newest, await newestMtime(p));
    else newest = Math.max(newest, (await Deno.stat(p)).mtime?.getTime() ?? 0);
  }
  return newest;
}

export async function webBuildIsStale(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(`${dist}/index.html`)).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  const src = Math.max(await newestMtime(`${root}web`), await newestMtime(`${root}shared`));
  return src > built;
}

export async function ensureWebBuild(): Promise<string> {
  if (await webBuildIsStale()) {
    console.log("Building the web app (web/dist)...");
    const p = new Deno.Command(Deno.execPath(), {
      args: ["task", "build"],
      cwd: root,
      stdout: "inherit",
      stderr: "inherit",
    });
    const { code } = await p.output();
    if (code !== 0) throw new Error("The web build failed: see the output above");
  }
  return dist;
}

/** Files worth compressing: text formats (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|webmanifest|ico|wasm)$/i;
/** Below this, the headers outweigh what compression saves. */
const MIN_BYTES = 1024;

export type Precompressed = { files: number; bytes: number; br: number; gzip: number };

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip level 9) next to every compressible file of
 * `dir` of at least 1 KB, keeping a copy only when it is smaller than the file. Stale copies of a
 * file that changed are rewritten; copies whose file is gone are removed. Build time only: the
 * server never compresses per request.
 */
export async function precompress(dir: string): Promise<Precompressed> {
  const sum: Precompressed = { files: 0, bytes: 0, br: 0, gzip: 0 };
  const walk = async (d: string) => {
    const names: string[] = [];
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(`${d}/${e.name}`);
      else if (e.isFile) names.push(e.name);
    }
    const present = new Set(names);
    for (const name of names) {
      const path = `${d}/${name}`;
      if (/\.(?:br|gz)$/.test(name)) {
        if (!present.has(name.slice(0, -3))) await Deno.remove(path);
        continue;
      }
      for (const suffix of [".br", ".gz"]) {
        if (present.has(name + suffix)) await Deno.remove(path + suffix);
      }
      if (!COMPRESSIBLE.test(name)) continue;
      const bytes = await Deno.readFile(path);
      if (bytes.byteLength < MIN_BYTES) continue;
      sum.files++;
      sum.bytes += bytes.byteLength;
      const br = brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        },
      });
      const gz = gzipSync(bytes, { level: 9 });
      if (br.byteLength < bytes.byteLength) await Deno.writeFile(`${path}.br`, br);
      if (gz.byteLength < bytes.byteLength) await Deno.writeFile(`${path}.gz`, gz);
      sum.br += Math.min(br.byteLength, bytes.byteLength);
      sum.gzip += Math.min(gz.byteLength, bytes.byteLength);
    }
  };
  await walk(dir.replace(/\/+$/, ""));
  return sum;
}

if (import.meta.main) {
  // `deno run -A server/web-build.ts [dir]`: (re)compress a build made by other means
  const dir = Deno.args[0] ?? dist;
  const s = await precompress(dir);
  console.log(`precompressed ${s.files} files of ${dir}: ${s.bytes} bytes -> br ${s.br}, gzip ${s.gzip}`);
}
