/** server/http/csv.ts: cell escaping, quoting, formula defusing, and streaming page by page. */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { csvCell, csvLine, csvStream } from "../../server/http/csv.ts";

Deno.test("csvCell: plain values pass through; empty for null and undefined", () => {
  assertEquals(csvCell("plain"), "plain");
  assertEquals(csvCell(42), "42");
  assertEquals(csvCell(0), "0");
  assertEquals(csvCell(false), "false");
  assertEquals(csvCell(null), "");
  assertEquals(csvCell(undefined), "");
  assertEquals(csvCell(""), "");
  assertEquals(csvCell(new Date("2026-03-04T05:06:07.000Z")), "2026-03-04T05:06:07.000Z");
  assertEquals(csvCell("São Paulo – ünïcödé"), "São Paulo – ünïcödé");
});

Deno.test("csvCell: commas, quotes and line breaks are quoted, inner quotes doubled", () => {
  assertEquals(csvCell("a,b"), '"a,b"');
  assertEquals(csvCell('say "hi"'), '"say ""hi"""');
  assertEquals(csvCell("line1\nline2"), '"line1\nline2"');
  assertEquals(csvCell("cr\rhere"), '"cr\rhere"');
  assertEquals(csvCell({ a: 1, b: "x" }), '"{""a"":1,""b"":""x""}"');
  assertEquals(csvCell(["x", "y"]), '"[""x"",""y""]"');
});

Deno.test("csvCell: formula-leading text gets a leading quote; numbers stay numbers", () => {
  assertEquals(csvCell("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
  assertEquals(csvCell("+1+1"), "'+1+1");
  assertEquals(csvCell("-2+3"), "'-2+3");
  assertEquals(csvCell("@SUM(A1:A2)"), "'@SUM(A1:A2)");
  assertEquals(csvCell("\t=1"), "'\t=1");
  assertEquals(csvCell('=HYPERLINK("http://x","y")'), '"\'=HYPERLINK(""http://x"",""y"")"');
  assertEquals(csvCell("=a,b"), `"'=a,b"`, "defused and quoted");
  assertEquals(csvCell(-5), "-5", "a negative number is data, not a formula");
  assertEquals(csvCell(-0.25), "-0.25");
  assertEquals(csvCell("a=b"), "a=b", "only a leading sign matters");
});

Deno.test("csvLine: cells joined with commas, ended by CRLF", () => {
  assertEquals(csvLine(["a", 1, null, "x,y"]), 'a,1,,"x,y"\r\n');
  assertEquals(csvLine([]), "\r\n");
});

/** Decodes keeping the byte-order mark (TextDecoder and Response.text() drop it by default). */
const dec = new TextDecoder("utf-8", { ignoreBOM: true });

async function readAll(stream: ReadableStream<Uint8Array>) {
  return dec.decode(await new Response(stream).arrayBuffer());
}

Deno.test("csvStream: BOM and header first, then one chunk per page, in order", async () => {
  const columns = [
    { header: "Name", value: (r: { n: string; v: number }) => r.n },
    { header: "Value", value: (r: { n: string; v: number }) => r.v },
  ];
  async function* pages() {
    yield [{ n: "a", v: 1 }, { n: "=b", v: -2 }];
    yield [{ n: "c,d", v: 3 }];
  }
  const text = await readAll(csvStream(columns, pages()));
  assertEquals(text, '\uFEFFName,Value\r\na,1\r\n\'=b,-2\r\n"c,d",3\r\n');
});

Deno.test("csvStream: with no rows there is still a header", async () => {
  async function* none(): AsyncGenerator<{ x: number }[]> {}
  assertEquals(await readAll(csvStream([{ header: "X", value: (r) => r.x }], none())), "\uFEFFX\r\n");
});

Deno.test("csvStream: streams: a page is read only when the reader asks for more", async () => {
  let pagesRead = 0;
  let finished = false;
  async function* pages() {
    try {
      for (let i = 0; i < 1000; i++) {
        pagesRead++;
        yield [{ i }];
      }
    } finally {
      finished = true;
    }
  }
  const reader = csvStream([{ header: "i", value: (r: { i: number }) => r.i }], pages()).getReader();
  assertEquals(dec.decode((await reader.read()).value), "\uFEFFi\r\n");
  assertEquals(dec.decode((await reader.read()).value), "0\r\n");
  assertEquals(dec.decode((await reader.read()).value), "1\r\n");
  assert(pagesRead <= 3, `only the pages asked for are read (read ${pagesRead} of 1000)`);
  // a client that goes away stops the reading of pages
  await reader.cancel();
  assert(finished, "the page source was closed on cancel");
  assert(pagesRead < 10);
});

Deno.test("csvStream: a failing page source errors the stream instead of ending it quietly", async () => {
  async function* pages() {
    yield [{ x: 1 }];
    throw new Error("database went away");
  }
  const err = await readAll(csvStream([{ header: "x", value: (r: { x: number }) => r.x }], pages())).then(
    () => null,
    (e: Error) => e,
  );
  assert(err, "reading fails");
  assertMatch(String(err), /database went away/);
});
