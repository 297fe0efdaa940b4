/**
 * The built SPA (web/dist) as files over HTTP: /assets/* with a year of immutable caching (their
 * names carry a content hash; a missing one is a 404, never index.html), the other files of the
 * build revalidated (no-cache), and index.html for any other GET (history fallback).
 *
 * Each file may have pre-compressed siblings made at build time (`x.js.br`, `x.js.gz`, see
 * precompress() in server/web-build.ts): brotli is sent when the client accepts it, else gzip, else
 * the file itself, always with `Vary: Accept-Encoding`, the original file's Content-Type and the
 * Content-Length of the bytes actually sent. HEAD answers the same headers with no body.
 */
import type { Context, Env, Hono } from "hono";

export const ASSETS_CACHE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";

const MIME: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  webmanifest: "application/manifest+json; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  wasm: "application/wasm",
  pdf: "application/pdf",
};

export function contentTypeOf(path: string): string {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return MIME[ext] ?? "application/octet-stream";
}

/** Encodings in the order they are preferred, with the suffix of their pre-compressed file. */
const ENCODINGS = [{ name: "br", suffix: ".br" }, { name: "gzip", suffix: ".gz" }] as const;
type Encoding = (typeof ENCODINGS)[number]["name"];

/**
 * The content codings an Accept-Encoding header allows (q > 0), among br and gzip. `*` stands for
 * any coding not named; a coding named with q=0 is refused even then.
 */
