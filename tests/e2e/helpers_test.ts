/** The e2e kit's bounds: a wait that never ends fails within seconds instead of hanging the run. */
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { bounded, CLIPBOARD_TIMEOUT_MS, e2e, launchBrowser, newPage, readClipboard } from "./helpers.ts";

Deno.test("bounded: a promise that never settles fails after the bound, and the clean-up runs", async () => {
  let cleaned = 0;
  const started = performance.now();
  await assertRejects(
    () =>
      bounded("stuck wait", 100, () => new Promise<void>(() => {}), () => Promise.resolve(void cleaned++)),
    /stuck wait did not finish within 0 s \(timed out\)/,
  );
  assertEquals(cleaned, 1);
  // the never-settling work is given up to 5 s to settle after the clean-up, then abandoned
  assert(performance.now() - started < 6_000);
  assertEquals(await bounded("quick", 1_000, () => Promise.resolve(42)), 42);
  await assertRejects(() => bounded("failing", 1_000, () => Promise.reject(new Error("boom"))), /boom/);
});

Deno.test(e2e("e2e kit: a clipboard read that never answers fails within seconds", async () => {
  // the async clipboard needs a secure context: a loopback http page is one
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    () =>
      new Response("<!doctype html><title>clipboard</title>", { headers: { "content-type": "text/html" } }),
  );
  const browser = await launchBrowser();
  try {
    const { context, page } = await newPage(browser, `http://127.0.0.1:${server.addr.port}`);
    await page.goto("/");
    // a working clipboard reads back what was written
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.evaluate(() => navigator.clipboard.writeText("hello"));
    assertEquals(await readClipboard(page), "hello");
    // one that stays pending for good (as headless chromium's has) is cut short
    await page.evaluate(() => {
      Clipboard.prototype.readText = () => new Promise<string>(() => {});
    });
    const started = performance.now();
    await assertRejects(() => readClipboard(page), /did not answer within/);
    const took = performance.now() - started;
    assert(took < CLIPBOARD_TIMEOUT_MS + 2_000, `took ${Math.round(took)} ms`);
    await context.close();
  } finally {
    await browser.close();
    ac.abort();
    await server.finished;
  }
}));
