/** Vite 8 under Deno: `deno task build` writes web/dist, served by server/app.ts at "/". */
import { defineConfig, type Plugin } from "vite";
import tailwindcss from "@tailwindcss/vite";
import { precompress } from "../server/web-build.ts";

const webDir = new URL(".", import.meta.url).pathname;

/** Matches modules of the named npm packages (Deno's node_modules/.deno layout included). */
function nm(...packages: string[]): RegExp {
  const names = packages.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("/", "[\\\\/]"));
  // the package folder sits right under node_modules/ (npm) or under node_modules/.deno/<pkg@ver>/
  // node_modules/ (Deno); "any folder" there would also take @tiptap/react for react
  return new RegExp(
    `node_modules[\\\\/](?:\\.deno[\\\\/][^\\\\/]+[\\\\/]node_modules[\\\\/])?(?:${names.join("|")})[\\\\/]`,
  );
}

/** Radix pieces only menus, dialogs, popovers and selects need (not the sign-in page). */
const OVERLAY = [
  ...[
    "dialog",
    "alert-dialog",
    "dropdown-menu",
    "menu",
    "popover",
    "popper",
    "select",
    "focus-scope",
    "focus-guards",
    "dismissable-layer",
    "portal",
    "roving-focus",
    "collection",
    "arrow",
    "visually-hidden",
  ].map((n) => `@radix-ui/react-${n}`),
  "@radix-ui/number",
  "@floating-ui/core",
  "@floating-ui/dom",
  "@floating-ui/react-dom",
  "@floating-ui/utils",
  "react-remove-scroll",
  "react-remove-scroll-bar",
  "aria-hidden",
  "use-sidecar",
  "use-callback-ref",
  "react-style-singleton",
  "get-nonce",
  "detect-node-es",
  "tslib",
];
const overlay = nm(...OVERLAY);
const slot = nm("@radix-ui/react-slot", "@radix-ui/react-compose-refs");

/**
 * After the bundle is written: brotli and gzip copies of the text files, which the server sends to
 * clients that accept them (server/http/static.ts). Done once here, never per request.
 */
function precompressed(): Plugin {
  let outDir = "";
  return {
    name: "samplex-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir.startsWith("/")
        ? config.build.outDir
        : `${config.root}/${config.build.outDir}`;
    },
    async closeBundle() {
      const s = await precompress(outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      console.log(`precompressed ${s.files} files: ${kb(s.bytes)} -> br ${kb(s.br)}, gzip ${kb(s.gzip)}`);
    },
  };
}

export default defineConfig({
  root: webDir,
  base: "/",
  publicDir: "public",
  plugins: [tailwindcss(), precompressed()],
  oxc: {
    jsx: { runtime: "automatic", importSource: "react" },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        // Vendor groups by purpose, so the sign-in page does not download what only lists and
        // dialogs need (see tests/bench/web_size.ts).
        codeSplitting: {
          groups: [
            // first the code every screen shares, so no purpose group below swallows it
            { name: "vendor-react", priority: 40, test: nm("react", "react-dom", "scheduler") },
            // Slot (buttons rendered as links) is needed everywhere, the rest of Radix is not
            { name: "vendor-slot", priority: 39, test: slot },
            {
              name: "vendor-radix",
              priority: 38,
              test: (id: string) => /[\\/]@radix-ui[\\/]/.test(id) && !overlay.test(id),
            },
            { name: "vendor-overlay", priority: 35, test: overlay },
            { name: "vendor-query", priority: 20, test: nm("@tanstack/query-core", "@tanstack/react-query") },
            {
              name: "vendor-table",
              priority: 20,
              test: nm(
                "@tanstack/table-core",
                "@tanstack/react-table",
                "@tanstack/store",
                "@tanstack/react-store",
              ),
            },
            {
              name: "vendor-form",
              priority: 20,
              test: nm("react-hook-form", "@hookform/resolvers", "valibot"),
            },
            // the rich-text editor, loaded only where a form has one: ProseMirror and TipTap apart,
            // so neither chunk crosses the size warning
            {
              name: "vendor-prosemirror",
              priority: 10,
              test:
                /node_modules[\\/](?:.*[\\/])?(?:prosemirror-[a-z-]+|orderedmap|rope-sequence|w3c-keyname|linkifyjs)[\\/]/,
            },
            { name: "vendor-tiptap", priority: 10, test: nm("@tiptap/core", "@tiptap/react", "@tiptap/pm") },
          ],
        },
      },
      onwarn(warning, warn) {
        // radix and sonner ship "use client" banners meant for server components; harmless here
        if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
        warn(warning);
      },
    },
  },
  server: { port: 5173, proxy: { "/api": "http://localhost:8000" } },
});
