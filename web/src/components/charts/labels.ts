/** Axis labels that use the room they have: whole when they fit, else cut with an ellipsis to fit. */

/**
 * `text` as is when `measure(text)` fits in `maxWidth` (px), else the longest start of it (at a
 * word end when one is near) followed by "…" that fits; never less than one character and "…".
 */
export function fitLabel(text: string, maxWidth: number, measure: (s: string) => number): string {
  if (measure(text) <= maxWidth) return text;
  let lo = 1;
  let hi = text.length - 1;
  // the longest prefix p with measure(p + "…") <= maxWidth
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid).trimEnd() + "…") <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  const cut = text.slice(0, lo);
  // prefer ending at a word when that keeps most of the room used
  const space = cut.lastIndexOf(" ");
  const prefix = space >= Math.ceil(lo * 0.6) ? cut.slice(0, space) : cut;
  return prefix.trimEnd() + "…";
}

/** A text measurer for a canvas font (the chart's axis font); a rough estimate without a canvas. */
export function canvasMeasure(font: string): (s: string) => number {
  const ctx = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
  if (!ctx) return (s) => s.length * 7;
  ctx.font = font;
  return (s) => ctx.measureText(s).width;
}
