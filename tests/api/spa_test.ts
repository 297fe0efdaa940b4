/**
 * The SPA as the server hands it out: history fallback, a missing asset is a 404, caching, headers,
 * and the pre-compressed copies the build makes, chosen by Accept-Encoding.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { assert, assertEquals, assertMatch, assertRejects } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { createApp } from "../../server/app.ts";
import { acceptedEncodings } from "../../server/http/static.ts";
import { precompress } from "../../server/web-build.ts";

Deno.test("SPA: client routes fall back to index.html; a missing asset is a 404; caching fits each file", async () => {
  const root = await Deno.makeTempDir();
  await Deno.writeTextFile(`${root}/index.html`, "<!doctype html><title>Samplex SPA</title>");
  await Deno.mkdir(`${root}/assets`);
  await Deno.writeTextFile(`${root}/assets/app-1a2b3c.js`, "console.log('app')");
  const t = await testApp();
  try {
    const app = createApp(t.deps, { webRoot: root });
    for (const path of ["/", "/index.html", "/login", "/admin/user", "/supplier/project", "/no/such/page"]) {
      const res = await app.request(path);
      assertEquals(res.status, 200, path);
      assertMatch(await res.text(), /Samplex SPA/);
      assertEquals(res.headers.get("cache-control"), "no-cache", `${path}: a deploy is seen at once`);
      assertEquals(res.headers.get("x-content-type-options"), "nosniff", path);
      assert(res.headers.get("content-security-policy"), `${path} has a CSP`);
    }
    const asset = await app.request("/assets/app-1a2b3c.js");
    assertEquals(asset.status, 200);
    assertEquals(asset.headers.get("cache-control"), "public, max-age=31536000, immutable");
    await asset.body?.cancel();
    const missing = await app.request("/assets/app-old.js");
    assertEquals(missing.status, 404, "a missing asset is not index.html");
    assert(!/Samplex SPA/.test(await missing.text()));
    // an unknown API path, and the SPA's own routes below: no contract, spelled by hand
    const api = await app.request("/api/v1/no/such/call");
    assertEquals([api.status, (await api.json()).message], [404, "Not found"]);
    const post = await app.request("/admin/user", { method: "POST" });
    assertEquals(post.status, 404, "only GETs fall back to the SPA");
    await post.body?.cancel();
  } finally {
    await t.close();
    await Deno.remove(root, { recursive: true });
  }
});

/** A fake build: a bundle and an index.html big enough to compress, and a small file that is not. */
async function fakeBuild() {
  const root = await Deno.makeTempDir();
  const index = `<!doctype html><title>Samplex SPA</title>\n<!-- ${"padding ".repeat(300)}-->`;
  const js = Array.from({ length: 400 }, (_, i) => `export const value${i} = "item ${i}";`).join("\n");
  await Deno.writeTextFile(`${root}/index.html`, index);
  await Deno.mkdir(`${root}/assets`);
  await Deno.writeTextFile(`${root}/assets/app-1a2b3c.js`, js);
  await Deno.writeTextFile(`${root}/assets/tiny-9f9f9f.css`, "body{margin:0}");
  // a leftover of an earlier build whose file is gone
  await Deno.writeTextFile(`${root}/assets/old-000000.js.br`, "stale");
  const made = await precompress(root);
  return { root, index, js, made };
}

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("SPA: the build writes br and gzip copies of text files of 1 KB or more, and drops stale ones", async () => {
  const { root, js, made } = await fakeBuild();
  try {
    assertEquals(made.files, 2, "app.js and index.html");
    const br = await Deno.readFile(`${root}/assets/app-1a2b3c.js.br`);
    const gz = await Deno.readFile(`${root}/assets/app-1a2b3c.js.gz`);
    assertEquals(text(brotliDecompressSync(br)), js);
    assertEquals(text(gunzipSync(gz)), js);
    assert(br.byteLength < gz.byteLength && gz.byteLength < js.length, "brotli beats gzip beats nothing");
    for (const gone of ["tiny-9f9f9f.css.br", "tiny-9f9f9f.css.gz", "old-000000.js.br"]) {
      await assertRejects(() => Deno.stat(`${root}/assets/${gone}`), Deno.errors.NotFound, gone);
    }
    // a rebuild that changes a file rewrites its copies
    await Deno.writeTextFile(`${root}/assets/app-1a2b3c.js`, js + "\nexport const more = 1;");
    await precompress(root);
    assertEquals(
      text(brotliDecompressSync(await Deno.readFile(`${root}/assets/app-1a2b3c.js.br`))),
      js + "\nexport const more = 1;",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("SPA: assets go out as brotli, else gzip, else as they are, chosen by Accept-Encoding", async () => {
  const { root, js, index } = await fakeBuild();
  const t = await testApp();
  try {
    const app = createApp(t.deps, { webRoot: root });
    const get = (path: string, acceptEncoding?: string, method = "GET") =>
      app.request(path, {
        method,
        headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
      });
    const cases: [string | undefined, string | null][] = [
      ["br, gzip", "br"],
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["x-gzip", "gzip"],
      ["br;q=0, gzip;q=0.5", "gzip"],
      ["*", "br"],
      ["*, br;q=0", "gzip"],
      ["identity", null],
      ["deflate", null],
      ["", null],
      [undefined, null],
    ];
    for (const [accept, expected] of cases) {
      const res = await get("/assets/app-1a2b3c.js", accept);
      const body = await bytesOf(res);
      const what = `Accept-Encoding: ${accept}`;
      assertEquals(res.status, 200, what);
      assertEquals(res.headers.get("content-encoding"), expected, what);
      assertEquals(res.headers.get("content-type"), "text/javascript; charset=utf-8", what);
      assertEquals(res.headers.get("vary"), "Accept-Encoding", what);
      assertEquals(res.headers.get("content-length"), String(body.byteLength), `${what}: the bytes sent`);
      assertEquals(res.headers.get("cache-control"), "public, max-age=31536000, immutable", what);
      const plain = expected === "br"
        ? brotliDecompressSync(body)
        : expected === "gzip"
        ? gunzipSync(body)
        : body;
      assertEquals(text(plain), js, what);
      if (expected) assert(body.byteLength < js.length, `${what}: smaller than the file`);
    }

    // HEAD: the length of what GET would send, no body
    const brLength = (await Deno.stat(`${root}/assets/app-1a2b3c.js.br`)).size;
    const head = await get("/assets/app-1a2b3c.js", "br, gzip", "HEAD");
    assertEquals(head.status, 200);
    assertEquals(head.headers.get("content-encoding"), "br");
    assertEquals(head.headers.get("content-length"), String(brLength));
    assertEquals((await bytesOf(head)).byteLength, 0);
    const headPlain = await get("/assets/app-1a2b3c.js", undefined, "HEAD");
    assertEquals(headPlain.headers.get("content-length"), String(new TextEncoder().encode(js).byteLength));
    assertEquals((await bytesOf(headPlain)).byteLength, 0);

    // a file without copies (too small) is sent as it is, still varying on the header
    const tiny = await get("/assets/tiny-9f9f9f.css", "br, gzip");
    assertEquals(tiny.headers.get("content-encoding"), null);
    assertEquals(tiny.headers.get("content-type"), "text/css; charset=utf-8");
    assertEquals(tiny.headers.get("vary"), "Accept-Encoding");
    assertEquals(await tiny.text(), "body{margin:0}");

    // index.html, at its own path and as the history fallback, compressed too and never cached
    for (const path of ["/", "/index.html", "/admin/user"]) {
      const res = await get(path, "gzip, br");
      const body = await bytesOf(res);
      assertEquals([res.status, res.headers.get("content-encoding")], [200, "br"], path);
      assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8", path);
      assertEquals(res.headers.get("cache-control"), "no-cache", path);
      assertEquals(res.headers.get("vary"), "Accept-Encoding", path);
      assertEquals(res.headers.get("content-length"), String(body.byteLength), path);
      assertEquals(text(brotliDecompressSync(body)), index, path);
    }

    // a missing asset is still a 404, whatever the client accepts, and never a stray copy
    for (const path of ["/assets/app-old.js", "/assets/old-000000.js"]) {
      const missing = await get(path, "br, gzip");
      assertEquals(missing.status, 404, path);
      assertEquals(missing.headers.get("content-encoding"), null, path);
      assertEquals(await missing.text(), "Not found", path);
    }
    // paths that would leave the build are not files of it
    const escape = await get("/assets/..%2f..%2fetc/passwd", "br");
    assertEquals(escape.status, 404);
    await escape.body?.cancel();
  } finally {
    await t.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("SPA: Accept-Encoding parsing honours q=0 and the * wildcard", () => {
  const of = (h: string | undefined) => [...acceptedEncodings(h)].sort();
  assertEquals(of("br, gzip"), ["br", "gzip"]);
  assertEquals(of("gzip;q=0.8"), ["gzip"]);
  assertEquals(of("BR ; Q=1"), ["br"]);
  assertEquals(of("br;q=0"), []);
  assertEquals(of("br;q=0.0, gzip;q=0.001"), ["gzip"]);
  assertEquals(of("*;q=0.5"), ["br", "gzip"]);
  assertEquals(of("*, gzip;q=0"), ["br"]);
  assertEquals(of("identity, deflate"), []);
  assertEquals(of(undefined), []);
});

/** What a crawler following robots.txt may fetch: the longest matching Allow/Disallow wins (RFC 9309). */
function crawlable(robots: string, path: string): boolean {
  const rules = robots.split("\n").map((l) => l.replace(/#.*/, "").trim()).filter(Boolean)
    .map((l) => l.split(/:\s*/, 2) as [string, string])
    .filter(([k]) => /^(allow|disallow)$/i.test(k));
  let best: { allow: boolean; len: number } = { allow: true, len: -1 };
  for (const [k, pattern] of rules) {
    const anchored = pattern.endsWith("$");
    const body = anchored ? pattern.slice(0, -1) : pattern;
    const hit = anchored ? path === body : path.startsWith(body);
    if (hit && pattern.length > best.len) best = { allow: /^allow$/i.test(k), len: pattern.length };
  }
  return best.allow;
}

Deno.test("robots.txt: a robots file, not the SPA; only the sign-in page may be crawled", async () => {
  const root = await Deno.makeTempDir();
  await Deno.writeTextFile(`${root}/index.html`, "<!doctype html><title>Samplex SPA</title>");
  const t = await testApp();
  try {
    for (const app of [createApp(t.deps, { webRoot: root }), t.app]) {
      const res = await app.request("/robots.txt");
      assertEquals(res.status, 200);
      assertMatch(res.headers.get("content-type") ?? "", /^text\/plain/);
      const body = await res.text();
      assert(!/Samplex SPA|<html/i.test(body), "not the SPA's HTML");
      assertMatch(body, /^User-agent: \*$/m);
      assertEquals(crawlable(body, "/login"), true, "the sign-in page");
      // robots.txt rules: the paths are what is checked
      for (
        const path of [
          "/",
          "/admin/project",
          "/admin/dashboard",
          "/supplier/project",
          "/survey/start/x",
          "/api/v1/openapi.json",
          "/login/x",
        ]
      ) {
        assertEquals(crawlable(body, path), false, path);
      }
    }
  } finally {
    await t.close();
    await Deno.remove(root, { recursive: true });
  }
});
