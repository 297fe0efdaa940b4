/**
 * The invoice and purchase order PDFs, made in-process with pdf-lib: A4, real text (selectable and
 * extractable), the blocks of the invoice preview (issuer, bill-to, lines, totals, service
 * description, both bank-detail blocks). Fonts are Noto Sans subsets for the scripts the record's
 * text is written in (./pdf-fonts.ts): an address in Łódź or a branch in 東京 prints as typed.
 */
import { PDFDocument, type PDFPage, rgb } from "pdf-lib";
import { PdfFontSet } from "./pdf-fonts.ts";
import { amountDue, parseTaxLines, poLabel, taxAmounts, type TaxLine } from "../../../shared/tax.ts";
import type { InvoiceRecord, IssuingCompany, PurchaseOrderRecord } from "../../../shared/api/accounts.ts";
import { dmy } from "./dates.ts";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.8, 0.8, 0.84);

export const invoicePdfName = (code: string) => `Invoice#${code}.pdf`;
export const purchaseOrderPdfName = (code: string) => `PO#${code}.pdf`;

const usd = (n: number) =>
  `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Writes top-down on pages, starting a new page when one fills up. */
class Writer {
  page!: PDFPage;
  y = 0;
  constructor(readonly doc: PDFDocument, readonly font: PdfFontSet, readonly bold: PdfFontSet) {
    this.newPage();
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  width(s: string, size: number, font = this.font) {
    return font.width(s, size);
  }
  /** Splits text into lines that fit `max` points. */
  wrap(text: string, size: number, max: number, font = this.font): string[] {
    const out: string[] = [];
    for (const para of text.split("\n")) {
      let line = "";
      for (const word of para.split(/\s+/).filter(Boolean)) {
        const next = line ? `${line} ${word}` : word;
        if (this.width(next, size, font) <= max || !line) line = next;
        else {
          out.push(line);
          line = word;
        }
      }
      out.push(line);
    }
    return out;
  }
  ensure(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }
  /** Text in runs of one embedded font each (a script's own font: Latin, Cyrillic, CJK, ...). */
  text(s: string, x: number, y: number, size = 10, font = this.font, color = INK) {
    for (const run of font.runs(s)) {
      this.page.drawText(run.text, { x, y, size, font: run.font, color });
      x += run.font.widthOfTextAtSize(run.text, size);
    }
  }
  right(s: string, xRight: number, y: number, size = 10, font = this.font) {
    this.text(s, xRight - this.width(s, size, font), y, size, font);
  }
  /** A block of wrapped lines at x, moving down. */
  block(s: string, x: number, max: number, size = 9, font = this.font, color = INK) {
    for (const line of this.wrap(s, size, max, font)) {
      this.ensure(size + 3);
      this.text(line, x, this.y, size, font, color);
      this.y -= size + 3;
    }
  }
  rule() {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.6,
      color: RULE,
    });
    this.y -= 10;
  }
}

/** Labels the documents print, whatever the record (their characters' fonts are embedded too). */
const LABELS = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

/** A document and its writer, with the fonts every text of `record` needs embedded. */
async function writer(record: unknown) {
  const doc = await PDFDocument.create();
  const [regular, bold] = await Promise.all([PdfFontSet.create(doc, 400), PdfFontSet.create(doc, 700)]);
  const texts = JSON.stringify(record) + LABELS;
  await regular.prepare(texts);
  await bold.prepare(texts);
  return { doc, w: new Writer(doc, regular, bold) };
}

function header(w: Writer, issuer: IssuingCompany, title: string, facts: [string, string][]) {
  const top = w.y;
  w.text(issuer.companyName, MARGIN, w.y, 14, w.bold);
  w.y -= 16;
  w.block(
    [issuer.address, issuer.email, issuer.phone, issuer.taxNumber].filter(Boolean).join("\n"),
    MARGIN,
    280,
    9,
    w.font,
    MUTED,
  );
  const left = w.y;
  let y = top;
  const xr = A4[0] - MARGIN;
  w.right(title, xr, y, 20, w.bold);
  y -= 24;
  for (const [k, v] of facts) {
    w.right(`${k}: ${v}`, xr, y, 10);
    y -= 13;
  }
  w.y = Math.min(left, y) - 8;
  w.rule();
}

function table(
  w: Writer,
  cols: { title: string; x: number; right?: boolean; width: number }[],
  rows: string[][],
) {
  const head = () => {
    w.ensure(30);
    for (const c of cols) {
      if (c.right) w.right(c.title, c.x + c.width, w.y, 9, w.bold);
      else w.text(c.title, c.x, w.y, 9, w.bold);
    }
    w.y -= 6;
    w.rule();
  };
  head();
  for (const row of rows) {
    const wrapped = row.map((cell, i) => w.wrap(cell, 9, cols[i].width));
    const height = Math.max(...wrapped.map((l) => l.length)) * 12 + 4;
    if (w.y - height < MARGIN) {
      w.newPage();
      head();
    }
    wrapped.forEach((lines, i) => {
      lines.forEach((line, j) => {
        const c = cols[i];
        if (c.right) w.right(line, c.x + c.width, w.y - j * 12, 9);
        else w.text(line, c.x, w.y - j * 12, 9);
      });
    });
    w.y -= height;
  }
  w.rule();
}

function bankBlocks(w: Writer, issuer: IssuingCompany) {
  const half = (A4[0] - 2 * MARGIN - 20) / 2;
  w.ensure(140);
  const top = w.y;
  w.text("Beneficiary bank details (US)", MARGIN, w.y, 10, w.bold);
  w.y -= 14;
  w.block(issuer.bankUs, MARGIN, half, 8.5);
  const leftEnd = w.y;
  w.y = top;
  w.text("Beneficiary bank details (International)", MARGIN + half + 20, w.y, 10, w.bold);
  w.y -= 14;
  w.block(issuer.bankInternational, MARGIN + half + 20, half, 8.5);
  w.y = Math.min(leftEnd, w.y) - 6;
}

/**
 * The amounts under an invoice's lines: the grand total alone, or with tax lines the subtotal, each
 * tax (a rate's amount; a note as it is) and the total due.
 */
function totals(w: Writer, subtotal: number, lines: TaxLine[]) {
  const xr = A4[0] - MARGIN;
  const taxes = taxAmounts(subtotal, lines);
  w.ensure(30 + lines.length * 14);
  if (!lines.length) {
    w.right(`Grand total: ${usd(subtotal)}`, xr, w.y, 12, w.bold);
    w.y -= 14;
    return;
  }
  w.right(`Subtotal: ${usd(subtotal)}`, xr, w.y, 10);
  w.y -= 14;
  for (const line of lines) {
    if (line.rate === null) {
      w.right(line.label, xr, w.y, 9);
    } else {
      const amount = taxes.find((t) => t.label === line.label && t.rate === line.rate)?.amount ?? 0;
      w.right(`${line.label} (${line.rate}%): ${usd(amount)}`, xr, w.y, 10);
    }
    w.y -= 14;
  }
  w.right(`Total due: ${usd(amountDue(subtotal, taxes))}`, xr, w.y - 2, 12, w.bold);
  w.y -= 16;
}

/**
 * Whom a document is to (a titled block of its non-empty lines), then its lines: number, project,
 * count, CPI and amount, under the given titles of the project, count and amount columns.
 */
function partyAndLines(
  w: Writer,
  title: string,
  party: string[],
  heads: [project: string, count: string, amount: string],
  rows: string[][],
) {
  w.text(title, MARGIN, w.y, 10, w.bold);
  w.y -= 14;
  w.block(party.filter(Boolean).join("\n"), MARGIN, 300, 9.5);
  w.y -= 6;
  w.rule();
  const width = A4[0] - 2 * MARGIN;
  table(
    w,
    [
      { title: "#", x: MARGIN, width: 20 },
      { title: heads[0], x: MARGIN + 24, width: width - 24 - 250 },
      { title: heads[1], x: MARGIN + width - 240, width: 55, right: true },
      { title: "CPI (USD)", x: MARGIN + width - 175, width: 70, right: true },
      { title: heads[2], x: MARGIN + width - 95, width: 95, right: true },
    ],
    rows,
  );
}

/** The invoice as a PDF (the client's copy, without its payment state): `Invoice#{code}.pdf`. */
export async function invoicePdf(inv: InvoiceRecord): Promise<Uint8Array> {
  const { doc, w } = await writer(inv);
  doc.setTitle(`Invoice ${inv.invoiceCode}`);
  doc.setAuthor(inv.issuer.companyName);
  doc.setCreationDate(new Date(inv.createdAt));
  doc.setModificationDate(new Date(inv.updatedAt));
  header(w, inv.issuer, "INVOICE", [
    ["Invoice #", inv.invoiceCode],
    ["Date", dmy(inv.currentDate)],
    ["Due date", dmy(inv.dueDate)],
    ["Net terms", `${inv.netTerms} days`],
  ]);
  const c = inv.client;
  partyAndLines(
    w,
    "Bill to",
    [
      c.company || c.clientName,
      c.company && c.company !== c.clientName ? c.clientName : "",
      c.address1,
      c.address2,
      [c.city, c.state, c.zipCode].filter(Boolean).join(", "),
      c.countryId.name,
      c.clientPhoneNumber,
      c.clientEmail,
      c.taxId ? `Tax ID: ${c.taxId}` : "",
    ],
    ["PO number / Project", "Complete", "Amount due (USD)"],
    inv.projects.map((l, i) => [
      String(i + 1),
      `${l.poNumber ? `${poLabel(l.poNumber)} - ` : ""}${l.projectCode} ${l.projectName}`,
      String(l.complete),
      usd(l.cpi),
      usd(l.total),
    ]),
  );
  totals(w, inv.total, parseTaxLines(inv.issuer.taxLines));
  w.y -= 10;
  if (inv.issuer.serviceDescription) {
    w.ensure(40);
    w.text("Service description", MARGIN, w.y, 10, w.bold);
    w.y -= 14;
    w.block(inv.issuer.serviceDescription, MARGIN, A4[0] - 2 * MARGIN, 9);
    w.y -= 8;
  }
  bankBlocks(w, inv.issuer);
  return await doc.save();
}

