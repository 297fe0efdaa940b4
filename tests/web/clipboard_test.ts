/** copyText never keeps its caller waiting on an async clipboard that does not answer. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { copyText } from "../../web/src/lib/clipboard.ts";

type Clip = { writeText: (text: string) => Promise<void> };

async function withClipboard<T>(clipboard: Clip, fn: () => Promise<T>): Promise<T> {
  const nav = Object.getOwnPropertyDescriptor(globalThis.navigator, "clipboard");
  const secure = Object.getOwnPropertyDescriptor(globalThis, "isSecureContext");
  Object.defineProperty(globalThis.navigator, "clipboard", { value: clipboard, configurable: true });
  Object.defineProperty(globalThis, "isSecureContext", { value: true, configurable: true });
  try {
    return await fn();
  } finally {
    if (nav) Object.defineProperty(globalThis.navigator, "clipboard", nav);
    else delete (globalThis.navigator as unknown as { clipboard?: Clip }).clipboard;
    if (secure) Object.defineProperty(globalThis, "isSecureContext", secure);
    else delete (globalThis as unknown as { isSecureContext?: boolean }).isSecureContext;
  }
}

Deno.test("copyText: a clipboard that never answers falls back within the timeout", async () => {
  const written: string[] = [];
  const stuck: Clip = {
    writeText: (text) => {
      written.push(text);
      return new Promise<void>(() => {}); // pending for good, like headless chromium's prompt
    },
  };
  const started = performance.now();
  // no document here, so the textarea fallback reports failure: what matters is that it returns
  const ok = await withClipboard(stuck, () => copyText("s3cret", 50));
  const took = performance.now() - started;
  assertEquals(written, ["s3cret"]);
  assertEquals(ok, false);
  assert(took < 1000, `copyText returned after ${Math.round(took)} ms`);
});

Deno.test("copyText: a clipboard that answers is used", async () => {
  const written: string[] = [];
  const ok = await withClipboard(
    { writeText: (t) => (written.push(t), Promise.resolve()) },
    () => copyText("hello"),
  );
  assertEquals([ok, written], [true, ["hello"]]);
});
