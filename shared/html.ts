/** Small, isomorphic helpers for the rich text of e-mails and questionnaires. */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/**
 * A link as plain text: its words, then its address in brackets ("Click (https://x)"), so the text
 * part keeps every URL. A link whose words are the address, or one to nowhere ("#", empty), keeps its
 * words only.
 */
function linkText(_m: string, dq?: string, sq?: string, bare?: string, inner = ""): string {
  const href = (dq ?? sq ?? bare ?? "").trim();
  const words = inner.replace(/<[^>]+>/g, "").trim();
  if (!href || href.startsWith("#") || /^javascript:/i.test(href)) return words;
  const shown = href.replace(/^mailto:/i, "");
  if (!words || words === href || words === shown) return shown;
  return `${words} (${shown})`;
}

/** Readable plain text of an HTML fragment (for the text part of an e-mail and blank checks). */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, "")
    .replace(/<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi, linkText)
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, "\n")
    .replace(/<li[^>]*>/gi, "- ")
    .replace(/<[^>]+>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITIES[e])
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}
