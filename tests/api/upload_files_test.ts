/**
 * Bad files for every upload: the reconcile identifier file (parsed on the server), the invoice and
 * purchase-order reference files (parsed in the browser, sent as rows), and the zip-code and
 * multi-link files of a child project (read in the browser, sent as lists). Each file goes the way
 * the app sends it: its bytes read as the browser reads a File, then the dialog's own parse.
 * Broken quoting, an empty file, a million lines, random bytes, a PNG, UTF-16 with its BOM, CRLF
 * against LF: each answered with a clear message (or processed), never a 500, and a million-line
 * reconcile upload never holds up the respondents being served meanwhile.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { enter, liveProject } from "../helpers/router.ts";
import { makeChild, makeParent } from "../helpers/fixtures.ts";
import { closedProject as closedWith } from "../helpers/reconcile.ts";
import { reconcileMismatches } from "../../server/domain/reconcile/recount.ts";
import {
  isSurveyUrl,
  isUrlTitle,
  isZipCode,
  isZipTitle,
  readFirstColumn,
} from "../../web/src/features/projects/csv.ts";
import Papa from "papaparse";
import * as Proj from "../../shared/api/projects.ts";
import * as Acc from "../../shared/api/accounts.ts";
import * as Rec from "../../shared/api/reconcile.ts";

const enc = new TextEncoder();
/** A PNG: its signature, an IHDR chunk and a few IDAT bytes (NULs and bytes that are no UTF-8). */
const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0x00,
  0x00,
  0x00,
  0x0d,
  0x49,
  0x48,
  0x44,
  0x52,
  0x00,
  0x00,
  0x00,
  0x01,
  0x00,
  0x00,
  0x00,
  0x01,
  0x08,
  0x06,
  0x00,
  0x00,
  0x00,
  0x1f,
  0x15,
  0xc4,
  0x89,
  0x00,
  0x00,
  0x00,
  0x0a,
  0x49,
  0x44,
  0x41,
  0x54,
  0x78,
  0x9c,
  0x63,
  0x00,
  0x01,
  0x00,
  0x00,
  0x05,
  0x00,
  0x01,
  0x0d,
  0x0a,
  0x2d,
  0xb4,
  0x00,
  0x00,
  0x00,
  0x00,
  0x49,
  0x45,
  0x4e,
  0x44,
  0xae,
  0x42,
  0x60,
  0x82,
]);
function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65_536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65_536)));
  out[7] = 0; // at least one NUL, as random binary nearly always has
  return out;
}
/** UTF-16 little-endian with its byte-order mark, as Excel's "Unicode text" saves. */
function utf16(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff, out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    out[2 + i * 2] = text.charCodeAt(i) & 0xff;
    out[3 + i * 2] = text.charCodeAt(i) >> 8;
  }
  return out;
}
/** The file's text as the browser's File.text() gives it (UTF-8, bad bytes as U+FFFD). */
const fileText = (bytes: Uint8Array) => new File([bytes.slice()], "upload.csv").text();

/** A live project with `n` completes, then Closed (PO set): ready for reconcile uploads. */
const closedProject = (t: TestApp, n: number) => closedWith(t, { complete: n });

