/** The SPA as the server hands it out: history fallback, a missing asset is a 404, caching, headers. */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { createApp } from "../../server/app.ts";

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
