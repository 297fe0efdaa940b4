/**
 * A strict reader of sanitized e-mail HTML that shares no code with the sanitizer: every `<` must
 * open a well-formed tag of the allow-list, no attribute may be a handler or a form/meta/base
 * control, and no URL, once its entities and invisible characters are undone, may use a script or
 * data scheme.
 */
import { EMAIL_TAGS } from "../../server/domain/email/sanitize.ts";

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z][a-zA-Z0-9-]*(?:="[^"<>]*")?)*)\s*(\/?)>/g;
const ATTR = /([a-zA-Z][a-zA-Z0-9-]*)(?:="([^"]*)")?/g;
const FORBIDDEN_TAGS =
  /^(script|style|iframe|frame|frameset|object|embed|meta|base|form|input|button|link|svg|math|textarea|template|noscript|applet|isindex|video|audio|source)$/i;
const BAD_ATTRS =
  /^(on.*|formaction|action|http-equiv|srcdoc|xmlns.*|xlink.*|background|dynsrc|lowsrc|data)$/i;

function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(
      /&(colon|tab|newline|amp|lt|gt|quot|apos);/gi,
      (_m, n: string) =>
        ({ colon: ":", tab: "\t", newline: "\n", amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" })[
          n.toLowerCase()
        ]!,
    );
}

/** What is wrong with sanitized output, as readable findings (none: inert). */
export function findings(html: string): string[] {
  const out: string[] = [];
  const rest = html.replace(TAG, (_m, _close: string, name: string, attrs: string) => {
    if (!(EMAIL_TAGS as readonly string[]).includes(name.toLowerCase())) out.push(`tag <${name}>`);
    if (FORBIDDEN_TAGS.test(name)) out.push(`forbidden tag <${name}>`);
    for (const [, attr, raw = ""] of attrs.matchAll(ATTR)) {
      if (BAD_ATTRS.test(attr)) out.push(`attribute ${attr}`);
      // what a browser would see: entities decoded, control and space characters dropped
      // deno-lint-ignore no-control-regex
      const value = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f]/g, "").toLowerCase();
      if (/^(href|src)$/i.test(attr) && /^(javascript|vbscript|data|livescript):/.test(value)) {
        out.push(`${attr}=${raw}`);
      }
      if (/^(href|src)$/i.test(attr) && value.startsWith("//")) out.push(`protocol-relative ${attr}`);
      if (attr.toLowerCase() === "style" && /url\(|expression|\\|behavior|@import|javascript/.test(value)) {
        out.push(`style=${raw}`);
      }
    }
    return "";
  });
  if (rest.includes("<")) out.push(`raw < left in text: ${JSON.stringify(rest)}`);
  return out;
}