Deno.test("reconcile upload: broken quoting, empty, binary, PNG, UTF-16 and CRLF files each get a clear answer, never a 500, nothing half applied", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, 3);
    const [a, b, c] = s.completes;
    const token = await t.tokenFor("SUPERADMIN");
    const send = async (bytes: Uint8Array, type = 1) =>
      await t.api(Rec.reconcileUpload, {
        params: { id: s.parent._id },
        token,
        bad: { type, csv: await fileText(bytes), fileName: "upload.csv" },
      });
    const undo = async () => {
      const r = await t.api(Rec.reconcileUndo, { params: { id: s.parent._id }, token });
      assertEquals(r.status, 200, r.text);
    };

    // refused, each with what is wrong; nothing applied
    const refused: [string, Uint8Array, string][] = [
      ["empty", new Uint8Array(), "The file holds no identifiers"],
      ["blank lines only", enc.encode("\r\n\r\n"), "The file holds no identifiers"],
      ["a header alone", enc.encode("UID\n"), "The file holds no identifiers"],
      ["random bytes", randomBytes(4096), "the file is not a text (CSV) file"],
      [
        // a byte-order mark's bytes, then binary: not taken for UTF-16 (random bytes start so often)
        "binary starting FF FE",
        new Uint8Array([0xff, 0xfe, 0x89, 0x50, 0x00, 0x13, 0x37, 0x00, 0xc3, 0x28, 0x0a, 0x01]),
        "the file is not a text (CSV) file",
      ],
      ["a PNG", PNG, "the file is not a text (CSV) file"],
      [
        "UTF-16 with BOM",
        utf16(`uid\r\n${a}\r\n${b}\r\n`),
        "The file is UTF-16 text: save it as CSV UTF-8 and upload it again",
      ],
      [
        "a quoted cell over two lines",
        enc.encode(`${a}\n"${b}\n${c}"\n`),
        "Line 2: an identifier holds no spaces or control characters",
      ],
      [
        "two values on a line",
        enc.encode(`${a}\n"${b}","${c}"\n`),
        "Line 2: one identifier a line, found 2 values",
      ],
    ];
    for (const [label, bytes, message] of refused) {
      const r = await send(bytes);
      assertEquals(r.status, 400, `${label}: ${r.text.slice(0, 200)}`);
      assert(r.json.message.includes(message), `${label}: ${r.json.message}`);
    }
    const none = await t.deps.db.selectFrom("reconciles").select("id").execute();
    assertEquals(none.length, 0, "a refused file left a reconcile behind");

    // stray quotes are dropped (the file's rule): the identifiers go through
    const stray = await send(enc.encode(`"${a}\n${b}"\n"${c}"x\n`));
    assertEquals(
      [stray.status, stray.json.result?.matched, stray.json.result?.unknown],
      [200, 2, 1],
      stray.text,
    );
    await undo();

    // CRLF and LF (and a UTF-8 BOM, and a last line without a break) read alike
    const lf = await send(enc.encode(`uid\n${a}\n${b}\n${c}\n`));
    assertEquals(lf.status, 200, lf.text);
    await undo();
    const crlf = await send(enc.encode(`\uFEFFuid\r\n${a}\r\n${b}\r\n${c}`));
    assertEquals(crlf.status, 200, crlf.text);
    const pick = (r: typeof lf) => [r.json.result.matched, r.json.result.unknown, r.json.result.duplicates];
    assertEquals(pick(crlf), pick(lf));
    assertEquals(pick(lf), [3, 0, 0]);
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

Deno.test("reconcile upload: a file of 1,000,000 lines is parsed and answered within bounds while respondents keep being served", async () => {
  const t = await testApp();
  try {
    const s = await closedProject(t, 2);
    const other = await liveProject(t);
    const token = await t.tokenFor("SUPERADMIN");
    const lines = [...s.completes];
    for (let i = lines.length; i < 1_000_000; i++) lines.push(`zz${i.toString(36).padStart(8, "0")}`);
    const bytes = enc.encode(lines.join("\n") + "\n");

    let uploading = true;
    const started = performance.now();
    const upload = t.api(Rec.reconcileUpload, {
      params: { id: s.parent._id },
      token,
      body: { type: 1, csv: await fileText(bytes), fileName: "million.csv" },
    }).finally(() => uploading = false);
    // each entry's time, and the longest the server went without answering one (a stall shows in both)
    const times: number[] = [];
    let n = 0, last = performance.now(), longestGap = 0;
    await Promise.all(Array.from({ length: 2 }, async (_, w) => {
      while (uploading) {
        const t0 = performance.now();
        const r = await enter(t, other.mapId, `busy-${w}-${n++}`);
        const now = performance.now();
        times.push(now - t0);
        if (uploading) longestGap = Math.max(longestGap, now - last);
        last = now;
        assertEquals(r.status, 302, r.text);
      }
    }));
    const r = await upload;
    const seconds = (performance.now() - started) / 1000;
    assert(r.status < 500, `${r.status} ${r.text.slice(0, 200)}`);
    if (r.status === 200) {
      assertEquals([r.json.result.matched, r.json.result.unknown], [2, 999_998]);
    } else {
      assert(r.status === 413 || r.status === 400, r.text.slice(0, 200));
      assert(typeof r.json.message === "string" && r.json.message.length > 0);
    }
    assert(times.length >= 3, `respondents answered during the upload: ${times.length}`);
    const slowest = Math.max(...times);
    console.log(
      `million-line reconcile: ${r.status} in ${
        seconds.toFixed(1)
      } s; ${times.length} entries meanwhile, slowest ${slowest.toFixed(0)} ms, longest without an answer ${
        longestGap.toFixed(0)
      } ms`,
    );
    // a sanity bound on a shared machine: the upload never holds the event loop for long
    assert(slowest < 1_500, `slowest entry during the upload: ${slowest.toFixed(0)} ms`);
    assert(longestGap < 1_500, `longest without an entry answered: ${longestGap.toFixed(0)} ms`);
    assertEquals(await reconcileMismatches(t.deps.db, [s.child._id]), []);
  } finally {
    await t.close();
  }
});

/** The rows the Upload Ref. No. dialog sends for a file (its papaparse settings). */
async function refRows(bytes: Uint8Array): Promise<unknown[][]> {
  const parsed = Papa.parse<unknown[]>(await fileText(bytes), {
    header: false,
    dynamicTyping: true,
    skipEmptyLines: "greedy",
  });
  return parsed.data.filter((row) => Array.isArray(row) && row.length > 0);
}

