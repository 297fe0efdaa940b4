/**
 * Invoices and purchase orders for any client (issue: documents for any client): the PDF embeds
 * Noto Sans subsets for the scripts its text is in (an address in Łódź, a branch in 東京, Cyrillic,
 * Greek, Devanagari, Hangul and simplified Chinese print as typed, not as "?"), prints the issuer's
 * and the client's tax ids and the tax lines the issuing company defines, leaves the payment state
 * off the client's copy, and prints a PO number once ("PO-7788", not "PO PO-7788").
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { day, makeClient, makeSupplier, readyProject } from "../helpers/accounts.ts";
import * as Acc from "../../shared/api/accounts.ts";
import { pathOf } from "../../shared/api/contract.ts";
import * as C from "../../shared/api/clients.ts";

async function pdfTool(tool: "pdftotext" | "pdffonts", bytes: Uint8Array): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/x.pdf`, bytes);
    const args = tool === "pdftotext" ? ["-layout", `${dir}/x.pdf`, "-"] : [`${dir}/x.pdf`];
    const out = await new Deno.Command(tool, { args }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A PDF's bytes, read raw (the test client reads an answer as text), from a call's path. */
async function download(t: TestApp, token: string, path: string): Promise<Uint8Array> {
  const res = await t.app.request(`/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  assertEquals(res.status, 200, await res.clone().text());
  assertEquals(res.headers.get("content-type"), "application/pdf");
  return new Uint8Array(await res.arrayBuffer());
}

/** Every font of the PDF is embedded (no standard Helvetica a reader substitutes). */
function assertFontsEmbedded(fonts: string) {
  const rows = fonts.split("\n").slice(2).filter((l) => l.trim());
  assert(rows.length > 0, fonts);
  for (const row of rows) {
    assert(!/Helvetica/.test(row), `a standard font is used: ${row}`);
    assertMatch(row, /\byes\b/, `not embedded: ${row}`);
  }
}

const UNICODE = {
  company: "Łódź Panel Sp. z o.o.",
  address1: "ul. Żółkiewskiego 5, Łódź — 東京支社",
  address2: "Москва · Αθήνα · नई दिल्ली · 서울 · 上海市",
};

Deno.test("documents: an invoice prints every script as typed, tax ids and the issuer's tax lines, no payment state, PO numbers once", async () => {
  const t = await testApp();
  try {
    const su = await t.tokenFor("SUPERADMIN");
    const token = await t.tokenFor("ACCOUNTANT");
    // the default entity gets a rate and a note
    const companies = await t.api(Acc.issuingCompaniesCall, { token: su });
    const main = companies.json.result.find((c: { accountMarker: string }) => c.accountMarker === "");
    const { _id, accountMarker: _m, updatedAt: _u, ...body } = main;
    const edit = await t.api(Acc.updateIssuingCompanyCall, {
      params: { id: _id },
      token: su,
      body: { ...body, taxLines: "IGST 18%\nPlace of supply: outside India" },
    });
    assertEquals(edit.status, 200, edit.text);

    const client = await makeClient(t, { ...UNICODE, clientName: "Łódź Panel", taxId: "PL5260250274" });
    const rec = await t.api(C.getClientCall, { params: { id: client._id }, token: su });
    assertEquals(rec.json.result.taxId, "PL5260250274", "the client keeps its tax id");
    const a = await readyProject(t, { clientId: client._id, complete: 100, cpi: 2.5 });
    const r = await t.api(Acc.addInvoiceCall, {
      token,
      body: {
        clientId: client._id,
        netTerms: 30,
        currentDate: day(),
        dueDate: day(30),
        projects: [
          {
            projectId: a._id,
            projectCode: a.projectCode,
            projectName: a.projectName,
            poNumber: "PO-7788",
            complete: 100,
            cpi: 2.5,
            total: 250,
          },
          {
            projectCode: "EXTRA-1",
            projectName: "Coding",
            poNumber: "4411",
            complete: 3,
            cpi: 10,
            total: 30,
          },
        ],
      },
    });
    assertEquals(r.status, 200, r.text);
    const inv = r.json.result.invoice;
    assertEquals(inv.client.taxId, "PL5260250274");
    // paid: the client's copy still says nothing of it
    const pdf = await download(t, token, pathOf(Acc.downloadInvoiceCall, { id: inv._id }));
    const text = await pdfTool("pdftotext", pdf);
    for (
      const s of [
        UNICODE.company,
        "ul. Żółkiewskiego 5, Łódź — 東京支社",
        "Москва",
        "Αθήνα",
        "서울",
        "上海市",
        "Tax ID: PL5260250274",
        main.taxNumber,
        "PO-7788 - ",
        "PO 4411 - ",
        "Subtotal: $280.00",
        "IGST (18%): $50.40",
        "Place of supply: outside India",
        "Total due: $330.40",
      ]
    ) assert(text.includes(s), `PDF text lacks ${s}:\n${text}`);
    // Devanagari is drawn glyph by glyph (no shaping): its letters are all there
    for (const ch of "नईदिल") assert(text.includes(ch), `PDF text lacks ${ch}`);
    assert(!text.includes("PO PO-7788"), "the PO prefix is printed once");
    assert(!text.includes("?"), `a character fell back to "?":\n${text}`);
    assert(
      !/\bStatus\b|\bUnpaid\b|\bPaid\b|Payment reference/.test(text),
      `payment state on the client's copy:\n${text}`,
    );
    assertFontsEmbedded(await pdfTool("pdffonts", pdf));
  } finally {
    await t.close();
  }
});

Deno.test("documents: a purchase order embeds its fonts and prints a supplier's name in any script", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const supplier = await makeSupplier(t, { supplierName: "Панель Восток 東" });
    await readyProject(t, { supplier: { _id: supplier._id, approved: 10, supplierCPI: 2 } });
    const po = await t.api(Acc.addPurchaseOrderCall, {
      token,
      body: { supplierId: supplier._id },
    });
    assertEquals(po.status, 200, po.text);
    const pdf = await download(t, token, po.json.result.apiUrl.replace(/^\/api\/v1/, "")); // the link the server gave;
    const text = await pdfTool("pdftotext", pdf);
    assert(text.includes("Панель Восток 東"), text);
    assertFontsEmbedded(await pdfTool("pdffonts", pdf));
  } finally {
    await t.close();
  }
});

Deno.test("documents: an issuing company's tax lines are checked when saved", async () => {
  const t = await testApp();
  try {
    const su = await t.tokenFor("SUPERADMIN");
    const companies = await t.api(Acc.issuingCompaniesCall, { token: su });
    const { _id, accountMarker: _m, updatedAt: _u, ...body } = companies.json.result[0];
    const over = await t.api(Acc.updateIssuingCompanyCall, {
      params: { id: _id },
      token: su,
      bad: { ...body, taxLines: "VAT 20%\nSurcharge 230%" },
    });
    assertEquals([over.status, over.json.message], [400, "Tax lines: a rate is at most 100% (line 2)"]);
    const many = await t.api(Acc.updateIssuingCompanyCall, {
      params: { id: _id },
      token: su,
      bad: { ...body, taxLines: Array.from({ length: 7 }, (_, i) => `Tax ${i} 1%`).join("\n") },
    });
    assertEquals([many.status, many.json.message], [400, "Tax lines: at most 6 lines"]);
  } finally {
    await t.close();
  }
});
