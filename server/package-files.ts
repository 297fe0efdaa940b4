/**
 * The npm packages whose files the server and the CLI read at run time rather than import: data
 * (the ASN ranges, the world's geography) and fonts. No module graph shows them, so they are
 * declared here, once: the code reaches their files only through packageFile() and
 * readPackageJson() below, and the production image's deno.json (server/runtime-config.ts) keeps
 * every package named here. A test holds the code to that (tests/cli/runtime_files_test.ts).
 */
import { createRequire } from "node:module";

export const PACKAGES_READ = {
  /** Inter (woff) for the progress image: satori lays text out with the font's own bytes. */
  font: "@fontsource/inter",
  /** Noto Sans (woff, split by Unicode range) for the invoice and PO PDFs: server/domain/accounts/pdf-fonts.ts. */
  pdfLatin: "@fontsource/noto-sans",
  pdfDevanagari: "@fontsource/noto-sans-devanagari",
  pdfJapanese: "@fontsource/noto-sans-jp",
  pdfChinese: "@fontsource/noto-sans-sc",
  pdfKorean: "@fontsource/noto-sans-kr",
  /** IP ranges by autonomous system (CSV), for the router's hosting/VPN check. */
  asn: "@ip-location-db/asn",
  /** Countries, regions and cities (JSON), read on first use instead of the package's own entry. */
  geography: "country-state-city",
} as const;

export type PackageRead = typeof PACKAGES_READ[keyof typeof PACKAGES_READ];

const require = createRequire(import.meta.url);

/** The absolute path of `file` inside `pkg` as installed (node_modules), found the way Node would. */
export function packageFile(pkg: PackageRead, file: string): string {
  return require.resolve(`${pkg}/package.json`).replace(/package\.json$/, file);
}

/** A JSON file of one of those packages, parsed. */
export function readPackageJson<T>(pkg: PackageRead, file: string): T {
  return JSON.parse(Deno.readTextFileSync(packageFile(pkg, file))) as T;
}