export function acceptedEncodings(header: string | undefined | null): Set<Encoding> {
  const q = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [token, ...params] = part.trim().toLowerCase().split(";");
    if (!token) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    q.set(token.trim() === "x-gzip" ? "gzip" : token.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const out = new Set<Encoding>();
  for (const { name } of ENCODINGS) {
    const w = q.get(name) ?? q.get("*") ?? 0;
    if (w > 0) out.add(name);
  }
  return out;
}

/** The file under `root` that a URL path names, or null for anything that could leave it. */
function fileUnder(root: string, urlPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (!path.startsWith("/") || path.includes("\0") || path.includes("\\")) return null;
  if (/(?:^|\/)\.{1,2}(?:\/|$)|\/\//.test(path)) return null;
  if (path.endsWith("/")) path += "index.html";
  return `${root.replace(/\/+$/, "")}${path}`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * The response for one file of the build, or null when there is no such file. Picks the
 * pre-compressed sibling the client accepts; reads the chosen file whole (built files are small),
 * so Content-Length is exact.
 */
export async function fileResponse(
  c: Context,
  file: string,
  cacheControl: string,
): Promise<Response | null> {
  if (!(await isFile(file))) return null;
  const accepted = acceptedEncodings(c.req.header("accept-encoding"));
  let chosen = file;
  let encoding: Encoding | null = null;
  for (const { name, suffix } of ENCODINGS) {
    if (accepted.has(name) && (await isFile(file + suffix))) {
      chosen = file + suffix;
      encoding = name;
      break;
    }
  }
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await Deno.readFile(chosen);
  } catch {
    return null; // removed between stat and read (a rebuild): as if missing
  }
  const headers = new Headers({
    "content-type": contentTypeOf(file),
    "content-length": String(body.byteLength),
    "cache-control": cacheControl,
    vary: "Accept-Encoding",
  });
  if (encoding) headers.set("content-encoding", encoding);
  return c.newResponse(c.req.method === "HEAD" ? null : body, 200, Object.fromEntries(headers));
}

/** Registers the SPA's routes on `app`, after the API's. */
export function mountSpa<E extends Env>(app: Hono<E>, root: string): void {
  const serve =
    (cache: (path: string) => string | null) => async (c: Context<E>, next: () => Promise<void>) => {
      if (c.req.method !== "GET" && c.req.method !== "HEAD") return await next();
      const cacheControl = cache(c.req.path);
      const file = cacheControl ? fileUnder(root, c.req.path) : null;
      const res = file ? await fileResponse(c, file, cacheControl!) : null;
      if (res) return res;
      await next();
    };
  // hashed bundles: cached for a year; a missing one is a 404, not the SPA
  app.use("/assets/*", serve(() => ASSETS_CACHE));
  app.get("/assets/*", (c) => c.text("Not found", 404));
  // other files of the build (index.html at / too) are revalidated, so a deploy is seen at once
  app.use("*", serve(() => REVALIDATE));
  // history fallback: any other GET is a client route
  app.get("*", async (c, next) => {
    const res = await fileResponse(c, `${root.replace(/\/+$/, "")}/index.html`, REVALIDATE);
    if (res) return res;
    await next();
  });
}

/** The headers of a small plain-text file of the server (security.txt, robots.txt), cached a day. */
const text = (body: string) => ({
  "content-type": "text/plain; charset=utf-8",
  "cache-control": "public, max-age=86400",
  "content-length": String(new TextEncoder().encode(body).length),
});

/**
 * `/robots.txt`: a back-office is not for search engines; crawlers may see the sign-in page and
 * nothing else (the respondent links, the API and every screen are disallowed). Served with or
 * without the SPA build, before its history fallback.
 */
export const ROBOTS_TXT = [
  "# Samplex back-office: not to be indexed but for its sign-in page",
  "User-agent: *",
  "Allow: /login$",
  "Disallow: /",
  "",
].join("\n");

export function mountRobotsTxt<E extends Env>(app: Hono<E>): void {
  app.get("/robots.txt", (c) => c.body(ROBOTS_TXT, 200, text(ROBOTS_TXT)));
}

/** How long a served security.txt is valid (RFC 9116 asks for less than a year). */
const SECURITY_TXT_DAYS = 180;

export type SecurityTxtOptions = {
  /** SECURITY_CONTACT (a URI); unset: security@ the public host. */
  contact?: string;
  /** SECURITY_POLICY_URL; unset: /.well-known/security-policy.txt of this server. */
  policyUrl?: string;
  /** PUBLIC_URL: the canonical origin; unset: the request's. */
  publicUrl?: string;
  now: () => number;
};

/**
 * `/.well-known/security.txt` (RFC 9116): Contact, Expires (always 180 days ahead of the answer),
 * Preferred-Languages, Canonical and Policy; and the short disclosure policy it points to by default.
 * Served with or without the SPA build.
 */
export function mountSecurityTxt<E extends Env>(app: Hono<E>, opts: SecurityTxtOptions): void {
  const originOf = (c: Context<E>) => {
    if (opts.publicUrl) return new URL(opts.publicUrl).origin;
    const url = new URL(c.req.url);
    const proto = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    return proto === "https" || proto === "http" ? `${proto}://${url.host}` : url.origin;
  };
  app.get("/.well-known/security.txt", (c) => {
    const origin = originOf(c);
    const host = new URL(origin).hostname;
    const expires = new Date(opts.now() + SECURITY_TXT_DAYS * 86_400_000);
    expires.setUTCMilliseconds(0);
    const body = [
      `Contact: ${opts.contact ?? `mailto:security@${host}`}`,
      `Expires: ${expires.toISOString().replace(".000Z", "Z")}`,
      "Preferred-Languages: en",
      `Canonical: ${origin}/.well-known/security.txt`,
      `Policy: ${opts.policyUrl ?? `${origin}/.well-known/security-policy.txt`}`,
      "",
    ].join("\n");
    return c.body(body, 200, text(body));
  });
  app.get("/.well-known/security-policy.txt", (c) => {
    const body = [
      "Samplex vulnerability disclosure policy",
      "",
      "Report a suspected vulnerability to the Contact of /.well-known/security.txt, with the steps to",
      "reproduce it. We answer within 5 working days and tell you when it is fixed.",
      "",
      "In scope: this server's web app, its /api/v1 calls and the respondent links under /survey.",
      "Please do not access or change other people's data beyond what shows the problem, do not run",
      "denial-of-service or volume tests, and give us 90 days before you publish.",
      "Good-faith research within these rules will not be pursued.",
      "",
    ].join("\n");
    return c.body(body, 200, text(body));
  });
}