Deno.test("reference uploads (invoices, purchase orders): bad files are refused with a clear 4xx message, CRLF and LF alike", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    for (const call of [Acc.uploadInvoiceRefsCall, Acc.uploadPurchaseOrderRefsCall]) {
      const send = async (bytes: Uint8Array) =>
        await t.api(call, { token, bad: { data: await refRows(bytes) } });
      const million = new Uint8Array(enc.encode("INV100,REF-1\n".repeat(1_000_000)));
      const cases: [string, Uint8Array, number, string][] = [
        ["empty", new Uint8Array(), 400, "The file holds no rows"],
        ["broken quoting", enc.encode('INV1,"REF 1\nINV2,REF2\n'), 400, "Line 1: there is no"],
        ["random bytes", randomBytes(2048), 400, "not UTF-8 text"],
        ["a PNG", PNG, 400, "not UTF-8 text"],
        ["UTF-16 with BOM", utf16("INV1,REF1\r\n"), 400, "not UTF-8 text"],
        ["1,000,000 lines", million, 413, "The request body is too large (at most 4 MiB)"],
        ["LF", enc.encode("INV1,REF1\nINV2,REF2\n"), 400, "Line 1: there is no"],
        ["CRLF", enc.encode("INV1,REF1\r\nINV2,REF2\r\n"), 400, "Line 1: there is no"],
      ];
      for (const [label, bytes, status, message] of cases) {
        const r = await send(bytes);
        assertEquals(r.status, status, `${call.key} ${label}: ${r.text.slice(0, 200)}`);
        assert(String(r.json?.message).includes(message), `${call.key} ${label}: ${r.json?.message}`);
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("zip-code and link files: read as the child project screens read them; UTF-16 read as text, binary refused; the server bounds what they send", async () => {
  const file = (bytes: Uint8Array) => new File([bytes.slice()], "codes.csv");
  // CRLF, LF and UTF-16 (Excel's "Unicode text") give the same codes; the title row goes
  const lf = await readFirstColumn(file(enc.encode("Zip\n10001\n94105\n10001\n")), isZipCode, isZipTitle);
  const crlf = await readFirstColumn(file(enc.encode("Zip\r\n10001\r\n94105\r\n")), isZipCode, isZipTitle);
  const wide = await readFirstColumn(file(utf16("Zip\r\n10001\r\n94105\r\n")), isZipCode, isZipTitle);
  assertEquals(lf.values, ["10001", "94105"]);
  assertEquals(crlf, lf);
  assertEquals(wide.values, lf.values);
  const links = await readFirstColumn(
    file(utf16("https://client.example/s?uid=[uid]&n=1\r\nhttps://client.example/s?uid=[uid]&n=2\r\n")),
    isSurveyUrl,
    isUrlTitle,
  );
  assertEquals(links.values.length, 2);
  // broken quoting and an empty file: nothing taken, no crash
  assertEquals((await readFirstColumn(file(new Uint8Array()), isZipCode, isZipTitle)).values, []);
  const broken = await readFirstColumn(file(enc.encode('10001\n"94105\n60601\n')), isZipCode, isZipTitle);
  assert(!broken.values.some((v) => v.includes("\n")), JSON.stringify(broken));
  // binary files are not read as codes: the screens say "The file could not be read as CSV"
  for (const bytes of [randomBytes(4096), PNG]) {
    let error = "";
    await readFirstColumn(file(bytes), isZipCode, isZipTitle).catch((e) => error = String(e?.message ?? e));
    assert(error.includes("not a text"), `binary read as codes: ${error}`);
  }

  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const update = (body: unknown) =>
      t.api(Proj.updateProjectCall, { params: { id: child._id }, token, bad: body });
    // a million-line file of codes or links: a clear 4xx (the list's bound, or the body's)
    const codes = Array.from({ length: 1_000_000 }, (_, i) => String(10000 + i));
    const many = await update({ zipCodeId: codes });
    assertEquals(many.status, 413, many.text.slice(0, 200));
    const over = await update({ zipCodeId: codes.slice(0, 10_001) });
    assertEquals([over.status, over.json.message], [400, "At most 10000 zip code entries"]);
    const urls = Array.from({ length: 1_000_000 }, (_, i) => `https://client.example/s?uid=[uid]&n=${i}`);
    const manyLinks = await update({ isMultiLinkUrl: true, multiLinkUrls: urls });
    assertEquals(manyLinks.status, 413, manyLinks.text.slice(0, 200));
    assertEquals(typeof manyLinks.json.message, "string");
    const fine = await update({ zipCodeId: lf.values, isMultiLinkUrl: true, multiLinkUrls: links.values });
    assertEquals(fine.status, 200, fine.text);
  } finally {
    await t.close();
  }
});
