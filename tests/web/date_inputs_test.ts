/**
 * Date inputs show dd/MM/yyyy everywhere: every screen uses the kit's DateInput (a dd/MM/yyyy text
 * box with the browser's calendar behind a button), never a bare `<input type="date">`, which shows
 * the browser's own order (mm/dd/yyyy in an en-US browser).
 */
import { assertEquals } from "../helpers/assert.ts";

const root = new URL("../../web/src/", import.meta.url);
const KIT = "components/filters/DateInput.tsx";

async function* files(dir: URL, rel = ""): AsyncGenerator<{ rel: string; text: string }> {
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) yield* files(new URL(e.name + "/", dir), `${rel}${e.name}/`);
    else if (/\.tsx?$/.test(e.name)) {
      yield { rel: rel + e.name, text: await Deno.readTextFile(new URL(e.name, dir)) };
    }
  }
}

Deno.test("date inputs: no screen renders the browser's date box but the kit's DateInput", async () => {
  const bare: string[] = [];
  for await (const f of files(root)) {
    if (f.rel === KIT) continue;
    if (/type\s*[=:]\s*\{?\s*["']date["']/.test(f.text)) bare.push(f.rel);
  }
  assertEquals(bare, [], 'screens with a bare <input type="date">');
});
