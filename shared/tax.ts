/**
 * The tax lines an issuing company defines, printed under an invoice's subtotal: one per line,
 * either a rate ("GST 18%", "VAT 20 %") whose amount is the subtotal times the rate, or a note
 * ("Reverse charge: VAT to be accounted for by the recipient") printed as it is. An invoice's
 * `total` stays the net amount (revenue); the document adds the taxes to the amount due.
 */
export type TaxLine = { label: string; rate: number | null };
export type TaxAmount = { label: string; rate: number; amount: number };

export const MAX_TAX_LINES = 6;
const RATE = /^(.*?)\s*(\d{1,3}(?:\.\d{1,4})?)\s*%\s*$/;

/** The lines of a company's tax-lines text (blank lines left out). */
export function parseTaxLines(text: string): TaxLine[] {
  return text.split("\n").map((l) => l.trim()).filter(Boolean).map((line) => {
    const m = RATE.exec(line);
    return m ? { label: m[1].trim() || "Tax", rate: Number(m[2]) } : { label: line, rate: null };
  });
}

/** Why a tax-lines text cannot be saved, or null when it can. */
export function taxLinesProblem(text: string): string | null {
  const lines = parseTaxLines(text);
  if (lines.length > MAX_TAX_LINES) return `Tax lines: at most ${MAX_TAX_LINES} lines`;
  const bad = lines.findIndex((l) => l.rate !== null && l.rate > 100);
  return bad < 0 ? null : `Tax lines: a rate is at most 100% (line ${bad + 1})`;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** Each rate line's amount on `subtotal`, to the cent. */
export function taxAmounts(subtotal: number, lines: TaxLine[]): TaxAmount[] {
  return lines.filter((l): l is TaxLine & { rate: number } => l.rate !== null)
    .map((l) => ({ label: l.label, rate: l.rate, amount: cents(subtotal * l.rate / 100) }));
}

/** The amount due: the subtotal and every tax amount, to the cent. */
export function amountDue(subtotal: number, taxes: TaxAmount[]): number {
  return cents(taxes.reduce((sum, t) => sum + t.amount, subtotal));
}

/** A PO number as printed: "PO 7788", or as it is when it already says PO ("PO-7788"). */
export function poLabel(poNumber: string): string {
  const n = poNumber.trim();
  return /^PO(?![A-Za-z])/i.test(n) ? n : `PO ${n}`;
}
