/**
 * Fonts for the invoice and purchase order PDFs: Noto Sans for Latin, Latin Extended, Vietnamese,
 * Cyrillic and Greek, Noto Sans Devanagari, and Noto Sans JP, SC and KR for Japanese, Chinese and
 * Korean, all from their @fontsource packages. Each package splits its font by Unicode range into
 * small WOFF files and says which file covers which range in its CSS (`400.css`, `700.css`), so a
 * document embeds only the files its text needs, each as a subset of the glyphs it uses.
 *
 * pdf-lib draws with one font at a time and embeds fonts asynchronously, so a document first
 * `prepare`s every text it will write (the fonts its characters need are embedded then), and
 * drawing splits a text into runs of one font each. A character no font covers is written as "?".
 * The WOFF files are used, not WOFF2: fontkit's subsetter mis-writes composite glyphs (Ż, ó) of
 * WOFF2 fonts. There is no shaping: Devanagari conjuncts print as their parts.
 */
import { Buffer } from "node:buffer";
import * as foliojsFontkit from "@foliojs-fork/fontkit";
import type { PDFDocument, PDFFont } from "pdf-lib";
import { packageFile, type PackageRead, PACKAGES_READ } from "../../package-files.ts";

/**
 * The font engine pdf-lib embeds with. @pdf-lib/fontkit bundles a Buffer polyfill that needs
 * `__proto__`, which Deno disables; PDFKit's maintained fork of fontkit runs on Node's real Buffer,
 * and wants one (it sniffs the format with `buffer.toString("ascii", 0, 4)`).
 */
// deno-lint-ignore no-explicit-any
const engine = ((foliojsFontkit as any).default ?? foliojsFontkit) as {
  create(b: Buffer, name?: string): unknown;
};
const fontkit = {
  create: (data: Uint8Array, name?: string) =>
    engine.create(Buffer.from(data.buffer, data.byteOffset, data.byteLength), name),
};

/** The font packages, in the order a character looks for its font. */
export const PDF_FONT_PACKAGES: readonly PackageRead[] = [
  PACKAGES_READ.pdfLatin,
  PACKAGES_READ.pdfDevanagari,
  PACKAGES_READ.pdfJapanese,
  PACKAGES_READ.pdfChinese,
  PACKAGES_READ.pdfKorean,
];

export type Weight = 400 | 700;
type Face = { file: string; ranges: [number, number][] };

/** `U+0460-052F,U+20B4` as ranges of code points. */
function parseRanges(list: string): [number, number][] {
  return list.split(",").map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, "").split("-");
    const start = parseInt(a.replace(/\?/g, "0"), 16);
    const end = b ? parseInt(b, 16) : parseInt(a.replace(/\?/g, "f"), 16);
    return [start, end] as [number, number];
  }).filter(([s, e]) => Number.isFinite(s) && Number.isFinite(e));
}

/** The faces of one package and weight, as its CSS declares them (WOFF file and Unicode ranges). */
async function packageFaces(pkg: PackageRead, weight: Weight): Promise<Face[]> {
  const css = await Deno.readTextFile(packageFile(pkg, `${weight}.css`));
  const faces: Face[] = [];
  for (const block of css.split("@font-face").slice(1)) {
    const file = /url\(\.\/(files\/[^)]+\.woff)\)\s*format\('woff'\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (!file || !/font-style:\s*normal/.test(block)) continue;
    faces.push({ file: packageFile(pkg, file), ranges: range ? parseRanges(range) : [[0, 0x10ffff]] });
  }
  return faces;
}

/** Every face of the PDF font packages for `weight`, in look-up order. */
export async function pdfFaces(weight: Weight): Promise<Face[]> {
  return (await Promise.all(PDF_FONT_PACKAGES.map((p) => packageFaces(p, weight)))).flat();
}

/** Characters that are drawn as nothing or as a space rather than looked up. */
const SPACE = /[\t\u00a0]/g;
// deno-lint-ignore no-control-regex
const DROP = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200b\ufeff\r]/g;
const clean = (s: string) => s.replace(SPACE, " ").replace(DROP, "");

/** One weight of a document's fonts: the faces its text needs, embedded as subsets. */
export class PdfFontSet {
  readonly #faceOf = new Map<number, Face | null>();
  readonly #fonts = new Map<Face, PDFFont>();
  #fallback: PDFFont | null = null;

  private constructor(readonly doc: PDFDocument, readonly faces: Face[]) {}

  static async create(doc: PDFDocument, weight: Weight): Promise<PdfFontSet> {
    // deno-lint-ignore no-explicit-any
    doc.registerFontkit(fontkit as any);
    return new PdfFontSet(doc, await pdfFaces(weight));
  }

  #face(cp: number): Face | null {
    let face = this.#faceOf.get(cp);
    if (face !== undefined) return face;
    face = this.faces.find((f) => f.ranges.some(([s, e]) => cp >= s && cp <= e)) ?? null;
    this.#faceOf.set(cp, face);
    return face;
  }

  /** Embeds the fonts that the characters of `texts` need (call before drawing them). */
  async prepare(...texts: string[]): Promise<void> {
    const needed = new Set<Face>();
    for (const ch of new Set(clean(texts.join("") + "?"))) {
      const face = this.#face(ch.codePointAt(0)!);
      if (face && !this.#fonts.has(face)) needed.add(face);
    }
    for (const face of needed) {
      const font = await this.doc.embedFont(await Deno.readFile(face.file), { subset: true });
      this.#fonts.set(face, font);
    }
    this.#fallback ??= this.#fonts.get(this.#face(0x3f)!) ?? null;
  }

  /** `text` as runs of one embedded font each; an unprepared or uncovered character becomes "?". */
  runs(text: string): { text: string; font: PDFFont }[] {
    const out: { text: string; font: PDFFont }[] = [];
    for (const ch of clean(text)) {
      const face = this.#face(ch.codePointAt(0)!);
      let font = face ? this.#fonts.get(face) : undefined;
      let c = ch;
      if (!font) {
        if (!this.#fallback) throw new Error("PdfFontSet: prepare() the text before drawing it");
        font = this.#fallback;
        c = "?";
      }
      const last = out[out.length - 1];
      if (last && last.font === font) last.text += c;
      else out.push({ text: c, font });
    }
    return out;
  }

  width(text: string, size: number): number {
    return this.runs(text).reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, size), 0);
  }
}
