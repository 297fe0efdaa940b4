/**
 * The e-mail HTML sanitizer: an allow-list over a real HTML parser (sanitize-html, on htmlparser2).
 *
 * Why this library: it parses with htmlparser2 (the parser under cheerio), so it sees the tags and
 * attributes a mail client sees, including `<svg/onload=..>`, unquoted and slash-separated
 * attributes and entity-encoded URLs; it needs no DOM (DOMPurify does, and would drag linkedom or
 * jsdom onto the server); it runs under Deno from npm as is; and it is allow-list first: what is not
 * named below is dropped. URL attributes are decoded and checked against the schemes named here.
 *
 * Applied twice: when a mail is queued (the outbox row is what was saved) and again when it is sent
 * (rows queued before this sanitizer existed, or written by another tool, are cleaned on the way out).
 */
// @ts-types="@types/sanitize-html"
import sanitizeHtml from "sanitize-html";

/** What the rich-text editor writes (TipTap StarterKit) plus the tables of the system's own mails. */
export const EMAIL_TAGS = [
  "p",
  "br",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "strike",
  "del",
  "sub",
  "sup",
  "small",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "a",
  "span",
  "div",
  "img",
  "table",
  "caption",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
] as const;

const CELL = ["colspan", "rowspan", "align", "valign", "width", "style"];

/** Plain CSS values only: no url(), expression(), escapes, comments or quotes. */
const CSS_VALUE = /^[#a-z0-9 .,%-]{1,60}$/i;
const CSS_COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\(\s*[\d.]+%?\s*(,\s*[\d.]+%?\s*){2,3}\))$/i;
const cssProps = ["text-align", "font-weight", "font-style", "text-decoration", "border-collapse", "padding"];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...EMAIL_TAGS],
  allowedAttributes: {
    a: ["href", "title", { name: "target", values: ["_blank"], multiple: false }, "rel"],
    img: ["src", "alt", "title", "width", "height"],
    ol: ["start"],
    table: ["cellpadding", "cellspacing", "border", "width", "style"],
    td: CELL,
    th: CELL,
    tr: ["style"],
    p: ["style"],
    span: ["style"],
    div: ["style"],
  },
  allowedStyles: {
    "*": {
      color: [CSS_COLOR],
      "background-color": [CSS_COLOR],
      ...Object.fromEntries(cssProps.map((p) => [p, [CSS_VALUE]])),
    },
  },
  // links: the web and mail; images: the web only (no data:, no cid:, no protocol-relative)
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  // the text inside these is code or markup of its own, never words of the message
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "template", "xmp", "noembed"],
  disallowedTagsMode: "discard",
  enforceHtmlBoundary: false,
  parseStyleAttributes: true,
  transformTags: {
    // a link that opens a new window does not hand it the opener
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target ? { ...attribs, rel: "noopener noreferrer nofollow" } : attribs,
    }),
  },
};

/** The e-mail body with everything outside the allow-list removed; plain text comes out escaped. */
export function safeEmailHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