/** The purchase order as a PDF: `PO#{code}.pdf`. */
export async function purchaseOrderPdf(po: PurchaseOrderRecord): Promise<Uint8Array> {
  const { doc, w } = await writer(po);
  doc.setTitle(`Purchase order ${po.poCode}`);
  doc.setAuthor(po.issuer.companyName);
  doc.setCreationDate(new Date(po.createdAt));
  header(w, po.issuer, "PURCHASE ORDER", [
    ["PO #", po.poCode],
    ["Date", dmy(po.currentDate)],
    ["Due date", dmy(po.dueDate)],
    ["Net terms", `${po.netTerms} days`],
    ["Status", po.poStatusLabel],
  ]);
  partyAndLines(
    w,
    "Supplier",
    [po.supplier.supplierName, po.supplier.countryName, po.supplier.supplierEmail],
    ["Project", "Accepted", "Amount (USD)"],
    po.projects.map((l, i) => [
      String(i + 1),
      `${l.projectCode} ${l.projectName}`,
      String(l.accepted),
      usd(l.supplierCPI),
      usd(l.total),
    ]),
  );
  w.ensure(30);
  w.right(`Total: ${usd(po.total)}`, A4[0] - MARGIN, w.y, 12, w.bold);
  w.y -= 24;
  return await doc.save();
}
